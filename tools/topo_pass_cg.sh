#!/usr/bin/env bash
# Instructions of the topological pass (callgrind, 1 thread: the same count however busy the host) from
# one saved state, old and new builds (docs/performance/rounds.md, "The block scan's fixed costs"):
#   tools/topo_pass_cg.sh OLD_BUILD NEW_BUILD STATE N [TICKS]
# STATE: a state CSV of N boids (e.g. murmur-bench's settled 20k, ~/.cache/murmur-bench/
# starling-settled-n20000-*.csv, or copies of it side by side: tools/topo_state_copies.py), or - for
# the preset's spawn (a forming flock). Build with -Dc_args=-g for the
# per-function lines. Prints per build: the pass inclusive, the state hash, and the self
# instructions of the pass's functions.
set -euo pipefail
old=$1 new=$2 st=$3 n=$4 ticks=${5:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
init=(--init "$st")
[ "$st" = - ] && init=()
for pair in "old $old" "new $new"; do
  set -- $pair
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" \
    "$2/src/app/murmur" --preset starling --boids "$n" "${init[@]}" --steps "$ticks" --threads 1 --quiet \
    >"$tmp/$1.log" 2>&1
  pass=$(callgrind_annotate --auto=no --inclusive=yes "$tmp/$1.out" 2>/dev/null |
    awk '$0 ~ /:mur_topo_pass / {gsub(",", "", $1); print $1; exit}')
  hash=$(sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p' "$tmp/$1.log")
  echo "$1: topological pass $pass instructions, state hash $hash"
  callgrind_annotate --auto=no "$tmp/$1.out" 2>/dev/null |
    awk '/(grow_|beyond_|gather_(base|avx2)|block_at|mur_topo_batch_run|mur_topo_pass)/ {
           v = $1; gsub(",", "", v); f = $0; sub(/^[^:]*:/, "", f); sub(/ .*/, "", f); s[f] += v }
         END { for (k in s) printf "   %-28s %.1fM\n", k, s[k] / 1e6 }' | sort
done
