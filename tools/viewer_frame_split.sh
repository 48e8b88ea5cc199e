#!/bin/sh
# The viewer's frame split into its parts in CPU time (issue 23 item 4; docs/performance/rounds.md, "The
# viewer's fixed frame cost"). The window under Xvfb at 1280x720 (HUD on, as a user has it) loads a
# state (--init), pauses at once (--keys 1:Space) and draws FRAMES frames of it in lock-step with
# MURMUR_FRAME_CPU=1: every part of the frame ends in glFinish and is charged the process's CPU time
# (every thread's: llvmpipe's rasteriser threads included) since the last (src/gfx/frame_cpu.h).
# The X server's own time (Xvfb taking the swapped image) is another process's and not in it.
# Usage: tools/viewer_frame_split.sh MURMUR [MURMUR2] STATE.csv [FRAMES] [ROUNDS] [VAR=VALUE...] [-- FLAG...]
# With two builds they alternate (MURMUR, MURMUR2, MURMUR, ...). VAR=VALUE: the environment of every
# run, e.g. MURMUR_BIRD=none (the fixed cost alone), LP_NUM_THREADS=2. FLAG...: more murmur flags.
# Prints per run: build, load average, the frame_cpu line (mean CPU ms per frame of each part).
set -eu
builds=$1; shift
case $1 in *.csv) ;; *) builds="$builds $1"; shift ;; esac
state=$1; shift
frames=60; rounds=2
case ${1:-} in [0-9]*) frames=$1; shift ;; esac
case ${1:-} in [0-9]*) rounds=$1; shift ;; esac
envs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
[ $# -gt 0 ] && shift
r=0
while [ "$r" -lt "$rounds" ]; do
    for m in $builds; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        line=$(env $envs MURMUR_FRAME_CPU=1 xvfb-run -a -s "-screen 0 1280x720x24" "$m" --init "$state" \
               --frames "$frames" --keys 1:Space "$@" 2>&1 | grep '^frame_cpu:' || echo "frame_cpu: (none: a build without MURMUR_FRAME_CPU)")
        echo "$m load=$load env=[${envs# }] $line"
    done
    r=$((r + 1))
done
