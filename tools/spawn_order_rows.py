#!/usr/bin/env python3
"""Each run of tools/starling_tick_alt.sh's JSONL, one line per run in the order they ran (round, build),
with its load, ms a tick, fastest tick, CPU ns per boid-tick and peak RSS bytes a boid; then per row the
medians, new/old, and CPU ns x N / 2 threads (the tick's ms on two owned cores).

    tools/spawn_order_rows.py FILE.jsonl [ROW...]

Rows with a "block" field (docs/perf_data/speed12_alt.jsonl) are summarised block by block.
"""
import json
import statistics as st
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
for r in rows:  # the uniform row gives its CPU time a tick, the starling rows per boid-tick
    if r.get("cpu_ns_per_boid_tick") is None and r.get("cpu_ms_per_tick") is not None:
        r["cpu_ns_per_boid_tick"] = r["cpu_ms_per_tick"] * 1e6 / r["n"]
want = sys.argv[2:] or sorted({r["row"] for r in rows}, key=lambda w: [r["row"] for r in rows].index(w))
blocks = sorted({r.get("block", 0) for r in rows})  # docs/perf_data/speed12_alt.jsonl: one summary a block
for w, blk in [(w, b) for b in blocks for w in want]:
    got = [r for r in rows if r["row"] == w and r.get("block", 0) == blk]
    if not got:
        continue
    print(f"== {w}" + (f" (block {blk}, new {got[0].get('new_commit')}, old {got[0].get('old_commit')})" if blk else ""))
    for r in got:
        print(f"  round {r['round']} {r['build']:3s} load {r['loadavg']:5.2f}  ms/tick {r['ms_per_tick']:9.2f}  "
              f"fastest {r['min_ms_per_tick']:9.2f}  cpu ns/boid-tick {r['cpu_ns_per_boid_tick']:7.1f}  "
              f"grid_ms {r['grid_ms']:7.2f}  peak RSS B/boid {r.get('rss_peak_bytes_per_boid') or float('nan'):6.1f}  "
              f"hash {r['hash']}")
    med = {b: st.median(r["cpu_ns_per_boid_tick"] for r in got if r["build"] == b) for b in ("old", "new")}
    n = got[0]["n"]
    print(f"  median cpu ns/boid-tick old {med['old']:.1f} new {med['new']:.1f} new/old {med['new'] / med['old']:.3f}; "
          f"x N / 2 threads: old {med['old'] * n / 2e6:.1f} ms new {med['new'] * n / 2e6:.1f} ms")
