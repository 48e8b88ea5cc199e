#!/usr/bin/python3
"""Why is a small starling flock looser than a large one? (issue 24, round s6 `tight`.)

    tools/density_probe.py --sizes 500,2000,8000 --seeds 1001,1002,1003 [--set k=v ...] [--murmur PATH]

Runs the starling preset (batch mode, --steps, --export) on the TUNING seeds and, for the biggest
group of each exported state, prints by shell (quintiles of the border rule's normalised radius rho,
docs/murmuration.md: the distance from the centre along each principal axis divided by that axis'
standard deviation; q5 holds the outermost fifth): the nearest-neighbour distance, the centrality C
(length of the mean unit vector to the 7 nearest seen neighbours), and the mean radial (outward > 0)
acceleration of separation and of the centrality-weighted cohesion ramp, recomputed approximately
as in tools/order_probe.py; plus the speed, the group's extents and the share of birds beyond the
roost radius. numpy + scipy.
"""
import os
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import order_probe as op  # noqa: E402


def main():
    a = op.probe_args(__doc__, "500,2000,8000", "read/write DIR/N_SEED.csv")
    q = op.params(a.set)
    tmp = a.states or tempfile.mkdtemp(prefix="density-probe-")
    os.makedirs(tmp, exist_ok=True)
    print("N seed | group thin/mid/long m | speed | beyond roost | per rho quintile q1..q5: "
          "NN m, C, radial sep, radial coh (m/s2, outward > 0)")
    for n in [int(x) for x in a.sizes.split(",")]:
        acc = []
        for seed in [int(x) for x in a.seeds.split(",")]:
            p, v = op.load(op.state(a, tmp, n, seed))
            g = op.biggest(p)
            p, v = p[g], v[g]
            m = len(p)
            s = np.linalg.norm(v, axis=1)
            f = v / s[:, None]
            c = p.mean(0)
            pc = p - c
            ew, ev = np.linalg.eigh(np.cov(pc.T))
            rho = np.sqrt(((pc @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))
            ext = [np.ptp(pc @ ev[:, k]) for k in range(3)]
            d, cen, sep, co = op.social_vectors(p, f, q)
            rad = pc / np.maximum(np.linalg.norm(pc, axis=1), 1e-9)[:, None]
            rs = np.einsum("nc,nc->n", sep, rad)
            rcoh = np.einsum("nc,nc->n", co, rad)
            qs = np.quantile(rho, [0.2, 0.4, 0.6, 0.8])
            band = np.digitize(rho, qs)
            cols = []
            for b in range(5):
                k = band == b
                cols.append((d[k, 0].mean(), cen[k].mean(), rs[k].mean(), rcoh[k].mean()))
            acc.append(cols)
            print("%5d %d | %4d %5.1f %5.1f %5.1f | %5.2f | %.2f | " % (
                n, seed, m, ext[0], ext[1], ext[2], s.mean(), (np.hypot(p[:, 0], p[:, 2]) > q["roost_radius"]).mean())
                + "  ".join("%4.2f %4.2f %+5.2f %+5.2f" % x for x in cols))
        mcols = np.mean(np.array(acc), axis=0)
        print("%5d mean" % n, " " * 38, "  ".join("%4.2f %4.2f %+5.2f %+5.2f" % tuple(x) for x in mcols))


if __name__ == "__main__":
    main()
