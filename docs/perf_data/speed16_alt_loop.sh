#!/usr/bin/env bash
# Two builds' murmur-bench starling rows alternated (old, new per row and round), one JSON line per
# run with build, round and row added (docs/performance.md, section "speed16"; the same options as tools/starling_tick_alt.sh, which made the third set).
#
#   docs/perf_data/speed16_alt_loop.sh OLD_BUILD NEW_BUILD [ROUNDS] > rows.jsonl
#
# Rows (2 threads, --repeats 1 --fallback off --reference off): settled 100k (20 ticks), forming
# 100k (30 ticks), forming 1M (6 ticks). Runs at nice 5.
set -uo pipefail
old=$1 new=$2 rounds=${3:-3}
rows=("starling-settled 100k 20" "starling-forming 100k 30" "starling-forming 1M 6")
for r in $(seq "$rounds"); do
  for row in "${rows[@]}"; do
    set -- $row
    sc=$1 n=$2 t=$3
    for pair in "old $old" "new $new"; do
      read -r tag dir <<< "$pair"
      nice -n 5 "$dir/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads 2 --ticks "$t" \
        --repeats 1 --fallback off --reference off --json 2>/dev/null | grep '"role":"row"' | head -1 |
        sed "s/}\$/,\"build\":\"$tag\",\"round\":$r,\"row\":\"$sc:$n:2:$t\"}/"
    done
  done
done
