#!/usr/bin/env bash
# Instructions of each starling tick apart (callgrind, 1 thread, one dump per grid build), for one
# or more builds side by side, so that the first tick of a run (its cells sized from the box: no
# spacing measured yet, several times the candidates of a later tick) does not dilute the others:
#
#   tools/starling_tick_cg.sh [--n N] [--ticks T] [--scenario starling-settled|starling-forming] BUILD...
#
# Each BUILD is a meson build folder with tests/bench/murmur-bench. Prints per build and per dump
# (one per mur_grid_build, i.e. per tick; the last dumps are the bench's closing measure) the
# instructions of the whole dump and of the search (grow, beyond, gather, block_at and the pass's
# driver mur_topo_pass) and the batch (mur_topo_batch_run), per boid, then their means over the ticks
# after the first two (settled: the timed ticks; forming: ticks 3..T).
set -uo pipefail
n=100k ticks=3 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
for b in "$@"; do
  starling_cache_state "$b"
  d=$(mktemp -d /tmp/starling_tick_cg.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --dump-before=mur_grid_build --callgrind-out-file="$d/cg" \
    "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads 1 --ticks "$ticks" --repeats 1 \
    --reference off >/dev/null 2>&1
  echo "== $b: $sc $n, 1 thread, $ticks ticks (dump k + 1 = tick k)"
  nn=$n; nn=${nn/k/000}; nn=${nn/M/000000}
  for f in $(ls "$d"/cg.* | sort -t. -k2 -n); do
    callgrind_annotate "$f" 2>/dev/null | awk -v N="$nn" -v F="${f##*.}" '
      /PROGRAM TOTALS/ { t = $1; gsub(",", "", t) }
      / (grow_|beyond_|gather_avx2|gather_base|block_at|block_in_place_|mur_topo_pass)/ { c = $1; gsub(",", "", c); s += c }
      / mur_topo_batch_run/ { c = $1; gsub(",", "", c); bt += c }
      END { printf "dump %s: total %.1f, search and driver %.1f, batch %.1f per boid\n", F, t / N, s / N, bt / N }'
  done | tee "$d/sum.txt"
  # dump 1 is the set-up (before the first grid build), dump k + 1 tick k (tick 1: cells from the
  # box); ticks 1 and 2 are left out of the sum
  w=0; [ "$sc" = starling-settled ] && w=2
  awk -v lo=4 -v hi=$((ticks + w + 1)) '{ k = $2 + 0 } k >= lo && k <= hi { t += $4; s += $8; b += $10; m++ }
    END { if (m) printf "dumps %d..%d (%d ticks): total %.1f, search and driver %.1f, batch %.1f per boid-tick\n", lo, hi, m, t / m, s / m, b / m }' \
    FS='[ :,]+' "$d/sum.txt"
  rm -rf "$d"
done
