#!/bin/bash
# Round 26 (branch react28): escape_spread 15 and 20 with Rs 12.5, p 3 and the speed gate escape_spread_speed v0 15 and
# 20 m/s on the tuning seeds 101-103, the 27 attacks at N = 2,000 (run.py --tuning --cases strategies), then spread.py's
# per-group reading of the 27 on each row; two queues at once, each run.py --jobs 1, MURMUR_THREADS=1; the load logged
# every 30 s.  usage: docs/falcon/sweep_react28.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
build=$(dirname "$(dirname "$(dirname "$bin")")")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react28.txt" &
logger=$!
row() { # SPREAD V0
    t="react28_v$2_spread$1"
    set -- "$1" "$2" --set escape_spread=$1 --set escape_spread_radius=12.5 --set escape_spread_falloff=3 \
        --set escape_spread_speed=$2
    echo "$(date -u +%H:%M:%S) start $t" >> "$here/load_react28.txt"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases strategies --jobs 1 \
        --tag "$t" "${@:3}" > "$here/sweep_$t.log" 2>&1
    echo "$(date -u +%H:%M:%S) end $t rc $?" >> "$here/load_react28.txt"
    echo "$(date -u +%H:%M:%S) start spread.py $t" >> "$here/load_react28.txt"
    nice /usr/bin/python3 "$here/spread.py" --build "$build" --strategies --seeds 101 102 103 "${@:3}" \
        --out "$here/spread_tuning_${t}_strategies.json" > "$here/spread_tuning_${t}_strategies.txt" 2>&1
    echo "$(date -u +%H:%M:%S) end spread.py $t rc $?" >> "$here/load_react28.txt"
}
( row 15 15; row 20 15 ) &
a=$!
( row 15 20; row 20 20 ) &
b=$!
wait $a $b
kill $logger
