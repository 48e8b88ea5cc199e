#!/usr/bin/env bash
# The starling tick old against new in murmur-bench's own rows, alternated (old, new, old, new), each
# row alone (--reference off: no uniform step around it, so a round is short):
#
#   tools/starling_tick_alt.sh [--rounds R] [--out FILE.jsonl] [--old-args "A..."] [--new-args "A..."]
#                              [--reference on] OLD_BUILD NEW_BUILD ROW...
#
# ROW is SCENARIO:N:THREADS:TICKS, e.g. starling-settled:100k:2:20 or starling-forming:1M:2:10
# (settled: 2 warm-up ticks first, from the bench's cached settled state), always on the threads asked
# (--fallback off: on a busy machine the library would drop to one); --reference on: with the uniform
# step before and after each row (its ratio_to_uniform in the JSON; the summary adds its median). Each build folder holds
# tests/bench/murmur-bench with --reference (OLD: copy tests/bench from this branch into the old tree).
# Appends every row's JSON (plus "build":"old"|"new", "round") to FILE (default
# /tmp/starling_tick_alt.jsonl), then prints per ROW the medians of ms per tick, grid_ms (the grid
# build, bbox and trim included, mean over the ticks), CPU ns per boid-tick and threads used, and the
# least over the runs of the fastest tick and the fastest grid build (min_ms_per_tick, grid_ms_min: on
# a busy machine the least disturbed), old and new, with the ratios new/old. The state hashes of old
# and new must agree (checked), unless --old-args or --new-args add murmur-bench options to one side
# (e.g. the same build twice, --new-args "--reaction-ticks 3 --reaction-hold list": then they differ).
set -euo pipefail
rounds=3 out=/tmp/starling_tick_alt.jsonl old_args="" new_args="" ref=off
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --old-args) old_args=$2; shift 2 ;;
    --new-args) new_args=$2; shift 2 ;;
    --reference) ref=$2; shift 2 ;;
    *) break ;;
  esac
done
old=$1 new=$2
shift 2
for row in "$@"; do
  IFS=: read -r sc n thr ticks <<<"$row"
  for ((r = 1; r <= rounds; r++)); do
    for which in old new; do
      b=$old args=$old_args
      [ $which = new ] && b=$new args=$new_args
      # shellcheck disable=SC2086 # the extra options split into words on purpose
      "$b/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads "$thr" --ticks "$ticks" --repeats 1 --fallback off \
        --reference "$ref" --json $args | grep "\"scenario\":\"$sc\"" |
        sed "s/}\$/,\"build\":\"$which\",\"round\":$r,\"row\":\"$row\"}/" | tee -a "$out" >/dev/null
    done
  done
done
/usr/bin/python3 - "$out" "$@" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for want in sys.argv[2:]:
    got = {b: [r for r in rows if r.get("row") == want and r["build"] == b] for b in ("old", "new")}
    if not got["old"] or not got["new"]:
        continue
    hashes = {r["hash"] for b in got for r in got[b]}
    med = lambda b, k: st.median(r[k] for r in got[b])
    print(f"{want}: {len(got['old'])} + {len(got['new'])} runs, load {min(r['loadavg'] for b in got for r in got[b]):.1f}-"
          f"{max(r['loadavg'] for b in got for r in got[b]):.1f}, hashes {'same' if len(hashes) == 1 else 'DIFFER ' + str(hashes)}")
    lo = lambda b, k: min(r[k] for r in got[b])
    for k in ("ms_per_tick", "grid_ms", "cpu_ns_per_boid_tick", "threads_used", "min_ms_per_tick", "grid_ms_min",
              "ratio_to_uniform", "bytes_per_boid", "rss_peak_bytes_per_boid"):
        if not all(r.get(k) is not None for b in got for r in got[b]):  # --reference off: no ratio
            continue
        f = lo if k.startswith("min_") or k.endswith("_min") else med
        o, n = f("old", k), f("new", k)
        print(f"  {k:22s} old {o:10.3f}  new {n:10.3f}  new/old {n / o if o else float('nan'):.3f}"
              f"  ({'least of the runs' if f is lo else 'median of the runs'})")
PY
