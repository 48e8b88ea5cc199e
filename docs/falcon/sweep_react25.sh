#!/bin/bash
# Round 23 (branch react25): escape_spread with escape_spread_radius Rs between 10 and 20 m on the tuning seeds 101-103,
# the 27 attacks by strategy and speed at N = 2,000 (run.py --tuning --cases strategies), two queues at once, each
# run.py --jobs 1, MURMUR_THREADS=1; the load logged every 30 s. Rs 10 at p 2 and 15 m/s^2 is round 21's row.
# usage: docs/falcon/sweep_react25.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react25.txt" &
logger=$!
row() { # SPREAD RADIUS P
    echo "$(date -u +%H:%M:%S) start r$2_p$3_spread$1" >> "$here/load_react25.txt"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases strategies --jobs 1 \
        --tag "react25_r$2_p$3_spread$1" --set escape_spread=$1 --set escape_spread_radius=$2 --set escape_spread_falloff=$3 \
        > "$here/sweep_react25_r$2_p$3_spread$1.log" 2>&1
    echo "$(date -u +%H:%M:%S) end r$2_p$3_spread$1 rc $?" >> "$here/load_react25.txt"
}
( row 15 15 2; row 20 15 2 ) &
a=$!
( row 15 10 1; row 15 20 2 ) &
b=$!
wait $a $b
kill $logger
