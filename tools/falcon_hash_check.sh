#!/bin/bash
# The falcon runs whose state hashes and --events files must not change when only the falcon's cost
# changes (issue 26; docs/performance/rounds.md "The falcon's cost, round 9"): 20,000 birds for 60 and 800
# ticks on 1 and 2 threads, 8,000 for 1,600 ticks on 1 and 2 threads, 2,000 / 1,000 / 500 birds with
# each strategy and lock-on choice, falcon_remove, perch, escape_copy_fade, escape_copy_side off and the
# classic preset. Prints one line per run: its name, the state hash and the events file's sha256.
# usage: tools/falcon_hash_check.sh MURMUR_BINARY OUT_DIR
set -eu
bin=$1
out=$2
mkdir -p "$out"
F="--set falcon=on"
run() {
    local name=$1 thr=$2
    shift 2
    local line
    line=$(MURMUR_THREADS=$thr nice "$bin" "$@" --events "$out/$name.events.csv" 2>&1 >/dev/null | grep -o 'state hash [0-9a-f]*')
    echo "$name $line events $(grep -v '^#' "$out/$name.events.csv" | sha256sum | cut -c1-16)"
}
run n20k_60_t1 1 --boids 20000 --steps 60 $F --set falcon_setup=10
run n20k_60_t2 2 --boids 20000 --steps 60 $F --set falcon_setup=10
run n20k_800_t1 1 --boids 20000 --steps 800 $F --set falcon_setup=10
run n20k_800_t2 2 --boids 20000 --steps 800 $F --set falcon_setup=10
run n8k_1600_t1 1 --boids 8000 --steps 1600 $F --set falcon_setup=20
run n8k_1600_t2 2 --boids 8000 --steps 1600 $F --set falcon_setup=20
run n2k_above_nearest 2 --boids 2000 --steps 3000 --seed 3 $F --set falcon_strategy=above --set falcon_target=nearest
run n1k_behind_exposed 2 --boids 1000 --steps 3000 --seed 4 $F --set falcon_strategy=behind --set falcon_target=exposed
run n500_beside_centroid 1 --boids 500 --steps 3000 --seed 5 $F --set falcon_strategy=beside --set falcon_target=centroid
run n2k_remove 2 --boids 2000 --steps 3000 --seed 6 $F --set falcon_remove=on --set falcon_catch=1
run n2k_perch 2 --boids 2000 --steps 3000 --seed 7 $F --set perch=on
run n2k_fade_noside 2 --boids 2000 --steps 3000 --seed 8 $F --set escape_copy_fade=0.2 --set escape_copy_side=off
run n1k_noflight_nodist 1 --boids 1000 --steps 3000 --seed 9 $F --set escape_copy_flight=off --set escape_copy_dist=0 --set escape_copy_speed=0 --set escape_alarm_speed=0
run classic_1k 2 --preset classic --boids 1000 --steps 2000 --seed 10 $F
