#!/usr/bin/env python3
"""Falcon attacks on murmur's starling flock, measured against the field (docs/falcon.md, issue 26).

    docs/falcon/run.py                   # the reporting run: N = 500, 2000, 8000 (seeds 1, 2) and
                                         # strategies x attack speeds at N = 2000 (seed 1)
    docs/falcon/run.py --tuning          # the tuning run (seed 101): escape_latency 0.05 .. 0.2 s
    docs/falcon/run.py --quick           # one small run of each kind (a smoke test)

Each run is one batch command: the starling preset settles for --settle ticks (2500: 50 s), then `--at` switches
the falcon on and the run goes on for --attack ticks with --events and --metrics. Per attack (the
events' attack_start .. attack_end) it reads: the wave's speed (the `wave` event: least squares of
alarm time against distance from the first bird alarmed, in the flock's frame) and the flock's speed,
the largest share of birds alarmed, the jump of the nearest-neighbour distance (largest in the attack
and 2 s after it, over the mean of the second before it), more groups than before (a split), and the
time after the attack until the polarisation is back to >= 0.85. Writes DIR/results.json and
DIR/results.md (default DIR: docs/falcon). Standard library only; 2 runs at a time (--jobs).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DT = 0.02  # the starling preset's tick

TUNING_SEEDS = [101]
REPORT_SEEDS = [1, 2]
SIZES = [500, 2000, 8000]
STRATEGIES = ["above", "behind", "beside"]
SPEEDS = [20, 30, 40]
# the field (issue 26; * from secondary summaries): Procaccini et al. 2011: waves 3.7 .. 25 m/s, mean
# 13.4; Storms et al. 2019: flash expansion more likely in fast attacks from above, waves at medium
# speed, *78% of attacks without a split
FIELD_WAVE = (3.7, 13.4, 25.0)


def murmur_path(given):
    for p in [given, os.path.join(ROOT, "build", "src", "app", "murmur")]:
        if p and os.path.exists(p):
            return p
    sys.exit("run.py: build murmur first (meson compile -C build) or give --murmur")


def read(path):
    with open(path) as fp:
        rows = [r for r in csv.reader(l for l in fp if not l.startswith("#"))]
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def one_run(murmur, n, seed, settle, attack, extra, tmp):
    tag = "n%d_s%d_%s" % (n, seed, "_".join(x.replace("=", "-") for x in extra) or "default")
    ev, me = os.path.join(tmp, tag + "_ev.csv"), os.path.join(tmp, tag + "_m.csv")
    cmd = [murmur, "--preset", "starling", "--boids", str(n), "--seed", str(seed), "--quiet",
           "--steps", str(settle + attack), "--at", "%d:falcon=on" % settle,
           "--set", "falcon_wait=5", "--events", ev, "--metrics", me]
    for x in extra:
        cmd += ["--set", x]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("run.py: %s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    return analyse(read(ev), read(me), n, seed, extra)


def analyse(events, metrics, n, seed, extra):
    m = {int(r["tick"]): r for r in metrics}
    ticks = sorted(m)
    attacks, cur = [], None
    for e in events:
        k, t = e["event"], int(e["tick"])
        if k == "attack_start":
            cur = {"start": t, "end": None, "wave": None, "flock_speed": None, "wave_birds": 0, "catch": False}
            attacks.append(cur)
        elif cur is None:
            continue
        elif k == "attack_end":
            cur["end"] = t
        elif k == "catch":
            cur["catch"] = True
        elif k == "wave":
            cur["wave"] = float(e["value"]) or None
            cur["flock_speed"] = float(e["aux"])
            cur["wave_birds"] = int(e["count"])
    out = []
    for a in attacks:
        if a["end"] is None:
            continue
        s, end = a["start"], a["end"]
        before = [float(m[t]["nn_distance"]) for t in range(s - 50, s) if t in m]
        pol0 = statistics.mean(float(m[t]["polarisation"]) for t in range(s - 50, s) if t in m) if before else None
        during = [float(m[t]["nn_distance"]) for t in range(s, end + 100) if t in m]
        g0 = statistics.median(int(m[t]["groups"]) for t in range(s - 50, s) if t in m) if before else 0
        g1 = max((int(m[t]["groups"]) for t in range(s, end + 100) if t in m), default=0)
        alarmed = max((float(m[t]["alarmed"]) for t in range(s, end + 100) if t in m), default=0.0)
        rec = None
        for t in range(end, end + 1500):
            if t in m and float(m[t]["polarisation"]) >= 0.85:
                rec = (t - end) * DT
                break
        if not before or not during:
            continue
        nn0 = statistics.mean(before)
        jump = max(during) / nn0 if nn0 > 0 else 0.0
        out.append({"n": n, "seed": seed, "extra": extra, "start": s, "length_s": (end - s) * DT,
                    "wave_speed": a["wave"], "flock_speed": a["flock_speed"], "wave_birds": a["wave_birds"],
                    "alarmed_max": alarmed, "nn_jump": jump, "groups_before": g0, "groups_max": g1,
                    "split": g1 > g0, "flash": jump >= 1.25, "wave": a["wave"] is not None and alarmed >= 0.2,
                    "recovery_s": rec, "catch": a["catch"], "polarisation_before": pol0})
    return out


def summary(rows):
    ws = [r["wave_speed"] for r in rows if r["wave_speed"]]
    fs = [r["flock_speed"] for r in rows if r["wave_speed"] and r["flock_speed"]]
    rec = [r["recovery_s"] for r in rows if r["recovery_s"] is not None]
    k = len(rows)
    return {
        "attacks": k,
        "wave_speed_median": statistics.median(ws) if ws else None,
        "wave_over_flock_median": statistics.median(w / f for w, f in zip(ws, fs)) if fs else None,
        "flash_share": sum(r["flash"] for r in rows) / k if k else None,
        "wave_share": sum(r["wave"] for r in rows) / k if k else None,
        "split_share": sum(r["split"] for r in rows) / k if k else None,
        "reacted_share": sum(r["flash"] or r["split"] for r in rows) / k if k else None,
        "recovered_30s_share": sum(1 for r in rows if r["recovery_s"] is not None and r["recovery_s"] <= 30) / k
        if k else None,
        "recovery_median_s": statistics.median(rec) if rec else None,
        "polarisation_before": statistics.median(r["polarisation_before"] for r in rows) if k else None,
        "alarmed_median": statistics.median(r["alarmed_max"] for r in rows) if k else None,
        "nn_jump_median": statistics.median(r["nn_jump"] for r in rows) if k else None,
    }


def fmt(x, p=2):
    return "-" if x is None else ("%.*f" % (p, x))


def table(title, groups):
    lines = ["### " + title, "",
             "| run | attacks | wave speed m/s (median) | wave / flock speed | alarmed (median max) | NN jump (median) "
             "| flash | wave | split | polarisation before | polarisation >= 0.85 within 30 s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in groups:
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, s["attacks"], fmt(s["wave_speed_median"], 1), fmt(s["wave_over_flock_median"]),
            fmt(s["alarmed_median"]), fmt(s["nn_jump_median"]), fmt(s["flash_share"]), fmt(s["wave_share"]),
            fmt(s["split_share"]), fmt(s["polarisation_before"]), fmt(s["recovered_30s_share"])))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--settle", type=int, default=2500, help="ticks before the falcon comes (default 2500 = 50 s)")
    ap.add_argument("--attack", type=int, default=1500, help="ticks with the falcon (default 1500 = 30 s)")
    ap.add_argument("--tuning", action="store_true", help="the tuning run (seed 101) instead of the reporting run")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    murmur = murmur_path(a.murmur)
    jobs = []
    if a.tuning:
        for lat in ["0.05", "0.1", "0.15", "0.2"]:
            for n in SIZES[:2]:
                jobs.append(("latency %s s, N = %d" % (lat, n), n, TUNING_SEEDS[0], ["escape_latency=" + lat]))
    elif a.quick:
        jobs = [("quick", 500, 1, [])]
        a.settle, a.attack = 300, 600
    else:
        for n in SIZES:
            for s in REPORT_SEEDS:
                jobs.append(("N = %d" % n, n, s, []))
        for st in STRATEGIES:
            for v in SPEEDS:
                jobs.append(("%s, %d m/s" % (st, v), 2000, REPORT_SEEDS[0],
                             ["falcon_strategy=" + st, "falcon_attack_speed=%d" % v]))
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = [(name, pool.submit(one_run, murmur, n, s, a.settle, a.attack, extra, tmp))
                for name, n, s, extra in jobs]
        results = [(name, f.result()) for name, f in futs]
    groups, rows = {}, []
    for name, rs in results:
        groups.setdefault(name, []).extend(rs)
        rows.extend(rs)
    summ = [(name, summary(rs)) for name, rs in groups.items()]
    os.makedirs(a.out, exist_ok=True)
    kind = "tuning" if a.tuning else ("quick" if a.quick else "reporting")
    with open(os.path.join(a.out, "results_%s.json" % kind), "w") as fp:
        json.dump({"settle": a.settle, "attack": a.attack, "rows": rows, "summary": dict(summ)}, fp, indent=1)
    md = table("%s run (settle %d ticks, %d ticks of attacks; seeds %s)" % (
        kind, a.settle, a.attack, TUNING_SEEDS if a.tuning else REPORT_SEEDS), summ)
    md += "\nfield: wave speed %.1f .. %.1f m/s, mean %.1f (Procaccini et al. 2011)\n" % (
        FIELD_WAVE[0], FIELD_WAVE[2], FIELD_WAVE[1])
    with open(os.path.join(a.out, "results_%s.md" % kind), "w") as fp:
        fp.write(md)
    print(md)


if __name__ == "__main__":
    main()
