#!/usr/bin/env python3
"""Measure murmur's starling preset against starling field data and write docs/murmuration.md.

    docs/murmuration/run.py                      # full run: N = 500, 2000, 8000, seeds 1-5
    docs/murmuration/run.py --quick --out DIR    # a reduced run (the test suite); --check asserts
                                                 # the qualitative results

Each flock is settled (--settle ticks), then --snaps snapshots are taken --every ticks apart by
chaining murmur's batch mode (`--steps T --export S.csv`, then `--init S.csv --steps every --export`;
the chain restarts the roll angles at 0, a small perturbation). Each snapshot's biggest group is
measured by build/tests/shape_tool (src/sim/shape.c) or the pure-Python reference shape_ref.py
(--engine python); columns: shape_ref.COLUMNS. --rows FILE reads rows written earlier instead.
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
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import shape_ref  # noqa: E402

# Targets of issue 11 (field values: Ballerini et al. 2008 PNAS and Anim. Behav.; Cavagna et al. 2010).
# key: (field value text, test(mean) -> bool, miss(mean) -> how far off, source)
TARGETS = [
    ("mid/thin", "2.8 ± 0.6", lambda m: abs(m - 2.8) <= 0.6, lambda m: abs(m - 2.8) - 0.6, "Ballerini 2008: 1 : 2.8 : 5.6"),
    ("long/thin", "5.6 ± 1.5", lambda m: abs(m - 5.6) <= 1.5, lambda m: abs(m - 5.6) - 1.5, "Ballerini 2008"),
    ("thin_angle_deg", "≤ 25", lambda m: m <= 25, lambda m: m - 25, "thin axis near vertical (Ballerini 2008: ~20°)"),
    ("vel_thin_angle_deg", "≈ 90", lambda m: m >= 70, lambda m: 70 - m, "velocity in the flock's plane"),
    ("group_polarisation", "≥ 0.9", lambda m: m >= 0.9, lambda m: 0.9 - m, "Cavagna 2010: 0.96"),
    ("speed_cv", "0.03 .. 0.2", lambda m: 0.03 <= m <= 0.2, lambda m: max(0.03 - m, m - 0.2), "small spread round a cruise speed"),
    ("at_limit_frac", "< 0.01", lambda m: m < 0.01, lambda m: m - 0.01, "the speed clamp is only a safety limit"),
    ("close_frac", "< 0.005", lambda m: m < 0.005, lambda m: m - 0.005, "no overrun pairs (NN < 0.3 mean NN)"),
    ("gamma1", "≥ 0.45", lambda m: m >= 0.45, lambda m: 0.45 - m, "Ballerini 2008: ~0.8 at k = 1"),
    ("border_ratio", "< 1", lambda m: m < 1, lambda m: m - 1, "Ballerini 2008: denser border"),
    ("corr_len/flock_size", "0.35 ± 0.1", lambda m: abs(m - 0.35) <= 0.1, lambda m: abs(m - 0.35) - 0.1, "Cavagna 2010: ξ ≈ 0.35 L"),
]
# variant: (extra murmur args, group link wu). Densities 4x apart: separation_radius x 4^(1/3).
SEP_SPARSE = 4.0 * 4 ** (1 / 3)
METRIC_RADIUS = 3.0
VARIANTS = {
    "starling": ([], 10.0),
    "starling-sparse": (["--set", "separation_radius=%.3f" % SEP_SPARSE,
                         "--set", "view_radius=%.3f" % (10.0 * 4 ** (1 / 3))], 10.0 * 4 ** (1 / 3)),
    "metric": (["--set", "neighbours=metric", "--set", "hard_radius=0", "--set", "view_radius=%g" % METRIC_RADIUS],
               10.0),
    "metric-sparse": (["--set", "neighbours=metric", "--set", "hard_radius=0",
                       "--set", "view_radius=%g" % (METRIC_RADIUS * 4 ** (1 / 3)),
                       "--set", "separation_radius=%.3f" % SEP_SPARSE], 10.0 * 4 ** (1 / 3)),
}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


def preset_speeds(murmur, extra):
    vals = {"min_speed": 0.0, "max_speed": 1e6}
    out = run([murmur, "--list-presets"])
    block = None
    for line in out.splitlines():
        if not line.startswith(" "):
            block = line.split(":")[0]
            continue
        k, _, v = line.strip().partition("=")
        if block == "starling" and k in vals:
            vals[k] = float(v)
    for i, a in enumerate(extra):
        if a == "--set" and extra[i + 1].split("=")[0] in vals:
            vals[extra[i + 1].split("=")[0]] = float(extra[i + 1].split("=")[1])
    return vals


def measure(args, state, link, p):
    if args.engine == "tool":
        out = run([args.tool, state, repr(link), repr(p["min_speed"]), repr(p["max_speed"])])
        return {k: float(v) for k, v in next(csv.DictReader(out.splitlines())).items()}
    pos, vel = shape_ref.read_state(state)
    return shape_ref.measure(pos, vel, link, p["min_speed"], p["max_speed"])


def one_flock(args, tmp, variant, n, seed, p):
    extra, link = VARIANTS[variant]
    extra = ["--preset", "starling"] + extra + args.set_args
    state = os.path.join(tmp, "%s-%d-%d.csv" % (variant, n, seed))
    nxt, met = state + ".next.csv", state + ".metrics.csv"
    # the settling run stops `every` ticks early: each snapshot ends a chained run of `every` ticks whose
    # metrics give the whole flock's mean nearest-neighbour distance at the snapshot
    run([args.murmur, "--boids", str(n), "--seed", str(seed), "--steps", str(max(1, args.settle - args.every)),
         "--export", state, "--threads", "1"] + extra)
    rows = []
    for k in range(args.snaps):
        run([args.murmur, "--init", state, "--steps", str(args.every), "--export", nxt, "--metrics", met,
             "--threads", "1"] + extra)
        os.replace(nxt, state)
        with open(met) as f:
            last = list(csv.DictReader(f))[-1]
        row = measure(args, state, link, p)
        if row is None:
            continue
        row.update(n=n, seed=seed, tick=args.settle + k * args.every, variant=variant,
                   nn=float(last["nn_distance"]))
        rows.append(row)
    print("%-16s N=%-5d seed=%d: %d snapshots, group %s" % (variant, n, seed, len(rows),
          rows[-1]["group_size"] if rows else "-"), file=sys.stderr)
    return rows


def snapshot_rows(args, plan):
    tmp = tempfile.mkdtemp(prefix="murmuration-")
    p = preset_speeds(args.murmur, args.set_args)
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            futs = [ex.submit(one_flock, args, tmp, v, n, s, p) for v, n, s in plan]
            return [r for f in futs for r in f.result()]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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


def derived(row):
    d = dict(row)
    d["mid/thin"] = row["mid"] / row["thin"] if row["thin"] > 0 else float("nan")
    d["long/thin"] = row["long"] / row["thin"] if row["thin"] > 0 else float("nan")
    d["corr_len/flock_size"] = (row["corr_len"] / row["flock_size"]
                                if row["corr_len"] > 0 and row["flock_size"] > 0 else float("nan"))
    return d


def gamma_curve(rows):
    return [mean_sd([r["gamma%d" % k] for r in rows if r["gamma%d" % k] >= 0])[0] for k in range(1, shape_ref.KMAX + 1)]


def k_isotropic(curve):
    """first k whose mean gamma is within 0.03 of 1/3 (KMAX + 1 if none)."""
    for k, g in enumerate(curve, 1):
        if abs(g - 1 / 3) <= 0.03:
            return k
    return shape_ref.KMAX + 1


def gnuplot(script, out_dir):
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no plots", file=sys.stderr)
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True, cwd=out_dir)
    if r.returncode != 0:
        sys.exit("gnuplot failed: " + r.stderr.strip())
    return True


def summarise(rows):
    drows = [derived(r) for r in rows]
    main = [r for r in drows if r["variant"] == "starling"]
    sizes = sorted({int(r["n"]) for r in main})
    gn = sorted({int(r["n"]) for r in drows if r["variant"] != "starling"} or sizes)[0]
    curves = {v: gamma_curve([r for r in drows if r["variant"] == v and int(r["n"]) == gn])
              for v in VARIANTS if any(r["variant"] == v for r in drows)}
    nn = {v: mean_sd([r["group_size"] for r in drows if r["variant"] == v])[0] for v in curves}
    pts = [(r["flock_size"], r["corr_len"]) for r in main if r["corr_len"] > 0]
    return drows, main, sizes, gn, curves, pts


def write_outputs(rows, out_dir, doc, quick):
    data = os.path.join(out_dir, "data")
    os.makedirs(data, exist_ok=True)
    cols = ["variant", "n", "seed", "tick"] + shape_ref.COLUMNS
    with open(os.path.join(data, "rows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] if isinstance(r[c], str) else ("%.6g" % r[c]) for c in cols])
    drows, main, sizes, gn, curves, pts = summarise(rows)
    with open(os.path.join(data, "extents.dat"), "w") as f:
        for n in sizes:
            a = mean_sd([r["mid/thin"] for r in main if r["n"] == n])
            b = mean_sd([r["long/thin"] for r in main if r["n"] == n])
            f.write("%d %.4f %.4f %.4f %.4f\n" % (n, a[0], a[1], b[0], b[1]))
    names = list(curves)
    with open(os.path.join(data, "gamma.dat"), "w") as f:
        for k in range(shape_ref.KMAX):
            f.write("%d %s\n" % (k + 1, " ".join("%.4f" % curves[v][k] for v in names)))
    with open(os.path.join(data, "corr.dat"), "w") as f:
        for x, y in pts:
            f.write("%.4f %.4f\n" % (x, y))
    pr = pearson([p[0] for p in pts], [p[1] for p in pts])
    plots = gnuplot("""set terminal pngcairo size 720,440
set output 'extents.png'
set title 'Flock proportions vs N (starling preset)'
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
""" % (gn, ", ".join("'data/gamma.dat' u 1:%d w lp t '%s'" % (2 + i, v) for i, v in enumerate(names)),
       pr if not math.isnan(pr) else 0.0), out_dir)
    lines = ["| quantity | target | measured (mean ± sd, %d snapshots, starling preset, all N) | met? | source |"
             % len(main), "|---|---|---|---|---|"]
    for key, tv, ok, miss, src in TARGETS:
        m, s = mean_sd([r[key] for r in main])
        verdict = "yes" if ok(m) else ("no (off by %.3g)" % miss(m) if not math.isnan(m) else "no data")
        lines.append("| %s | %s | %.3f ± %.3f | %s | %s |" % (key, tv, m, s, verdict, src))
    for v in names:
        if v.startswith("starling"):
            k = k_isotropic(curves[v])
            lines.append("| k where γ(k) is within 0.03 of 1/3 (%s, N = %d) | 7 ± 1 | %s | %s | Ballerini 2008 |" % (
                v, gn, k if k <= shape_ref.KMAX else "> %d" % shape_ref.KMAX, "yes" if 6 <= k <= 8 else "no"))
    lines.append("| Pearson r of ξ vs L | ≥ 0.9 | %.3f | %s | Cavagna 2010 |" % (pr, "yes" if pr >= 0.9 else "no"))
    for key in ("speed_mean", "group_size", "flock_size", "thin"):
        m, s = mean_sd([r[key] for r in main])
        lines.append("| %s | - | %.3f ± %.3f | - | - |" % (key, m, s))
    table = "\n".join(lines)
    per_n = ["| N | group size | mid/thin | long/thin | thin angle | polarisation | speed cv | close | gamma1 |"
             " border ratio | xi/L |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in sizes:
        sel = [r for r in main if r["n"] == n]
        per_n.append("| %d | %s |" % (n, " | ".join("%.3g" % mean_sd([r[k] for r in sel])[0] for k in (
            "group_size", "mid/thin", "long/thin", "thin_angle_deg", "group_polarisation", "speed_cv",
            "close_frac", "gamma1", "border_ratio", "corr_len/flock_size"))))
    gam = ["| k | %s |" % " | ".join(names), "|---|%s" % ("---|" * len(names))]
    for k in range(shape_ref.KMAX):
        gam.append("| %d | %s |" % (k + 1, " | ".join("%.3f" % curves[v][k] for v in names)))
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write("%s\n\n%s\n\n%s\n" % (table, "\n".join(per_n), "\n".join(gam)))
    if doc:
        fig = "" if not plots else "![extents](%s/extents.png)\n\n![gamma](%s/gamma.png)\n\n![correlation](%s/corr.png)\n" % ((
            os.path.relpath(out_dir, os.path.dirname(doc)),) * 3)
        text = open(os.path.join(HERE, "template.md")).read()
        for a, b in (("@TABLE@", table), ("@PER_N@", "\n".join(per_n)), ("@GAMMA@", "\n".join(gam)),
                     ("@FIGURES@", fig), ("@RUN@", "quick run" if quick else "full run"), ("@GN@", str(gn))):
            text = text.replace(a, b)
        with open(doc, "w") as f:
            f.write(text)
    return table, drows, curves


def check(drows, curves):
    """The qualitative results the quick run must show (tests, suite experiments)."""
    main = [r for r in drows if r["variant"] == "starling"]
    m = {k: mean_sd([r[k] for r in main])[0] for k in ("mid/thin", "thin_angle_deg", "group_polarisation",
                                                       "close_frac")}
    assert m["thin_angle_deg"] < 30 and m["mid/thin"] > 1.5, ("not thin and horizontal", m)
    # the typical snapshot (median): one that catches two flocks crossing within the group link is
    # not polarised as a group, and the quick run has only 3 snapshots
    pol = sorted(r["group_polarisation"] for r in main)
    assert pol[len(pol) // 2] > 0.9, ("not polarised", pol, m)
    assert m["close_frac"] < 0.005, ("overrun pairs", m)
    # gamma(k) is not asserted: the preset misses that target (docs/murmuration.md says by how much)
    print("qualitative checks ok: %s, gamma %s" % (m, ["%.2f" % g for g in curves["starling"]]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build", "src", "app", "murmur"))
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tests", "shape_tool"))
    ap.add_argument("--engine", choices=("auto", "tool", "python"), default="auto")
    ap.add_argument("--rows", help="read snapshot rows from this CSV instead of running murmur")
    ap.add_argument("--out", default=HERE, help="directory for data/ and plots")
    ap.add_argument("--doc", help="markdown to write (default: docs/murmuration.md on a full run)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--check", action="store_true", help="assert the qualitative results")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--settle", type=int, default=2500, help="ticks before the first snapshot")
    ap.add_argument("--snaps", type=int, default=20)
    ap.add_argument("--every", type=int, default=25, help="ticks between snapshots")
    ap.add_argument("--jobs", type=int, default=2, help="flocks run at once")
    ap.add_argument("--set", dest="set_args", action="append", default=[], metavar="NAME=VALUE",
                    help="extra murmur parameter for every run")
    args = ap.parse_args()
    args.set_args = [x for kv in args.set_args for x in ("--set", kv)]
    if args.engine == "auto":
        args.engine = "tool" if os.access(args.tool, os.X_OK) else "python"
    if args.rows:
        with open(args.rows) as f:
            rows = [{k: (v if k == "variant" else float(v)) for k, v in r.items()} for r in csv.DictReader(f)]
    else:
        if not os.access(args.murmur, os.X_OK):
            sys.exit("no murmur at %s (build it, or give --murmur)" % args.murmur)
        if args.quick:
            args.settle, args.snaps, args.every = min(args.settle, 1500), min(args.snaps, 3), args.every
            plan = [("starling", 400, 1)]
        else:
            ns = [int(x) for x in args.sizes.split(",")]
            gn = ns[len(ns) // 2]
            plan = [("starling", n, s) for n in reversed(ns) for s in range(1, args.seeds + 1)]
            plan += [(v, gn, s) for v in ("starling-sparse", "metric", "metric-sparse") for s in (1, 2)]
        rows = snapshot_rows(args, plan)
    if not rows:
        sys.exit("no snapshot had a group of at least %d boids" % (shape_ref.KMAX + 2))
    os.makedirs(args.out, exist_ok=True)
    doc = args.doc or (None if args.quick else os.path.join(ROOT, "docs", "murmuration.md"))
    table, drows, curves = write_outputs(rows, args.out, doc, args.quick)
    print(table)
    if args.check:
        check(drows, curves)


if __name__ == "__main__":
    main()
