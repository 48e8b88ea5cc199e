#!/usr/bin/python3
"""Why is gamma(7-10) near 0? (issue 24, round s7 `shape7`.)

    tools/gamma_probe.py --sizes 500,2000,8000 --seeds 1001,1002,1003 [--set k=v ...] [--murmur PATH]
                         [--states DIR] [--reps 5]

docs/murmuration.md's gamma(k) (Ballerini et al. 2008; src/sim/shape.c mur_shape_gamma, shape_ref.gamma):
for each focal bird the unit vector u to its k-th nearest neighbour, M_k = mean of u u^T, W_k the
eigenvector of M_k's smallest eigenvalue, gamma_k = (W_k . V)^2 with V the group's mean direction.
The page's border correction drops the outer 20% of the group by the normalised radius rho as focal
birds. Ballerini et al. used Hanisch's correction instead: a bird is focal for k only if its k-th
neighbour is closer than the flock's border (here the convex hull of the group).

For each exported starling state (the biggest group, as the page) this prints, per k:
  page     gamma with the page's correction (what docs/murmuration.md reports)
  hanisch  gamma with Hanisch's correction (focal: k-th neighbour distance < distance to the hull)
  and the eigenvalues of M_k (page rule) and the mean |u . V| and |u . thin axis| (0.5 if isotropic)
and the same for constructed flocks in the SAME ellipsoid (the group's centre, principal axes and
extents, so its proportions; the same number of birds; the same V), whose structure is isotropic so the
right answer is 1/3 on average:
  poisson   uniform random points
  hardcore  uniform, every pair at least 0.85 of the mean spacing apart (a liquid-like packing)
  lattice   an fcc lattice of the same density, randomly rotated and jittered, cut to the ellipsoid
(each the mean over --reps random flocks; --only-murmur skips them). Per k it also prints the mean
|u . x| of the k-th neighbour's unit vector u along V (uv), the horizontal side axis (uside), the up
axis perpendicular to V (uup) and the group's thin axis (uthin) (each 0.5 if isotropic), M_k's smallest
eigenvalue (lam; 1/3 if isotropic) and how W lies: |W . up| (wup) and |W . thin axis| (wthin).
numpy + scipy.
"""
import os
import sys
import tempfile

import numpy as np
from scipy.spatial import ConvexHull, cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import order_probe as op  # noqa: E402

KMAX = 10


def frame(p):
    c = p.mean(0)
    pc = p - c
    ew, ev = np.linalg.eigh(np.cov(pc.T))  # ascending: ev[:, 0] is the thin axis
    return c, ew, ev


def page_border(p, frac=0.2):
    c, ew, ev = frame(p)
    rho = np.sqrt((((p - c) @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))
    nb = int(np.ceil(frac * len(p) - 1e-9))
    b = np.zeros(len(p), bool)
    b[np.argsort(-rho, kind="stable")[:nb]] = True
    return b


def hull_depth(p):
    """each point's distance to the convex hull's surface (>= 0 inside)."""
    h = ConvexHull(p)
    return np.maximum(-(p @ h.equations[:, :3].T + h.equations[:, 3]).max(1), 0.0)


def gamma_of(p, vhat, focal_sets):
    """gamma(k), eigenvalues of M_k, mean |u.V|, mean |u.thin| for k = 1..KMAX; focal_sets[k-1] a mask."""
    d, idx = cKDTree(p).query(p, k=KMAX + 1)
    d, idx = d[:, 1:], idx[:, 1:]
    u = (p[idx] - p[:, None, :]) / np.maximum(d, 1e-12)[:, :, None]
    _, _, ev = frame(p)
    thin = ev[:, 0]
    out = []
    for k in range(KMAX):
        f = focal_sets(k, d) if callable(focal_sets) else focal_sets
        uk = u[f, k]
        if len(uk) < 3:
            out.append((float("nan"), (np.nan,) * 3, np.nan, np.nan, len(uk), np.nan, np.nan, np.nan, np.nan))
            continue
        m = uk.T @ uk / len(uk)
        w, vec = np.linalg.eigh(m)
        side = np.cross(vhat, [0.0, 1.0, 0.0])
        side /= np.linalg.norm(side)
        up = np.cross(side, vhat)
        out.append(((vec[:, 0] @ vhat) ** 2, tuple(w), np.abs(uk @ vhat).mean(), np.abs(uk @ thin).mean(), len(uk),
                    np.abs(uk @ side).mean(), np.abs(uk @ up).mean(), abs(vec[:, 0] @ up), abs(vec[:, 0] @ thin)))
    return out


def both(p, vhat):
    page = gamma_of(p, vhat, ~page_border(p))
    depth = hull_depth(p)
    han = gamma_of(p, vhat, lambda k, d: d[:, k] < depth)
    return page, han


def in_frame(c, ew, ev, q):
    """unit-ball points q -> the ellipsoid of a uniform flock with the same covariance."""
    return c + (q * np.sqrt(5.0 * ew)) @ ev.T


def ball(rng, n):
    out = []
    while sum(len(x) for x in out) < n:
        q = rng.uniform(-1, 1, size=(4 * n, 3))
        out.append(q[(q ** 2).sum(1) <= 1])
    return np.concatenate(out)[:n]


def poisson(rng, c, ew, ev, n):
    return in_frame(c, ew, ev, ball(rng, n))


def hardcore(rng, c, ew, ev, n):
    vol = 4 / 3 * np.pi * np.prod(np.sqrt(5.0 * ew))
    dmin = 0.85 * (vol / n) ** (1 / 3)
    pts = np.zeros((0, 3))
    tree = None
    tries = 0
    while len(pts) < n and tries < 300 * n:
        for q in poisson(rng, c, ew, ev, 2000):
            tries += 1
            if tree is not None and tree.query(q, k=1)[0] < dmin:
                continue
            tail = pts[len(tree.data):] if tree is not None else pts
            if len(tail) and np.min(np.linalg.norm(tail - q, axis=1)) < dmin:
                continue
            pts = np.vstack([pts, q])
            if len(pts) % 64 == 0:
                tree = cKDTree(pts)
            if len(pts) >= n:
                break
    return pts


def lattice(rng, c, ew, ev, n):
    ax = np.sqrt(5.0 * ew)
    vol = 4 / 3 * np.pi * np.prod(ax)
    a = (4 * vol / n) ** (1 / 3)  # fcc: 4 points per cube of side a
    r = ax.max() * 1.01
    g = np.arange(-np.ceil(r / a) - 1, np.ceil(r / a) + 2) * a
    base = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    pts = np.concatenate([base + o for o in (np.zeros(3), [0, a / 2, a / 2], [a / 2, 0, a / 2], [a / 2, a / 2, 0])])
    qr, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    # jittered by 5% of the cell: an fcc lattice's 12 nearest are equidistant, so the k-th of them would
    # otherwise be picked by rounding
    pts = pts @ qr + rng.uniform(0, a, 3) + rng.normal(scale=0.05 * a, size=pts.shape)
    loc = pts @ np.eye(3)  # in the principal frame
    keep = ((loc / ax) ** 2).sum(1) <= 1
    return c + loc[keep] @ ev.T


# fmt's columns: each name picks one field of a row (a row: gamma, eigenvalues, |u.V|, |u.thin|, focal
# birds, |u.side|, |u.up|, |W.up|, |W.thin|)
FIELDS = {"gamma": lambda r: r[0], "uv": lambda r: r[2], "uthin": lambda r: r[3], "lam": lambda r: r[1][0],
          "uside": lambda r: r[5], "uup": lambda r: r[6], "wup": lambda r: r[7], "wthin": lambda r: r[8]}


def fmt(rows, what):
    if what == "focal":
        return " ".join("%5d" % r[4] for r in rows)
    if what not in FIELDS:
        raise ValueError(what)
    return " ".join("%5.3f" % FIELDS[what](r) for r in rows)


def mean_rows(list_of_rows):
    out = []
    for k in range(KMAX):
        g = np.nanmean([r[k][0] for r in list_of_rows])
        lam = tuple(np.nanmean([r[k][1][j] for r in list_of_rows]) for j in range(3))
        out.append((g, lam, np.nanmean([r[k][2] for r in list_of_rows]), np.nanmean([r[k][3] for r in list_of_rows]),
                    int(np.mean([r[k][4] for r in list_of_rows])))
                   + tuple(np.nanmean([r[k][j] for r in list_of_rows]) for j in (5, 6, 7, 8)))
    return out


def main():
    reps = 5
    only = "--only-murmur" in sys.argv
    if only:
        sys.argv.remove("--only-murmur")
    if "--reps" in sys.argv:
        i = sys.argv.index("--reps")
        reps = int(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    a = op.probe_args(__doc__, "500,2000,8000", "read/write DIR/N_SEED.csv")
    tmp = a.states or tempfile.mkdtemp(prefix="gamma-probe-")
    os.makedirs(tmp, exist_ok=True)
    rng = np.random.default_rng(24)
    print("k = 1..%d per row; 'page' = the page's correction (outer 20%% by rho not focal), 'hanisch' ="
          " Ballerini's (focal if the k-th neighbour is closer than the convex hull)" % KMAX)
    summary = {}
    for n in [int(x) for x in a.sizes.split(",")]:
        for seed in [int(x) for x in a.seeds.split(",")]:
            p, v = op.load(op.state(a, tmp, n, seed))
            g = op.biggest(p)
            p, v = p[g], v[g]
            vhat = v.mean(0) / np.linalg.norm(v.mean(0))
            c, ew, ev = frame(p)
            ext = 2 * np.sqrt(3 * ew)
            print("\n%d seed %d: group %d, thin/mid/long %.1f/%.1f/%.1f m, NN %.2f m, thin axis.V %.2f" % (
                n, seed, len(p), ext[0], ext[1], ext[2], cKDTree(p).query(p, k=2)[0][:, 1].mean(), abs(ev[:, 0] @ vhat)))
            res = {"murmur": both(p, vhat)}
            for name, make in () if only else (("poisson", poisson), ("hardcore", hardcore), ("lattice", lattice)):
                reps_n = reps if name != "hardcore" or len(p) <= 4000 else 1
                rr = [both(make(rng, c, ew, ev, len(p)), vhat) for _ in range(reps_n)]
                res[name] = (mean_rows([x[0] for x in rr]), mean_rows([x[1] for x in rr]))
            for name, (pg, hn) in res.items():
                print("  %-8s page    gamma %s" % (name, fmt(pg, "gamma")))
                print("  %-8s hanisch gamma %s" % (name, fmt(hn, "gamma")))
                print("  %-8s hanisch focal %s" % (name, fmt(hn, "focal")))
                for lab, rows in (("page", pg), ("hanisch", hn)):
                    for what in ("uv", "uside", "uup", "uthin", "lam", "wup", "wthin"):
                        print("  %-8s %-7s %6s %s" % (name, lab, what, fmt(rows, what)))
                summary.setdefault((n, name), []).append((pg, hn))
            sys.stdout.flush()
    print("\nmeans over seeds: max |gamma(k) - 1/3| for k = 7-10, and gamma(1), page / hanisch")
    for (n, name), lst in summary.items():
        pg = mean_rows([x[0] for x in lst])
        hn = mean_rows([x[1] for x in lst])
        mp = max(abs(pg[k][0] - 1 / 3) for k in range(6, 10))
        mh = max(abs(hn[k][0] - 1 / 3) for k in range(6, 10))
        uv, us, uu = (np.mean([hn[k][j] for k in range(2, 10)]) for j in (2, 5, 6))
        print("%5d %-8s | gamma(7-10) page %s  hanisch %s | max dev %.3f / %.3f | gamma(1) %.3f / %.3f"
              " | k=3-10 hanisch |u.V| %.3f |u.side| %.3f |u.up| %.3f | k=1 |u.up| %.3f" % (
                  n, name, fmt(pg[6:], "gamma"), fmt(hn[6:], "gamma"), mp, mh, pg[0][0], hn[0][0], uv, us, uu, hn[0][6]))


if __name__ == "__main__":
    main()
