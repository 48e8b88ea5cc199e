#!/bin/bash
# react14 (issue 26, round 13): the pattern mix (the 27 attacks by strategy and speed at N = 2000) on MIX_SEEDS 61-66
# (declared in docs/falcon/run.py at 01:55 UTC, before any run on them), with this branch's rule and with main's
# (escape_wave_hops=0) on the same flocks. Runs from the repo root with tools/device_pack.sh's .gpu/; writes 8 files
# under $OUT (results_mix_{a,b}_react14{,_main}.{json,md}); 8 processes at once (4 per rule, one thread each);
# python3 standard library only; each of the four runs stops by 250 s (all four run at once: about 81 runs of 3 s CPU each, 2 at a time), so that the whole ends within 280 s.
set -u
export LD_LIBRARY_PATH=$PWD/.gpu/lib MURMUR_THREADS=1
mkdir -p "$OUT"
run() { # half seeds...
    local half=$1
    shift
    timeout 250 python3 docs/falcon/run.py --murmur .gpu/murmur --mix --mix-seeds "$@" --jobs 2 --tag ${half}_react14 \
        --out "$OUT" > /dev/null &
    timeout 250 python3 docs/falcon/run.py --murmur .gpu/murmur --mix --mix-seeds "$@" --jobs 2 --set escape_wave_hops=0 \
        --tag ${half}_react14_main --out "$OUT" > /dev/null &
}
date -u +%T
run a 61 62 63
run b 64 65 66
wait
date -u +%T
ls -la "$OUT"
