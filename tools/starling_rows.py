#!/usr/bin/env python3
"""The starling rows of docs/performance/rounds.md (section "Starling rows: the default flock at scale"):
murmur-bench --scenario starling (starling-forming, starling-settled, coincident, crowded, each beside
the uniform metric step measured before and after it at the same size and threads), the table of
ratios and memory, and a plot of the cost per boid-tick against the boid count.

usage: tools/starling_rows.py BUILD_DIR [SIZES:THREADS ...] [--runs R] [--cache DIR] [--settle-base N]
                              [--doc docs/performance/rounds.md] [--data docs/perf_data] [--from FILE]
--from FILE: no runs, the table from stored rows (murmur-bench --scenario starling --json output,
several runs concatenated). SIZES:THREADS: one bench command per item, e.g. 20k,100k:1,2 (default: 20k,100k:1,2 1M:2; the crowd
rows run up to 100k boids). Runs each R times (default 1; each run measures its own uniform reference
around every group),
stores the JSON rows in DATA/starling.jsonl (one line per row, plus "run": k), prints the table (the
median over the runs, and the range where R > 1), draws DATA/../perf_starling.png with gnuplot when
there is one, and with --doc rewrites the text between the markers of that section. The settled
state is made once and cached (murmur-bench --cache; the first run at a new size settles 20k
starlings for 2500 ticks, about a minute).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

BEGIN, END = "<!-- starling_rows: begin -->", "<!-- starling_rows: end -->"
ROWS = ["starling-forming", "starling-settled", "coincident", "crowded"]
GIB = 1 << 30


def loadavg():
    with open("/proc/loadavg") as fp:
        return " ".join(fp.read().split()[:3])


def fmt_range(vals, f="%.2f"):
    """The median, with the range when there are several values."""
    med = statistics.median(vals)
    if len(vals) == 1:
        return f % med
    return (f + " (" + f + "-" + f + ")") % (med, min(vals), max(vals))


def table(rows, nruns):
    """Markdown table: one line per scenario, size and thread count."""
    out = ["| row | boids | threads | us per boid-tick | ms per tick | uniform us per boid-tick (same run: mean "
           "(before, after)) | "
           "ratio to uniform | mean-tick ratio | CPU-time ratio | crowd / settled | library B/boid | "
           "resident B/boid (peak) | threads used (row; references) | load |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    keys = []
    for r in rows:
        k = (r["n"], r["threads"], r["scenario"])
        if r["role"] == "row" and k not in keys:
            keys.append(k)
    order = {s: i for i, s in enumerate(ROWS)}
    keys.sort(key=lambda k: (k[0], k[1], order[k[2]]))
    for n, thr, sc in keys:
        g = [r for r in rows if (r["n"], r["threads"], r["scenario"]) == (n, thr, sc)]
        settled = g[0].get("settled_copies")
        name = sc
        if sc == "starling-settled" and settled and settled > 1:
            name += " (%d copies of %d)" % (settled, g[0]["settled_base"])
        vs = [r["ratio_to_settled"] for r in g if r.get("ratio_to_settled") is not None]
        peak = [r["rss_peak_bytes_per_boid"] for r in g if r.get("rss_peak_bytes_per_boid") is not None]
        if len(g) == 1:  # one run: the mean of the two references, and each
            uni = "%.3f (%.3f, %.3f)" % (g[0]["uniform_ns_per_boid_tick"] / 1e3, g[0]["uniform_ns_before"] / 1e3,
                                         g[0]["uniform_ns_after"] / 1e3)
        else:
            uni = fmt_range([r["uniform_ns_per_boid_tick"] / 1e3 for r in g], "%.3f")
        cpu = [r["cpu_ratio_to_uniform"] for r in g if r.get("cpu_ratio_to_uniform") is not None]
        refs = [u["threads_used"] for u in rows if u["role"] == "reference" and u["n"] == n
                and u["threads"] == thr and u.get("run") in [r.get("run") for r in g]]
        used = "%s; %s" % (", ".join("%.2f" % r["threads_used"] for r in g), ", ".join("%.2f" % x for x in refs))
        out.append("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s |" % (
            name, n, thr, fmt_range([r["ns_per_boid_tick"] / 1e3 for r in g], "%.3f"),
            fmt_range([r["ms_per_tick"] for r in g], "%.1f"), uni,
            fmt_range([r["ratio_to_uniform"] for r in g]), fmt_range([r["mean_ratio_to_uniform"] for r in g]),
            fmt_range(cpu) if cpu else "", fmt_range(vs) if vs else "", g[0]["bytes_per_boid"],
            fmt_range(peak, "%.0f") if peak else "n/a", used,
            ", ".join("%.2f" % r["loadavg"] for r in g)))
    return "\n".join(out)


def memory_line(rows):
    """The largest flock's memory against 1 GiB."""
    big = max(r["n"] for r in rows)
    g = [r for r in rows if r["n"] == big and r["role"] == "row"]
    lib = max(r["bytes_per_boid"] for r in g) * big
    peaks = [r["rss_peak_bytes_per_boid"] * big for r in g if r.get("rss_peak_bytes_per_boid") is not None]
    text = "Memory at %d boids: the library holds %.1f MiB (%.1f B per boid, `mur_flock_memory`)" % (
        big, lib / 2**20, lib / big)
    if peaks:
        text += "; the resident set grew by at most %.1f MiB over a row (peak RSS, VmHWM reset before the row)" % (
            max(peaks) / 2**20)
    text += ": %s 1 GiB." % ("within" if max([lib] + peaks) <= GIB else "OVER")
    return text


def plot(rows, png):
    """ns per boid-tick against boids, 2 threads (or the most threads measured), one line per row."""
    if not shutil.which("gnuplot"):
        print("no gnuplot: %s not drawn" % png, file=sys.stderr)
        return
    thr = max(r["threads"] for r in rows)
    data = png[:-4] + ".dat"
    with open(data, "w") as fp:
        for sc in ["uniform"] + ROWS:
            for n in sorted({r["n"] for r in rows}):
                g = [r["ns_per_boid_tick"] / 1e3 for r in rows
                     if r["scenario"] == sc and r["n"] == n and r["threads"] == thr]
                if g:
                    fp.write("%d %g\n" % (n, statistics.median(g)))
            fp.write("\n\n")
    loads = [r["loadavg"] for r in rows]
    script = """set terminal pngcairo size 900,540
set output '%s'
set logscale x
set xlabel 'boids'
set ylabel 'us per boid-tick (median tick)'
set key top left
set grid
set title "murmur-bench --scenario starling, %d threads (load average %.1f-%.1f)"
plot '%s' index 0 w lp t 'uniform metric step', '' index 1 w lp t 'starling-forming', \\
     '' index 2 w lp t 'starling-settled', '' index 3 w p pt 7 t 'coincident', '' index 4 w p pt 5 t 'crowded'
""" % (png, thr, min(loads), max(loads), data)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("specs", nargs="*", default=["20k,100k:1,2", "1M:2"])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cache")
    ap.add_argument("--settle-base")
    ap.add_argument("--doc")
    ap.add_argument("--data", default="docs/perf_data")
    ap.add_argument("--from", dest="source")
    a = ap.parse_args()
    bench = os.path.join(a.build, "tests", "bench", "murmur-bench")
    cmds = []
    for spec in a.specs:
        sizes, _, threads = spec.partition(":")
        cmd = [bench, "--scenario", "starling", "--n", sizes, "--threads", threads or "1,2", "--json"]
        if a.cache:
            cmd += ["--cache", a.cache]
        if a.settle_base:
            cmd += ["--settle-base", a.settle_base]
        cmds.append(cmd)
    load0, t0, rows = loadavg(), time.time(), []
    if a.source:
        with open(a.source) as fp:
            rows = [json.loads(line) for line in fp if line.startswith("{")]
        a.runs = 0
    for k in range(a.runs):
        for cmd in cmds:
            out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
            for line in out.splitlines():
                if line.strip():
                    r = json.loads(line)
                    r["run"] = k
                    rows.append(r)
    os.makedirs(a.data, exist_ok=True)
    stored = os.path.join(a.data, "starling.jsonl")
    if not a.source or os.path.abspath(a.source) != os.path.abspath(stored):
        with open(stored, "w") as fp:
            for r in rows:
                fp.write(json.dumps(r) + "\n")
    plot(rows, os.path.join(os.path.dirname(os.path.abspath(a.data)), "perf_starling.png"))
    loads = [r["loadavg"] for r in rows]
    if a.source:
        how = ("Rows read from %s (%d rows, load average %.2f-%.2f after the rows; formatted %s)."
               % (a.source, len(rows), min(loads), max(loads), time.strftime("%Y-%m-%d %H:%M")))
    else:
        how = None
    text = "\n".join([
        table(rows, a.runs), "",
        memory_line(rows), "",
    ] + ([how] if how else [

        "%s (%d run%s, %s; load average before: %s, after: %s; %.0f s; the load column gives each row's "
        "1-minute load average after it ran)." % (
            ", ".join("`%s`" % " ".join(["murmur-bench"] + c[1:]) for c in cmds), a.runs, "" if a.runs == 1 else "s",
            time.strftime("%Y-%m-%d %H:%M"), load0, loadavg(), time.time() - t0)]))
    print(text)
    if a.doc:
        with open(a.doc) as fp:
            doc = fp.read()
        i, j = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        with open(a.doc, "w") as fp:
            fp.write(doc[:i] + "\n" + text + "\n" + doc[j:])


if __name__ == "__main__":
    main()
