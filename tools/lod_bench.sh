#!/bin/bash
# Frame time of two builds' renderers, alternated (old, new, old, new), headless (EGL, llvmpipe),
# 1280x720, the home camera and a near one; writes one JSON line per run with the load average
# before it:   tools/lod_bench.sh OLD_MURMUR NEW_MURMUR OUT_JSONL [REPEATS]
set -eu
old=$1 new=$2 out=$3 reps=${4:-3}
: > "$out"
for rep in $(seq "$reps"); do
    for bin in old new; do
        m=$old; [ "$bin" = new ] && m=$new
        for n in 10000 60000 200000; do
            for cam in home near; do
                args=(); [ "$cam" = near ] && args=(--camera-pos 20,30,85 --look-at 0,20,40)
                frames=200; [ "$n" -gt 10000 ] && frames=60
                l0=$(cut -d' ' -f1 /proc/loadavg)
                ms=$("$m" --headless --preset classic --boids "$n" --frames "$frames" "${args[@]}" 2>&1 | grep -o '[0-9.]* ms/frame' | cut -d' ' -f1)
                echo "{\"bin\":\"$bin\",\"rep\":$rep,\"boids\":$n,\"camera\":\"$cam\",\"frames\":$frames,\"ms_per_frame\":$ms,\"load0\":$l0}" >> "$out"
            done
        done
    done
done
