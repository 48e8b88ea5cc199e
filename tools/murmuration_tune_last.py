#!/usr/bin/env python3
"""The tuning lines of tools/murmuration_tune.py from what a stopped run left behind: for each
configuration folder (the tune run's temporary tune-*/NAME), the last snapshot of every (N, seed) it
finished, measured with build/tests/shape_tool. One snapshot per seed instead of three, so rougher;
each seed's mid/thin, long/thin and thin-axis angle are listed on their own.

    tools/murmuration_tune_last.py /tmp/tune-XXXX/NAME [...]
"""
import csv
import glob
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "murmuration"))
import run as mrun  # noqa: E402

TOOL = os.path.join(ROOT, "build", "tests", "shape_tool")


def main():
    for d in sys.argv[1:]:
        by = {}
        for st in sorted(glob.glob(os.path.join(d, "starling-*-*.csv"))):
            if st.endswith(".metrics.csv") or st.endswith(".next.csv"):
                continue
            n = int(st.split("-")[-2])
            # the preset's link (10 wu) and speed limits (2, 30 m/s)
            out = mrun.run([TOOL, st, "10.0", "2.0", "30.0"])
            r = mrun.derived({k: float(v) for k, v in next(csv.DictReader(out.splitlines())).items()})
            by.setdefault(n, []).append(r)
        for n in sorted(by):
            rs = by[n]
            m = lambda k: statistics.fmean([x[k] for x in rs])  # noqa: E731
            print("%-6s N=%-5d (%d seeds, last snapshot) m/t %s  l/t %s  ang %s  pol %.3f sp %.2f bord %.2f g1 %.2f "
                  "g7-10 %.2f xi/L %.3f grp %.2f" % (
                      os.path.basename(d), n, len(rs), " ".join("%.2f" % x["mid/thin"] for x in rs),
                      " ".join("%.1f" % x["long/thin"] for x in rs), " ".join("%.0f" % x["thin_angle_deg"] for x in rs),
                      m("group_polarisation"), m("speed_mean"), m("border_ratio"), m("gamma1"),
                      statistics.fmean([x["gamma%d" % k] for x in rs for k in range(7, 11)]),
                      m("corr_len/flock_size"), m("group_size") / n))


if __name__ == "__main__":
    main()
