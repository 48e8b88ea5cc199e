#!/usr/bin/env bash
# Old against new murmur on starling runs, alternated (old, new, old, new, ...): the process's user CPU
# seconds and wall seconds (GNU time) and murmur's wall time per boid-tick, with the 1-minute load
# average beside each run (docs/performance.md, "The block scan from the last tick's radius"). On a
# shared machine the CPU time of a 1-thread run is the steadier figure (a run that waits for a core
# does not count the wait); it includes loading the state CSV (about 0.1 s at 20k, 0.5 s at 100k).
#   tools/topo_cpu_bench.sh OLD_MURMUR NEW_MURMUR STATE_20K STATE_100K [ROUNDS] [THREADS]
# STATE_100K: e.g. tools/topo_state_copies.py STATE_20K 100000 OUT.csv (murmur-bench's arrangement).
set -uo pipefail
old=$1 new=$2 s20=$3 s100=$4 rounds=${5:-3} thr=${6:-1}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
run() { # label binary args...
  local l=$1 b=$2; shift 2
  local out
  out=$(/usr/bin/time -f '%U %e' -o "$tmp" "$b" --preset starling --threads "$thr" --quiet "$@" 2>&1 | grep '^murmur:')
  local us=${out#*(}; us=${us%% us*}
  local hash=${out#*state hash }; hash=${hash%%,*}
  read -r user wall <"$tmp"
  printf '%-4s user %6s s  wall %6s s  %8s us/boid-tick  %s  load %s\n' "$l" "$user" "$wall" "$us" "$hash" \
    "$(cut -d' ' -f1 /proc/loadavg)"
}
for c in "settled-20k --boids 20000 --init $s20 --steps 60" "settled-100k --boids 100000 --init $s100 --steps 12" \
         "forming-20k --boids 20000 --steps 100"; do
  set -- $c
  name=$1; shift
  echo "== $name ($thr threads)"
  for r in $(seq "$rounds"); do
    run old "$old" "$@"
    run new "$new" "$@"
  done
done
