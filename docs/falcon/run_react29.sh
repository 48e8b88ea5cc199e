#!/bin/bash
# Round 27 (branch react29): round 26's declared run, once. Seeds 121-123 (run.py's REPORT_SEEDS): run.py's 33 attacks and
# the control, main's defaults (tag react28_main) against round 26's candidate (escape_spread 15, escape_spread_radius 12.5,
# escape_spread_falloff 3, escape_spread_speed 20; tag react28_cand), one build, MURMUR_THREADS=1, --jobs 1, two at once; then spread.py
# --strategies --seeds 121 122 123 on each; the load logged every 30 s.
# usage: docs/falcon/run_react29.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
build=$(dirname "$(dirname "$(dirname "$bin")")")
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react29.txt" &
logger=$!
row() { # TAG [--set ...]
    t=$1
    shift
    echo "$(date -u +%H:%M:%S) start $t" >> "$here/load_react29.txt"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --jobs 1 --tag "$t" "$@" > "$here/run_$t.log" 2>&1
    echo "$(date -u +%H:%M:%S) end $t rc $?" >> "$here/load_react29.txt"
    echo "$(date -u +%H:%M:%S) start spread.py $t" >> "$here/load_react29.txt"
    nice /usr/bin/python3 "$here/spread.py" --build "$build" --strategies --seeds 121 122 123 "$@" \
        --out "$here/spread_reporting_${t}_strategies.json" > "$here/spread_reporting_${t}_strategies.txt" 2>&1
    echo "$(date -u +%H:%M:%S) end spread.py $t rc $?" >> "$here/load_react29.txt"
}
row react28_main &
a=$!
row react28_cand --set escape_spread=15 --set escape_spread_radius=12.5 --set escape_spread_falloff=3 --set escape_spread_speed=20 &
b=$!
wait $a $b
kill $logger
