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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The vision-distance report's Table 1, mapped onto murmur (docs/experiments.md explains the mapping):
# its per-tick strengths S become per-second weights S/dt, its vectors are unit length (steer_unit).
REPORT_DT = 0.05
VISION_BASE = [
    "--boids", "100", "--set", "dt=%g" % REPORT_DT, "--set", "view_angle=360",
    "--set", "cohesion=%g" % (0.075 / REPORT_DT), "--set", "separation=%g" % (4 / REPORT_DT),
    "--set", "separation_radius=1", "--set", "min_speed=0", "--set", "max_speed=10",
    "--set", "steer_unit=on", "--set", "world_min=0,0,0", "--set", "world_max=200,20,200",
    "--set", "bounds_margin=10", "--set", "bounds_turn=20",
]
VISION_CONFIGS = [
    # name, label, view_radius (1e6 = unlimited: larger than the box), alignment strength
    ("unlimited", "Dvis = infinity, Salign = 0.04", 1e6, 0.04),
    ("dvis10", "Dvis = 10, Salign = 0.04", 10, 0.04),
    ("dvis25", "Dvis = 25, Salign = 0.06", 25, 0.06),
]
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
        r = subprocess.run([self.murmur, *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("murmur %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr.strip()))
        return r.stderr

    def metrics(self, name, args):
        path = os.path.join(self.data, name + ".csv")
        self.run([*args, "--metrics", path])
        return read_metrics(path)


def read_metrics(path):
    with open(path) as fp:
        rows = list(csv.DictReader(fp))
    return [{k: float(v) for k, v in r.items()} for r in rows]


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def local_minima(series, window):
    """Ticks where the diameter, smoothed over `window` ticks, has a clear local minimum."""
    n = len(series)
    sm = [mean(series[max(0, i - window):min(n, i + window + 1)]) for i in range(n)]
    found = []
    for i in range(window, n - window):
        seg = sm[i - window:i + window + 1]
        if sm[i] == min(seg) and max(seg) - sm[i] > 3.0:
            if not found or i - found[-1] > window:
                found.append(i)
    return found


def vision(r, seeds, ticks):
    out = {}
    for name, label, dvis, salign in VISION_CONFIGS:
        runs = []
        for seed in seeds:
            rows = r.metrics("vision_%s_seed%d" % (name, seed),
                             [*VISION_BASE, "--set", "view_radius=%g" % dvis,
                              "--set", "alignment=%g" % (salign / REPORT_DT), "--seed", str(seed),
                              "--steps", str(ticks)])
            d = [x["diameter"] for x in rows]
            tail = rows[int(0.8 * len(rows)):]
            runs.append({
                "seed": seed,
                "initial_diameter": d[0],
                "final_diameter": mean(x["diameter"] for x in tail),
                "min_diameter": min(d),
                "max_diameter_after_forming": max(d[len(d) // 5:]),
                "minima_times": [m * REPORT_DT for m in local_minima(d, 200)],
                "final_groups": mean(x["groups"] for x in tail),
                "single_group_fraction": mean(1.0 if x["groups"] == 1 else 0.0 for x in rows[len(rows) // 5:]),
            })
        out[name] = {"label": label, "view_radius": dvis, "alignment_strength": salign, "runs": runs}
    return out


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
        for row in csv.DictReader(fp):
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
                              "--at", "%d:goal=on" % on])
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
    seed0 = summary["vision"]["unlimited"]["runs"][0]["seed"]
    scripts = {
        "vision_diameter.png": term + """set output '{o}/vision_diameter.png'
set title 'Flock diameter over time (vision-distance report, seed {s})'
set xlabel 'time (ticks x dt = 0.05)'; set ylabel 'mean distance to the centre (wu)'
plot '{d}/vision_unlimited_seed{s}.csv' every ::1 using ($1*0.05):5 with lines lw 2 title 'Dvis = infinity', \\
     '{d}/vision_dvis10_seed{s}.csv' every ::1 using ($1*0.05):5 with lines lw 2 title 'Dvis = 10', \\
     '{d}/vision_dvis25_seed{s}.csv' every ::1 using ($1*0.05):5 with lines lw 2 title 'Dvis = 25, Salign = 0.06'
""",
        "vision_path.png": term + """set output '{o}/vision_path.png'
set title 'Flock path: centre (x, z) over time, seed {s}'
set xlabel 'x (wu)'; set ylabel 'z (wu)'; set xrange [0:200]; set yrange [0:200]; set size ratio -1
set terminal pngcairo size 700,700 font 'sans,11'; set output '{o}/vision_path.png'
plot '{d}/vision_unlimited_seed{s}.csv' every ::1 using 2:4 with lines lw 2 title 'Dvis = infinity', \\
     '{d}/vision_dvis10_seed{s}.csv' every ::1 using 2:4 with lines lw 2 title 'Dvis = 10', \\
     '{d}/vision_dvis25_seed{s}.csv' every ::1 using 2:4 with lines lw 2 title 'Dvis = 25'
""",
        "vision_groups.png": term + """set output '{o}/vision_groups.png'
set title 'Groups (components within the vision distance), seed {s}'
set xlabel 'time'; set ylabel 'groups'; set logscale y
plot '{d}/vision_dvis10_seed{s}.csv' every ::1 using ($1*0.05):10 with lines lw 2 title 'Dvis = 10', \\
     '{d}/vision_dvis25_seed{s}.csv' every ::1 using ($1*0.05):10 with lines lw 2 title 'Dvis = 25'
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
    fmt = {"o": out, "d": data, "s": seed0, "pn": summary["perching"]["boids"],
           "son": summary["scatter"]["on"], "soff": summary["scatter"]["off"],
           "pb": summary["predators"]["before"], "pe": summary["predators"]["before"] + summary["predators"]["during"],
           "gon": summary["goal"]["on"]}
    for name, script in scripts.items():
        r = subprocess.run(["gnuplot"], input=script.format(**fmt), capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gnuplot failed for %s: %s" % (name, r.stderr))


def results_md(out, s):
    lines = ["# Experiment results (generated by docs/experiments/run.py)", ""]
    lines += ["## Vision distance", "",
              "| configuration | seed | initial diameter | final diameter (last 20%) | min | local minima at t = | groups at the end | time as one group |",
              "|---|---|---|---|---|---|---|---|"]
    for name, cfg in s["vision"].items():
        for run in cfg["runs"]:
            lines.append("| %s | %d | %.1f | %.1f | %.1f | %s | %.1f | %.0f%% |" % (
                cfg["label"], run["seed"], run["initial_diameter"], run["final_diameter"], run["min_diameter"],
                ", ".join("%.1f" % t for t in run["minima_times"][:8]) or "-", run["final_groups"],
                100 * run["single_group_fraction"]))
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
    s["vision"] = vision(r, [1] if q else [1, 2, 3, 4, 5], 1500 if q else 4000)
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
