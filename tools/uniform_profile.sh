#!/usr/bin/env bash
# Where the uniform step's time goes (perf's timer samples), for one or more builds in turn
# (docs/performance/rounds.md, "The uniform step, round 7"):
#
#   tools/uniform_profile.sh [--n N] [--threads T] BUILD...
#
# murmur-bench's uniform scenario (default 100k, 2 threads, 1 warm-up + 20 ticks, 3 repeats) under
# `perf record`; prints the load average and the functions above 1% of the samples for each build.
set -uo pipefail
n=100k thr=2
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --threads) thr=$2; shift 2 ;;
    *) break ;;
  esac
done
for b in "$@"; do
  f=$(mktemp /tmp/uniform_perf.XXXXXX)
  echo "== $b: uniform $n, $thr threads, load $(cut -d' ' -f1 /proc/loadavg)"
  perf record -F 2000 -o "$f" "$b/tests/bench/murmur-bench" --scenario uniform --n "$n" --threads "$thr" >/dev/null 2>&1
  perf report -i "$f" --no-children --sort symbol 2>/dev/null | grep -v '^#' | awk '$1 + 0 >= 1.0' | head -12
  rm -f "$f"
done
