#!/usr/bin/env bash
# Instructions of each starling tick apart (callgrind, 1 thread, one dump per grid build), for one
# or more builds side by side, so that the first tick of a run (its cells sized from the box: no
# spacing measured yet, several times the candidates of a later tick) does not dilute the others:
#
#   tools/starling_tick_cg.sh [--n N] [--ticks T] [--scenario starling-settled|starling-forming] BUILD...
#
# Each BUILD is a meson build folder with tests/bench/murmur-bench. Prints per build and per dump
# (dump k: the instructions from grid build k-1 to grid build k; the bench's set-up builds grids of
# its own first, and the last dump is the closing measure) the instructions of the whole dump, of the
# search (grow, beyond, gather, block_at and the pass's driver mur_topo_pass), of the batch
# (mur_topo_batch_run) and of grow alone, per boid; then their means over the ticks (the dumps whose
# search takes over 100 instructions a boid: the bench's set-up builds small grids of its own first)
# less the first (settled: the first tick, whose cells come from the box, with no spacing measured
# yet; forming: tick 1 of the spawn) and the last (it runs on into the bench's closing measure).
# Use T >= 3.
set -uo pipefail
n=100k ticks=3 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
for b in "$@"; do
  starling_cache_state "$b"
  d=$(mktemp -d /tmp/starling_tick_cg.XXXXXX)
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --dump-before=mur_grid_build --compress-strings=no \
    --compress-pos=no --callgrind-out-file="$d/cg" "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" \
    --threads 1 --ticks "$ticks" --repeats 1 --reference off >/dev/null 2>&1
  echo "== $b: $sc $n, 1 thread, $ticks ticks (dump k = the instructions after grid build k-1)"
  nn=$n; nn=${nn/k/000}; nn=${nn/M/000000}
  for f in $(ls "$d"/cg.* | sort -V); do
    # self cost per function (callgrind_annotate does not name the functions of a dump file)
    awk -v N="$nn" -v F="${f##*.}" '
      /^fn=/ { fn = substr($0, 4); next }
      /^calls=/ { skip = 1; next }
      /^[0-9+*-]/ { if (skip) { skip = 0; next } t += $2
                    if (fn ~ /^(grow_|grow2_|beyond_|gather_avx2|gather_base|block_at|block_in_place_|mur_topo_pass|serve_|list_scan_)/) s += $2
                    if (fn ~ /^mur_topo_batch_run/) bt += $2
                    if (fn ~ /^grow2?_/) gr += $2 }
      END { printf "dump %s: total %.1f, search and driver %.1f, batch %.1f per boid (grow %.1f)\n", F, t / N, s / N, bt / N, gr / N }' "$f"
  done | tee "$d/sum.txt"
  # the ticks' mean, less the first tick and the last dump (see the top)
  awk '$8 > 100 { k[++m] = $2; t[m] = $4; s[m] = $8; b[m] = $10 }
    END { for (j = 2; j < m; j++) { T += t[j]; S += s[j]; B += b[j]; c++ }
          if (c) printf "mean of %d ticks (dumps %d..%d): total %.1f, search and driver %.1f, batch %.1f per boid-tick\n", c, k[2], k[m - 1], T / c, S / c, B / c }' \
    FS='[ :,]+' "$d/sum.txt"
  rm -rf "$d"
done
