#!/bin/bash
# Round 26 (branch react28), after sweep_react28.sh: the best row by round26.py's order (round 23's, as round24.py's sweep
# applies it) across N (--cases sizes) and with the control (--cases control), in one queue, on the branch's
# binary. usage: docs/falcon/sweep_react28b.sh MURMUR_BINARY SPREAD V0
set -u
bin=$1
here=$(dirname "$0")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react28.txt" &
logger=$!
t="react28_v$3_spread$2"
set_args="--set escape_spread=$2 --set escape_spread_radius=12.5 --set escape_spread_falloff=3 --set escape_spread_speed=$3"
echo "$(date -u +%H:%M:%S) start $t sizes, control" >> "$here/load_react28.txt"
MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases sizes --jobs 1 --tag "${t}_sizes" $set_args \
    > "$here/sweep_${t}_sizes.log" 2>&1
MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases control --jobs 1 --tag "${t}_control" $set_args \
    > "$here/sweep_${t}_control.log" 2>&1
echo "$(date -u +%H:%M:%S) end $t sizes, control rc $?" >> "$here/load_react28.txt"
kill $logger
