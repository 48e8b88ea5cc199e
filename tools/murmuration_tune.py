#!/usr/bin/env python3
"""Tune the starling preset on the TUNING seeds only (docs/murmuration.md "Protocol"): every named
configuration (murmur --set pairs on top of --preset starling) at every N on its own, a few snapshots
per seed, one line per (configuration, N) with the issue-24 targets' statistics.

    tools/murmuration_tune.py --sizes 500,2000,8000 --seeds 1001,1002,1003 \\
        --config 'A:pitch=0.1,roost_vertical=0.0625' --config 'B:...'
        --config 'C:@1500:skin=30'   (skin 30 from tick 1500 of the settling run on)

Standard library only; reuses docs/murmuration/run.py's runner (murmur batch mode + build/tests/shape_tool).
"""
import argparse
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "murmuration"))
import run as mrun  # noqa: E402


def line(rows):
    d = [mrun.derived(r) for r in rows]
    med = lambda k: statistics.median([r[k] for r in d])  # noqa: E731
    mean = lambda k: statistics.fmean([r[k] for r in d])  # noqa: E731
    tilt10 = sum(r["thin_angle_deg"] > 10 for r in d) / len(d)
    g710 = statistics.fmean([r["gamma%d" % k] for r in d for k in range(7, 11)])
    return ("m/t %5.2f l/t %5.2f ang %4.1f tilt>10 %4.2f pol %5.3f nn %4.2f sp %5.2f cv %5.3f lim %5.3f "
            "bord %4.2f g1 %4.2f g7-10 %4.2f xi/L %5.3f grp %4.2f" % (
                mean("mid/thin"), mean("long/thin"), med("thin_angle_deg"), tilt10, mean("group_polarisation"),
                mean("nn"), mean("speed_mean"), mean("speed_cv"), mean("at_limit_frac"), mean("border_ratio"),
                mean("gamma1"), g710, mean("corr_len/flock_size"), mean("group_size") / d[0]["n"])) + hanisch(rows, d)


def hanisch(rows, d):
    """With Hanisch's gamma in the rows (run.py under a python with numpy and scipy): its gamma(1), the
    mean of gamma(7-10), the largest |gamma(k) - 1/3| for k = 7-10 (gamma(k) averaged over the snapshots first), and the count of
    missed issue-24 targets among the twelve this line shows (m/t, l/t, pol, nn, sp, cv, lim, bord,
    hg1, hg7-10, median tilt <= 25, tilted > 10 deg in >= 10%); '' without."""
    if not all("hgamma1" in r for r in rows):
        return ""
    hg = {k: statistics.fmean([r["hgamma%d" % k] for r in rows if r["hgamma%d" % k] >= 0] or [float("nan")])
          for k in range(1, 11)}
    dev = max(abs(hg[k] - 1 / 3) for k in range(7, 11))
    mean = lambda k: statistics.fmean([r[k] for r in d])  # noqa: E731
    ok = [2.0 <= mean("mid/thin") <= 3.6, 3.6 <= mean("long/thin") <= 7.6, mean("group_polarisation") >= 0.9,
          0.68 <= mean("nn") <= 1.51, 9 <= mean("speed_mean") <= 13, 0.03 <= mean("speed_cv") <= 0.2,
          mean("at_limit_frac") < 0.01, mean("border_ratio") < 1.0, hg[1] >= 0.6, dev <= 0.1,
          statistics.median([r["thin_angle_deg"] for r in d]) <= 25,
          sum(r["thin_angle_deg"] > 10 for r in d) / len(d) >= 0.1]
    return " hg1 %4.2f hg7-10 %4.2f hg7-10dev %5.3f miss %2d" % (
        hg[1], statistics.fmean([hg[k] for k in range(7, 11)]), dev, len(ok) - sum(ok))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build", "src", "app", "murmur"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tests", "shape_tool"))
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--seeds", default="1001,1002,1003")
    ap.add_argument("--settle", type=int, default=2500)
    ap.add_argument("--snaps", type=int, default=3)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--config", action="append", default=[], help="NAME:k=v,k=v")
    ap.add_argument("--config-file", help="one NAME:k=v,k=v per line")
    a = ap.parse_args()
    if a.config_file:
        a.config += [x.strip() for x in open(a.config_file) if x.strip() and not x.startswith("#")]
    a.engine = "tool"
    a.tracked = False  # the tuning lines do not need the continuous metrics run
    plan = []
    for c in a.config or ["preset:"]:
        name, _, kv = c.partition(":")
        # "@TICK:name=value" changes a parameter at TICK of the settling run (murmur --at) and keeps it in
        # the snapshots (run.py one_flock)
        sets = [x for p in kv.split(",") if p for x in (("--at", p[1:]) if p.startswith("@") else ("--set", p))]
        for n in reversed([int(x) for x in a.sizes.split(",")]):
            for s in (int(x) for x in a.seeds.split(",")):
                plan.append((name, sets, n, s))
    p = mrun.preset_speeds(a.murmur, [])
    import tempfile
    tmp = tempfile.mkdtemp(prefix="tune-")

    def job(t):
        name, sets, n, s = t
        b = argparse.Namespace(**vars(a))
        b.set_args = sets
        d = os.path.join(tmp, name)
        os.makedirs(d, exist_ok=True)
        return t, mrun.one_flock(b, d, "starling", n, s, dict(p, **speed_over(sets, p)))

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        res = list(ex.map(job, [(nm, st, n, s) for nm, st, n, s in plan]))
    out = {}
    for (name, sets, n, s), rows in res:
        out.setdefault((name, n), []).extend(rows)
    for (name, n), rows in out.items():
        print("%-10s N=%-6d %s" % (name, n, line(rows) if rows else "no rows"), flush=True)


def speed_over(sets, p):
    o = {}
    for i in range(0, len(sets), 2):
        k, _, v = sets[i + 1].partition("=")
        if k in p:
            o[k] = float(v)
    return o


if __name__ == "__main__":
    main()
