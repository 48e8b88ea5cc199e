#!/usr/bin/env bash
# The uniform metric step at 1M on 2 threads, an old and a new build alternated (old, new, old, new),
# 1 warm-up + 5 timed ticks each, the load average before each run (docs/performance/rounds.md, "The uniform
# step, round 7").
#
#   tools/uniform_1m.sh OLD_BUILD NEW_BUILD [ROUNDS] [OUT]   (default 2 rounds, docs/perf_data/uniform_round7_1m.jsonl)
set -uo pipefail
old=$1 new=$2 rounds=${3:-2} out=${4:-docs/perf_data/uniform_round7_1m.jsonl}
for r in $(seq "$rounds"); do
  for lbl in old new; do
    b=$old; [ $lbl = new ] && b=$new
    l=$(cut -d' ' -f1 /proc/loadavg)
    "$b/tests/bench/murmur-bench" --scenario uniform --n 1M --threads 2 --ticks 5 --warmup 1 --repeats 1 --json |
      sed "s/^{/{\"build\":\"$lbl\",\"load\":$l,/" | tee -a "$out"
  done
done
