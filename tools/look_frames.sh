#!/bin/sh
# The dusk look's frames and numbers (issue 25; docs/rendering.md, "The dusk look"): for each count,
# tests/render/look_test.py flies the default preset for SECONDS, draws its last state from the
# default camera and from an observer below it (with the boids and without: the sky behind them),
# prints the targets' numbers for both and keeps the PNGs in OUTDIR (frame_*.png, sky_*.png).
# Usage: tools/look_frames.sh MURMUR OUTDIR [SECONDS] [BOIDS...]   (e.g. build/src/app/murmur /tmp/look 40 2000 20000)
# At 100k boids 40 s of flight is minutes of simulation on two cores: give fewer seconds there.
# SETS="--set world=scale" in the environment: parameters for every flight (docs/rendering.md's 100k
# row: SETS="--set world=scale" tools/look_frames.sh build/src/app/murmur /tmp/look 4 100000).
set -eu
murmur=$1; out=$2; seconds=${3:-40}
shift 2; [ $# -gt 0 ] && shift
counts=${*:-2000 20000}
here=$(dirname "$0")
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
# the targets may fail (at 100k, or a short flight): the numbers and frames are what this is for
python3 "$here/../tests/render/look_test.py" "$murmur" "$seconds" $counts --keep "$out" ${SETS:-} || true
