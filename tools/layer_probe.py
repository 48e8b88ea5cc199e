#!/usr/bin/python3
"""What spaces the border birds apart and what sets the layers? (issue 24, round s15 `model14`.)

    tools/layer_probe.py --sizes 2000 --seeds 1001,1002,1003 [--set k=v ...] [--states DIR]

Runs the starling preset (batch mode, --steps, --export; tools/order_probe.py's runner) on the TUNING
seeds and, for the biggest group of each exported state, splits every quantity by direction: along the
group's thin axis ("thin", near the vertical) and across it (in the flock's plane, "plane"). Per
quintile of the border rule's normalised radius rho (q5 the outermost fifth; tools/density_probe.py):

  nn      nearest-neighbour distance (m)
  nn_t    distance to the nearest neighbour within 45 deg of the thin axis (the next layer; m)
  nn_p    distance to the nearest neighbour within 45 deg of the plane (the same layer; m)
  C       centrality (length of the mean unit vector to the 7 seen neighbours)
  sep_t / sep_p   separation from the closest seen neighbour, away from the group's mid-plane along the
          thin axis / away from the centre in the plane (outward > 0, m/s2), as the rules compute it
  coh_t / coh_p   the centrality-weighted cohesion ramp, the same split
  eff     the thin parts after the weak pitch (times `pitch`; the roll ignored, the thin axis taken as
          the body's up axis, which the median tilt of 6-13 deg makes nearly so)

plus, per group, the thin / mid / long extent (twice the standard deviation along each principal axis)
and the ratio nn_t / nn_p over all birds; per N, for the inner three fifths, the mean square
projection of the unit vector to the k-th nearest neighbour (k = 1..10) on the thin axis and on the
bird's flight direction and on the long axis (1/3 each for an isotropic neighbourhood), and the same
for uniform random points in the ellipsoid of each group's covariance (inner 3/5 by that radius). numpy + scipy.
"""
import os
import sys
import tempfile

import numpy as np
from scipy.spatial import cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import order_probe as op  # noqa: E402


def layer_distances(p, thin, k=30):
    """nearest neighbour within 45 deg of the thin axis and within 45 deg of the plane."""
    tree = cKDTree(p)
    d, idx = tree.query(p, k=k + 1)
    d, idx = d[:, 1:], idx[:, 1:]
    c = np.abs(np.einsum("nkc,c->nk", p[idx] - p[:, None, :], thin)) / np.maximum(d, 1e-9)
    big = 1e9
    nt = np.where(c >= np.sqrt(0.5), d, big).min(1)
    npl = np.where(c < np.sqrt(0.5), d, big).min(1)
    return np.where(nt < big, nt, np.nan), np.where(npl < big, npl, np.nan)


def main():
    a = op.probe_args(__doc__, "2000", "read/write DIR/N_SEED.csv")
    q = op.params(a.set)
    pitch = 0.03
    for kv in a.set:
        if kv.startswith("pitch="):
            pitch = float(kv.split("=")[1])
    tmp = a.states or tempfile.mkdtemp(prefix="layer-probe-")
    os.makedirs(tmp, exist_ok=True)
    names = ["nn", "nn_t", "nn_p", "C", "sep_t", "sep_p", "coh_t", "coh_p", "eff_t"]
    print("N seed | group thin/mid/long m | nn_t/nn_p | per rho quintile q1..q5: " + " ".join(names))
    for n in [int(x) for x in a.sizes.split(",")]:
        acc, kacc = [], []
        for seed in [int(x) for x in a.seeds.split(",")]:
            p, v = op.load(op.state(a, tmp, n, seed))
            g = op.biggest(p)
            p, v = p[g], v[g]
            f = v / np.linalg.norm(v, axis=1)[:, None]
            pc = p - p.mean(0)
            ew, ev = np.linalg.eigh(np.cov(pc.T))
            thin = ev[:, 0]
            rho = np.sqrt(((pc @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))
            ext = [2 * np.sqrt(x) for x in ew]
            d, cen, sep, co = op.social_vectors(p, f, q)
            nt, npl = layer_distances(p, thin)
            side = np.sign(pc @ thin)  # away from the mid-plane along the thin axis: +
            inplane = pc - np.outer(pc @ thin, thin)
            rad = inplane / np.maximum(np.linalg.norm(inplane, axis=1), 1e-9)[:, None]
            sep_t = side * (sep @ thin)
            coh_t = side * (co @ thin)
            sep_p = np.einsum("nc,nc->n", sep, rad)
            coh_p = np.einsum("nc,nc->n", co, rad)
            band = np.digitize(rho, np.quantile(rho, [0.2, 0.4, 0.6, 0.8]))
            cols = []
            for b in range(5):
                k = band == b
                cols.append((d[k, 0].mean(), np.nanmean(nt[k]), np.nanmean(npl[k]), cen[k].mean(),
                             sep_t[k].mean(), sep_p[k].mean(), coh_t[k].mean(), coh_p[k].mean(),
                             pitch * (sep_t[k] + coh_t[k]).mean()))
            acc.append(cols)
            dk, ik = cKDTree(p).query(p, k=11)
            uk = (p[ik[:, 1:]] - p[:, None, :]) / np.maximum(dk[:, 1:], 1e-9)[:, :, None]
            inner = band <= 2
            ct2 = (np.einsum("nkc,c->nk", uk[inner], thin) ** 2).mean(0)
            cf2 = (np.einsum("nkc,nc->nk", uk[inner], f[inner]) ** 2).mean(0)
            # the same for uniform random points in the ellipsoid of the group's covariance, flight = long axis
            rng = np.random.default_rng(seed)
            x = rng.normal(size=(4 * len(p), 3))
            x = x / np.linalg.norm(x, axis=1)[:, None] * rng.random(4 * len(p))[:, None] ** (1 / 3)
            x = x[:len(p)] * np.sqrt(5 * ew)
            rr = np.sqrt((x ** 2 / ew).sum(1))
            di, ii = cKDTree(x).query(x, k=11)
            ux = (x[ii[:, 1:]] - x[:, None, :]) / np.maximum(di[:, 1:], 1e-9)[:, :, None]
            inr = rr <= np.quantile(rr, 0.6)
            rt2 = (ux[inr][:, :, 0] ** 2).mean(0)
            rl2 = (ux[inr][:, :, 2] ** 2).mean(0)
            cl2 = (np.einsum("nkc,c->nk", uk[inner], ev[:, 2]) ** 2).mean(0)
            kacc.append((ct2, cf2, rt2, rl2, cl2))
            print("%5d %d | %4d %5.1f %5.1f %5.1f | %4.2f | " % (
                n, seed, len(p), ext[0], ext[1], ext[2], np.nanmean(nt) / np.nanmean(npl))
                + "  ".join(" ".join("%+5.2f" % x for x in c) for c in cols))
        mcols = np.mean(np.array(acc), axis=0)
        print("%5d mean" % n, " " * 29, "  ".join(" ".join("%+5.2f" % x for x in c) for c in mcols))
        kc = np.mean(np.array(kacc), axis=0)
        print("%5d inner 3/5, k = 1..10: <(u_k . thin)^2> %s (isotropic 0.333)" % (n, " ".join("%.3f" % x for x in kc[0])))
        print("%5d inner 3/5, k = 1..10: <(u_k . flight)^2> %s" % (n, " ".join("%.3f" % x for x in kc[1])))
        print("%5d inner 3/5, k = 1..10: <(u_k . long)^2> %s" % (n, " ".join("%.3f" % x for x in kc[4])))
        print("%5d random points, same ellipsoid, thin: %s" % (n, " ".join("%.3f" % x for x in kc[2])))
        print("%5d random points, same ellipsoid, long: %s" % (n, " ".join("%.3f" % x for x in kc[3])))


if __name__ == "__main__":
    main()
