#!/usr/bin/env bash
# The spawn's order changes no hash below its threshold: the state hash of short batch runs of the
# classic, vision-report and starling presets, old murmur against new, at the given sizes (default the
# sizes of docs/murmuration.md's results, 500-32,000, and one boid under the threshold, 65,535), and at
# the threshold (65,536: there they must differ, the same boids renumbered):
#
#   [AT=same] tools/spawn_order_hash_check.sh OLD_MURMUR NEW_MURMUR [TICKS] [N...]
#
# Prints one line per case; exits 1 if a hash below the threshold differs or one at it agrees. AT=same
# when OLD already stores a spawn in Morton order (any main since branch speed12): then every size must
# agree.
set -u
old=$1 new=$2 t=${3:-10}
shift 2
[ $# -gt 0 ] && shift
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(500 2000 8000 20000 32000 65535 65536)
bad=0
for p in classic vision-report starling; do
  for n in "${sizes[@]}"; do
    for thr in 1 2; do
      ho=$("$old" --preset $p --boids "$n" --steps "$t" --threads $thr 2>&1 | sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p')
      hn=$("$new" --preset $p --boids "$n" --steps "$t" --threads $thr 2>&1 | sed -nE 's/.*state hash ([0-9a-f]+).*/\1/p')
      want=same
      [ "$n" -ge 65536 ] && [ "${AT:-differ}" != same ] && want=differ
      got=same
      [ -z "$ho" ] || [ "$ho" != "$hn" ] && got=differ
      [ $got != $want ] && bad=1
      echo "$p n=$n threads=$thr old=$ho new=$hn: $got (expected $want)"
    done
  done
done
exit $bad
