#!/usr/bin/env bash
# Instructions of the topological search (callgrind, 1 thread: the same count on every run however
# busy the host), old and new builds from the same settled starling state (docs/performance/rounds.md,
# "Topological search from the last tick's radius").
#
#   tools/topo_hint_cg.sh OLD_BUILD NEW_BUILD [N] [TICKS] [STATES]
#
# N boids (default 20000) settled for 400 ticks by NEW_BUILD once (kept in STATES, default
# /tmp/murmur-topo-states), then TICKS ticks (default 6) under callgrind per build. Prints per build:
# all instructions, those of the search (grow_, beyond_, gather_, block_at, block_in_place_) and of
# the whole topological pass (mur_topo_pass inclusive), and the load average.
set -euo pipefail
old=$1 new=$2 n=${3:-20000} ticks=${4:-6} states=${5:-/tmp/murmur-topo-states}
mkdir -p "$states"
st="$states/s$n.csv"
[ -f "$st" ] || "$new/src/app/murmur" --preset starling --boids "$n" --steps 400 --threads 2 --quiet \
  --export "$st" >/dev/null 2>&1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pair in "old $old" "new $new"; do
  set -- $pair
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" \
    "$2/src/app/murmur" --preset starling --boids "$n" --init "$st" --steps "$ticks" --threads 1 --quiet \
    >/dev/null 2>&1
  callgrind_annotate --auto=no "$tmp/$1.out" 2>/dev/null > "$tmp/$1.self"
  callgrind_annotate --auto=no --inclusive=yes "$tmp/$1.out" 2>/dev/null > "$tmp/$1.incl"
  tot=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}' "$tmp/$1.self")
  search=$(awk '$0 ~ /:(grow_|beyond_|gather_(base|avx2)|block_at|block_in_place_)/ {gsub(",", "", $1); s += $1}
                END {print s + 0}' "$tmp/$1.self")
  pass=$(awk '$0 ~ /:mur_topo_pass / {gsub(",", "", $1); print $1; exit}' "$tmp/$1.incl")
  printf '%-4s n=%s ticks=%s  total %s  search %s  topo pass %s  load %s\n' "$1" "$n" "$ticks" "$tot" \
    "$search" "${pass:-?}" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
