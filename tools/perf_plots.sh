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
    "$bench" --scenario uniform --n 10k,100k --threads 2 --metrics on --json > "$data/uniform_grid_metrics.jsonl"
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
            f.write(f"{r['n']} {r['ms_per_tick']} {r['ns_per_boid_tick']}\n")
# Table 2 of the Python case study (seeds/004): seconds for 1000 ticks, no predators -> ms per tick
with open(os.path.join(d, 'python_table2.dat'), 'w') as f:
    for n, s in ((70, 22.415), (140, 75.043), (210, 170.448)):
        f.write(f"{n} {s} {s * 1e6 / (1000 * n)}\n")
PY

cd "$data"
gnuplot <<'GP'
set terminal pngcairo size 900,600 noenhanced font ",11"
set logscale xy
set grid
set key top left
set xlabel "boids N"

set output "../perf_ms_per_tick.png"
set title "murmur-bench uniform: ms per tick (median), wrap world, ~30 neighbours"
set ylabel "ms per tick"
plot "grid_t1.dat" u 1:2 w lp lw 2 t "grid, 1 thread", \
     "grid_t2.dat" u 1:2 w lp lw 2 t "grid, 2 threads", \
     "brute_t1.dat" u 1:2 w lp lw 2 t "brute O(N^2), 1 thread", \
     "brute_t2.dat" u 1:2 w lp lw 2 t "brute O(N^2), 2 threads", \
     "uniform_grid_metrics.dat" u 1:2 w lp lw 2 dt 2 t "grid, 2 threads, metrics on"

set output "../perf_ns_per_boid.png"
set title "murmur-bench uniform: ns per boid-tick (flat = linear cost)"
set ylabel "ns per boid-tick"
set logscale y
plot "grid_t1.dat" u 1:3 w lp lw 2 t "grid, 1 thread", \
     "grid_t2.dat" u 1:3 w lp lw 2 t "grid, 2 threads", \
     "uniform_grid_metrics.dat" u 1:3 w lp lw 2 dt 2 t "grid, 2 threads, metrics on", \
     "flock_grid.dat" u 1:3 w lp lw 2 t "flock scenario (ticks 500-1000), 2 threads"

set output "../perf_vs_python.png"
set title "ms per tick: Python case study (Table 2 of seeds/004, 1000 ticks) vs murmur"
set ylabel "ms per tick"
set key top left
plot "python_table2.dat" u 1:($2) w lp lw 2 pt 7 t "Python O(N^2) (Table 2, s per 1000 ticks = ms per tick)", \
     "brute_t1.dat" u 1:2 w lp lw 2 t "murmur brute, 1 thread", \
     "grid_t2.dat" u 1:2 w lp lw 2 t "murmur grid, 2 threads"
GP
echo "perf_plots: wrote $out/perf_ms_per_tick.png perf_ns_per_boid.png perf_vs_python.png (data in $data)"
