#!/bin/sh
# The dusk look's draw cost against the renderer before it (issue 25; docs/rendering.md, "The dusk
# look"): the viewer's own draw time (its summary line's "draw X ms": the frame's drawing alone, not
# the simulation or the upload), old build and new alternated, under Xvfb + llvmpipe at 1280x720, HUD
# off. The new build runs twice a round: its default (dusk, the starling preset's) and look=studio
# (the old look with the new wings; the rounds: tools/look_rounds.sh).
# Usage: tools/look_draw_bench.sh OLD_MURMUR NEW_MURMUR [FRAMES] [ROUNDS] [BOIDS] [CAMERA...]
#   CAMERA: extra flags for every run, e.g. --camera-pos 0,2,-150 --look-at 0,40,0 (default: the
#   default follow camera). The old build: git archive c046964 | tar -x -C /tmp/old (then meson).
# Prints one line per run: build, look, load average, the summary's ms/frame, upload and draw.
set -eu
old=$1; new=$2; frames=${3:-60}; rounds=${4:-3}; boids=${5:-20000}
shift 2; for i in 1 2 3; do [ $# -gt 0 ] && shift; done
. "$(dirname "$0")/look_rounds.sh"
run() { # label murmur load flags...
    b=$1; m=$2; load=$3; shift 3
    out=$(timeout 600 xvfb-run -a -s "-screen 0 1280x720x24" "$m" --boids "$boids" --frames "$frames" \
          --warmup 100 --hud off "$@" 2>&1 | grep 'ms/frame' | sed 's/^viewer: //' || true)
    draw=$(echo "$out" | sed -n 's/.*draw \([0-9.]*\) ms.*/\1/p')
    echo "$b boids=$boids load=$load draw_ms=$draw | $out"
}
look_rounds "$old" "$new" "$rounds" run "$@"
