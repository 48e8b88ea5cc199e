#!/bin/bash
# Round 23 (branch react25), second part: escape_spread 15 with Rs 12.5 at p 2 (added after Rs 15's row was read), then
# the best row by round23.py (its rule unchanged) across N (run.py --cases sizes) and the control (--cases control); in
# the other queue spread.py's per-group reading of the 27 on the rows at 15 m/s^2 with Rs 10-15. Two queues at once,
# MURMUR_THREADS=1, --jobs 1; the load logged every 30 s.
# usage: docs/falcon/sweep_react25b.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react25.txt" &
logger=$!
note() { echo "$(date -u +%H:%M:%S) $*" >> "$here/load_react25.txt"; }
run() { # TAG CASES SETTINGS...
    tag=$1; cases=$2; shift 2
    note "start $tag"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases "$cases" --jobs 1 --tag "$tag" \
        $(for x in "$@"; do echo --set "$x"; done) > "$here/sweep_$tag.log" 2>&1
    note "end $tag rc $?"
}
spread() { # SPREAD RADIUS P
    tag="react2$4_r$2_p$3_spread$1"
    note "start spread.py $tag"
    MURMUR_THREADS=1 nice /usr/bin/python3 "$here/spread.py" --build "$root/build-test" --strategies --set escape_spread=$1 \
        --set escape_spread_radius=$2 --set escape_spread_falloff=$3 --out "$here/spread_tuning_${tag}_strategies.json" \
        > "$here/spread_tuning_${tag}_strategies.txt" 2>&1
    note "end spread.py $tag rc $?"
}
(
    run react25_r12.5_p2_spread15 strategies escape_spread=15 escape_spread_radius=12.5 escape_spread_falloff=2
    set -- $(/usr/bin/python3 "$here/round23.py" best)
    note "best row: $*"
    best=$1; shift
    run "${best}_sizes" sizes "$@"
    run "${best}_control" control "$@"
) &
a=$!
( spread 15 10 2 3; spread 15 15 2 5; spread 15 10 1 5; spread 15 12.5 2 5 ) &
b=$!
wait $a $b
kill $logger
