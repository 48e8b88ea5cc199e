#!/bin/sh
# The interactive viewer's frame rate and simulation rate, old build against new, alternated
# (issue 23 item 4; docs/performance/rounds.md, "The viewer at scale"). Both run the window under Xvfb at
# 1280x720 with MURMUR_VIEWER_CLOCK=real: --frames N ends the run, but the simulation keeps the
# interactive viewer's real-time clock instead of one tick per frame. The old build needs
# tools/viewer_clock_old.patch (which gives it that variable) applied, e.g.
#   git archive 1bd34c2 | tar -x -C /tmp/old && (cd /tmp/old && patch -p1 < tools/viewer_clock_old.patch)
# Usage: tools/viewer_clock_bench.sh OLD_MURMUR NEW_MURMUR [FRAMES] [ROUNDS] [BOIDS...]
# (ARGS="..." in the environment: more murmur options for every run)
# Prints one line per run: build, boids, load average, fps (1000 / the mean ms per frame after the
# warm-up frames), ticks per second of simulation over the frames, and the run's summary line.
set -eu
old=$1; new=$2; frames=${3:-60}; rounds=${4:-2}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
counts=${*:-2000 20000 100000}
for n in $counts; do
    r=0
    while [ "$r" -lt "$rounds" ]; do
        for b in old new; do
            [ "$b" = old ] && m=$old || m=$new
            load=$(cut -d' ' -f1-3 /proc/loadavg)
            t0=$(date +%s.%N)
            out=$(MURMUR_VIEWER_CLOCK=real timeout 300 xvfb-run -a -s "-screen 0 1280x720x24" \
                  "$m" --boids "$n" --frames "$frames" ${ARGS:-} 2>&1 | grep '^viewer: ' || true)
            t1=$(date +%s.%N)
            ticks=$(echo "$out" | sed -n 's/.*state tick=\([0-9]*\).*/\1/p')
            summary=$(echo "$out" | grep 'ms/frame' | sed 's/^viewer: //')
            ms=$(echo "$summary" | sed -n 's/.*: \([0-9.]*\) ms\/frame.*/\1/p')
            # ticks per second of the frames' time (the warm-up frames' share is small)
            tps=$(echo "$ticks * 1000 / ($frames * $ms)" | bc -l | cut -c1-5)
            echo "$b boids=$n load=$load fps=$(echo "1000 / $ms" | bc -l | cut -c1-5) ticks/s=$tps ticks=$ticks wall=$(echo "$t1 - $t0" | bc | cut -c1-5)s | $summary"
        done
        r=$((r + 1))
    done
done
