#!/usr/bin/env bash
# Simulated cache misses of the starling tick (callgrind --cache-sim, 1 thread, counted inside
# mur_flock_step only), the boids in their own order and renumbered (murmur-bench --spawn-order):
#
#   tools/order_cachesim.sh [--ll BYTES] [--n N] [--ticks T] [--scenario S] BUILD ORDER...
#
# ORDER is index, cell or shuffle. The caches: L1d 48 KiB 12-way (as this host reports) and, as the last
# level, --ll bytes 16-way (default 1 MiB: the core's own L2; 32 MiB: an L3) with 64-byte lines.
# Prints per order the instructions, L1d read and write misses and last-level read and write misses of
# the counted steps (the settled row's 2 warm-up ticks and the timed ticks), and the misses per 1,000
# instructions; then the functions with the most last-level misses (self cost, callgrind_annotate).
set -euo pipefail
ll=1048576
if [ "${1:-}" = --ll ]; then
  ll=$2
  shift 2
fi
n=100k ticks=2 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
b=$1
shift
starling_cache_state "$b"
for order in "$@"; do
  d=$(mktemp -d /tmp/order_cachesim.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --cache-sim=yes --D1=49152,12,64 --LL="$ll",16,64 \
    --toggle-collect=mur_flock_step --callgrind-out-file="$d/cg" "$b/tests/bench/murmur-bench" --scenario "$sc" \
    --n "$n" --threads 1 --ticks "$ticks" --repeats 1 --reference off --spawn-order "$order" >/dev/null 2>&1
  awk -v O="$order" -v S="$sc" -v N="$n" -v LL="$ll" '/^events:/ { for (i = 2; i <= NF; i++) name[i - 1] = $i }
    /^totals:/ { for (i = 2; i <= NF; i++) t[name[i - 1]] = $i }
    END { printf "%s %s %s LL=%d: Ir %.0f  D1mr %.0f D1mw %.0f  DLmr %.0f DLmw %.0f  per 1k Ir: D1 miss %.2f LL miss %.3f\n",
      S, N, O, LL, t["Ir"], t["D1mr"], t["D1mw"], t["DLmr"], t["DLmw"], 1000 * (t["D1mr"] + t["D1mw"]) / t["Ir"],
      1000 * (t["DLmr"] + t["DLmw"]) / t["Ir"] }' "$d/cg"
  callgrind_annotate --inclusive=no --sort=DLmr,DLmw,D1mr,D1mw,Ir "$d/cg" 2>/dev/null |
    awk '/file:function/ { on = 1; next } on && NF > 1 && n < 10 { print "    " $0; n++ }'
  rm -rf "$d"
done
