#!/usr/bin/env bash
# How the spawn's order pays over a forming flock's first ticks: murmur-bench's starling-forming row with
# --per-tick on, OLD and NEW alternated (old, new per round), each tick's CPU ms kept:
#
#   tools/spawn_order_drift.sh [--rounds R] [--n N] [--ticks T] [--out FILE] OLD_BUILD NEW_BUILD
#
# Appends "== old|new ROUND" and the per-tick lines to FILE (default /tmp/spawn_order_drift.txt), then prints
# per window of 10 ticks the CPU ms a tick summed over the window (median over the rounds), old and new and
# new/old, and the same over all ticks.
set -euo pipefail
rounds=1 n=1M ticks=100 out=/tmp/spawn_order_drift.txt
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --ticks) ticks=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) break ;;
  esac
done
old=$1 new=$2
for ((r = 1; r <= rounds; r++)); do
  for which in old new; do
    b=$old
    [ $which = new ] && b=$new
    echo "== $which $r" >>"$out"
    "$b/tests/bench/murmur-bench" --scenario starling-forming --n "$n" --threads 2 --ticks "$ticks" --repeats 1 \
      --fallback off --reference off --per-tick on --json 2>&1 >/dev/null | grep ' tick ' >>"$out"
  done
done
/usr/bin/python3 - "$out" <<'PY'
import re, statistics as st, sys
runs, cur = {}, None
for line in open(sys.argv[1]):
    if line.startswith("== "):
        cur = tuple(line.split()[1:3])
        runs[cur] = []
    elif cur and (m := re.search(r"tick (\d+): ms ([\d.]+) cpu_ms ([\d.]+) grid_ms ([\d.]+) candidates ([\d.]+) load ([\d.]+)", line)):
        runs[cur].append((int(m[1]), float(m[3]), float(m[6])))
nt = min(len(v) for v in runs.values())
def window(b, a, z):
    return st.median(sum(c for t, c, _ in v if a <= t < z) / (z - a) for (w, _), v in runs.items() if w == b)
loads = [l for v in runs.values() for _, _, l in v]
print(f"{len(runs)} runs of {nt} ticks, load {min(loads):.2f}-{max(loads):.2f}; CPU ms a tick (both threads), median over rounds")
for a in list(range(0, nt, 10)) + [None]:
    lo, hi = (0, nt) if a is None else (a, min(a + 10, nt))
    o, nw = window("old", lo, hi), window("new", lo, hi)
    print(f"  ticks {lo:3d}-{hi - 1:3d}: old {o:8.1f}  new {nw:8.1f}  new/old {nw / o:.3f}")
PY
