#!/bin/bash
# Round 21 (branch react23): escape_spread 15 and 20 m/s^2 with escape_spread_radius 5 and 10 m (escape_spread_falloff
# 2) on the tuning seeds 101-103, the 27 attacks by strategy and speed at N = 2,000 (run.py --tuning --cases
# strategies), two queues at once, each run.py --jobs 1, MURMUR_THREADS=1; the load logged every 30 s.
# usage: docs/falcon/sweep_react23.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react23.txt" &
logger=$!
row() { # SPREAD RADIUS P
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases strategies --jobs 1 \
        --tag "react23_r$2_p$3_spread$1" --set escape_spread=$1 --set escape_spread_radius=$2 --set escape_spread_falloff=$3 \
        > "$here/sweep_react23_r$2_p$3_spread$1.log" 2>&1
}
( row 15 5 2; row 20 5 2; row 15 5 1 ) &
a=$!
( row 15 10 2; row 20 10 2; row 15 10 1 ) &
b=$!
wait $a $b
kill $logger
