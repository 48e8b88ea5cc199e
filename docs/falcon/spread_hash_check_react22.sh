#!/bin/bash
# extra cases: escape_spread on (main's gain at falloff 1): state hash and events
bin=$1; out=$2; shift 2; extra="$*"
mkdir -p $out
F="--set falcon=on"
run() { local name=$1 thr=$2; shift 2
  line=$(MURMUR_THREADS=$thr nice "$bin" "$@" --events "$out/$name.events.csv" 2>&1 >/dev/null | grep -o 'state hash [0-9a-f]*')
  echo "$name $line events $(grep -v '^#' "$out/$name.events.csv" | sha256sum | cut -c1-16)"; }
run sp10_n2k_above_t2 2 --boids 2000 --steps 3000 --seed 3 $F --set escape_spread=10 $extra
run sp10_n2k_above_t1 1 --boids 2000 --steps 3000 --seed 3 $F --set escape_spread=10 $extra
run sp20_n1k_behind 2 --boids 1000 --steps 3000 --seed 4 $F --set falcon_strategy=behind --set escape_spread=20 $extra
run sp15_n8k_t2 2 --boids 8000 --steps 1600 $F --set falcon_setup=20 --set escape_spread=15 $extra
run sp10_starling_n2k 2 --preset starling --boids 2000 --steps 3500 --seed 101 $F --set escape_spread=10 $extra
