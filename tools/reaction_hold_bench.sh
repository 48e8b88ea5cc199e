#!/bin/bash
# reaction_hold sums against list in murmur-bench's starling rows, alternated: per round R = 1, R = 2 sums,
# R = 2 list, R = 3 sums, R = 3 list; settled and forming, 100k, 2 threads, the uniform step around each
# row (ratio_to_uniform). Usage: tools/reaction_hold_bench.sh [BUILD_DIR] [OUT.jsonl] (docs/performance/rounds.md,
# "Holding the neighbour list")
out=${2:-/tmp/reaction_hold_bench.jsonl}
B=${1:-build-test}/tests/bench/murmur-bench
for r in 1 2 3; do
  for cfg in "1 sums" "2 sums" "2 list" "3 sums" "3 list"; do
    set -- $cfg
    for sc in starling-settled:20 starling-forming:100; do
      s=${sc%%:*} t=${sc##*:}
      $B --scenario $s --n 100k --threads 2 --ticks $t --repeats 1 --fallback off --reaction-ticks $1 --reaction-hold $2 --json |
        grep "\"scenario\":\"$s\"" | sed "s/}\$/,\"R\":$1,\"hold\":\"$2\",\"round\":$r}/" >> $out
    done
  done
done

