#!/usr/bin/env python3
"""Measure murmur's starling preset against starling field data and write docs/murmuration.md.

    docs/murmuration/run.py                      # full run: N = 500, 2000, 8000, seeds 1-5
    docs/murmuration/run.py --quick --out DIR    # a reduced run (the test suite); --check asserts
                                                 # the qualitative results

Each flock is settled (--settle ticks), then --snaps snapshots are taken --every ticks apart by
chaining murmur's batch mode (`--steps T --export S.csv`, then `--init S.csv --steps every --export`;
the state file carries the roll angles, so the chain continues the flight exactly). Each snapshot's biggest group is
measured by build/tests/shape_tool (src/sim/shape.c) or the pure-Python reference shape_ref.py
(--engine python); columns: shape_ref.COLUMNS. --rows FILE reads rows written earlier instead.
Issue 24's metrics over time (thin-axis tilt, neighbour turnover, heading changes, splits and merges
a minute, share at a speed limit) need one continuous run, not the snapshot chain: tracked_metrics()
below gets them from `murmur --metrics` at the same ticks (docs/rules.md, "Metrics over time").
Standard library only; plots need gnuplot. Where numpy and scipy import, each row also gets gamma(k)
with Ballerini's (Hanisch's) border correction (hanisch_gamma(): columns hgamma1-hgamma10) and the
page a second gamma(k) table; without them, or with --rows of a file without those columns, nothing
changes.
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

# Issue 24's targets, each at every N on its own (field values: Ballerini et al. 2008 PNAS and Anim.
# Behav.; Cavagna et al. 2010). key: (statistic, target text, met(value) -> bool, miss(value) -> by how
# much, source). The statistic of one N is the mean over its seeds of each seed's mean over its
# snapshots, except thin_angle_median and tilt_over_10, which pool the N's snapshots.
TARGETS = [
    ("mid/thin", "2.8 ± 0.8", lambda m: abs(m - 2.8) <= 0.8, lambda m: abs(m - 2.8) - 0.8, "Ballerini 2008: 1 : 2.8 : 5.6"),
    ("long/thin", "5.6 ± 2.0", lambda m: abs(m - 5.6) <= 2.0, lambda m: abs(m - 5.6) - 2.0, "Ballerini 2008"),
    ("group_polarisation", "≥ 0.9", lambda m: m >= 0.9, lambda m: 0.9 - m, "Cavagna 2010: 0.96 ± 0.03"),
    ("nn", "0.68 .. 1.51 m", lambda m: 0.68 <= m <= 1.51, lambda m: max(0.68 - m, m - 1.51), "Ballerini 2008 (Anim. Behav.)"),
    ("speed_mean", "9 .. 13 m/s", lambda m: 9 <= m <= 13, lambda m: max(9 - m, m - 13), "starlings' cruise speed"),
    ("speed_cv", "0.03 .. 0.2", lambda m: 0.03 <= m <= 0.2, lambda m: max(0.03 - m, m - 0.2), "small spread round a cruise speed"),
    ("at_limit_frac", "< 0.01", lambda m: m < 0.01, lambda m: m - 0.01, "the speed clamp is only a safety limit"),
    ("border_ratio", "< 1", lambda m: m < 1, lambda m: m - 1, "Ballerini 2008: denser border"),
    ("gamma1", "≥ 0.6", lambda m: m >= 0.6, lambda m: 0.6 - m, "Ballerini 2008: ~0.8 at k = 1"),
    ("gamma7_10_dev", "≤ 0.1", lambda m: m <= 0.1, lambda m: m - 0.1, "Ballerini 2008: γ(k) ≈ 1/3 from k ≈ 7"),
    ("thin_angle_median", "≤ 25°", lambda m: m <= 25, lambda m: m - 25, "Ballerini 2008: thin axis near vertical"),
    ("tilt_over_10", "≥ 0.1", lambda m: m >= 0.1, lambda m: 0.1 - m, "the flock banks as it turns"),
    ("corr_len/flock_size", "0.35 ± 0.1", lambda m: abs(m - 0.35) <= 0.1, lambda m: abs(m - 0.35) - 0.1, "Cavagna 2010: ξ ≈ 0.35 L"),
    ("turnover", "< 0.9", lambda m: m < 0.9, lambda m: m - 0.9, "neighbours change over time"),
]
LABEL = {"mid/thin": "mid/thin", "long/thin": "long/thin", "group_polarisation": "polarisation",
         "nn": "nearest neighbour (m)", "speed_mean": "speed mean (m/s)", "speed_cv": "speed CV",
         "at_limit_frac": "share at a speed limit", "border_ratio": "border / interior NN distance",
         "gamma1": "γ(1)", "gamma7_10_dev": "max |γ(k) − 1/3|, k = 7-10",
         "thin_angle_median": "thin axis from vertical, median (°)",
         "tilt_over_10": "share of snapshots tilted > 10°", "corr_len/flock_size": "ξ / L",
         "turnover": "neighbour turnover (10 s)"}
# gamma(k) with Ballerini's border correction (Hanisch's: a bird is focal for k only if its k-th neighbour
# is closer than the group's convex hull), beside the page's (the outer 20% by rho not focal), which
# biases gamma(7-10) toward 0 for a flat flock (tools/gamma_probe.py). Only where numpy and scipy import.
HGAMMA = ["hgamma%d" % k for k in range(1, shape_ref.KMAX + 1)]
# issue 24's metrics over time, per seed from one continuous run (tracked_metrics)
LIVING = ("turnover", "heading_changes_per_min", "splits_per_min", "merges_per_min")
LABEL.update(heading_changes_per_min="heading changes a minute", splits_per_min="splits a minute",
             merges_per_min="merges a minute", group_size="biggest group (birds)",
             close_frac="share of overrun pairs")
# variant: (extra murmur args, group link wu). Densities 4x apart: separation_radius x 4^(1/3).
SEP_SPARSE = 2.0 * 4 ** (1 / 3)
METRIC_RADIUS = 3.0
TOPO_ONLY_OFF = ["--set", "hard_radius=0", "--set", "centrality=0", "--set", "separation_nearest=0",
                 "--set", "cohesion_far=0", "--set", "bank_align=0"]
VARIANTS = {
    "starling": ([], 10.0),
    "starling-sparse": (["--set", "separation_radius=%.3f" % SEP_SPARSE,
                         "--set", "view_radius=%.3f" % (10.0 * 4 ** (1 / 3))], 10.0 * 4 ** (1 / 3)),
    "metric": (["--set", "neighbours=metric", "--set", "view_radius=%g" % METRIC_RADIUS] + TOPO_ONLY_OFF, 10.0),
}
# Seeds (docs/murmuration.md, "Protocol"): tuning seeds were the only ones used while choosing the
# preset (tools/murmuration_tune.py); the reporting seeds were declared before the reporting run.
TUNING_SEEDS = (1001, 1002, 1003)
REPORTING_SEEDS = (2001, 2002, 2003, 2004, 2005)


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


# The metrics CSV columns of issue 24 (docs/rules.md, "Metrics over time"), written by murmur --metrics.
TRACKED = ("thin_tilt", "neighbour_turnover", "at_speed_limit", "heading_changes", "splits", "merges")


def hanisch_gamma(state, link):
    """gamma(1..KMAX) of the state's biggest group with Hanisch's correction (-1 where no bird is
    focal), or None without numpy and scipy or with a group too small."""
    try:
        import numpy as np
        from scipy.sparse.csgraph import connected_components
        from scipy.spatial import ConvexHull, cKDTree
    except ImportError:
        return None
    pos, vel = shape_ref.read_state(state)
    p, v = np.array(pos), np.array(vel)
    if len(p) < shape_ref.KMAX + 2:
        return None
    tree = cKDTree(p)
    _, lab = connected_components(tree.sparse_distance_matrix(tree, link, output_type="coo_matrix"), directed=False)
    g = lab == np.bincount(lab).argmax()
    p, v = p[g], v[g]
    mv = v.mean(0)
    if len(p) < shape_ref.KMAX + 2 or not np.linalg.norm(mv) > 0:
        return None
    h = ConvexHull(p)
    depth = -(p @ h.equations[:, :3].T + h.equations[:, 3]).max(1)
    d, idx = cKDTree(p).query(p, k=shape_ref.KMAX + 1)
    d, idx = d[:, 1:], idx[:, 1:]
    out = []
    for k in range(shape_ref.KMAX):
        f = (d[:, k] < depth) & (d[:, k] > 0)
        if not f.any():
            out.append(-1.0)
            continue
        u = (p[idx[f, k]] - p[f]) / d[f, k][:, None]
        w, vec = np.linalg.eigh(u.T @ u / len(u))
        out.append(float((vec[:, 0] @ mv / np.linalg.norm(mv)) ** 2))
    return out


def tick_length(murmur, extra):
    """dt in s for murmur's arguments extra: --set dt=, else the preset's (default starling), else the default."""
    for i, a in enumerate(extra):
        if a == "--set" and extra[i + 1].startswith("dt="):
            return float(extra[i + 1][3:])
    preset = extra[extra.index("--preset") + 1] if "--preset" in extra else "starling"
    blk = None
    for line in run([murmur, "--list-presets"]).splitlines():
        if not line.startswith(" "):
            blk = line.split(":")[0]
        elif blk == preset and line.strip().startswith("dt="):
            return float(line.strip()[3:])
    for line in run([murmur, "--list-params"]).splitlines():
        if line.split()[:1] == ["dt"]:
            return float(line.split()[2])
    raise RuntimeError("no dt in murmur --list-params")


def tracked_metrics(murmur, n, seed, extra, settle, every, snaps, threads=1):
    """Issue 24's metrics over time of one flock, from one continuous `murmur --metrics` run.

    Runs murmur (path `murmur`) for settle + (snaps - 1) * every ticks with --boids n --seed seed and
    the extra arguments (e.g. ["--preset", "starling"]; the run is continuous, so the turnover's
    10 s lists and the event counts carry across the snapshots, unlike the --export/--init chain).
    Returns a dict: "rows", the metrics rows (column -> float) at the snapshot ticks settle,
    settle + every, ...; "heading_changes_per_min", "splits_per_min", "merges_per_min", the counts'
    differences between the first and the last snapshot over that time (so only the settled span
    counts); "tilt_median" and "tilt_over_10" (the share of snapshots whose thin_tilt exceeds 10
    degrees); "turnover_mean" over the snapshots that have a value (turnover -1 = not yet known).
    """
    steps = settle + (snaps - 1) * every
    tmp = tempfile.mkdtemp(prefix="murmur-tracked-")
    try:
        path = os.path.join(tmp, "m.csv")
        run([murmur, "--boids", str(n), "--seed", str(seed), "--steps", str(steps), "--metrics", path,
             "--threads", str(threads)] + list(extra))
        with open(path) as fp:
            table = {int(r["tick"]): r for r in csv.DictReader(line for line in fp if not line.startswith("#"))}
        dt = tick_length(murmur, extra)
        ticks = [settle + k * every for k in range(snaps)]
        rows = [{k: float(table[t][k]) for k in table[t]} for t in ticks]
        minutes = (ticks[-1] - ticks[0]) * dt / 60.0
        out = {"rows": rows}
        for k in ("heading_changes", "splits", "merges"):
            out[k + "_per_min"] = (rows[-1][k] - rows[0][k]) / minutes if minutes > 0 else 0.0
        tilts = sorted(r["thin_tilt"] for r in rows)
        out["tilt_median"] = (tilts[(len(tilts) - 1) // 2] + tilts[len(tilts) // 2]) / 2.0
        out["tilt_over_10"] = sum(t > 10.0 for t in tilts) / len(tilts)
        turn = [r["neighbour_turnover"] for r in rows if r["neighbour_turnover"] >= 0.0]
        out["turnover_mean"] = sum(turn) / len(turn) if turn else -1.0
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def one_flock(args, tmp, variant, n, seed, p):
    extra, link = VARIANTS[variant]
    extra = ["--preset", "starling"] + extra + args.set_args
    state = os.path.join(tmp, "%s-%d-%d.csv" % (variant, n, seed))
    nxt, met = state + ".next.csv", state + ".metrics.csv"
    # the settling run stops `every` ticks early: each snapshot ends a chained run of `every` ticks whose
    # metrics give the whole flock's mean nearest-neighbour distance at the snapshot
    run([args.murmur, "--boids", str(n), "--seed", str(seed), "--steps", str(max(1, args.settle - args.every)),
         "--export", state, "--threads", "1"] + extra)
    # a parameter changed during the settling run (--at TICK:name=value) holds in the snapshot runs, which
    # start again from tick 0: there it is set from the start
    snap_extra = []
    for i, x in enumerate(extra):
        if i > 0 and extra[i - 1] == "--at":
            snap_extra[-1:] = ["--set", x.partition(":")[2]]
        else:
            snap_extra.append(x)
    rows = []
    for k in range(args.snaps):
        run([args.murmur, "--init", state, "--steps", str(args.every), "--export", nxt, "--metrics", met,
             "--threads", "1"] + snap_extra)
        os.replace(nxt, state)
        with open(met) as f:
            last = list(csv.DictReader(line for line in f if not line.startswith("#")))[-1]
        row = measure(args, state, link, p)
        if row is None:
            continue
        hg = hanisch_gamma(state, link)
        if hg is not None:
            row.update(zip(HGAMMA, hg))
        row.update(n=n, seed=seed, tick=args.settle + k * args.every, variant=variant,
                   nn=float(last["nn_distance"]), turnover=float("nan"), heading_changes_per_min=float("nan"),
                   splits_per_min=float("nan"), merges_per_min=float("nan"))
        rows.append(row)
    if getattr(args, "tracked", True) and rows:
        # issue 24's metrics over time need one continuous run (metrics24's tracked_metrics)
        tr = tracked_metrics(args.murmur, n, seed, extra, args.settle, args.every, args.snaps)
        for r in rows:
            r.update(turnover=tr["turnover_mean"], heading_changes_per_min=tr["heading_changes_per_min"],
                     splits_per_min=tr["splits_per_min"], merges_per_min=tr["merges_per_min"])
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


def gnuplot(script, out_dir):
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no plots", file=sys.stderr)
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True, cwd=out_dir)
    if r.returncode != 0:
        sys.exit("gnuplot failed: " + r.stderr.strip())
    return True


def per_seed(rows):
    """One dict per seed: the mean over its snapshots of every statistic (pooled ones added later)."""
    out = {}
    for seed in sorted({r["seed"] for r in rows}):
        sel = [r for r in rows if r["seed"] == seed]
        d = {k: mean_sd([r[k] for r in sel if not k.startswith("gamma") or r[k] >= 0])[0] for k in (
             "mid/thin", "long/thin", "group_polarisation", "nn", "speed_mean", "speed_cv", "at_limit_frac",
             "border_ratio", "gamma1", "corr_len/flock_size", "thin_angle_deg", "group_size", "close_frac") + LIVING}
        curve = gamma_curve(sel)
        d["gamma7_10_dev"] = max(abs(g - 1 / 3) for g in curve[6:10])
        out[seed] = d
    return out


def stats_of_n(rows, rule="page"):
    """The statistics of one N: mean and sd over the seeds' means, and the pooled snapshot ones. The
    target rows' gamma is the rule hanisch_first() chose; "alt" is the other rule's curve."""
    seeds = per_seed(rows)
    st = {}
    for k in next(iter(seeds.values())):
        if k == "gamma7_10_dev":
            continue
        st[k] = mean_sd([d[k] for d in seeds.values()])
    curve = gamma_curve(rows)
    alt = ["pgamma%d" % k for k in range(1, shape_ref.KMAX + 1)] if rule == "hanisch" else HGAMMA
    if all(alt[0] in r for r in rows):
        st["alt"] = [mean_sd([r[h] for r in rows if r[h] >= 0])[0] for h in alt]
    st["gamma7_10_dev"] = (max(abs(g - 1 / 3) for g in curve[6:10]), mean_sd([d["gamma7_10_dev"] for d in seeds.values()])[1])
    ang = sorted(r["thin_angle_deg"] for r in rows)
    st["thin_angle_median"] = ((ang[(len(ang) - 1) // 2] + ang[len(ang) // 2]) / 2, float("nan"))
    st["tilt_over_10"] = (sum(a > 10 for a in ang) / len(ang), float("nan"))
    st["curve"] = curve
    st["seeds"] = len(seeds)
    st["snaps"] = len(rows)
    return st


def hanisch_first(drows):
    """Ballerini's border correction (Hanisch's) is the issue's gamma(k): where every row carries its
    columns, the target rows and the first gamma(k) table use it, and the page's own rule (the outer 20%
    by rho not focal) moves to the second table (columns pgamma1-10); without them the page's rule
    stays. Returns the rule the target rows use."""
    if not drows or not all(h in r for r in drows for h in HGAMMA):
        return "page"
    for r in drows:
        for k in range(1, shape_ref.KMAX + 1):
            r["pgamma%d" % k], r["gamma%d" % k] = r["gamma%d" % k], r["hgamma%d" % k]
    return "hanisch"


def summarise(rows):
    drows = [derived(r) for r in rows]
    rule = hanisch_first(drows)
    main = [r for r in drows if r["variant"] == "starling"]
    sizes = sorted({int(r["n"]) for r in main})
    per_n = {n: stats_of_n([r for r in main if int(r["n"]) == n], rule) for n in sizes}
    pts = [(r["flock_size"], r["corr_len"]) for r in main if r["corr_len"] > 0]
    return drows, main, sizes, per_n, pts, rule


def fmt(v, sd=None):
    if v is None or math.isnan(v):
        return "-"
    a = "%.3g" % v
    return a if sd is None or math.isnan(sd) else "%s ± %.2g" % (a, sd)


def write_outputs(rows, out_dir, doc, quick):
    data = os.path.join(out_dir, "data")
    os.makedirs(data, exist_ok=True)
    cols = ["variant", "n", "seed", "tick"] + shape_ref.COLUMNS + ["nn"] + list(LIVING)
    if any(HGAMMA[0] in r for r in rows):
        cols += HGAMMA
    with open(os.path.join(data, "rows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow(["" if c not in r else r[c] if isinstance(r[c], str) else ("%.6g" % r[c]) for c in cols])
    drows, main, sizes, per_n, pts, rule = summarise(rows)
    keys = [t[0] for t in TARGETS]
    with open(os.path.join(data, "per_n.dat"), "w") as f:
        f.write("# N %s (each: mean sd over the seeds)\n" % " ".join(k.replace("/", "_") for k in keys))
        for n in sizes:
            f.write("%d %s\n" % (n, " ".join("%.5g %.5g" % (per_n[n][k][0], 0.0 if math.isnan(per_n[n][k][1])
                                                                else per_n[n][k][1]) for k in keys)))
    with open(os.path.join(data, "gamma.dat"), "w") as f:
        for k in range(shape_ref.KMAX):
            f.write("%d %s\n" % (k + 1, " ".join("%.4f" % per_n[n]["curve"][k] for n in sizes)))
    with open(os.path.join(data, "corr.dat"), "w") as f:
        for x, y in pts:
            f.write("%.4f %.4f\n" % (x, y))
    pr = pearson([p[0] for p in pts], [p[1] for p in pts])
    panels = []
    band = {"mid/thin": (2.0, 3.6), "long/thin": (3.6, 7.6), "group_polarisation": (0.9, 1.0), "nn": (0.68, 1.51),
            "border_ratio": (0, 1), "gamma1": (0.6, 1), "corr_len/flock_size": (0.25, 0.45), "turnover": (0, 0.9)}
    for i, k in enumerate(keys):
        if k not in band:
            continue
        lo, hi = band[k]
        panels.append("set title '%s'; plot 'data/per_n.dat' u 1:%d:%d w yerrorlines pt 7 t 'murmur (seeds: mean ± sd)', "
                      "%g dt 2 lc rgb 'gray' t 'target', %g dt 2 lc rgb 'gray' notitle" % (
                          LABEL[k], 2 + 2 * i, 3 + 2 * i, lo, hi))
    plots = gnuplot("""set terminal pngcairo size 1100,900 font ',9'
set output 'stats.png'
set multiplot layout 3,3 title 'Statistics against flock size N (reporting seeds; dashed: the targets)'
set logscale x; set xlabel 'N'; set key bottom right font ',7'
%s
unset multiplot
unset logscale x
set terminal pngcairo size 720,440 font ',10'
set output 'gamma.png'
set title 'Nearest-neighbour anisotropy γ(k) per N (reporting seeds)'
set xlabel 'neighbour rank k'; set ylabel 'γ'; set yrange [0:1]; set key top right
plot %s, 1.0/3 dt 2 t 'isotropic 1/3', 0.6 dt 3 lc rgb 'gray' t 'γ(1) target'
set autoscale y
set output 'corr.png'
set title sprintf('Correlation length vs flock size, all N (Pearson r = %%.2f)', %.6f)
set xlabel 'flock size L (diameter, m)'; set ylabel 'correlation length ξ (m)'; set key top left
plot 'data/corr.dat' u 1:2 w p pt 7 ps 0.5 t 'snapshots', 0.35*x dt 2 t 'starlings ξ = 0.35 L'
""" % ("\n".join(panels), ", ".join("'data/gamma.dat' u 1:%d w lp t 'N = %d'" % (2 + i, n) for i, n in enumerate(sizes)),
       pr if not math.isnan(pr) else 0.0), out_dir)
    # the per-N table: one row per statistic, one column per N
    lines = ["| statistic | target | %s | source |" % " | ".join("N = %d" % n for n in sizes),
             "|---|---|%s---|" % ("---|" * len(sizes))]
    misses = []
    for key, tv, ok, miss, src in TARGETS:
        cells = []
        for n in sizes:
            m, sd = per_n[n][key]
            if math.isnan(m):
                cells.append("no data")
                continue
            met = ok(m)
            cells.append("%s %s" % (fmt(m, sd), "✓" if met else "✗"))
            if not met:
                misses.append((key, n, m, miss(m), tv))
        lines.append("| %s | %s | %s | %s |" % (LABEL[key], tv, " | ".join(cells), src))
    for key in ("heading_changes_per_min", "splits_per_min", "merges_per_min", "group_size", "close_frac"):
        lines.append("| %s | - | %s | - |" % (LABEL.get(key, key), " | ".join(fmt(*per_n[n][key]) for n in sizes)))
    lines.append("| seeds × snapshots | ≥ 5 × 20 | %s | issue 24 |" % " | ".join(
        "%d × %d" % (per_n[n]["seeds"], per_n[n]["snaps"] // max(1, per_n[n]["seeds"])) for n in sizes))
    table = "\n".join(lines)
    r0, r1 = per_n[sizes[0]]["mid/thin"][0], per_n[sizes[-1]]["mid/thin"][0]
    cross = ["| across N | target | measured | met? |", "|---|---|---|---|",
             "| mid/thin at N = %d / at N = %d | ≤ 1.3 | %.3f | %s |" % (sizes[-1], sizes[0], r1 / r0, "yes" if r1 / r0 <= 1.3 else "no"),
             "| Pearson r of ξ against L (%d snapshots, all N) | ≥ 0.9 | %.3f | %s |" % (len(pts), pr, "yes" if pr >= 0.9 else "no")]
    gam = ["| k | %s |" % " | ".join("N = %d" % n for n in sizes), "|---|%s" % ("---|" * len(sizes))]
    for k in range(shape_ref.KMAX):
        gam.append("| %d | %s |" % (k + 1, " | ".join("%.3f" % per_n[n]["curve"][k] for n in sizes)))
    if any("alt" in per_n[n] for n in sizes):
        # a size whose rows lack the columns (measured without numpy and scipy) reads "not measured"
        hc = lambda n, f: f(per_n[n]["alt"]) if "alt" in per_n[n] else "not measured"
        gam += ["", ("γ(k) with this page's own border rule (the outer 20% of the group by ρ not focal; before "
                     "the ninth round the target rule; not a target row):") if rule == "hanisch" else
                ("γ(k) with Ballerini's border correction (Hanisch's: a bird is focal for k only if its k-th "
                 "neighbour is closer than the group's convex hull; not a target row):"), "",
                gam[0], gam[1]]
        for k in range(shape_ref.KMAX):
            gam.append("| %d | %s |" % (k + 1, " | ".join(hc(n, lambda c: "%.3f" % c[k]) for n in sizes)))
        gam.append("| max \\|γ(k) − 1/3\\|, k = 7-10 | %s |" % " | ".join(
            hc(n, lambda c: "%.3f" % max(abs(g - 1 / 3) for g in c[6:10])) for n in sizes))
    seed_tab = ["| N | seed | thin (m) | mid (m) | long (m) | mid/thin | polarisation | biggest group |",
                "|---|---|---|---|---|---|---|---|"]
    for n in sizes:
        for seed in sorted({r["seed"] for r in main if int(r["n"]) == n}):
            sel = [r for r in main if int(r["n"]) == n and r["seed"] == seed]
            seed_tab.append("| %d | %d | %s |" % (n, seed, " | ".join("%.3g" % mean_sd([r[k] for r in sel])[0] for k in (
                "thin", "mid", "long", "mid/thin", "group_polarisation", "group_size"))))
    miss_lines = ["- %s at N = %d: %s against %s, off by %.3g." % (LABEL[k], n, fmt(m), tv, d) for k, n, m, d, tv in misses]
    met_all = [LABEL[t[0]] for t in TARGETS if all(t[2](per_n[n][t[0]][0]) for n in sizes)]
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write("%s\n\n%s\n\n%s\n\n%s\n" % (table, "\n".join(cross), "\n".join(gam), "\n".join(miss_lines)))
    if doc:
        fig = "" if not plots else "![statistics against N](%s/stats.png)\n\n![gamma per N](%s/gamma.png)\n\n![correlation](%s/corr.png)\n" % ((
            os.path.relpath(out_dir, os.path.dirname(doc)),) * 3)
        val = {"@MET_ALL@": ", ".join(met_all) if met_all else "none",
               "@NMISS@": str(len(misses)), "@NCELLS@": str(len(TARGETS) * len(sizes)),
               "@SIZES@": ", ".join(str(n) for n in sizes)}
        for n in sizes:
            for k in keys + ["group_size", "close_frac", "thin_angle_deg"] + list(LIVING):
                val["@%s@%d@" % (k, n)] = fmt(per_n[n][k][0])
            val["@gamma9@%d@" % n] = "%.3f" % per_n[n]["curve"][8]
            if "alt" in per_n[n]:  # the other rule's gamma(1) and max |gamma(k) - 1/3| for k = 7-10
                val["@alt_gamma1@%d@" % n] = "%.3f" % per_n[n]["alt"][0]
                val["@alt_gamma7_10_dev@%d@" % n] = "%.3f" % max(abs(g - 1 / 3) for g in per_n[n]["alt"][6:10])
        val["@GAMMA_RULE@"] = ("Ballerini's border correction (Hanisch's)" if rule == "hanisch"
                               else "this page's border rule (the outer 20% by ρ not focal)")
        text = open(os.path.join(HERE, "template.md")).read()
        for a, b in (("@WHY@", open(os.path.join(HERE, "why.md")).read().strip()),
                     ("@SEEDS@", "\n".join(seed_tab)), ("@TABLE@", table), ("@CROSS@", "\n".join(cross)), ("@GAMMA@", "\n".join(gam)),
                     ("@FIGURES@", fig), ("@MISSES@", "\n".join(miss_lines) or "none"),
                     ("@RUN@", "quick run" if quick else "full run"), ("@RATIO@", "%.2f" % (r1 / r0)),
                     ("@PEARSON@", "%.3f" % pr)):
            text = text.replace(a, b)
        for a, b in val.items():
            text = text.replace(a, b)
        left = [w for w in text.split() if w.count("@") >= 2]
        if left:
            sys.exit("template placeholders left: %s" % left[:5])
        with open(doc, "w") as f:
            f.write(text)
    return table, drows, per_n


def check(drows, per_n):
    """The qualitative results the quick run must show at each of its two sizes (suite experiments)."""
    for n, st in per_n.items():
        m = {k: st[k][0] for k in ("mid/thin", "long/thin", "thin_angle_median", "group_polarisation", "close_frac",
                                   "at_limit_frac", "speed_mean", "gamma1")}
        assert m["mid/thin"] > 1.3, ("N=%d: not flat" % n, m)
        # the small flock leans with its birds' bank (thin axis 64° from vertical at N = 500 on this
        # seed; docs/murmuration.md, "Why"): horizontal is asserted from N = 2000 on
        assert n < 2000 or m["thin_angle_median"] < 30, ("N=%d: not horizontal" % n, m)
        assert m["long/thin"] >= m["mid/thin"], m
        assert m["group_polarisation"] > 0.8, ("N=%d: not ordered" % n, m)
        assert m["close_frac"] < 0.005, ("N=%d: overrun pairs" % n, m)
        assert m["at_limit_frac"] < 0.02 and 7 < m["speed_mean"] < 13, ("N=%d: speed" % n, m)
        # γ(1) from N = 2000 on: since the fourth round (surge 0.6, roost_weight 0.25) the 500 flock
        # misses it (tuning seeds 0.24; docs/murmuration.md, "Targets missed")
        assert n < 2000 or m["gamma1"] > 0.5, ("N=%d: nearest neighbours not beside the bird" % n, m)
        # not asserted: the border ratio, γ(7-10) and ξ/L, which the preset misses (docs/murmuration.md)
    print("qualitative checks ok at N = %s" % ", ".join(str(n) for n in per_n))


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
    ap.add_argument("--seeds", default=",".join(str(s) for s in REPORTING_SEEDS), help="reporting seeds")
    ap.add_argument("--sizes", default="500,2000,8000,20000")
    ap.add_argument("--settle", type=int, default=2500, help="ticks before the first snapshot")
    ap.add_argument("--snaps", type=int, default=20)
    ap.add_argument("--every", type=int, default=100, help="ticks between snapshots")
    ap.add_argument("--jobs", type=int, default=2, help="flocks run at once")
    ap.add_argument("--set", dest="set_args", action="append", default=[], metavar="NAME=VALUE",
                    help="extra murmur parameter for every run")
    args = ap.parse_args()
    args.set_args = [x for kv in args.set_args for x in ("--set", kv)]
    if args.engine == "auto":
        args.engine = "tool" if os.access(args.tool, os.X_OK) else "python"
    if args.rows:
        with open(args.rows) as f:
            # an empty cell (a column some rows lack, e.g. hgamma of a size measured without numpy) is left out
            rows = [{k: (v if k == "variant" else float(v)) for k, v in r.items() if v != "" or k == "variant"}
                    for r in csv.DictReader(f)]
    else:
        if not os.access(args.murmur, os.X_OK):
            sys.exit("no murmur at %s (build it, or give --murmur)" % args.murmur)
        seeds = [int(x) for x in args.seeds.split(",")]
        if args.quick:
            # two sizes, one tuning seed, 3 snapshots after the protocol's 2500 ticks (2000 until the
            # fourth round, whose 2000 flock of seed 1001 still leans 33-36 degrees at ticks 2000-2200,
            # 12-19 at 2500-3000)
            args.settle, args.snaps, args.every = min(args.settle, 2500), min(args.snaps, 3), args.every
            plan = [("starling", n, TUNING_SEEDS[0]) for n in (500, 2000)]
        else:
            plan = [("starling", int(n), s) for n in reversed(args.sizes.split(",")) for s in seeds]
        rows = snapshot_rows(args, plan)
    if not rows:
        sys.exit("no snapshot had a group of at least %d boids" % (shape_ref.KMAX + 2))
    os.makedirs(args.out, exist_ok=True)
    doc = args.doc or (None if args.quick else os.path.join(ROOT, "docs", "murmuration.md"))
    table, drows, per_n = write_outputs(rows, args.out, doc, args.quick)
    print(table)
    if args.check:
        check(drows, per_n)


if __name__ == "__main__":
    main()
