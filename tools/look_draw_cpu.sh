#!/bin/sh
# The dusk look's draw cost in CPU time (steadier than wall time when other jobs share the cores):
# the viewer under Xvfb + llvmpipe, 1280x720, HUD off, loads a state (--init), pauses at once
# (--keys 1:Space) and draws FRAMES frames of it, so the process's CPU time (user + system, all
# threads: llvmpipe's rasteriser threads included) is the drawing plus a fixed start-up; a run of 2
# frames measures that start-up, subtracted. Old build and new alternated; the new build also with
# look=studio (the rounds: tools/look_rounds.sh). Usage: tools/look_draw_cpu.sh OLD_MURMUR NEW_MURMUR STATE.csv [FRAMES] [ROUNDS] [CAMERA...]
# Prints: build, load average, CPU ms per drawn frame.
set -eu
old=$1; new=$2; state=$3; frames=${4:-60}; rounds=${5:-3}
shift 3; for i in 1 2; do [ $# -gt 0 ] && shift; done
cpu() { # murmur frames extra...: CPU seconds of the run
    m=$1; n=$2; shift 2
    python3 - "$m" "$n" "$state" "$@" <<'PY'
import resource, subprocess, sys
m, n, state, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
subprocess.run(['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', m, '--init', state, '--frames', n,
                '--keys', '1:Space', '--hud', 'off'] + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
PY
}
. "$(dirname "$0")/look_rounds.sh"
run() { # label murmur load flags...
    b=$1; m=$2; load=$3; shift 3
    base=$(cpu "$m" 2 "$@")
    full=$(cpu "$m" "$frames" "$@")
    echo "$b load=$load cpu_ms_per_frame=$(echo "($full - $base) * 1000 / ($frames - 2)" | bc -l | cut -c1-6)"
}
look_rounds "$old" "$new" "$rounds" run "$@"
