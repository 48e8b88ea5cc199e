#!/usr/bin/env bash
# What the order of the boids' rows costs the starling tick: the same rows with the boids in their own
# order (index), renumbered along a Morton curve of their positions (cell) and renumbered at random
# (shuffle), alternated per round (murmur-bench --spawn-order; each order is another flock, so the
# hashes differ between orders, not between rounds):
#
#   tools/order_cost.sh [--rounds R] [--out FILE.jsonl] BUILD ROW...
#
# ROW is SCENARIO:N:THREADS:TICKS as in tools/starling_tick_alt.sh (--reference off, --fallback off).
# Appends each row's JSON with "order" and "round" to FILE (default /tmp/order_cost.jsonl) and prints
# per ROW and order the medians of ms per tick, CPU ns per boid-tick and the fastest tick, with the
# CPU time's ratio to the index order's.
set -euo pipefail
rounds=3 out=/tmp/order_cost.jsonl
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) break ;;
  esac
done
b=$1
shift
for row in "$@"; do
  IFS=: read -r sc n thr ticks <<<"$row"
  for ((r = 1; r <= rounds; r++)); do
    for order in index cell shuffle; do
      "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads "$thr" --ticks "$ticks" --repeats 1 \
        --fallback off --reference off --spawn-order "$order" --json | grep "\"scenario\":\"$sc\"" |
        sed "s/}\$/,\"order\":\"$order\",\"round\":$r,\"row\":\"$row\"}/" | tee -a "$out" >/dev/null
    done
  done
done
/usr/bin/python3 - "$out" "$@" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip() and '"order"' in l]
for want in sys.argv[2:]:
    got = {o: [r for r in rows if r.get("row") == want and r["order"] == o] for o in ("index", "cell", "shuffle")}
    if not got["index"]:
        continue
    allr = [r for o in got for r in got[o]]
    print(f"{want}: load {min(r['loadavg'] for r in allr):.1f}-{max(r['loadavg'] for r in allr):.1f}")
    base = st.median(r["cpu_ns_per_boid_tick"] for r in got["index"])
    for o, rs in got.items():
        if not rs:
            continue
        cpu = st.median(r["cpu_ns_per_boid_tick"] for r in rs)
        print(f"  {o:8s} runs {len(rs)}  ms/tick {st.median(r['ms_per_tick'] for r in rs):8.2f}  "
              f"fastest {min(r['min_ms_per_tick'] for r in rs):8.2f}  cpu ns/boid-tick {cpu:7.1f} "
              f"({' '.join('%.0f' % r['cpu_ns_per_boid_tick'] for r in rs)})  x{cpu / base:.3f}  "
              f"candidates {st.median(r['candidates_per_boid'] for r in rs):.1f}")
PY
