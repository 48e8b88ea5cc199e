#!/bin/bash
# What lines the starling preset's birds up? (issue 24, round s7 `shape7`.) tools/gamma_probe.py's
# summary line (gamma(7-10) with the page's and with Hanisch's correction, gamma(1), and the mean
# |u . V|, |u . side|, |u . up| of the 3rd-10th neighbours' unit vectors; 0.5 each if isotropic) for the
# starling preset and one change at a time, on the TUNING seeds 1001-1003, 2500 ticks:
#   tools/gamma_ablate.sh [N] [STATES_DIR]     (default 2000, /tmp/gamma-ablate; states are kept there)
# MURMUR=path overrides build/src/app/murmur. Needs /usr/bin/python3 with numpy and scipy.
set -eu
cd "$(dirname "$0")/.."
N=${1:-2000}
DIR=${2:-/tmp/gamma-ablate}
M=${MURMUR:-build/src/app/murmur}
run() {
    local name=$1
    shift
    local args=()
    for kv in "$@"; do args+=(--set "$kv"); done
    mkdir -p "$DIR/$N-$name"
    nice -n 10 /usr/bin/python3 tools/gamma_probe.py --murmur "$M" --sizes "$N" --seeds 1001,1002,1003 --only-murmur \
        --states "$DIR/$N-$name" "${args[@]}" 2>&1 | grep "^ *$N murmur " | sed "s/^ *$N murmur *|/$(printf '%-8s' "$name") |/"
}
run base
run surge1 surge=1
run view360 view_angle=360
run pitch03 pitch=0.3
run sepn3 separation_nearest=3
run sepn0 separation_nearest=0
run su05 separation_up=0.5
run su1 separation_up=1
