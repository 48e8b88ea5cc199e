#!/usr/bin/env bash
# Old against new murmur on starling runs, alternated (old, new, old, new, ...), wall time per boid-tick
# as murmur prints it, with the 1-minute load average beside each run (docs/performance.md, "The
# block scan's fixed costs"):
#   tools/topo_scan_bench.sh OLD_MURMUR NEW_MURMUR STATE_20K STATE_100K [ROUNDS] [THREADS]
# STATE_20K: a settled 20k state (murmur-bench's cache, ~/.cache/murmur-bench/starling-settled-n20000-*);
# STATE_100K: 100k boids (e.g. 5 copies of it side by side, as murmur-bench makes them).
set -uo pipefail
old=$1 new=$2 s20=$3 s100=$4 rounds=${5:-3} thr=${6:-2}
run() { # label binary args...
  local l=$1 b=$2; shift 2
  local out
  out=$("$b" --preset starling --threads "$thr" --quiet "$@" 2>&1 | grep '^murmur:')
  local us=${out#*(}; us=${us%% us*}
  local hash=${out#*state hash }; hash=${hash%%,*}
  printf '%-4s %8s us  %s  load %s\n' "$l" "$us" "$hash" "$(cut -d' ' -f1 /proc/loadavg)"
}
for c in "settled-20k --boids 20000 --init $s20 --steps 40" "settled-100k --boids 100000 --init $s100 --steps 10" \
         "forming-20k --boids 20000 --steps 100"; do
  set -- $c
  name=$1; shift
  echo "== $name"
  for r in $(seq "$rounds"); do
    run old "$old" "$@"
    run new "$new" "$@"
  done
done
