#!/bin/bash
# Round 24 (branch react26): escape_spread 15 with escape_spread_falloff 3 and escape_spread_radius 10 and 12.5 on the
# tuning seeds 101-103, the 27 attacks at N = 2,000 (run.py --tuning --cases strategies), then spread.py's per-group
# reading of the 27 on each row; two queues at once, each run.py --jobs 1, MURMUR_THREADS=1; the load logged every 30 s.
# usage: docs/falcon/sweep_react26.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
build=$(dirname "$(dirname "$(dirname "$bin")")")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react26.txt" &
logger=$!
row() { # SPREAD RADIUS P
    t="react26_r$2_p$3_spread$1"
    echo "$(date -u +%H:%M:%S) start $t" >> "$here/load_react26.txt"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases strategies --jobs 1 \
        --tag "$t" --set escape_spread=$1 --set escape_spread_radius=$2 --set escape_spread_falloff=$3 \
        > "$here/sweep_$t.log" 2>&1
    echo "$(date -u +%H:%M:%S) end $t rc $?" >> "$here/load_react26.txt"
    echo "$(date -u +%H:%M:%S) start spread.py $t" >> "$here/load_react26.txt"
    nice /usr/bin/python3 "$here/spread.py" --build "$build" --strategies --seeds 101 102 103 \
        --set escape_spread=$1 --set escape_spread_radius=$2 --set escape_spread_falloff=$3 \
        --out "$here/spread_tuning_${t}_strategies.json" > "$here/spread_tuning_${t}_strategies.txt" 2>&1
    echo "$(date -u +%H:%M:%S) end spread.py $t rc $?" >> "$here/load_react26.txt"
}
row 15 10 3 &
a=$!
row 15 12.5 3 &
b=$!
wait $a $b
kill $logger
