#!/bin/bash
# The starling tick, old against new, alternated (old, new, old, new), batch mode from the default
# spawn (a forming flock), 2 threads unless told:
#   tools/starling_tick_compare.sh OLD_MURMUR NEW_MURMUR [REPS] [THREADS] [N:TICKS ...]
# e.g. tools/starling_tick_compare.sh /tmp/old/build/src/app/murmur build/src/app/murmur 3 2 20000:60 100000:20
# Prints one line per run: binary, boids, ticks, us per boid-tick (wall), user CPU seconds, state
# hash, 1-minute load before the run; then per size the ratio new/old of the medians of both (on a
# loaded machine the CPU time is the steadier of the two). The hashes of old and new must agree.
set -eu
old=$1 new=$2
reps=${3:-3}
thr=${4:-2}
shift $(($# < 4 ? $# : 4))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20000:60 100000:20)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for sz in "${sizes[@]}"; do
    n=${sz%%:*} t=${sz##*:}
    for ((r = 1; r <= reps; r++)); do
        for bin in old new; do
            b=$old; [ $bin = new ] && b=$new
            l0=$(cut -d' ' -f1 /proc/loadavg)
            out=$(/usr/bin/time -f 'cpu %U' "$b" --preset starling --boids "$n" --steps "$t" --threads "$thr" 2>&1)
            line=$(grep 'per boid-tick' <<<"$out")
            cpu=$(sed -nE 's/^cpu ([0-9.]+)$/\1/p' <<<"$out")
            us=$(sed -E 's/.*\(([0-9.]+) us per boid-tick.*/\1/' <<<"$line")
            h=$(sed -E 's/.*state hash ([0-9a-f]+).*/\1/' <<<"$line")
            echo "$bin $n $t $us us ${cpu}s $h load=$l0"
            echo "$bin $n $us $cpu" >> "$tmp"
        done
    done
done
for sz in "${sizes[@]}"; do
    n=${sz%%:*}
    awk -v n="$n" '$2 == n { v[$1] = v[$1] " " $3; c[$1] = c[$1] " " $4 }
        function med(s,   a, k, i, j, t) { k = split(s, a, " "); for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
        END { o = med(v["old"]); w = med(v["new"]); co = med(c["old"]); cw = med(c["new"])
            printf "n=%d median wall old %.3f us, new %.3f us, new/old %.3f; cpu old %.2f s, new %.2f s, new/old %.3f\n", n, o, w, w / o, co, cw, cw / co }' "$tmp"
done
