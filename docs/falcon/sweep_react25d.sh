#!/bin/bash
# Round 23 (branch react25), fourth part (one queue, beside the test suite): spread.py's per-group reading of the 27 on
# round 21's Rs 5 (p 2, 15 m/s^2) and on the rows at 20 m/s^2 with Rs 15 and Rs 10 (p 2). MURMUR_THREADS=1.
# usage: docs/falcon/sweep_react25d.sh
set -u
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
note() { echo "$(date -u +%H:%M:%S) $*" >> "$here/load_react25.txt"; }
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react25.txt" &
logger=$!
spread() { # SPREAD RADIUS P ROUND-DIGIT
    local tag="react2$4_r$2_p$3_spread$1"
    note "start spread.py $tag"
    MURMUR_THREADS=1 nice /usr/bin/python3 "$here/spread.py" --build "$root/build-test" --strategies --set escape_spread=$1 \
        --set escape_spread_radius=$2 --set escape_spread_falloff=$3 --out "$here/spread_tuning_${tag}_strategies.json" \
        > "$here/spread_tuning_${tag}_strategies.txt" 2>&1
    note "end spread.py $tag rc $?"
}
spread 15 5 2 3
spread 20 15 2 5
spread 20 10 2 3
kill $logger
