#!/usr/bin/env bash
# Instructions and (simulated) mispredicted branches of the topological pass, for any number of builds
# on the same state (callgrind --branch-sim=yes, 1 thread: the counts do not depend on the load;
# docs/performance/rounds.md, "The block scan's skip test"):
#   tools/topo_search_cg.sh STATE N TICKS BUILD...
# STATE: a state CSV of N boids (murmur-bench's cached settled 20k, ~/.cache/murmur-bench/
# starling-settled-n20000-*.csv, or copies of it: tools/topo_state_copies.py), or - for the preset's
# spawn (a forming flock). Prints per build: the state hash, and the pass inclusive: instructions (Ir),
# conditional branches (Bc) and their mispredictions under callgrind's simple predictor (Bcm; a model,
# not the CPU's: a trend where no hardware counters are available).
set -euo pipefail
st=$1 n=$2 ticks=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
init=(--init "$st")
[ "$st" = - ] && init=()
i=0
for b in "$@"; do
  i=$((i + 1))
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$tmp/$i.out" \
    "$b/src/app/murmur" --preset starling --boids "$n" "${init[@]}" --steps "$ticks" --threads 1 --quiet \
    >"$tmp/$i.log" 2>&1
  hash=$(sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p' "$tmp/$i.log")
  callgrind_annotate --inclusive=yes --show=Ir,Bc,Bcm --show-percs=no "$tmp/$i.out" 2>/dev/null |
    awk -v b="$b" -v h="$hash" '!done && $0 ~ /:mur_topo_pass / {
      done = 1
      gsub(",", "", $1); gsub(",", "", $2); gsub(",", "", $3)
      printf "%s: hash %s, pass Ir %.1fM, Bc %.2fM, Bcm %.3fM\n", b, h, $1 / 1e6, $2 / 1e6, $3 / 1e6 }'
done
