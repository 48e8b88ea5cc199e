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
# crowd scenarios (starling preset: all boids at one point, a crowded 4 wu box) at a small size: the
# same state for 1 and 2 threads, topo_k 6.5 neighbours each
cmd = [bench, '--scenario', 'crowd', '--n', '500', '--threads', '1,2', '--json']
out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=100).stdout
crowd = [json.loads(line) for line in out.splitlines() if line.strip()]
assert [r['scenario'] for r in crowd] == ['coincident'] * 2 + ['crowded'] * 2, crowd
for a, b in (crowd[0:2], crowd[2:4]):
    assert a['hash'] == b['hash'], (a, b)
for r in crowd:
    assert r['neighbours'] == 'topological' and r['n'] == 500 and r['ticks'] == 3, r
    assert math.isfinite(r['ns_per_boid_tick']) and r['ms_per_tick'] > 0, r
    assert abs(r['mean_neighbours'] - 7.0) < 0.1, r
print(f'{len(rows) + len(topo) + len(crowd)} rows ok')

# --background-load: the busy loops (forked copies of the bench, same command line) run beside the
# benchmark and are gone when it ends, normally or by SIGINT
import os
import signal
import time


def copies(cmdline):
    """pids of live processes with exactly this command line."""
    want = '\0'.join(cmdline) + '\0'
    found = []
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open(f'/proc/{p}/cmdline') as f:
                if f.read() != want:
                    continue
            with open(f'/proc/{p}/stat') as f:
                if f.read().rsplit(')', 1)[1].split()[0] == 'Z':
                    continue
        except OSError:
            continue
        found.append(int(p))
    return found


if os.path.isdir('/proc/self'):
    cmd = [bench, '--scenario', 'uniform', '--n', '600', '--threads', '2', '--ticks', '2', '--warmup', '1',
           '--repeats', '1', '--background-load', '2', '--json']
    rows = [json.loads(l) for l in subprocess.run(cmd, check=True, capture_output=True, text=True,
                                                   timeout=100).stdout.splitlines() if l.strip()]
    assert len(rows) == 1 and rows[0]['background_load'] == 2 and 'loadavg' in rows[0], rows
    assert 1 <= rows[0]['threads_used'] <= 2, rows
    time.sleep(0.2)
    assert not copies(cmd), f'busy loops left behind: {copies(cmd)}'
    # interrupted while the loops run: the bench stops them before it dies
    cmd = [bench, '--scenario', 'uniform', '--n', '200k', '--threads', '1', '--ticks', '1000', '--repeats', '5',
           '--background-load', '2', '--json']
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    deadline = time.time() + 20
    while len(copies(cmd)) < 3 and time.time() < deadline:  # the bench and its 2 loops
        time.sleep(0.05)
    assert len(copies(cmd)) == 3, f'expected the bench and 2 loops, found {copies(cmd)}'
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) != 0
    time.sleep(0.2)
    assert not copies(cmd), f'busy loops left behind after SIGINT: {copies(cmd)}'
    print('background load ok')
