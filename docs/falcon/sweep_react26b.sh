#!/bin/bash
# Round 24 (branch react26), after sweep_react26.sh: the best row by round24.py's order (react26_r12.5_p3_spread15, printed
# by `round24.py sweep` at 20:07 UTC) across N (--cases sizes) and with the control (--cases control), in one queue; in the
# other the diagnosis: spread.py's per-group reading of off's (main's) two misses at N = 8,000 (seeds 101, 103), then
# `round24.py diagnose` (each tuning miss run again through the program for its events, and a replay for the target).
# usage: docs/falcon/sweep_react26b.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
build=$(dirname "$(dirname "$(dirname "$bin")")")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react26.txt" &
logger=$!
t=react26_r12.5_p3_spread15
set_args="--set escape_spread=15 --set escape_spread_radius=12.5 --set escape_spread_falloff=3"
(
    echo "$(date -u +%H:%M:%S) start $t sizes, control" >> "$here/load_react26.txt"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases sizes --jobs 1 --tag "${t}_sizes" $set_args \
        > "$here/sweep_${t}_sizes.log" 2>&1
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases control --jobs 1 --tag "${t}_control" $set_args \
        > "$here/sweep_${t}_control.log" 2>&1
    echo "$(date -u +%H:%M:%S) end $t sizes, control rc $?" >> "$here/load_react26.txt"
) &
a=$!
(
    echo "$(date -u +%H:%M:%S) start diagnosis" >> "$here/load_react26.txt"
    nice /usr/bin/python3 "$here/spread.py" --build "$build" --sizes 8000 --seeds 101 103 \
        --out "$here/spread_tuning_react26_off_misses.json" > "$here/spread_tuning_react26_off_misses.txt" 2>&1
    MURMUR_THREADS=1 nice /usr/bin/python3 "$here/round24.py" diagnose "$bin" > "$here/diagnosis_react26.txt" 2>&1
    echo "$(date -u +%H:%M:%S) end diagnosis rc $?" >> "$here/load_react26.txt"
) &
b=$!
wait $a $b
kill $logger
