#!/usr/bin/env python3
"""bench-smoke: run murmur-bench on a tiny flock and check that every JSON line is sane."""
import json
import math
import subprocess
import sys

bench = sys.argv[1]
cmd = [bench, '--scenario', 'all', '--n', '300,600', '--method', 'grid,brute', '--threads', '1,2',
       '--ticks', '3', '--warmup', '2', '--repeats', '1', '--json']
out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=100).stdout
rows = [json.loads(line) for line in out.splitlines() if line.strip()]
need = ['scenario', 'n', 'method', 'threads', 'ms_per_tick', 'ns_per_boid_tick', 'mean_neighbours',
        'candidates_per_boid', 'bytes_per_boid']
assert len(rows) == 2 * 2 * 2 * 2, f'expected 16 rows, got {len(rows)}'
hashes = {}
for r in rows:
    for k in need:
        assert k in r, f'missing {k} in {r}'
    assert r['scenario'] in ('uniform', 'flock'), r
    assert r['method'] in ('grid', 'brute'), r
    assert r['n'] in (300, 600) and r['threads'] in (1, 2), r
    for k in need[4:]:
        assert isinstance(r[k], (int, float)) and math.isfinite(r[k]) and r[k] >= 0, (k, r)
    assert r['ms_per_tick'] > 0, r
    assert abs(r['ns_per_boid_tick'] - r['ms_per_tick'] * 1e6 / r['n']) <= 1e-3 * r['ns_per_boid_tick'], r
    assert r['candidates_per_boid'] >= r['mean_neighbours'], r
    if r['method'] == 'brute':
        assert abs(r['candidates_per_boid'] - r['n']) < 1e-6 * r['n'] + 1, r
    if r['scenario'] == 'uniform':
        assert 10 < r['mean_neighbours'] < 60, r   # about 30 by construction
    # the same state for 1 and 2 threads
    key = (r['scenario'], r['n'], r['method'])
    assert hashes.setdefault(key, r['hash']) == r['hash'], f'thread count changed the state: {key}'
# topological rows (uniform world unwrapped): about topo_k = 6.5 neighbours, same state for 1 and 2 threads
cmd = [bench, '--scenario', 'uniform', '--n', '2000', '--neighbours', 'topological', '--threads', '1,2',
       '--ticks', '3', '--warmup', '1', '--repeats', '1', '--json']
out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=100).stdout
topo = [json.loads(line) for line in out.splitlines() if line.strip()]
assert len(topo) == 2 and all(r['neighbours'] == 'topological' for r in topo), topo
assert topo[0]['hash'] == topo[1]['hash'], topo
assert all(r['candidates_per_boid'] >= 7 and r['ms_per_tick'] > 0 for r in topo), topo
print(f'{len(rows) + len(topo)} rows ok')
