#!/bin/bash
# Where a starling tick goes: perf record (cpu-clock) of a batch run per binary, then the shares of
# the neighbour search, the grid build and the rest (sums, contacts, steering, update, libm):
#   tools/starling_profile.sh N TICKS THREADS MURMUR [MURMUR ...]
# e.g. tools/starling_profile.sh 100000 40 2 /tmp/old/build/src/app/murmur build/src/app/murmur
# Prints per binary: samples, 1-minute load before the run, the three shares, then every symbol over
# 0.5%. Samples of the same run on two binaries compare their CPU time (shares are per binary).
set -eu
n=$1 t=$2 thr=$3
shift 3
. "$(dirname "$0")/starling_perf_lib.sh"
k=0
for b in "$@"; do
    k=$((k + 1))
    l0=$(cut -d' ' -f1 /proc/loadavg)
    perf_sample "$k" "$b" --preset starling --boids "$n" --steps "$t" --threads "$thr" >/dev/null
    echo "== $b (n=$n, $t ticks, $thr threads, load $l0)"
    awk '{ p = $1; sub(/%/, "", p); c = $2; s = $NF
           if (s ~ /^(grow_|beyond_|gather_(base|avx2)|block_at|block_in_place_|search_setup|find)/) { a += p; na += c }
           else if (s ~ /^(mur_grid_build|bbox|grid_)/) { g += p; ng += c }
           else { r += p; nr += c } }
         END { printf "samples %d: search %.1f%% (%d)  grid build %.1f%% (%d)  rest (sums, contacts, steering, update, libm, other) %.1f%% (%d)\n", na + ng + nr, a, na, g, ng, r, nr }' "$perf_tmp/$k.txt"
    perf_symbols "$k" "   "
done
