#!/usr/bin/env bash
# Instruction counts of the uniform metric step (callgrind: exact and the same on every run whatever
# the machine's load), for one or more builds side by side (docs/performance/rounds.md, "The uniform step:
# the kernel's tail and the update, round 7").
#
#   tools/uniform_cg.sh [--n N] [--ticks T] BUILD...
#
# Each BUILD is a meson build folder with tests/bench/murmur-bench (release). Runs murmur-bench's
# uniform scenario on 1 thread, 1 warm-up + T timed ticks (default 100k, 3), under callgrind and
# prints the whole run's instructions and the functions above 1%, each also divided by N x (1 + T)
# ("per boid-tick"; the bench's final mur_flock_measure runs the neighbour pass once more without the
# update, so the pass's functions (kernel, scan_boids, gather) run on N x (2 + T) boids).
set -uo pipefail
n=100k ticks=3
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --ticks) ticks=$2; shift 2 ;;
    *) break ;;
  esac
done
for b in "$@"; do
  f=$(mktemp /tmp/uniform_cg.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --callgrind-out-file="$f" "$b/tests/bench/murmur-bench" \
    --scenario uniform --n "$n" --threads 1 --ticks "$ticks" --warmup 1 --repeats 1 >/dev/null 2>&1
  echo "== $b: uniform $n, 1 thread, 1 + $ticks ticks"
  callgrind_annotate "$f" 2>/dev/null | N=$n T=$ticks awk '
    BEGIN { n = ENVIRON["N"]; sub(/k$/, "000", n); sub(/M$/, "000000", n); bt = n * (ENVIRON["T"] + 1) }
    /PROGRAM TOTALS/ { print; next }
    match($0, /\( *[0-9.]+%\)/) { p = substr($0, RSTART + 1, RLENGTH - 3); if (p + 0 >= 1.0) {
      c = $1; gsub(",", "", c); printf "%s   %.1f per boid-tick\n", $0, c / bt } }' | head -14
  rm -f "$f"
done
