#!/usr/bin/env bash
# murmur-bench starling rows, an old and a new build alternated (old, new, old, new), each with the
# load average before it (docs/performance/rounds.md, "Topological search from the last tick's radius").
#
#   tools/topo_hint_bench.sh OLD_BUILD NEW_BUILD [ROUNDS] [SIZES] [THREADS]
#
# SIZES default 100k, THREADS default 2, ROUNDS default 2; the crowd rows are capped at 1000 boids
# (--crowd-max 1000: they have their own run, tools/topo_scale.sh). Prints the rows with their ratio
# to the uniform step measured in the same run and the candidates tested per boid.
set -uo pipefail
old=$1 new=$2 rounds=${3:-2} sizes=${4:-100k} threads=${5:-2}
for r in $(seq "$rounds"); do
  for pair in "old $old" "new $new"; do
    set -- $pair
    echo "== $1 round $r load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$2/tests/bench/murmur-bench" --scenario starling --n "$sizes" --threads "$threads" --crowd-max 1000 2>&1 |
      awk '$1 ~ /^(uniform|starling)/ {printf "%-18s n=%-8s ms/tick %8s  ratio %6s  cand/b %7s  B/b %6s  load %s\n", $1, $2, $5, $9, $(NF-1), $13, $NF}'
  done
done
