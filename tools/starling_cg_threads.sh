#!/usr/bin/env bash
# The starling tick's instructions per thread (callgrind --separate-threads, OMP_WAIT_POLICY=PASSIVE so
# a waiting thread sleeps and counts nothing), for one or more builds: what a serial stage costs on two
# threads shows as instructions on one thread only. Exact whatever the machine's load.
#
#   tools/starling_cg_threads.sh [--n N] [--ticks T] [--threads K] [--scenario S] BUILD...
#
# Runs murmur-bench's row alone (--reference off, --fallback off) on K threads (default 2): settled: 2
# warm-up + T ticks (default 3) from the cached settled state (made natively first); forming: the
# first T ticks. Prints per build and thread the instructions of the tick's functions (the bench's
# set-up, the CSV load and the closing measure's groups left out), the grid build's, and the largest
# thread's total: the critical path if each stage splits the same way.
set -uo pipefail
n=100k ticks=3 thr=2 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
for b in "$@"; do
  starling_cache_state "$b"
  d=$(mktemp -d /tmp/starling_cgt.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$d/cg" \
    "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads "$thr" --ticks "$ticks" --repeats 1 \
    --reference off --fallback off >/dev/null 2>&1
  echo "== $b: $sc $n, $thr threads, ticks $ticks (+2 warm-up when settled)"
  for f in "$d"/cg*; do
    callgrind_annotate "$f" 2>/dev/null | awk -v name="$(basename "$f")" '
      match($0, /^ *[0-9,]+ /) && /\?\?\?:|libm|libgomp|libc/ {
        c = $1; gsub(",", "", c); s = $0
        if (s ~ /strtod|str_to_mpn|mur_flock_load_csv|mur_hash_unit|set_boid_count|mur_flock_set_boid|count_groups|mur_flock_hash|mpn_|round_and_return|____strtof|mur_metrics|turnover|memcpy|_int_malloc|memset_avx2_unaligned_erms$/) next
        tot += c
        if (s ~ /mur_grid_build|trim_box|bbox|fill|scatter|count_cells|sort_half/) grid += c
        if (s ~ /libgomp/) omp += c
      }
      END { printf "  %-6s tick functions %14.0f  of which grid build %12.0f  OpenMP runtime %12.0f\n", name, tot, grid, omp }'
  done | tee "$d/sum"
  awk '{ gsub(",", "", $4); if ($4 + 0 > m) m = $4 + 0 } END { printf "  largest thread: %.0f\n", m }' "$d/sum"
  rm -rf "$d"
done
