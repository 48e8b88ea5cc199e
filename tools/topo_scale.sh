#!/usr/bin/env bash
# Starling steps per boid-tick, an old and a new build alternated (old, new, old, new), with the load
# average beside each run (docs/performance/rounds.md, "Topological cells from the flock's spacing").
#
#   tools/topo_scale.sh OLD_BUILD NEW_BUILD [--threads T] [--rounds R] [--big] [--states DIR]
#
# OLD_BUILD and NEW_BUILD are meson build folders with src/app/murmur and tests/bench/murmur-bench
# built. Cases: starling 20k forming (the preset's spawn, 100 ticks), 100k forming (40 ticks), 20k
# settled (50 ticks from the state after 400 ticks), 100k settled (10 ticks from the state after 300),
# and murmur-bench's crowd scenario (20k coincident, 100k in a 4 wu box, 3 ticks). --big adds 1M
# starlings (3 ticks from the spawn). Settled states are made once (with NEW_BUILD; the state does
# not depend on the build) and kept in --states (default /tmp/murmur-topo-states).
# Prints one line per run: case, build, us per boid-tick, state hash, load average.
set -uo pipefail
old=$1 new=$2; shift 2
threads=2 rounds=2 big=0 states=/tmp/murmur-topo-states
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --big) big=1; shift ;;
    --states) states=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$states"
for n in 20000:400 100000:300; do
  b=${n%%:*} t=${n##*:}
  [ -f "$states/s$b.csv" ] || "$new/src/app/murmur" --preset starling --boids "$b" --steps "$t" \
    --threads "$threads" --quiet --export "$states/s$b.csv" >/dev/null 2>&1 || exit 1
done

load() { cut -d' ' -f1-3 /proc/loadavg; }
run() { # case label build args...
  local name=$1 lbl=$2 dir=$3; shift 3
  local out
  out=$("$dir/src/app/murmur" --preset starling --threads "$threads" --quiet "$@" 2>&1 | grep '^murmur:')
  local us=${out#*(}; us=${us%% us*}
  local hash=${out#*state hash }; hash=${hash%%,*}
  printf '%-16s %-4s %8s us  %s  load %s\n' "$name" "$lbl" "$us" "$hash" "$(load)"
}
bench() { # build label
  "$1/tests/bench/murmur-bench" --scenario crowd --threads "$threads" 2>&1 |
    awk -v b="$2" -v l="$(load)" '$1=="coincident"||$1=="crowded" {printf "%-16s %-4s %8.3f us  load %s\n", $1, b, $9/1000, l}'
}
for r in $(seq "$rounds"); do
  for pair in "old $old" "new $new"; do
    set -- $pair
    lbl=$1 dir=$2
    run forming-20k "$lbl" "$dir" --boids 20000 --steps 100
    run forming-100k "$lbl" "$dir" --boids 100000 --steps 40
    run settled-20k "$lbl" "$dir" --boids 20000 --init "$states/s20000.csv" --steps 50
    run settled-100k "$lbl" "$dir" --boids 100000 --init "$states/s100000.csv" --steps 10
    bench "$dir" "$lbl"
    if [ "$big" = 1 ]; then run starling-1M "$lbl" "$dir" --boids 1000000 --steps 3; fi
  done
done
