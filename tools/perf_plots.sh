#!/bin/sh
# Reproduce every figure and table of docs/performance.md:
#   tools/perf_plots.sh [BUILD_DIR]        run murmur-bench (several minutes) and plot
#   tools/perf_plots.sh --plot-only DIR    re-plot from DIR/*.jsonl already measured
# Needs gnuplot (Debian: gnuplot-nox) and python3. Writes docs/perf_*.png and docs/perf_data/*.jsonl.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/docs"
data="$out/perf_data"
plot_only=0
if [ "${1:-}" = "--plot-only" ]; then
    plot_only=1
    data=${2:-$data}
else
    build=${1:-"$here/build"}
    bench="$build/tests/bench/murmur-bench"
    [ -x "$bench" ] || { echo "perf_plots: no $bench (build first: meson setup $build && ninja -C $build)" >&2; exit 2; }
fi
mkdir -p "$data"

if [ $plot_only = 0 ]; then
    lscpu > "$data/lscpu.txt"
    # grid: 1 and 2 threads, metrics off and on
    "$bench" --scenario uniform --n 1k,10k,100k,1M --threads 1,2 --json > "$data/uniform_grid.jsonl"
    # every metric every tick (metrics_ms is their part of the tick)
    "$bench" --scenario uniform --n 10k,100k --threads 1,2 --metrics on --json > "$data/uniform_grid_metrics.jsonl"
    # a busy machine: 1 and 2 busy loops started by the bench beside the step
    for L in 1 2; do
        "$bench" --scenario uniform --n 10k,100k --threads 1,2 --background-load $L --json
    done > "$data/uniform_grid_busy.jsonl"
    # brute: every pair; at 100k two ticks (one brute tick of 100k boids is 10^10 pair tests)
    "$bench" --scenario uniform --method brute --n 1k,3k,10k --threads 1,2 --ticks 3 --repeats 1 --json > "$data/uniform_brute.jsonl"
    "$bench" --scenario uniform --method brute --n 100k --brute-max 100k --threads 2 --ticks 2 --repeats 1 --json >> "$data/uniform_brute.jsonl"
    # the realistic case: flocks formed (ticks 500..1000)
    "$bench" --scenario flock --n 1k,10k --threads 2 --json > "$data/flock_grid.jsonl"
fi

# columns for gnuplot: n ms ns (one file per series)
python3 - "$data" <<'PY'
import json, sys, os
d = sys.argv[1]
def load(name):
    p = os.path.join(d, name)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []
rows = load('uniform_grid.jsonl') + load('uniform_brute.jsonl')
series = {}
for r in rows:
    series.setdefault(f"{r['method']}_t{r['threads']}", []).append(r)
for k, v in series.items():
    with open(os.path.join(d, f'{k}.dat'), 'w') as f:
        for r in sorted(v, key=lambda r: r['n']):
            f.write(f"{r['n']} {r['ms_per_tick']} {r['ns_per_boid_tick']}\n")
for name in ('uniform_grid_metrics', 'flock_grid'):
    with open(os.path.join(d, f'{name}.dat'), 'w') as f:
        for r in sorted(load(name + '.jsonl'), key=lambda r: r['n']):
            if r['threads'] == 2:
                f.write(f"{r['n']} {r['ms_per_tick']} {r['ns_per_boid_tick']}\n")
# busy machine: background loops (0 from the idle run) -> ms per tick, per n and threads
busy = [dict(r, background_load=0) for r in load('uniform_grid.jsonl') if r['method'] == 'grid']
busy += load('uniform_grid_busy.jsonl')
for n in (10000, 100000):
    for t in (1, 2):
        rows = sorted((r for r in busy if r['n'] == n and r['threads'] == t), key=lambda r: r['background_load'])
        with open(os.path.join(d, f'busy_{n // 1000}k_t{t}.dat'), 'w') as f:
            for r in rows:
                f.write(f"{r['background_load']} {r['ms_per_tick']} {r.get('threads_used', t)}\n")
# the load average of each figure's runs, for the titles
def span(files):
    v = [r['loadavg'] for name in files for r in load(name) if 'loadavg' in r]
    return f"load average {min(v):.1f}-{max(v):.1f}" if v else "load average not recorded"
with open(os.path.join(d, 'loads.gp'), 'w') as f:
    f.write(f'L_main = "{span(["uniform_grid.jsonl", "uniform_brute.jsonl", "uniform_grid_metrics.jsonl"])}"\n')
    f.write(f'L_ns = "{span(["uniform_grid.jsonl", "uniform_grid_metrics.jsonl", "flock_grid.jsonl"])}"\n')
    f.write(f'L_py = "{span(["uniform_grid.jsonl", "uniform_brute.jsonl"])}"\n')
    f.write(f'L_busy = "{span(["uniform_grid.jsonl", "uniform_grid_busy.jsonl"])}"\n')
# Table 2 of the Python case study (seeds/004): seconds for 1000 ticks, no predators -> ms per tick
with open(os.path.join(d, 'python_table2.dat'), 'w') as f:
    for n, s in ((70, 22.415), (140, 75.043), (210, 170.448)):
        f.write(f"{n} {s} {s * 1e6 / (1000 * n)}\n")
PY

cd "$data"
gnuplot <<'GP'
set terminal pngcairo size 900,600 noenhanced font ",11"
load "loads.gp"
set logscale xy
set grid
set key top left
set xlabel "boids N"

set output "../perf_ms_per_tick.png"
set title "murmur-bench uniform: ms per tick (median), ~30 neighbours (".L_main.")"
set ylabel "ms per tick"
plot "grid_t1.dat" u 1:2 w lp lw 2 t "grid, 1 thread", \
     "grid_t2.dat" u 1:2 w lp lw 2 t "grid, 2 threads", \
     "brute_t1.dat" u 1:2 w lp lw 2 t "brute O(N^2), 1 thread", \
     "brute_t2.dat" u 1:2 w lp lw 2 t "brute O(N^2), 2 threads", \
     "uniform_grid_metrics.dat" u 1:2 w lp lw 2 dt 2 t "grid, 2 threads, metrics on"

set output "../perf_ns_per_boid.png"
set title "murmur-bench: ns per boid-tick, flat = linear cost (".L_ns.")"
set ylabel "ns per boid-tick"
set logscale y
plot "grid_t1.dat" u 1:3 w lp lw 2 t "grid, 1 thread", \
     "grid_t2.dat" u 1:3 w lp lw 2 t "grid, 2 threads", \
     "uniform_grid_metrics.dat" u 1:3 w lp lw 2 dt 2 t "grid, 2 threads, metrics on", \
     "flock_grid.dat" u 1:3 w lp lw 2 t "flock scenario (ticks 500-1000), 2 threads"

set output "../perf_vs_python.png"
set title "ms per tick: Python case study (seeds/004 Table 2) vs murmur (".L_py.")"
set ylabel "ms per tick"
set key top left
plot "python_table2.dat" u 1:($2) w lp lw 2 pt 7 t "Python O(N^2) (Table 2, s per 1000 ticks = ms per tick)", \
     "brute_t1.dat" u 1:2 w lp lw 2 t "murmur brute, 1 thread", \
     "grid_t2.dat" u 1:2 w lp lw 2 t "murmur grid, 2 threads"

set output "../perf_busy.png"
set title "A busy machine: N busy loops beside murmur-bench (".L_busy.")"
unset logscale x
set xlabel "busy loops (murmur-bench --background-load N) on the 2 cores"
set xtics 1
set key bottom right
set ylabel "ms per tick (median)"
set logscale y
plot "busy_100k_t1.dat" u 1:2 w lp lw 2 pt 7 t "100k, 1 thread", \
     "busy_100k_t2.dat" u 1:2 w lp lw 2 pt 5 t "100k, 2 threads (falls back to 1 when slower)", \
     "busy_10k_t1.dat" u 1:2 w lp lw 2 pt 7 dt 2 t "10k, 1 thread", \
     "busy_10k_t2.dat" u 1:2 w lp lw 2 pt 5 dt 2 t "10k, 2 threads"
GP
echo "perf_plots: wrote $out/perf_ms_per_tick.png perf_ns_per_boid.png perf_vs_python.png perf_busy.png (data in $data)"
