#!/usr/bin/env python3
"""Regenerate every dataset, table and plot of docs/experiments.md with murmur's batch mode.

    docs/experiments/run.py                    # full run (a few minutes), writes docs/experiments/
    docs/experiments/run.py --quick --out DIR  # reduced run used by the test suite

Needs a built murmur (default build/src/app/murmur) and, for plots, gnuplot. Standard library only.
Writes DIR/data/*.csv (raw metrics), DIR/summary.json (the numbers), DIR/results.md (tables) and
DIR/*.png (plots).
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import multiprocessing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import vision as V  # noqa: E402

# The Python case study's Table 2 (seconds to reach tick 1000, Python 2.7 on an i7-2720QM).
CASE_STUDY = {(70, 0): 22.415, (70, 1): 26.614, (70, 2): 27.126, (140, 0): 75.043, (140, 1): 84.273,
              (140, 2): 87.341, (210, 0): 170.448, (210, 1): 179.916, (210, 2): 184.962}
CASE_STUDY_SET = ["--set", "view_radius=100", "--set", "separation_radius=30", "--set", "predator_radius=100",
                  "--set", "bounds=wrap", "--set", "world_min=0,0,0", "--set", "world_max=800,600,600",
                  "--set", "min_speed=2", "--set", "max_speed=8", "--set", "dt=1", "--set", "view_angle=360"]


class Runner:
    def __init__(self, murmur, out):
        self.murmur = murmur
        self.out = out
        self.data = os.path.join(out, "data")
        os.makedirs(self.data, exist_ok=True)

    def run(self, args):
        r = subprocess.run([self.murmur, "--preset", "classic", *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("murmur %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr.strip()))
        return r.stderr

    def metrics(self, name, args, keep=True):
        """Run with --metrics; keep the CSV in data/ only when a plot reads it."""
        path = os.path.join(self.data if keep else tempfile.gettempdir(), name + ".csv")
        self.run([*args, "--metrics", path])
        rows = read_metrics(path)
        if not keep:
            os.remove(path)
        return rows


def read_metrics(path):
    with open(path) as fp:
        rows = list(csv.DictReader(l for l in fp if not l.startswith("#")))
    return [{k: float(v) for k, v in r.items()} for r in rows]


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def vision(murmur, seeds, ticks, quick, workers=2):
    """The vision-distance report in plane mode (vision.py), and in full mode the three explanations
    tried where murmur differs from it. Runs go to a pool of `workers` processes."""
    specs = []
    for name, _, dvis, sal in V.CONFIGS:
        for s in seeds:
            specs.append(("murmur", ("main", name), s, dvis, sal, ticks, {"murmur": murmur}))
    if not quick:
        for s in seeds:
            # (a) Dvis = 10 at a higher density: the same boids in a quarter of the area, or 4x the boids
            specs.append(("murmur", ("box100", "dvis10"), s, 10.0, 0.04, ticks, {"murmur": murmur, "box": 100.0}))
            specs.append(("murmur", ("n400", "dvis10"), s, 10.0, 0.04, ticks, {"murmur": murmur, "n": 400}))
        for name, _, dvis, sal in V.CONFIGS:
            for s in seeds:
                # (b) the strengths read as per-second weights; (c) the report's model in Python,
                # synchronous and in place
                specs.append(("murmur", ("per_second", name), s, dvis, sal, ticks,
                              {"murmur": murmur, "per_tick": False}))
                for order in ("sync", "inplace"):
                    specs.append(("reference", ("ref_" + order, name), s, dvis, sal, ticks, {"order": order}))
    with multiprocessing.Pool(workers) as pool:
        done = pool.map(V.job, specs, chunksize=1)
    out, series = {}, {}
    labels = {name: label for name, label, _, _ in V.CONFIGS}
    for (variant, name), seed, ser in done:
        cfg = out.setdefault(variant, {}).setdefault(name, {"label": labels[name], "runs": []})
        cfg["runs"].append({"seed": seed, **V.analyse(ser)})
        if variant == "main" and seed == seeds[0]:
            series[name] = ser
    return out, series


def write_series(data, name, ser):
    keys = ["t", "d", "pol", "groups", "flocks", "frac", "cx", "cz"]
    with open(os.path.join(data, "vision_%s.csv" % name), "w") as fp:
        fp.write("t,diameter,polarisation,groups,flocks,main_fraction,centre_x,centre_z\n")
        for row in zip(*(ser[k] for k in keys)):
            fp.write(",".join("%.6g" % v for v in row) + "\n")


def timed(r, args):
    err = r.run(args)
    m = re.search(r"in ([0-9.]+) s", err)
    return float(m.group(1))


def scale(r, sizes, preds, ticks):
    rows = []
    for n in sizes:
        for p in preds:
            row = {"boids": n, "predators": p, "ticks": ticks, "python_s": CASE_STUDY.get((n, p))}
            for method in ("grid", "brute"):
                row[method + "_s"] = min(timed(r, [*CASE_STUDY_SET, "--boids", str(n), "--set", "predators=%d" % p,
                                                   "--set", "neighbour_search=" + method, "--steps", str(ticks),
                                                   "--threads", "1"]) for _ in range(3))
            rows.append(row)
    return rows


def perching(r, boids, ticks):
    rows = r.metrics("perching", ["--boids", str(boids), "--set", "perch=on", "--steps", str(ticks)])
    frac = [x["perching"] / boids for x in rows]
    # boids that land must also take off: the count goes down as well as up
    drops = sum(1 for a, b in zip(rows, rows[1:]) if b["perching"] < a["perching"])
    landings = sum(max(0.0, b["perching"] - a["perching"]) for a, b in zip(rows, rows[1:]))
    return {"boids": boids, "max_fraction": max(frac), "final_fraction": frac[-1], "landings": landings,
            "mean_fraction_second_half": mean(frac[len(frac) // 2:]), "ticks_with_takeoffs": drops}


def scatter(r, boids, on, off, ticks):
    rows = r.metrics("scatter", ["--boids", str(boids), "--steps", str(ticks),
                                 "--at", "%d:scatter=on" % on, "--at", "%d:scatter=off" % off])
    d = [x["diameter"] for x in rows]
    return {"boids": boids, "on": on, "off": off, "diameter_at_on": d[on], "diameter_at_off": d[off],
            "max_diameter_while_on": max(d[on:off + 1]), "min_diameter_after": min(d[off:]),
            "final_diameter": d[-1]}


PREDATOR_RADIUS = 12.0  # the default predator_radius


def predator_pressure(path):
    """(mean distance from a predator to its nearest boid, boids within predator_radius of a predator)"""
    boids, preds = [], []
    with open(path) as fp:
        for row in csv.DictReader(l for l in fp if not l.startswith("#")):
            p = (float(row["x"]), float(row["y"]), float(row["z"]))
            (preds if row["kind"] == "predator" else boids).append(p)
    if not preds:
        return None, None
    near = mean(min(math.dist(b, q) for b in boids) for q in preds)
    inside = sum(1 for b in boids if min(math.dist(b, q) for q in preds) < PREDATOR_RADIUS)
    return near, inside


def predator_run(r, name, boids, before, during, after, seg, extra):
    """Chained batch runs (--init/--export every `seg` ticks) so the state can be read between them."""
    tmp = tempfile.mkdtemp()
    state = os.path.join(tmp, "s.csv")
    r.run(["--boids", str(boids), "--steps", "0", "--export", state])
    series = []
    tick = 0
    while tick < before + during + after:
        args = ["--init", state, "--steps", str(seg), "--export", state,
                "--metrics", os.path.join(tmp, "m.csv"), *extra]
        if tick == before:
            args += ["--at", "0:predators=3"]
        if tick == before + during:
            args += ["--at", "0:predators=0"]
        r.run(args)
        m = read_metrics(os.path.join(tmp, "m.csv"))[-1]
        tick += seg
        near, inside = predator_pressure(state)
        series.append({"tick": tick, "groups": m["groups"], "mean_neighbours": m["mean_neighbours"],
                       "diameter": m["diameter"], "nearest_boid": near, "inside": inside})
    shutil.rmtree(tmp)
    with open(os.path.join(r.data, name + ".csv"), "w") as fp:
        fp.write("tick,groups,mean_neighbours,diameter,predator_nearest_boid,boids_inside_radius\n")
        for s in series:
            fp.write("%d,%g,%g,%g,%s,%s\n" % (s["tick"], s["groups"], s["mean_neighbours"], s["diameter"],
                                              "" if s["nearest_boid"] is None else "%g" % s["nearest_boid"],
                                              "" if s["inside"] is None else "%d" % s["inside"]))
    return series


def predators(r, boids, before, during, after, seg):
    """Three predators join a formed flock; the same run with flee = 0 is the control."""
    out = {"boids": boids, "before": before, "during": during, "after": after}
    for name, extra in (("predators", []), ("predators_noflee", ["--set", "flee=0"])):
        series = predator_run(r, name, boids, before, during, after, seg, extra)
        on = [s for s in series if before < s["tick"] <= before + during]
        pre = [s for s in series if before // 2 < s["tick"] <= before]
        out[name] = {"groups_before": mean(s["groups"] for s in pre),
                     "groups_with_predators": mean(s["groups"] for s in on),
                     "neighbours_before": mean(s["mean_neighbours"] for s in pre),
                     "neighbours_with_predators": mean(s["mean_neighbours"] for s in on),
                     "predator_nearest_boid": mean(s["nearest_boid"] for s in on),
                     "boids_inside_radius": mean(s["inside"] for s in on)}
    return out


def goal(r, boids, on, ticks, pos):
    rows = r.metrics("goal", ["--boids", str(boids), "--steps", str(ticks), "--set", "goal_pos=%g,%g,%g" % pos,
                              "--at", "%d:goal=on" % on], keep=False)
    dist = [math.dist((x["centre_x"], x["centre_y"], x["centre_z"]), pos) for x in rows]
    with open(os.path.join(r.data, "goal_distance.csv"), "w") as fp:
        fp.write("tick,distance\n")
        for i, d in enumerate(dist):
            fp.write("%d,%g\n" % (i, d))
    return {"boids": boids, "on": on, "goal": pos, "distance_at_on": dist[on], "final_distance": dist[-1],
            "min_distance": min(dist[on:])}


def plots(out, summary):
    if not shutil.which("gnuplot"):
        sys.exit("gnuplot not found (apt-get install gnuplot-nox)")
    data = os.path.join(out, "data")
    term = "set terminal pngcairo size 900,500 font 'sans,11'\nset grid\nset datafile separator ','\n"
    seed0 = summary["vision"]["main"]["unlimited"]["runs"][0]["seed"]
    scripts = {
        "vision_diameter.png": term + """set output '{o}/vision_diameter.png'
set title "Flock diameter D (the report's measure), plane mode, seed {s}; dashed: the report's Dvis = 10 minima"
set xlabel 'time (s)'; set ylabel 'mean distance to the centre (wu)'; set yrange [0:*]
set arrow from 21.8, graph 0 to 21.8, graph 1 nohead dt 2 lc rgb '#2ca02c'
set arrow from 42.4, graph 0 to 42.4, graph 1 nohead dt 2 lc rgb '#2ca02c'
set arrow from 78.75, graph 0 to 78.75, graph 1 nohead dt 2 lc rgb '#2ca02c'
set arrow from 165.55, graph 0 to 165.55, graph 1 nohead dt 2 lc rgb '#2ca02c'
plot '{d}/vision_unlimited.csv' every ::1 using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'Dvis = infinity', \\
     '{d}/vision_dvis10.csv' every ::1 using 1:2 with lines lw 2 lc rgb '#2ca02c' title 'Dvis = 10', \\
     '{d}/vision_dvis25.csv' every ::1 using 1:2 with lines lw 2 lc rgb '#d62728' title 'Dvis = 25, Salign = 0.06'
""",
        "vision_flocks.png": term + """set output '{o}/vision_flocks.png'
set title 'Main flock: share of the boids in the largest group (links < {link} wu), seed {s}'
set xlabel 'time (s)'; set ylabel 'largest group / boids'; set yrange [0:1.05]
set arrow from graph 0, first {join} to graph 1, first {join} nohead dt 2 lc rgb 'black'
set arrow from graph 0, first {leave} to graph 1, first {leave} nohead dt 3 lc rgb 'black'
plot '{d}/vision_unlimited.csv' every ::1 using 1:6 with lines lw 2 lc rgb '#1f77b4' title 'Dvis = infinity', \\
     '{d}/vision_dvis10.csv' every ::1 using 1:6 with lines lw 2 lc rgb '#2ca02c' title 'Dvis = 10', \\
     '{d}/vision_dvis25.csv' every ::1 using 1:6 with lines lw 2 lc rgb '#d62728' title 'Dvis = 25, Salign = 0.06'
""",
        "vision_polarisation.png": term + """set output '{o}/vision_polarisation.png'
set title 'Polarisation |mean heading| (1 = all the same way), seed {s}'
set xlabel 'time (s)'; set ylabel 'polarisation'; set yrange [0:1]
plot '{d}/vision_unlimited.csv' every ::1 using 1:3 with lines lw 2 lc rgb '#1f77b4' title 'Dvis = infinity', \\
     '{d}/vision_dvis10.csv' every ::1 using 1:3 with lines lw 2 lc rgb '#2ca02c' title 'Dvis = 10', \\
     '{d}/vision_dvis25.csv' every ::1 using 1:3 with lines lw 2 lc rgb '#d62728' title 'Dvis = 25, Salign = 0.06'
""",
        "vision_path.png": term + """set terminal pngcairo size 700,700 font 'sans,11'; set output '{o}/vision_path.png'
set title 'Path of the flock centre in the 200 x 200 box, seed {s}'
set xlabel 'x (wu)'; set ylabel 'z (wu)'; set xrange [0:200]; set yrange [0:200]; set size ratio -1
plot '{d}/vision_unlimited.csv' every ::1 using 7:8 with lines lw 2 lc rgb '#1f77b4' title 'Dvis = infinity', \\
     '{d}/vision_dvis10.csv' every ::1 using 7:8 with lines lw 2 lc rgb '#2ca02c' title 'Dvis = 10', \\
     '{d}/vision_dvis25.csv' every ::1 using 7:8 with lines lw 2 lc rgb '#d62728' title 'Dvis = 25'
""",
        "perching.png": term + """set output '{o}/perching.png'
set title 'Perching: fraction of the flock on the ground'
set xlabel 'tick'; set ylabel 'fraction perched'
plot '{d}/perching.csv' every ::1 using 1:($9/{pn}) with lines lw 2 title 'perch = on'
""",
        "scatter.png": term + """set output '{o}/scatter.png'
set title 'Scatter on at tick {son}, off at tick {soff}'
set xlabel 'tick'; set ylabel 'diameter (wu)'
set object 1 rect from {son}, graph 0 to {soff}, graph 1 fc rgb '#ffdddd' fs solid 0.5 behind
plot '{d}/scatter.csv' every ::1 using 1:5 with lines lw 2 title 'diameter'
""",
        "predators.png": term + """set output '{o}/predators.png'
set title 'Three predators from tick {pb} to tick {pe}'
set xlabel 'tick'; set ylabel 'groups'; set y2label 'boids inside predator_radius'
set ytics nomirror; set y2tics
set object 1 rect from {pb}, graph 0 to {pe}, graph 1 fc rgb '#ffdddd' fs solid 0.5 behind
plot '{d}/predators.csv' every ::1 using 1:2 with linespoints lw 2 title 'groups (flee on)', \\
     '{d}/predators_noflee.csv' every ::1 using 1:2 with linespoints lw 2 dt 2 title 'groups (flee = 0)', \\
     '{d}/predators.csv' every ::1 using 1:6 axes x1y2 with linespoints lw 2 title 'boids near a predator (flee on)', \\
     '{d}/predators_noflee.csv' every ::1 using 1:6 axes x1y2 with linespoints lw 2 dt 2 title 'boids near a predator (flee = 0)'
""",
        "goal.png": term + """set output '{o}/goal.png'
set title 'Goal switched on at tick {gon}'
set xlabel 'tick'; set ylabel 'distance of the flock centre to the goal (wu)'
plot '{d}/goal_distance.csv' every ::1 using 1:2 with lines lw 2 title 'distance'
""",
        "scale.png": term + """set output '{o}/scale.png'
set title 'Time to reach tick 1000 (Table 2 of the Python case study vs murmur, 1 thread)'
set xlabel 'boids'; set ylabel 'seconds'; set logscale y
plot '{d}/scale.csv' every ::1 using 1:($2==0?$4:1/0) with linespoints lw 2 title 'Python case study', \\
     '{d}/scale.csv' every ::1 using 1:($2==0?$6:1/0) with linespoints lw 2 title 'murmur brute', \\
     '{d}/scale.csv' every ::1 using 1:($2==0?$5:1/0) with linespoints lw 2 title 'murmur grid'
""",
    }
    fmt = {"o": out, "d": data, "s": seed0, "link": V.LINK, "join": V.JOIN, "leave": V.LEAVE, "pn": summary["perching"]["boids"],
           "son": summary["scatter"]["on"], "soff": summary["scatter"]["off"],
           "pb": summary["predators"]["before"], "pe": summary["predators"]["before"] + summary["predators"]["during"],
           "gon": summary["goal"]["on"]}
    for name, script in scripts.items():
        r = subprocess.run(["gnuplot"], input=script.format(**fmt), capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gnuplot failed for %s: %s" % (name, r.stderr))


def times(ts):
    return ", ".join("%g" % t for t in ts) or "-"


def span(xs, fmt="%.1f"):
    lo, hi = min(xs), max(xs)
    return fmt % lo if fmt % lo == fmt % hi else (fmt + "-" + fmt) % (lo, hi)


VARIANTS = [
    ("main", "murmur, plane mode, Table 1 (strengths per tick)"),
    ("box100", "(a) murmur, 100 boids in a 100 x 100 box (4x the density)"),
    ("n400", "(a) murmur, 400 boids in the 200 x 200 box (4x the density)"),
    ("per_second", "(b) murmur, strengths read as per-second weights"),
    ("ref_sync", "(c) Python reference of the report's model, synchronous"),
    ("ref_inplace", "(c) Python reference of the report's model, in place (the report's loop)"),
]


def vision_md(v):
    L = ["## Vision distance (plane mode)", "",
         "100 boids (unless stated), flat 200 x 200 box, the report's Table 1, %g s of simulated time, one "
         "state every %g s. Polarisation, the share of the main flock and the centre's travel are taken "
         "after t = %g s; the values at the end over the last 20%% of the run. A flock is a group of boids "
         "linked by distances under %g wu; groups link boids closer than Dvis (murmur's `groups` metric)."
         % (v["ticks"] * V.DT, V.SAMPLE * V.DT, V.SETTLE, V.LINK), "",
         "| configuration | seed | D start | D end | min D | polarisation | groups (Dvis) end | flocks (%g wu) end "
         "| main flock share | time as one flock | centre's travel (wu) | centre speed (wu/s) | centre's reach (wu) |" % V.LINK,
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, cfg in v["main"].items():
        for r in cfg["runs"]:
            L.append("| %s | %d | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.0f%% | %.0f | %.2f | %.0f |" % (
                cfg["label"], r["seed"], r["initial_diameter"], r["final_diameter"], r["min_diameter"],
                r["polarisation"], r["final_groups"], r["final_flocks"], r["main_fraction"],
                100 * r["one_flock_fraction"], r["centre_path"], r["centre_speed"], r["centre_reach"]))
    L += ["", "### Events, per seed, beside the report's", "",
          "One flock forms = the first merge. Merge: the largest flock reaches %g of the boids and stays at or "
          "above %g for %g s; split: it falls below %g and stays below for %g s (in between, the state does "
          "not change). Diameter minima: minima of D (moving average over +-%g s) that lie at least %g wu below "
          "the highest D on both sides before D falls lower." % (V.JOIN, V.JOIN, V.HOLD, V.LEAVE, V.HOLD,
                                                              V.SMOOTH, V.MIN_PROMINENCE), "",
          "| configuration | run | one flock forms at t = | merges at t = | splits at t = | diameter minima at t = |",
          "|---|---|---|---|---|---|"]
    for name, cfg in v["main"].items():
        rep = V.REPORT[name]
        L.append("| %s | **report** | %s | %s | %s | %s |" % (cfg["label"], times(rep["form"]), times(rep["merges"]),
                                                         times(rep["splits"]), times(rep["minima"])))
        for r in cfg["runs"]:
            L.append("| %s | seed %d | %s | %s | %s | %s |" % (cfg["label"], r["seed"], times(r["form"]),
                                                          times(r["merges"]), times(r["splits"]), times(r["minima"])))
    if "per_second" in v:
        L += ["", "### Explanations tried (ranges over the seeds)", "",
              "| variant | configuration | seeds | D end | polarisation | groups (Dvis) end | main flock share "
              "| seeds with a merge | merges | splits | diameter minima | centre speed (wu/s) |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for key, label in VARIANTS:
            for name, cfg in v.get(key, {}).items():
                rs = cfg["runs"]
                L.append("| %s | %s | %d | %s | %s | %s | %s | %d | %d | %d | %d | %s |" % (
                    label, cfg["label"], len(rs), span([r["final_diameter"] for r in rs]),
                    span([r["polarisation"] for r in rs], "%.2f"), span([r["final_groups"] for r in rs]),
                    span([r["main_fraction"] for r in rs], "%.2f"), sum(1 for r in rs if r["merges"]),
                    sum(len(r["merges"]) for r in rs), sum(len(r["splits"]) for r in rs),
                    sum(len(r["minima"]) for r in rs), span([r["centre_speed"] for r in rs], "%.2f")))
        L += ["", "### Events of two variants, per seed (same detectors)", "",
              "| variant | configuration | run | one flock forms at t = | merges at t = | splits at t = "
              "| diameter minima at t = | polarisation | centre speed (wu/s) |",
              "|---|---|---|---|---|---|---|---|---|"]
        for key, label in VARIANTS:
            if key not in ("ref_inplace", "box100"):
                continue
            for name, cfg in v.get(key, {}).items():
                for r in cfg["runs"]:
                    L.append("| %s | %s | seed %d | %s | %s | %s | %s | %.2f | %.2f |" % (
                        label, cfg["label"], r["seed"], times(r["form"]), times(r["merges"]), times(r["splits"]),
                        times(r["minima"]), r["polarisation"], r["centre_speed"]))
    return L


def results_md(out, s):
    lines = ["# Experiment results (generated by docs/experiments/run.py)", ""]
    lines += vision_md(s["vision"])
    lines += ["", "## Scale against the Python case study (1000 ticks, seconds)", "",
              "| boids | predators | Python (published) | murmur brute | murmur grid | brute speed-up |",
              "|---|---|---|---|---|---|"]
    for row in s["scale"]:
        py = row["python_s"]
        lines.append("| %d | %d | %s | %.4f | %.4f | %s |" % (
            row["boids"], row["predators"], "%.3f" % py if py else "-", row["brute_s"], row["grid_s"],
            "%.0fx" % (py / row["brute_s"]) if py else "-"))
    p, sc, pr, g = s["perching"], s["scatter"], s["predators"], s["goal"]
    lines += ["", "## Toggles", "",
              "| experiment | result |", "|---|---|",
              "| perching | %d landings (at least); at most %.1f%% perched at once, %.2f%% on average in the second half; boids took off in %d ticks |" % (
                  p["landings"], 100 * p["max_fraction"], 100 * p["mean_fraction_second_half"], p["ticks_with_takeoffs"]),
              "| scatter | diameter %.1f when switched on, %.1f at most while on, %.1f at the lowest after |" % (
                  sc["diameter_at_on"], sc["max_diameter_while_on"], sc["min_diameter_after"]),
              "| predators (boids flee) | groups %.1f before, %.1f with predators; a predator's nearest boid %.1f wu away; %.1f boids inside predator_radius |" % (
                  pr["predators"]["groups_before"], pr["predators"]["groups_with_predators"],
                  pr["predators"]["predator_nearest_boid"], pr["predators"]["boids_inside_radius"]),
              "| predators (control, flee = 0) | groups %.1f before, %.1f with predators; a predator's nearest boid %.1f wu away; %.1f boids inside predator_radius |" % (
                  pr["predators_noflee"]["groups_before"], pr["predators_noflee"]["groups_with_predators"],
                  pr["predators_noflee"]["predator_nearest_boid"], pr["predators_noflee"]["boids_inside_radius"]),
              "| goal | centre %.1f wu from the goal when switched on, %.1f at the end |" % (
                  g["distance_at_on"], g["final_distance"]), ""]
    with open(os.path.join(out, "results.md"), "w") as fp:
        fp.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build", "src", "app", "murmur"))
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--quick", action="store_true", help="reduced sizes, for the test suite")
    ap.add_argument("--no-plots", action="store_true")
    a = ap.parse_args()
    if not os.access(a.murmur, os.X_OK):
        sys.exit("murmur not found at %s: build it first (meson setup build && meson compile -C build)" % a.murmur)
    r = Runner(os.path.abspath(a.murmur), os.path.abspath(a.out))
    q = a.quick
    s = {}
    vticks = 2400 if q else 4000
    s["vision"], series = vision(r.murmur, [1, 2, 3] if q else [1, 2, 3, 4, 5], vticks, q)
    s["vision"]["ticks"] = vticks
    for name, ser in series.items():
        write_series(r.data, name, ser)
    s["scale"] = scale(r, [70] if q else [70, 140, 210], [0, 1] if q else [0, 1, 2], 100 if q else 1000)
    with open(os.path.join(r.data, "scale.csv"), "w") as fp:
        fp.write("boids,predators,ticks,python_s,grid_s,brute_s\n")
        for row in s["scale"]:
            fp.write("%d,%d,%d,%s,%g,%g\n" % (row["boids"], row["predators"], row["ticks"],
                                             row["python_s"] or "", row["grid_s"], row["brute_s"]))
    s["perching"] = perching(r, 300 if q else 2000, 600 if q else 3000)
    s["scatter"] = scatter(r, 500 if q else 2000, 300 if q else 600, 450 if q else 800, 800 if q else 1400)
    s["predators"] = predators(r, 300 if q else 2000, 200 if q else 400, 200 if q else 400, 100 if q else 400, 25)
    s["goal"] = goal(r, 300 if q else 2000, 200 if q else 300, 600 if q else 900, (40.0, 30.0, 40.0))
    with open(os.path.join(r.out, "summary.json"), "w") as fp:
        json.dump(s, fp, indent=1)
    results_md(r.out, s)
    if not a.no_plots:
        plots(r.out, s)
    print("wrote %s" % r.out)


if __name__ == "__main__":
    main()
