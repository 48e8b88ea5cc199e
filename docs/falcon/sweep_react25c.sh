#!/bin/bash
# Round 23 (branch react25), third part (one queue, beside sweep_react25b.sh's spread.py queue): the 9 across N and the
# control on the tuning seeds for round 21's candidate (15 m/s^2, Rs 5, p 2; round 21's Not done) and for Rs 15 at p 2
# (the widest radius short of Rs 0's bits), as sweep_react25b.sh ran them for the best row. MURMUR_THREADS=1, --jobs 1.
# As run (17:00-17:10 UTC) run() lacked `local`, so the controls were written as ..._sizes_control.* (and so logged in
# load_react25.txt); they were renamed ..._control.* by hand after the run, the `local` added then.
# usage: docs/falcon/sweep_react25c.sh MURMUR_BINARY
set -u
bin=$1
here=$(dirname "$0")
note() { echo "$(date -u +%H:%M:%S) $*" >> "$here/load_react25.txt"; }
( while true; do echo "$(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) >> "$here/load_react25.txt" &
logger=$!
run() { # TAG CASES SETTINGS...
    local tag=$1 cases=$2; shift 2
    note "start $tag"
    MURMUR_THREADS=1 nice python3 "$here/run.py" --murmur "$bin" --tuning --cases "$cases" --jobs 1 --tag "$tag" \
        $(for x in "$@"; do echo --set "$x"; done) > "$here/sweep_$tag.log" 2>&1
    note "end $tag rc $?"
}
for r in 5 15; do
    tag="react2$([ $r = 5 ] && echo 3 || echo 5)_r${r}_p2_spread15"
    run "${tag}_sizes" sizes escape_spread=15 escape_spread_radius=$r escape_spread_falloff=2
    run "${tag}_control" control escape_spread=15 escape_spread_radius=$r escape_spread_falloff=2
done
kill $logger
