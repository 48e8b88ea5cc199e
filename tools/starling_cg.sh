#!/usr/bin/env bash
# Instruction counts of the starling tick (callgrind: exact, the same whatever the machine's load),
# for one or more builds side by side (docs/performance/rounds.md, "The starling tick outside the search").
#
#   tools/starling_cg.sh [--n N] [--ticks T] [--scenario starling-settled|starling-forming] BUILD...
#
# Each BUILD is a meson build folder with tests/bench/murmur-bench (release). Runs the scenario on 1
# thread (settled: 2 warm-up + T timed ticks, from the bench's cached settled state; forming: the
# first T ticks of the spawn), under callgrind, and prints the whole run's instructions and the
# functions above 0.5%, each also divided by N x ticks ("per boid-tick", ticks = the ticks run).
# The settled state comes from the bench's cache (murmur-bench --scenario starling-settled makes it
# once, natively, before this script runs it under callgrind).
set -uo pipefail
n=100k ticks=3 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
for b in "$@"; do
  starling_cache_state "$b"
  f=$(mktemp /tmp/starling_cg.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --callgrind-out-file="$f" "$b/tests/bench/murmur-bench" \
    --scenario "$sc" --n "$n" --threads 1 --ticks "$ticks" --repeats 1 --reference off >/dev/null 2>&1
  w=0; [ "$sc" = starling-settled ] && w=2
  echo "== $b: $sc $n, 1 thread, $w + $ticks ticks (no uniform reference: --reference off)"
  callgrind_annotate "$f" 2>/dev/null | N=$n T=$((ticks + w)) awk '
    BEGIN { n = ENVIRON["N"]; sub(/k$/, "000", n); sub(/M$/, "000000", n); bt = n * ENVIRON["T"] }
    /PROGRAM TOTALS/ { print; next }
    match($0, /\( *[0-9.]+%\)/) { p = substr($0, RSTART + 1, RLENGTH - 3); if (p + 0 >= 0.5) {
      c = $1; gsub(",", "", c); printf "%s   %.1f per boid-tick\n", $0, c / bt } }' | head -30
  rm -f "$f"
done
