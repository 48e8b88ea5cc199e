#!/bin/bash
# Old against new, alternated (old, new, old, new), idle and beside busy loops, metrics off and on:
#   tools/perf_compare.sh OLD_BENCH NEW_BENCH [OUT_DIR] [N]
# OLD_BENCH/NEW_BENCH: two murmur-bench binaries (e.g. the previous commit built in a second build
# dir). The busy loops are shell loops started here (an older bench has no --background-load), one
# per requested load, at the bench's priority. N: flock size (default 100k). Writes OUT_DIR
# (default docs/perf_data)/compare_busy.jsonl and compare_metrics.jsonl (the bench's JSON plus bin,
# bg, rep and load0, the 1-minute load average before the run) and prints the tables of
# docs/performance/rounds.md.
set -eu
old=$1 new=$2
out=${3:-"$(cd "$(dirname "$0")/.." && pwd)/docs/perf_data"}
n=${4:-100k}
mkdir -p "$out"
pids=()
spin() { for ((k = 0; k < $1; k++)); do (while :; do :; done) & pids+=($!); done; }
unspin() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=(); }
trap unspin EXIT INT TERM
run() { # bin bg rep args...
    local bin=$1 bg=$2 rep=$3; shift 3
    local b=$old; [ "$bin" = new ] && b=$new
    local l0; l0=$(cut -d' ' -f1 /proc/loadavg)
    "$b" --scenario uniform --n "$n" --json "$@" | sed "s/^{/{\"bin\":\"$bin\",\"bg\":$bg,\"rep\":$rep,\"load0\":$l0,/"
}
: > "$out/compare_busy.jsonl"
: > "$out/compare_metrics.jsonl"
for rep in 1 2; do
    for bg in 0 1 2; do
        spin $bg
        for bin in old new; do
            for t in 1 2; do run $bin $bg $rep --threads $t >> "$out/compare_busy.jsonl"; done
        done
        unspin
    done
    for bin in old new; do
        for t in 1 2; do
            for m in off on; do run $bin 0 $rep --threads $t --metrics $m >> "$out/compare_metrics.jsonl"; done
        done
    done
done
python3 - "$out" <<'PY'
import json, os, statistics as st, sys
from collections import defaultdict
d = sys.argv[1]
load = lambda name: [json.loads(l) for l in open(os.path.join(d, name)) if l.strip()]
f = lambda v: ", ".join(f"{x:.1f}" for x in v)
def loads(rs):
    v = [r['load0'] for r in rs] + [r['loadavg'] for r in rs if 'loadavg' in r]
    return f"{min(v):.1f}-{max(v):.1f}"
rows = load('compare_busy.jsonl')
g = defaultdict(list)
for r in rows:
    g[(r['bg'], r['threads'], r['bin'])].append(r)
print("| busy loops | load average | old 1 thread | old 2 threads | old 2 vs 1 | new 1 thread | new 2 threads | new 2 vs 1 |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for bg in (0, 1, 2):
    v = {(t, b): [r['ms_per_tick'] for r in g[(bg, t, b)]] for t in (1, 2) for b in ('old', 'new')}
    rs = [r for r in rows if r['bg'] == bg]
    print(f"| {bg} | {loads(rs)} | {f(v[1, 'old'])} | {f(v[2, 'old'])} | {st.mean(v[1, 'old']) / st.mean(v[2, 'old']):.2f}x "
          f"| {f(v[1, 'new'])} | {f(v[2, 'new'])} | {st.mean(v[1, 'new']) / st.mean(v[2, 'new']):.2f}x |")
rows = load('compare_metrics.jsonl')
g = defaultdict(list)
for r in rows:
    g[(r['threads'], r['bin'], r['metrics'])].append(r)
print(f"\nmetrics, load average {loads(rows)}")
print("| threads | build | metrics off ms/tick | metrics on ms/tick | metrics_ms | on / off |")
print("|---:|---|---:|---:|---:|---:|")
for t in (1, 2):
    for b in ('old', 'new'):
        off = [r['ms_per_tick'] for r in g[(t, b, False)]]
        on = [r['ms_per_tick'] for r in g[(t, b, True)]]
        mm = [r['metrics_ms'] for r in g[(t, b, True)]]
        print(f"| {t} | {b} | {f(off)} | {f(on)} | {f(mm)} | {', '.join(f'{a / c:.2f}x' for a, c in zip(on, off))} |")
PY
