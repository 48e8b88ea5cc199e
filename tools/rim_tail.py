#!/usr/bin/python3
"""Is the outer fifth loose as a whole, or is its mean spacing a tail of stragglers? (issue 24, twenty-first
round `model23`.) On the states a tools/murmuration_tune.py run left behind (TUNE_DIR/NAME/starling-N-SEED.csv,
the last snapshot), the biggest group of each (10 m link) and the border rule's normalised radius rho split in
quintiles as tools/layer_probe.py does; per quintile q1 and q5: the mean and median nearest-neighbour distance,
and for q5 the share of birds whose nearest neighbour is 2 m or more away (the preset's separation radius) and
the mean over the others. One line per configuration (the means over the seeds).

    tools/rim_tail.py TUNE_DIR N NAME [NAME ...]
    tools/rim_tail.py --ratios TUNE_DIR N NAME [NAME ...]

With --ratios, instead: the border row's ratio on these states (the outer fifth's mean nearest neighbour over the
inner four fifths', as src/sim/shape.c computes it on each snapshot, here on the last one and the 10 m link's
group), the same ratio of medians, and of means without the birds whose nearest neighbour is 2 m or more away.
"""
import glob
import os
import sys

import numpy as np
from scipy.spatial import cKDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import order_probe as op  # noqa: E402


def one(path):
    p, _ = op.load(path)
    p = p[op.biggest(p)]
    pc = p - p.mean(0)
    ew, ev = np.linalg.eigh(np.cov(pc.T))
    rho = np.sqrt(((pc @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))
    band = np.digitize(rho, np.quantile(rho, [0.2, 0.4, 0.6, 0.8]))
    d = cKDTree(p).query(p, k=2)[0][:, 1]
    q1, q5 = d[band == 0], d[band == 4]
    near = q5[q5 < 2.0]
    return (q1.mean(), np.median(q1), q5.mean(), np.median(q5), (q5 >= 2.0).mean(), near.mean(),
            np.median(d[band == 3]))


def ratios(path):
    p, _ = op.load(path)
    p = p[op.biggest(p)]
    pc = p - p.mean(0)
    ew, ev = np.linalg.eigh(np.cov(pc.T))
    rho = np.sqrt(((pc @ ev) ** 2 / np.maximum(ew, 1e-30)).sum(1))
    outer = rho >= np.quantile(rho, 0.8)
    d = cKDTree(p).query(p, k=2)[0][:, 1]
    o, i = d[outer], d[~outer]
    return o.mean() / i.mean(), np.median(o) / np.median(i), o[o < 2.0].mean() / i[i < 2.0].mean()


def main():
    if sys.argv[1] == "--ratios":
        tune, n, names = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
        print("name       N      outer/inner: means | medians | means below 2 m")
        for name in names:
            files = sorted(f for f in glob.glob(os.path.join(tune, name, "starling-%d-*.csv" % n))
                           if not f.endswith((".metrics.csv", ".next.csv")))
            r = np.mean([ratios(f) for f in files], axis=0)
            print("%-10s %-6d %.3f | %.3f | %.3f  (%d seeds)" % (name, n, *r, len(files)))
        return
    tune, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    print("name       N      q1 mean median | q5 mean median | q5 share >= 2 m | q5 mean below 2 m | q4 median (m)")
    for name in names:
        files = sorted(f for f in glob.glob(os.path.join(tune, name, "starling-%d-*.csv" % n))
                       if not f.endswith((".metrics.csv", ".next.csv")))
        r = np.mean([one(f) for f in files], axis=0)
        print("%-10s %-6d %.2f %.2f | %.2f %.2f | %.3f | %.2f | %.2f  (%d seeds)" % (name, n, *r, len(files)))


if __name__ == "__main__":
    main()
