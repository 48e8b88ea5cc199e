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
# but the first two and the last (settled with T = 3: the 3 timed ticks less the last; use T >= 3).
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
  for f in $(ls "$d"/cg.* | sort -V); do
    callgrind_annotate "$f" 2>/dev/null | awk -v N="$nn" -v F="${f##*.}" '
      /PROGRAM TOTALS/ { t = $1; gsub(",", "", t) }
      /:(grow_|beyond_|gather_avx2|gather_base|block_at|block_in_place_|mur_topo_pass)/ { c = $1; gsub(",", "", c); s += c }
      /:mur_topo_batch_run/ { c = $1; gsub(",", "", c); bt += c }
      END { printf "dump %s: total %.1f, search and driver %.1f, batch %.1f per boid\n", F, t / N, s / N, bt / N }'
  done | tee "$d/sum.txt"
  # the ticks are the dumps with a topological pass (the bench's set-up builds other grids first): the
  # first two of them (the first tick's cells come from the box) and the last (it runs on to the
  # bench's closing measure) are left out of the mean
  awk '$8 > 0 { k[++m] = $2; t[m] = $4; s[m] = $8; b[m] = $10 }
    END { for (j = 3; j < m; j++) { T += t[j]; S += s[j]; B += b[j]; c++ }
          if (c) printf "mean of %d ticks (dumps %d..%d): total %.1f, search and driver %.1f, batch %.1f per boid-tick\n", c, k[3], k[m - 1], T / c, S / c, B / c }' \
    FS='[ :,]+' "$d/sum.txt"
  rm -rf "$d"
done
