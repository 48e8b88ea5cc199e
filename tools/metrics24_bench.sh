#!/bin/sh
# The metrics' own time per tick (metrics_ms) beside the rest of the tick (step_ms), from
# murmur-bench --metrics on (starling-forming rows), old and new builds alternated, load beside each.
#   tools/metrics24_bench.sh OLD_BENCH NEW_BENCH [SIZES] [ROUNDS] [THREADS]
# e.g. OLD_BENCH = /tmp/old/build/tests/bench/murmur-bench (a build of c046964),
#      NEW_BENCH = build/tests/bench/murmur-bench.
set -eu
old=$1 new=$2 sizes=${3:-2k,20k} rounds=${4:-3} threads=${5:-1}
for r in $(seq "$rounds"); do
    for which in old new; do
        bin=$old; [ "$which" = new ] && bin=$new
        "$bin" --scenario starling-forming --n "$sizes" --threads "$threads" --metrics on --repeats 1 --json 2>/dev/null |
            python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["scenario"] == "starling-forming":
        print("%s n=%d metrics_ms %.3f step_ms %.3f ratio %.3f load %.1f" % (sys.argv[1], r["n"], r["metrics_ms"],
              r["step_ms"], r["metrics_ms"] / r["step_ms"], r["loadavg"]))' "$which"
    done
done
