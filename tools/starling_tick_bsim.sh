#!/usr/bin/env bash
# Instructions and simulated branch misses of each starling tick apart (callgrind --branch-sim=yes,
# 1 thread, one dump per grid build), for one or more builds: per dump the whole dump's instructions
# (Ir), conditional branches (Bc) and their simulated misses (Bcm), indirect ones (Bi, Bim), and Ir and
# Bcm of grow_* and beyond_* alone, all per boid. The instruction counts did not predict this tick's
# CPU time (docs/performance/rounds.md, branches speed13 and speed14); the misses are the other half.
#
#   tools/starling_tick_bsim.sh [--n N] [--ticks T] [--scenario S] [--keep DIR] BUILD...
#   tools/starling_tick_bsim.sh --n N --from DIR NAME...   (summarise DIR/NAME.cg* kept by --keep)
#
# Dump 1 is the bench's set-up, dumps 2 .. T+1 ticks 0 .. T-1, the last the closing measure (the hash).
set -uo pipefail
n=100k ticks=4 sc=starling-forming keep="" from=""
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --ticks) ticks=$2; shift 2 ;;
    --scenario) sc=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    *) break ;;
  esac
done
nn=$n; nn=${nn/k/000}; nn=${nn/M/000000}
summ() { # $1: name, $2: the first dump file (cg), the others cg.1 ...
  for f in $(ls "$2".* | sort -V); do
    awk -v N="$nn" -v F="$1 dump ${f##*.}" '
      /^fn=/ { fn = substr($0, 4); next }
      /^calls=/ { skip = 1; next }
      /^[0-9+*-]/ { if (skip) { skip = 0; next } for (i = 2; i <= 6; i++) t[i] += $i
                    if (fn ~ /^grow_/) { g2 += $2; g4 += $4 }
                    if (fn ~ /^beyond_/) { b2 += $2; b4 += $4 } }
      END { printf "%s: Ir %.1f Bc %.1f Bcm %.2f Bi %.1f Bim %.2f | grow Ir %.1f Bcm %.2f | beyond Ir %.1f Bcm %.2f\n",
                   F, t[2] / N, t[3] / N, t[4] / N, t[5] / N, t[6] / N, g2 / N, g4 / N, b2 / N, b4 / N }' "$f"
  done
}
if [ -n "$from" ]; then
  for nm in "$@"; do summ "$nm" "$from/$nm.cg"; done
  exit 0
fi
for b in "$@"; do
  d=${keep:-$(mktemp -d /tmp/starling_tick_bsim.XXXXXX)}
  mkdir -p "$d"
  nm=$(basename "$(dirname "$b")")-$(basename "$b")
  OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --branch-sim=yes --dump-before=mur_grid_build \
    --compress-strings=no --compress-pos=no --callgrind-out-file="$d/$nm.cg" "$b/tests/bench/murmur-bench" \
    --scenario "$sc" --n "$n" --threads 1 --ticks "$ticks" --repeats 1 --reference off >/dev/null 2>&1
  echo "== $b: $sc $n, 1 thread, $ticks ticks"
  summ "$nm" "$d/$nm.cg"
done
