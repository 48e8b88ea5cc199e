#!/usr/bin/env python3
"""CPU ns per boid-tick of each row of a tools/starling_tick_alt.sh JSONL, per build ("old", "new") and
round, and new/old per round (speed17: the same build with --old-args "--simd avx2" --new-args "--simd
avx512"; the uniform rows give cpu_ms_per_tick, the starling rows cpu_ns_per_boid_tick); the rows' search
path where they name it (speed19: "search_simd"), and the median of the per-round ratios.

    tools/simd_cpu_rows.py FILE.jsonl
"""
import json, sys, statistics as st
rows=[json.loads(l) for l in open(sys.argv[1])]
byrow={}
for r in rows: byrow.setdefault(r['row'],[]).append(r)
for k,v in byrow.items():
    print(k, 'load %.1f-%.1f'%(min(r['loadavg'] for r in v),max(r['loadavg'] for r in v)), 'hashes', len({r['hash'] for r in v}))
    for b in ('old','new'):
        vv=[r for r in v if r['build']==b]
        cpu=[ (r['cpu_ms_per_tick']*1e6/r['n'] if 'cpu_ms_per_tick' in r else r['cpu_ns_per_boid_tick']) for r in vv]
        print('  ',b,vv[0].get('simd', '-'),'search '+vv[0].get('search_simd', '-'),'cpu ns/boid-tick',[round(c,1) for c in cpu],'median %.1f'%st.median(cpu),'wall ms',[round(r['ms_per_tick'],1) for r in vv])
    o=[r for r in v if r['build']=='old']; n=[r for r in v if r['build']=='new']
    c=lambda r:(r['cpu_ms_per_tick']*1e6/r['n'] if 'cpu_ms_per_tick' in r else r['cpu_ns_per_boid_tick'])
    q=[c(b)/c(a) for a,b in zip(o,n)]
    print('   new/old per round (new: --simd avx512 in the simd files)', [round(x,3) for x in q],
          'median %.3f, below 1 in %d of %d' % (st.median(q), sum(x < 1 for x in q), len(q)))
