#!/usr/bin/python3
"""What border ratio does a flock with NO density gradient give, in the preset's own shape? (issue 24,
round s17 `model18`.)

    tools/border_null.py --states DIR [--draws 3] [--seed 17]

DIR holds murmur --export states (e.g. `murmur --preset starling --boids 2000 --seed 1001 --steps 2500
--export DIR/2000_1001.csv`; tools/order_probe.py's runner writes the same names). For the biggest
group of each state (10 m links, as the page) it prints the page's border ratio (docs/murmuration.md:
the outer 20% of the birds by the normalised radius rho are the border; ratio = their mean
nearest-neighbour distance over the others') for

  murmur      the state itself
  poisson     as many uniform random points, filling the group's convex hull (no exclusion)
  hardcore    uniform in the same hull, every pair at least 0.85 mean spacings apart (random sequential
              addition: a liquid-like packing, as separation makes; mean spacing = (hull volume / m)^(1/3))
  flattened   the same birds with the density gradient taken out: each bird keeps its direction from
              the centre in the principal frame, and its rho is remapped so that the birds' rho fill the
              ellipsoid uniformly (rho' = rho_max (rank / m)^(1/3)); local order survives, the radial
              profile does not
  skin x2     hardcore, the outer 20% of the hull's volume (by rho) twice as dense as the rest

and, per fifth of rho (q1 the core, q5 the outer fifth), the mean nearest-neighbour distance of the state
and of the hardcore packing. The hypothesis it tests (brief s16/model18): a uniform random packing already
gives about 2^(1/3) = 1.26 for border birds, since half of a surface bird's neighbourhood is empty.
numpy + scipy.
"""
import argparse
import glob
import os
import sys

import numpy as np
from scipy.spatial import ConvexHull, Delaunay, cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import order_probe as op  # noqa: E402
from border_rule_check import page_border, ratio, rho_of  # noqa: E402


def nn_of(p):
    d, _ = cKDTree(p).query(p, k=2)
    return d[:, 1]


def fifths(p, nn):
    r = rho_of(p)
    q = np.quantile(r, [0.2, 0.4, 0.6, 0.8])
    b = np.digitize(r, q)
    return [nn[b == k].mean() for k in range(5)]


def in_hull(p):
    """a sampler of uniform points in the convex hull of p"""
    hull = ConvexHull(p)
    tri = Delaunay(p[hull.vertices])
    lo, hi = p.min(0), p.max(0)

    def draw(rng, n):
        out, got = [], 0
        while got < n:
            q = rng.uniform(lo, hi, size=(max(4 * n, 1000), 3))
            q = q[tri.find_simplex(q) >= 0]
            out.append(q)
            got += len(q)
        return np.concatenate(out)[:n]
    return draw, hull.volume


def hardcore(rng, draw, n, dmin_of):
    """random sequential addition: candidates from draw, each kept if no kept point lies closer than
    dmin_of(candidate); the tree is rebuilt every 256 points and the newer ones are checked directly."""
    pts = np.zeros((0, 3))
    tree, tries = None, 0
    while len(pts) < n and tries < 300 * n:
        for q in draw(rng, 4000):
            tries += 1
            dm = dmin_of(q)
            if tree is not None and tree.query(q, k=1)[0] < dm:
                continue
            tail = pts[len(tree.data):] if tree is not None else pts
            if len(tail) and np.min(np.linalg.norm(tail - q, axis=1)) < dm:
                continue
            pts = np.vstack([pts, q])
            if len(pts) % 256 == 0:
                tree = cKDTree(pts)
            if len(pts) >= n:
                break
    return pts


def flattened(p):
    pc = p - p.mean(0)
    ew, ev = np.linalg.eigh(np.cov(pc.T))
    w = (pc @ ev) / np.sqrt(ew)
    r = np.linalg.norm(w, axis=1)
    order = np.argsort(r, kind="stable")
    rank = np.empty(len(p))
    rank[order] = (np.arange(len(p)) + 0.5) / len(p)
    rn = r.max() * rank ** (1 / 3)
    w = w * (rn / np.maximum(r, 1e-12))[:, None]
    return (w * np.sqrt(ew)) @ ev.T


def profile(a):
    print("state | m | ratio | NN q1..q5 (m) | q5 radial^2 of the NN direction")
    for f in sorted(glob.glob(os.path.join(a.states, "*.csv"))):
        p, _ = op.load(f)
        p = p[op.biggest(p)]
        d, j = cKDTree(p).query(p, k=2)
        u = p[j[:, 1]] - p
        u /= np.linalg.norm(u, axis=1)[:, None]
        pc = p - p.mean(0)
        ew, ev = np.linalg.eigh(np.cov(pc.T))
        # the outward normal of the rho level set at the bird: grad rho^2 = C^-1 pc
        nrm = ((pc @ ev) / ew) @ ev.T
        nrm /= np.linalg.norm(nrm, axis=1)[:, None]
        r = rho_of(p)
        q5 = r > np.quantile(r, 0.8)
        rad2 = (np.einsum("nc,nc->n", u, nrm) ** 2)[q5].mean()
        print("%-22s | %5d | %.3f | %s | %.3f" % (os.path.basename(f), len(p), ratio(p, page_border(p)),
                                                  " ".join("%.2f" % x for x in fifths(p, d[:, 1])), rad2), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", required=True)
    ap.add_argument("--draws", type=int, default=3)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--profile", action="store_true",
                    help="no null flocks: per state its ratio, NN per fifth of rho, and the outer fifth's nearest "
                    "neighbour direction (mean square projection on the outward radius in the whitened frame; 1/3 if isotropic)")
    a = ap.parse_args()
    if a.profile:
        return profile(a)
    rng = np.random.default_rng(a.seed)
    print("state | m | murmur | poisson (hull) | hardcore (hull) | flattened | skin x2 (hull) "
          "| NN q1..q5 murmur (m) | NN q1..q5 hardcore (m)   [random ones: mean over %d draws]" % a.draws)
    for f in sorted(glob.glob(os.path.join(a.states, "*.csv")),
                    key=lambda x: [int(y) for y in os.path.basename(x)[:-4].split("_")]):
        p, _ = op.load(f)
        p = p[op.biggest(p)]
        m = len(p)
        draw, vol = in_hull(p)
        spacing = (vol / m) ** (1 / 3)
        r_murmur = ratio(p, page_border(p))
        po, hc, sk, hq = [], [], [], []
        # the skin: the outer 20% of the hull's volume by rho (rho of points uniform in the hull)
        ref = draw(rng, 20000)
        pc = p.mean(0)
        ew, ev = np.linalg.eigh(np.cov((ref - ref.mean(0)).T))
        rr = lambda q: np.sqrt(((((q - ref.mean(0)) @ ev) ** 2) / ew).sum(-1))  # noqa: E731
        s_cut = np.quantile(rr(ref), 0.8)
        core_n = m / (1 + 0.25 * 2.0)
        a_core = (vol * 0.8 / core_n) ** (1 / 3)
        for _ in range(a.draws):
            q = draw(rng, m)
            po.append(ratio(q, page_border(q)))
            h = hardcore(rng, draw, m, lambda x: 0.85 * spacing)
            hc.append(ratio(h, page_border(h)))
            hq.append(fifths(h, nn_of(h)))
            s = hardcore(rng, draw, m, lambda x: 0.85 * a_core / (2.0 ** (1 / 3) if rr(x) > s_cut else 1.0))
            sk.append(ratio(s, page_border(s)))
        fl = flattened(p)
        del pc
        print("%-14s | %5d | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %s" % (
            os.path.basename(f), m, r_murmur, np.mean(po), np.mean(hc), ratio(fl, page_border(fl)), np.mean(sk),
            " ".join("%.2f" % x for x in fifths(p, nn_of(p))),
            " ".join("%.2f" % x for x in np.mean(hq, 0))), flush=True)


if __name__ == "__main__":
    main()
