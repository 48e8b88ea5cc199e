#!/bin/bash
# Round 24 (branch react26), after sweep_react26b.sh (added after the best row's figures were read): the other row,
# Rs 10 with p 3 at 15 m/s^2, across N (--cases sizes) and with the control (--cases control); one queue (the test suite
# ran beside it). usage: docs/falcon/sweep_react26c.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react26.txt" &
logger=$!
t=react26_r10_p3_spread15
set_args="--set escape_spread=15 --set escape_spread_radius=10 --set escape_spread_falloff=3"
echo "$(date -u +%H:%M:%S) start $t sizes, control" >> "$here/load_react26.txt"
MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases sizes --jobs 1 --tag "${t}_sizes" $set_args \
    > "$here/sweep_${t}_sizes.log" 2>&1
MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases control --jobs 1 --tag "${t}_control" $set_args \
    > "$here/sweep_${t}_control.log" 2>&1
echo "$(date -u +%H:%M:%S) end $t sizes, control rc $?" >> "$here/load_react26.txt"
kill $logger
