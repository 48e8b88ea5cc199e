#!/usr/bin/env bash
# Old against new murmur on starling runs, alternated (old, new, old, new, ...), wall time per boid-tick
# as murmur prints it, with the 1-minute load average beside each run (docs/performance/rounds.md, "The
# block scan's fixed costs"):
#   tools/topo_scan_bench.sh [--cpu] OLD_MURMUR NEW_MURMUR STATE_20K STATE_100K [ROUNDS] [THREADS]
# STATE_20K: a settled 20k state (murmur-bench's cache, ~/.cache/murmur-bench/starling-settled-n20000-*);
# STATE_100K: 100k boids (e.g. tools/topo_state_copies.py STATE_20K 100000 OUT.csv: 5 copies of it side
# by side, as murmur-bench makes them).
# --cpu: also the process's user CPU seconds and wall seconds (GNU time), 1 thread by default and
# longer settled runs (60 and 12 ticks instead of 40 and 10) (docs/performance/rounds.md, "The block scan from
# the last tick's radius"). On a shared machine the CPU time of a 1-thread run is the steadier figure (a
# run that waits for a core does not count the wait); it includes loading the state CSV (about 0.1 s at
# 20k, 0.5 s at 100k).
set -uo pipefail
cpu=0
[ "${1:-}" = --cpu ] && { cpu=1; shift; }
if [ "$cpu" = 1 ]; then dthr=1 t20=60 t100=12; else dthr=2 t20=40 t100=10; fi
old=$1 new=$2 s20=$3 s100=$4 rounds=${5:-3} thr=${6:-$dthr}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
run() { # label binary args...
  local l=$1 b=$2; shift 2
  local out
  if [ "$cpu" = 1 ]; then
    out=$(/usr/bin/time -f '%U %e' -o "$tmp" "$b" --preset starling --threads "$thr" --quiet "$@" 2>&1 | grep '^murmur:')
  else
    out=$("$b" --preset starling --threads "$thr" --quiet "$@" 2>&1 | grep '^murmur:')
  fi
  local us=${out#*(}; us=${us%% us*}
  local hash=${out#*state hash }; hash=${hash%%,*}
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  if [ "$cpu" = 1 ]; then
    read -r user wall <"$tmp"
    printf '%-4s user %6s s  wall %6s s  %8s us/boid-tick  %s  load %s\n' "$l" "$user" "$wall" "$us" "$hash" "$load"
  else
    printf '%-4s %8s us  %s  load %s\n' "$l" "$us" "$hash" "$load"
  fi
}
for c in "settled-20k --boids 20000 --init $s20 --steps $t20" "settled-100k --boids 100000 --init $s100 --steps $t100" \
         "forming-20k --boids 20000 --steps 100"; do
  set -- $c
  name=$1; shift
  if [ "$cpu" = 1 ]; then echo "== $name ($thr threads)"; else echo "== $name"; fi
  for r in $(seq "$rounds"); do
    run old "$old" "$@"
    run new "$new" "$@"
  done
done
