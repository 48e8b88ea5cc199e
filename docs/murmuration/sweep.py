#!/usr/bin/env python3
"""Tuning sweeps of the starling preset (docs/murmuration.md, "How the preset was tuned").

    docs/murmuration/sweep.py [--n N] [--seeds S] [--settle T] [--snaps K] [--every E] NAME=VALUE ...

Runs `murmur --preset starling --set NAME=VALUE ...` for seeds 1..S (2 at a time, 1 thread each),
settles T ticks, then measures K snapshots E ticks apart with build/tests/shape_tool (the biggest
group, linked at 10 wu) and prints the means of the shape metrics, per-seed mid/thin and border ratio,
the smallest biggest-group fraction of each seed, and gamma(1..10). MURMUR and TOOL override the
binaries. Standard library only. The rows in data/sweeps.txt were made with it.
"""
import csv
import os
import shutil
import statistics
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
M = os.environ.get("MURMUR", os.path.join(ROOT, "build", "src", "app", "murmur"))
T = os.environ.get("TOOL", os.path.join(ROOT, "build", "tests", "shape_tool"))
KEYS = ["thin","mid/thin","long/thin","thin_angle_deg","group_polarisation","speed_mean","speed_cv","at_limit_frac","close_frac","gamma1","border_ratio","corr_len/flock_size","group_frac"]
def one(sets, n, seed, settle, snaps, every, link=10.0):
    tmp = tempfile.mkdtemp()
    st = os.path.join(tmp, "s.csv")
    base = [M, "--preset", "starling", "--threads", "1"] + [x for kv in sets for x in ("--set", kv)]
    subprocess.run(base + ["--boids", str(n), "--seed", str(seed), "--steps", str(settle), "--export", st], check=True, capture_output=True)
    rows = []
    for k in range(snaps):
        if k:
            subprocess.run(base + ["--init", st, "--steps", str(every), "--export", st + ".n"], check=True, capture_output=True)
            os.replace(st + ".n", st)
        out = subprocess.run([T, st, repr(link), "2", "30"], check=True, capture_output=True, text=True).stdout
        r = {kk: float(v) for kk, v in next(csv.DictReader(out.splitlines())).items()}
        r["mid/thin"] = r["mid"] / r["thin"]; r["long/thin"] = r["long"] / r["thin"]
        r["corr_len/flock_size"] = r["corr_len"] / r["flock_size"]; r["group_frac"] = r["group_size"] / n
        rows.append(r)
    shutil.rmtree(tmp, ignore_errors=True)
    return rows
def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000); ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--settle", type=int, default=2500); ap.add_argument("--snaps", type=int, default=4)
    ap.add_argument("--every", type=int, default=100); ap.add_argument("sets", nargs="*")
    a = ap.parse_args()
    with ThreadPoolExecutor(2) as ex:
        futs = [ex.submit(one, a.sets, a.n, s, a.settle, a.snaps, a.every) for s in range(1, a.seeds + 1)]
        res = [f.result() for f in futs]
    allr = [r for rs in res for r in rs]
    line = " ".join(a.sets) + f" N={a.n}\n  "
    line += "  ".join("%s=%.3f" % (k, statistics.mean(r[k] for r in allr)) for k in KEYS)
    line += "\n  per seed mid/thin: " + " ".join("%.2f" % statistics.mean(r["mid/thin"] for r in rs) for rs in res)
    line += " border: " + " ".join("%.2f" % statistics.mean(r["border_ratio"] for r in rs) for rs in res)
    line += " gfrac: " + " ".join("%.2f" % min(r["group_frac"] for r in rs) for rs in res)
    line += "\n  gamma: " + " ".join("%.2f" % statistics.mean(r["gamma%d" % k] for r in allr) for k in range(1, 11))
    print(line, flush=True)
main()
