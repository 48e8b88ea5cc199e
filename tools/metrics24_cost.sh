#!/bin/sh
# Cost of the metrics (issue 24's columns included): batch runs of the starling preset, old and new
# binaries alternated (old, new, old, new, ...), each with and without --metrics, wall time per run
# and the load average beside it. Prints one line per run and the new/old ratios of the medians.
#   tools/metrics24_cost.sh OLD_MURMUR NEW_MURMUR [BOIDS] [STEPS] [ROUNDS] [THREADS]
# e.g. OLD = a build of c046964 (git archive c046964 | tar -x -C /tmp/old), NEW = build/src/app/murmur.
set -eu
old=$1 new=$2 n=${3:-8000} steps=${4:-300} rounds=${5:-4} threads=${6:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
for r in $(seq "$rounds"); do
    for mode in off on; do
        for which in old new; do
            bin=$old; [ "$which" = new ] && bin=$new
            extra=""; [ "$mode" = on ] && extra="--metrics $tmp/m.csv"
            t0=$(now)
            # shellcheck disable=SC2086
            "$bin" --preset starling --boids "$n" --seed 3 --steps "$steps" --threads "$threads" $extra >/dev/null
            t1=$(now)
            echo "$which metrics=$mode $(echo "$t1 - $t0" | bc) s load $(cut -d' ' -f1 /proc/loadavg)"
        done
    done
done | tee "$tmp/runs"
for mode in off on; do
    o=$(grep "^old metrics=$mode" "$tmp/runs" | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    w=$(grep "^new metrics=$mode" "$tmp/runs" | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "metrics=$mode: median old $o s, new $w s, new/old $(echo "scale=3; $w / $o" | bc)"
done
