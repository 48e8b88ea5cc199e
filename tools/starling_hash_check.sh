#!/bin/bash
# Old against new murmur: the state hash of short starling-based batch runs under many settings
# (the batched topological update and its fallbacks), every thread count and SIMD path given:
#   tools/starling_hash_check.sh OLD_MURMUR NEW_MURMUR [N] [TICKS]
# Prints one line per case and exits 1 if any hash differs. SIMDS="base avx2 avx512" picks the paths
# (default base avx2); NEW_SIMD=P runs NEW on path P against each of OLD's (paths compared across).
set -u
old=$1 new=$2 n=${3:-3000} t=${4:-60}
cases=(
    ""
    "--set bank=off"
    "--set roost=off"
    "--set speed_tau=0"
    "--set speed_tau=0.01"
    "--set steer_unit=off"
    "--set hard_radius=0"
    "--set hard_radius=2"
    "--set topo_k=7"
    "--set topo_k=1.5"
    "--set topo_k=20"
    "--set view_angle=360"
    "--set bounds=soft"
    "--set bounds=bounce"
    "--set perch=on --set ground=38"
    "--set goal=on --set wind=on --set wind_vel=1,0,2"
    "--set scatter=on"
    "--set separation_radius=0"
    "--set min_speed=12 --set max_speed=12"
    "--set predators=3"
    "--set centrality=2"
    "--set plane=on"
    "--set max_turn=1"
    "--set bank_rate=1000"
    "--set roost_radius=0"
    "--set cruise_speed=0"
    "--set separation_up=1 --set skin=20 --set skin_rim=5"
    "--set pitch=0.5 --set cohesion_up=1.5 --set separation_up=1"
    "--set pitch=0.5 --set cohesion_up=1.5 --set separation_up=1 --set skin=20 --set skin_rim=5 --set up_order=2"
    "--set lift=off --set pitch=0.5 --set cohesion_up=1.5 --set separation_up=1 --set skin=20 --set up_order=4"
)
bad=0
for c in "${cases[@]}"; do
    case_bad=0
    for thr in 1 2 4; do
        for simd in ${SIMDS:-base avx2}; do
            # shellcheck disable=SC2086
            ho=$(MURMUR_SIMD=$simd "$old" --preset starling --boids "$n" --steps "$t" --threads $thr $c 2>&1 | sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p')
            # shellcheck disable=SC2086
            hn=$(MURMUR_SIMD=${NEW_SIMD:-$simd} "$new" --preset starling --boids "$n" --steps "$t" --threads $thr $c 2>&1 | sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p')
            if [ -z "$ho" ] || [ "$ho" != "$hn" ]; then
                echo "DIFF [$c] threads=$thr simd=$simd old=$ho new=$hn"
                bad=1 case_bad=1
            fi
        done
    done
    [ $case_bad = 0 ] && echo "same [$c] $ho"
done
exit $bad
