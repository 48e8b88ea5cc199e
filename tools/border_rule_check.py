#!/usr/bin/python3
"""Is the page's border rule sound? (issue 24, round s6 `tight`.)

    tools/border_rule_check.py [--states DIR]

docs/murmuration.md's border/interior ratio marks as border the 20% of a group's birds with the
largest normalised radius rho (distance from the centre along each principal axis divided by that
axis' standard deviation; src/sim/shape.c mur_shape_border, shape_ref.border_flags) and divides their
mean nearest-neighbour distance by the others'. This script applies the same rule to constructed
flocks whose density is known to be UNIFORM (so the "right" answer is a border exactly as dense as the
interior) and to flocks with a denser skin, in an ellipsoid of the field's proportions 1 : 2.8 : 5.6:

  poisson     uniform random points (no exclusion)
  hardcore    uniform, every pair at least 0.85 of the mean spacing apart (random sequential
              addition: a liquid-like packing, as separation makes)
  skin x2     hardcore, the outer 20% of the volume (by rho) twice as dense as the rest

and prints the ratio per N (mean over 5 random flocks). With --states DIR (murmur --export CSVs, e.g.
from tools/density_probe.py --states DIR) it also prints each state's ratio and, for comparison, the
ratio with a border of the convex hull's vertices (scipy ConvexHull). numpy + scipy.
"""
import argparse
import glob
import os
import sys

import numpy as np
from scipy.spatial import ConvexHull, cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rho_of(p):
    pc = p - p.mean(0)
    ew, ev = np.linalg.eigh(np.cov(pc.T))
    return np.sqrt(((pc @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))


def ratio(p, border):
    d, _ = cKDTree(p).query(p, k=2)
    nn = d[:, 1]
    return nn[border].mean() / nn[~border].mean()


def page_border(p, frac=0.2):
    r = rho_of(p)
    nb = int(np.ceil(frac * len(p) - 1e-9))
    b = np.zeros(len(p), bool)
    b[np.argsort(-r, kind="stable")[:nb]] = True
    return b


def hull_border(p):
    b = np.zeros(len(p), bool)
    b[ConvexHull(p).vertices] = True
    return b


AX = np.array([1.0, 2.8, 5.6])


def in_ellipsoid(rng, n):
    out = []
    while sum(len(x) for x in out) < n:
        q = rng.uniform(-1, 1, size=(4 * n, 3))
        out.append(q[(q ** 2).sum(1) <= 1])
    return np.concatenate(out)[:n] * AX


def poisson(rng, n):
    return in_ellipsoid(rng, n)


def hardcore(rng, n, skin=1.0):
    """random sequential addition in the ellipsoid; the outer shell (ellipsoidal radius > s, 20% of
    the volume) gets `skin` times the density of the core by a smaller exclusion distance there."""
    s = 0.8 ** (1 / 3)
    vol = 4 / 3 * np.pi * AX.prod()
    ncore = n / (1 + 0.2 / 0.8 * skin)
    a = (vol * 0.8 / ncore) ** (1 / 3)  # mean spacing in the core
    dmin_core, dmin_skin = 0.85 * a, 0.85 * a / skin ** (1 / 3)
    scale = 1.0
    pts = np.zeros((0, 3))
    tree = None
    tries = 0
    while len(pts) < n and tries < 200 * n:
        c = in_ellipsoid(rng, 2000) * scale
        for q in c:
            tries += 1
            er = np.sqrt(((q / (AX * scale)) ** 2).sum())
            dm = dmin_skin if er > s else dmin_core
            if tree is not None and tree.query(q, k=1)[0] < dm:
                continue
            if len(pts) and tree is None:
                if np.min(np.linalg.norm(pts - q, axis=1)) < dm:
                    continue
            pts = np.vstack([pts, q])
            if len(pts) % 64 == 0:
                tree = cKDTree(pts)
            elif tree is not None:
                # the tree lags up to 63 points: check those directly
                tail = pts[len(tree.data):-1]
                if len(tail) and np.min(np.linalg.norm(tail - q, axis=1)) < dm:
                    pts = pts[:-1]
                    continue
            if len(pts) >= n:
                break
    return pts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--states")
    a = ap.parse_args()
    rng = np.random.default_rng(24)
    print("constructed flock | N | page rule (20%% by rho) | convex-hull vertices   (mean of %d)" % a.reps)
    for name, make in (("poisson", poisson), ("hardcore", hardcore),
                       ("skin x2", lambda r, n: hardcore(r, n, 2.0))):
        for n in [int(x) for x in a.sizes.split(",")]:
            pr, hr = [], []
            for _ in range(a.reps):
                p = make(rng, n)
                pr.append(ratio(p, page_border(p)))
                hr.append(ratio(p, hull_border(p)))
            print("%-10s | %5d | %.3f ± %.3f | %.3f ± %.3f" % (name, n, np.mean(pr), np.std(pr), np.mean(hr),
                                                              np.std(hr)), flush=True)
    if a.states:
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        import order_probe as op
        print("murmur state | biggest group | page rule | convex hull")
        for f in sorted(glob.glob(os.path.join(a.states, "*.csv"))):
            p, _ = op.load(f)
            p = p[op.biggest(p)]
            print("%-14s | %5d | %.3f | %.3f" % (os.path.basename(f), len(p), ratio(p, page_border(p)),
                                                 ratio(p, hull_border(p))))


if __name__ == "__main__":
    main()
