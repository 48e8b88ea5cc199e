#!/usr/bin/env python3
"""The pieces of a split flock (issue 24, thirteenth round): for each exported state, up to 6 groups
(link 10 m, src/sim/shape.c's rule) holding 2% of the birds or more, each with its size, centre (m),
mean heading (deg), polarisation and thickness (m, the smallest principal axis), and the gap between
the two biggest (their closest birds, and its vertical part).

    /usr/bin/python3 tools/split_groups.py STATE.csv [STATE.csv ...]

numpy and scipy; tools/split_probe.py's reader and groups.
"""
import os
import sys

import numpy as np
from scipy.spatial import cKDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from split_probe import groups, heading, read  # noqa: E402


def main():
    for f in sys.argv[1:]:
        p, v = read(f)
        lab = groups(p)
        cnt = np.bincount(lab)
        big = np.argsort(-cnt)
        out = []
        for g in big[:6]:
            if cnt[g] < 0.02 * len(p):
                break
            m = lab == g
            u = v[m] / np.linalg.norm(v[m], axis=1)[:, None]
            c = p[m].mean(0)
            out.append("%4d @(%5.0f %4.0f %5.0f) hd %4.0f pol %.2f thick %.1f" % (
                cnt[g], c[0], c[1], c[2], heading(v[m].mean(0)), np.linalg.norm(u.mean(0)),
                np.sqrt(np.linalg.eigvalsh(np.cov(p[m].T))[0])))
        gap = ""
        if len(big) > 1 and cnt[big[1]] >= 0.02 * len(p):
            a, b = p[lab == big[0]], p[lab == big[1]]
            d, i = cKDTree(a).query(b)
            j = d.argmin()
            gap = "gap %.1f m (dy %+.1f)" % (d.min(), (b[j] - a[i[j]])[1])
        print(os.path.basename(f), gap, " | ".join(out))


if __name__ == "__main__":
    main()
