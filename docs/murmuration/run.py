#!/usr/bin/env python3
"""Measure murmur's flocks against starling field data and write docs/murmuration.md.

    docs/murmuration/run.py                      # full run: N = 500, 2000, 8000, seeds 1-3
    docs/murmuration/run.py --quick --out DIR    # a reduced run for the test suite

Each snapshot is one row of the shape metrics (columns: shape_ref.COLUMNS, the same as
MUR_SHAPE_COLUMNS in src/sim/shape.h). Where they come from:
  --rows FILE   rows the program wrote itself (phase 2: `murmur ... --shape FILE`, one CSV row per
                snapshot with a header of MUR_SHAPE_COLUMNS plus n,seed,tick,variant);
  otherwise     murmur --steps T --export STATE.csv at each snapshot tick T, measured by the C helper
                build/tests/shape_tool (--engine tool) or by the pure-Python reference shape_ref.py
                (--engine python). auto = tool when it exists.
Standard library only; plots need gnuplot.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import shape_ref  # noqa: E402

# Field values (Ballerini et al. 2008 PNAS and Anim. Behav.; Cavagna et al. 2010 PNAS)
FIELD = {
    "mid/thin": (2.8, "Ballerini 2008: I1:I2:I3 = 1:2.8:5.6"),
    "long/thin": (5.6, "Ballerini 2008"),
    "thin_angle_deg": (20.0, "thin axis within ~20 deg of vertical (upper bound)"),
    "group_polarisation": (0.96, "Cavagna 2010"),
    "gamma1": (0.8, "Ballerini 2008: strong anisotropy at k = 1 (~0.8-0.9)"),
    "k_isotropic": (6.5, "Ballerini 2008: gamma reaches 1/3 at k = 6-7"),
    "border_ratio": (None, "Ballerini 2008: border denser than interior (ratio < 1)"),
    "corr_len/flock_size": (0.35, "Cavagna 2010: xi ~ 0.35 L"),
}
VARIANTS = {  # name: extra murmur args (the classic model has one neighbour mode: metric)
    "default": [],
    "sparse": ["--set", "world_min=-120,-10,-120", "--set", "world_max=120,120,120"],
}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


def murmur_speeds(murmur, extra):
    """min/max speed and view radius in effect (for at_limit_frac and the group link)."""
    vals = {"min_speed": 6.0, "max_speed": 12.0, "view_radius": 6.0}
    out = run([murmur, "--list-params"])
    for line in out.splitlines():
        c = line.split()
        if len(c) > 2 and c[0] in vals:
            vals[c[0]] = float(c[2])
    for i, a in enumerate(extra):
        if a == "--set" and "=" in extra[i + 1]:
            k, v = extra[i + 1].split("=", 1)
            if k in vals:
                vals[k] = float(v)
    return vals


def snapshot_rows(args, sizes, seeds, ticks, variants):
    rows = []
    tmp = tempfile.mkdtemp(prefix="murmuration-")
    try:
        for variant in variants:
            extra = VARIANTS[variant] + args.set_args
            p = murmur_speeds(args.murmur, extra)
            for n in sizes[variant]:
                for seed in seeds:
                    for tick in ticks:
                        state = os.path.join(tmp, "s.csv")
                        run([args.murmur, "--boids", str(n), "--seed", str(seed), "--steps", str(tick),
                             "--export", state] + extra)
                        if args.engine == "tool":
                            out = run([args.tool, state, repr(p["view_radius"]), repr(p["min_speed"]),
                                       repr(p["max_speed"])])
                            row = {k: float(v) for k, v in next(csv.DictReader(out.splitlines())).items()}
                        else:
                            pos, vel = shape_ref.read_state(state)
                            row = shape_ref.measure(pos, vel, p["view_radius"], p["min_speed"], p["max_speed"])
                            if row is None:
                                continue
                        row.update(n=n, seed=seed, tick=tick, variant=variant)
                        rows.append(row)
                        print("%-8s N=%-5d seed=%d tick=%d group=%d" % (variant, n, seed, tick,
                                                                       row["group_size"]), file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def mean_sd(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    if not xs:
        return float("nan"), float("nan")
    m = sum(xs) / len(xs)
    return m, (math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0)


def pearson(xs, ys):
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sxy / (sx * sy) if sx > 0 and sy > 0 else float("nan")


def k_isotropic(row):
    """first k with gamma(k) <= 0.4 (~1/3); 11 if none."""
    for k in range(1, shape_ref.KMAX + 1):
        if 0 <= row["gamma%d" % k] <= 0.4:
            return k
    return shape_ref.KMAX + 1


def derived(row):
    d = dict(row)
    d["mid/thin"] = row["mid"] / row["thin"] if row["thin"] > 0 else float("nan")
    d["long/thin"] = row["long"] / row["thin"] if row["thin"] > 0 else float("nan")
    d["k_isotropic"] = k_isotropic(row)
    d["corr_len/flock_size"] = (row["corr_len"] / row["flock_size"]
                                if row["corr_len"] > 0 and row["flock_size"] > 0 else float("nan"))
    return d


def gnuplot(script, out_dir):
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no plots", file=sys.stderr)
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True, cwd=out_dir)
    if r.returncode != 0:
        sys.exit("gnuplot failed: " + r.stderr.strip())
    return True


def write_outputs(rows, out_dir, doc, quick):
    data = os.path.join(out_dir, "data")
    os.makedirs(data, exist_ok=True)
    cols = ["variant", "n", "seed", "tick"] + shape_ref.COLUMNS
    with open(os.path.join(data, "rows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] if isinstance(r[c], str) else ("%.6g" % r[c]) for c in cols])
    drows = [derived(r) for r in rows]
    base = [r for r in drows if r["variant"] == "default"]
    sizes = sorted({r["n"] for r in base})
    # extents ratios vs N
    with open(os.path.join(data, "extents.dat"), "w") as f:
        for n in sizes:
            a = mean_sd([r["mid/thin"] for r in base if r["n"] == n])
            b = mean_sd([r["long/thin"] for r in base if r["n"] == n])
            f.write("%d %.4f %.4f %.4f %.4f\n" % (n, a[0], a[1], b[0], b[1]))
    # gamma(k) per variant at the middle size
    gn = sizes[len(sizes) // 2]
    variants = sorted({r["variant"] for r in drows})
    with open(os.path.join(data, "gamma.dat"), "w") as f:
        for k in range(1, shape_ref.KMAX + 1):
            vals = []
            for v in variants:
                m, s = mean_sd([r["gamma%d" % k] for r in drows if r["variant"] == v and r["n"] == gn])
                vals += [m, s]
            f.write("%d %s\n" % (k, " ".join("%.4f" % x for x in vals)))
    pts = [(r["flock_size"], r["corr_len"]) for r in drows if r["corr_len"] > 0]
    with open(os.path.join(data, "corr.dat"), "w") as f:
        for x, y in pts:
            f.write("%.4f %.4f\n" % (x, y))
    pr = pearson([p[0] for p in pts], [p[1] for p in pts])
    plots = gnuplot("""set terminal pngcairo size 720,440
set output 'extents.png'
set title 'Flock proportions vs N (classic model)'
set xlabel 'boids N'; set ylabel 'ratio to thickness'; set logscale x; set key top left
plot 'data/extents.dat' u 1:2:3 w yerrorlines t 'width/thickness', \\
     '' u 1:4:5 w yerrorlines t 'length/thickness', 2.8 dt 2 t 'starlings 2.8', 5.6 dt 3 t 'starlings 5.6'
unset logscale x
set output 'gamma.png'
set title 'Nearest-neighbour anisotropy gamma(k), N = %d'
set xlabel 'neighbour rank k'; set ylabel 'gamma'; set yrange [0:1]; set key top right
plot %s, 1.0/3 dt 2 t 'isotropic 1/3'
set autoscale y
set output 'corr.png'
set title sprintf('Correlation length vs flock size (Pearson r = %%.2f)', %.6f)
set xlabel 'flock size L (diameter)'; set ylabel 'correlation length xi'; set key top left
plot 'data/corr.dat' u 1:2 w p pt 7 t 'snapshots', 0.35*x dt 2 t 'starlings xi = 0.35 L'
""" % (gn, ", ".join("'data/gamma.dat' u 1:%d:%d w yerrorlines t '%s (metric)'" % (2 + 2 * i, 3 + 2 * i, v)
                     for i, v in enumerate(variants)), pr if not math.isnan(pr) else 0.0), out_dir)
    # the table
    lines = ["| quantity | field value | measured (mean ± sd over %d snapshots, all N, default box) |"
             % len(base), "|---|---|---|"]
    for key, (target, src) in FIELD.items():
        m, s = mean_sd([r[key] for r in base])
        tv = "< 1" if target is None else ("%g" % target)
        lines.append("| %s | %s (%s) | %.3f ± %.3f |" % (key, tv, src, m, s))
    for key in ("speed_cv", "at_limit_frac", "close_frac", "group_size", "vel_thin_angle_deg"):
        m, s = mean_sd([r[key] for r in base])
        lines.append("| %s | - | %.3f ± %.3f |" % (key, m, s))
    table = "\n".join(lines)
    per_n = ["| N | group size | mid/thin | long/thin | thin angle | polarisation | gamma1 | border ratio |"
             " xi/L |", "|---|---|---|---|---|---|---|---|---|"]
    for n in sizes:
        sel = [r for r in base if r["n"] == n]
        per_n.append("| %d | %s |" % (n, " | ".join("%.3g" % mean_sd([r[k] for r in sel])[0] for k in (
            "group_size", "mid/thin", "long/thin", "thin_angle_deg", "group_polarisation", "gamma1",
            "border_ratio", "corr_len/flock_size"))))
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write("%s\n\n%s\n\nPearson r (xi vs L, %d snapshots): %.3f\n" % (table, "\n".join(per_n), len(pts), pr))
    if doc:
        write_doc(doc, table, "\n".join(per_n), pr, len(pts), plots, os.path.relpath(out_dir, os.path.dirname(doc)),
                  quick)
    return table


def write_doc(doc, table, per_n, pr, npts, plots, rel, quick):
    fig = "" if not plots else (
        "![extents](%s/extents.png)\n\n![gamma](%s/gamma.png)\n\n![correlation](%s/corr.png)\n" % (rel, rel, rel))
    text = open(os.path.join(HERE, "template.md")).read()
    text = text.replace("@TABLE@", table).replace("@PER_N@", per_n).replace("@FIGURES@", fig)
    text = text.replace("@PEARSON@", "%.3f over %d snapshots" % (pr, npts))
    text = text.replace("@RUN@", "quick run" if quick else "full run")
    with open(doc, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build", "src", "app", "murmur"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tests", "shape_tool"))
    ap.add_argument("--engine", choices=("auto", "tool", "python"), default="auto")
    ap.add_argument("--rows", help="read snapshot rows from this CSV instead of running murmur")
    ap.add_argument("--out", default=HERE, help="directory for data/ and plots")
    ap.add_argument("--doc", help="markdown to write (default: docs/murmuration.md on a full run)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--set", dest="set_args", action="append", default=[], metavar="NAME=VALUE",
                    help="extra murmur parameter for every run")
    args = ap.parse_args()
    args.set_args = [x for kv in args.set_args for x in ("--set", kv)]
    if args.engine == "auto":
        args.engine = "tool" if os.access(args.tool, os.X_OK) else "python"
    if args.rows:
        with open(args.rows) as f:
            rows = []
            for r in csv.DictReader(f):
                rows.append({k: (v if k == "variant" else float(v)) for k, v in r.items()})
    else:
        if not os.access(args.murmur, os.X_OK):
            sys.exit("no murmur at %s (build it, or give --murmur)" % args.murmur)
        if args.quick:
            sizes = {"default": [300], "sparse": [300]}
            seeds, ticks = [1], [300]
        else:
            ns = [int(x) for x in args.sizes.split(",")]
            sizes = {"default": ns, "sparse": [ns[len(ns) // 2]]}
            seeds, ticks = list(range(1, args.seeds + 1)), [800, 1200, 1600]
        rows = snapshot_rows(args, sizes, seeds, ticks, ["default", "sparse"])
    if not rows:
        sys.exit("no snapshot had a group of at least %d boids" % (shape_ref.KMAX + 2))
    os.makedirs(args.out, exist_ok=True)
    doc = args.doc or (None if args.quick else os.path.join(ROOT, "docs", "murmuration.md"))
    print(write_outputs(rows, args.out, doc, args.quick))


if __name__ == "__main__":
    main()
