#!/bin/sh
# The viewer's draw in CPU time, old build against new, alternated (issue 23 item 4; docs/performance/rounds.md,
# "The viewer's draw at 20k and 100k"). The window under Xvfb at 1280x720, HUD off, loads a state
# (--init), pauses at once (--keys 1:Space) and draws FRAMES frames of it in lock-step (the default
# level of detail, no frame budget), so the process's CPU time (user + system, every thread:
# llvmpipe's rasteriser threads included) is the drawing plus a fixed start-up, which a run of 2 frames
# measures and which is subtracted. Steadier than wall time when other jobs share the cores.
# Usage: tools/viewer_draw_cpu.sh OLD_MURMUR NEW_MURMUR STATE.csv [FRAMES] [ROUNDS] [VAR=VALUE...] [-- FLAG...]
# VAR=VALUE: the environment of both runs, e.g. MURMUR_BIRD=points (every boid a point),
# MURMUR_BIRD=lean, MURMUR_BIRD=none (the sky alone), LP_NUM_THREADS=0 (llvmpipe rasterises on the
# drawing thread: no threads waiting on each other); FLAG...: more murmur flags (a camera).
# A state: murmur --boids 20000 --steps 500 --export s20k.csv (the starling preset).
# Prints per run: build, load average, CPU ms per drawn frame.
set -eu
old=$1; new=$2; state=$3; frames=30; rounds=2
shift 3
case ${1:-} in [0-9]*) frames=$1; shift ;; esac
case ${1:-} in [0-9]*) rounds=$1; shift ;; esac
envs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
[ $# -gt 0 ] && shift
cpu() { # murmur frames flags...: CPU seconds of the run
    m=$1; n=$2; shift 2
    env $envs /usr/bin/python3 - "$m" "$n" "$state" "$@" <<'PY'
import resource, subprocess, sys
m, n, state, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
subprocess.run(['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', m, '--init', state, '--frames', n,
                '--keys', '1:Space', '--hud', 'off'] + extra,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
PY
}
r=0
while [ "$r" -lt "$rounds" ]; do
    for b in old new; do
        [ "$b" = old ] && m=$old || m=$new
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        base=$(cpu "$m" 2 "$@")
        full=$(cpu "$m" "$frames" "$@")
        echo "$b load=$load env=[${envs# }] cpu_ms_per_frame=$(echo "($full - $base) * 1000 / ($frames - 2)" | bc -l | cut -c1-6)"
    done
    r=$((r + 1))
done
