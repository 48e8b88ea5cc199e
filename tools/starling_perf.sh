#!/usr/bin/env bash
# Where the starling tick's time goes (perf cpu-clock samples of murmur-bench's starling rows alone,
# --reference off, always on the threads asked: --fallback off), for one or more builds, old and new
# alternated:
#
#   tools/starling_perf.sh [--n N] [--ticks T] [--threads K] [--scenario S] BUILD [BUILD ...]
#
# S: starling-settled (default; 2 warm-up + T ticks from the bench's cached settled state, copies above
# 20k) or starling-forming (the first T ticks of the spawn). Prints per build the 1-minute load before,
# the row (ms per tick), the samples and every symbol over 0.5%, grouped: search (the block scan:
# grow, beyond, gather, block_at, find), grid build (bbox, trim_box, mur_grid_build), steering and
# update (mur_topo_batch_run, libm), the pass's driver (mur_topo_pass: copying the lists into the
# batch, prefetches), the tick's serial part (tick), and the rest.
set -uo pipefail
n=100k ticks=20 thr=2 sc=starling-settled
. "$(dirname "$0")/starling_args.sh"
. "$(dirname "$0")/starling_perf_lib.sh"
k=0
for b in "$@"; do
  k=$((k + 1))
  l0=$(cut -d' ' -f1 /proc/loadavg)
  row=$(perf_sample "$k" "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads "$thr" --fallback off \
        --ticks "$ticks" --repeats 1 --reference off | tail -n 1)
  echo "== $b ($sc $n, $thr threads, $ticks ticks, load before $l0)"
  echo "   row: $row"
  awk '{ p = $1; sub(/%/, "", p); c = $2; s = $NF
         if (s ~ /^(grow_|beyond_|gather_(base|avx2)|block_at|block_in_place_|search_setup|find)/) g = "search"
         else if (s ~ /^(mur_grid_build|bbox|trim_box|grid_|fill|scatter|count_cells)/) g = "grid build"
         else if (s ~ /^(mur_topo_batch|__kernel_tanf|__tanf|__atanf|atanf|tanf|__sincosf|__powf|mur_rules_update|mur_escape_boid)/) g = "steering+update"
         else if (s ~ /^mur_topo_pass/) g = "pass driver"
         else if (s == "tick") g = "tick (serial)"
         else g = "rest"
         P[g] += p; C[g] += c; tot += c }
       END { printf "   samples %d:", tot
             split("search,grid build,steering+update,pass driver,tick (serial),rest", o, ",")
             for (i = 1; i <= 6; i++) printf "  %s %.1f%%", o[i], P[o[i]]; printf "\n" }' "$perf_tmp/$k.txt"
  perf_symbols "$k" "     "
done
