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

# starling rows (issue 23): the starling preset's spawn (forming) and a settled flock (made once by
# simulation, cached, tiled above --settle-base), the crowd rows beside them, each with its ratio to
# the uniform metric step measured before and after at the same size and threads
import tempfile

NEW = ['role', 'mean_ms_per_tick', 'mean_ns_per_boid_tick', 'cpu_ns_per_boid_tick', 'rss_bytes_per_boid',
       'rss_peak_bytes_per_boid']
RATIO = ['uniform_ns_per_boid_tick', 'uniform_ns_before', 'uniform_ns_after', 'ratio_to_uniform',
         'mean_ratio_to_uniform', 'cpu_ratio_to_uniform', 'ratio_to_settled']
ORDER = ['uniform', 'starling-forming', 'starling-settled', 'coincident', 'crowded', 'uniform']


def close(a, b):
    return abs(a - b) <= 2e-3 * max(abs(a), abs(b))


def starling_rows(cache, n='400,900', threads='1,2'):
    cmd = [bench, '--scenario', 'starling', '--n', n, '--threads', threads, '--ticks', '3', '--warmup', '1',
           '--settle-ticks', '30', '--settle-base', '400', '--cache', cache, '--json']
    p = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=100)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()], p.stderr


with tempfile.TemporaryDirectory() as cache:
    star, err = starling_rows(cache)
    assert 'settling 400 starlings for 30 ticks' in err, err
    assert [r['scenario'] for r in star] == ORDER * 4, [r['scenario'] for r in star]
    files = os.listdir(cache)
    assert len(files) == 1 and files[0].startswith('starling-settled-n400-t30-') and files[0].endswith('.csv'), files
    for g in range(4):
        group = star[6 * g:6 * g + 6]
        n, thr = group[0]['n'], group[0]['threads']
        assert (n, thr) == ((400, 900)[g // 2], (1, 2)[g % 2]), group[0]
        u0, u1 = group[0]['ns_per_boid_tick'], group[-1]['ns_per_boid_tick']
        settled = group[2]
        for r in group:
            assert r['n'] == n and r['threads'] == thr, r
            for k in need + NEW + ['ms_per_tick'] + (RATIO if r['scenario'] != 'uniform' else []):
                assert k in r, (k, r)
            for k in NEW[1:]:
                assert r[k] is None or (math.isfinite(r[k]) and r[k] >= 0), (k, r)
            if r['rss_bytes_per_boid'] is not None and r['rss_peak_bytes_per_boid'] is not None:
                assert r['rss_peak_bytes_per_boid'] >= r['rss_bytes_per_boid'], r
            assert r['bytes_per_boid'] > 0 and r['ms_per_tick'] > 0, r
            assert close(r['mean_ns_per_boid_tick'], r['mean_ms_per_tick'] * 1e6 / n), r
            if r['scenario'] == 'uniform':
                assert r['role'] == 'reference' and r['neighbours'] == 'metric' and 'ratio_to_uniform' not in r, r
                continue
            assert r['role'] == 'row' and r['neighbours'] == 'topological', r
            assert r['ticks'] == 3 and 6 <= r['mean_neighbours'] <= 7.5, r
            assert close(r['uniform_ns_before'], u0) and close(r['uniform_ns_after'], u1), (r, u0, u1)
            assert close(r['uniform_ns_per_boid_tick'], (u0 + u1) / 2), r
            assert close(r['ratio_to_uniform'], r['ns_per_boid_tick'] / r['uniform_ns_per_boid_tick']), r
            assert close(r['mean_ratio_to_uniform'], r['mean_ns_per_boid_tick'] / r['uniform_ns_per_boid_tick']), r
            ucpu = (group[0]['cpu_ns_per_boid_tick'] + group[-1]['cpu_ns_per_boid_tick']) / 2
            assert close(r['cpu_ratio_to_uniform'], r['cpu_ns_per_boid_tick'] / ucpu), (r, ucpu)
            if r['scenario'] in ('coincident', 'crowded'):
                assert close(r['ratio_to_settled'], r['ns_per_boid_tick'] / settled['ns_per_boid_tick']), r
            else:
                assert r['ratio_to_settled'] is None, r
        assert settled['settled_base'] == 400 and settled['settle_ticks'] == 30, settled
        assert settled['settled_copies'] == (1 if n == 400 else 3), settled
        assert settled['settled_cached'] == (n == 900), settled  # made for 400 (both threads), read back for 900
    # 1 and 2 threads: the same states
    for a, b in ((star[0:6], star[6:12]), (star[12:18], star[18:24])):
        assert [r['hash'] for r in a] == [r['hash'] for r in b], (a, b)
    # a second run reads the cache and gets the same states (the CSV keeps every float exactly)
    again, err = starling_rows(cache, '900', '2')
    assert 'settling' not in err, err
    assert [r['hash'] for r in again] == [r['hash'] for r in star[18:24]], ([r['hash'] for r in again], star[18:24])
    assert again[2]['settled_cached'] is True, again[2]
    assert os.listdir(cache) == files, os.listdir(cache)
    # the rows' own tick counts: forming the first 100 ticks, settled 2 warm-up + 20 timed
    for sc, ticks in (('starling-forming', 100), ('starling-settled', 20)):
        out = subprocess.run([bench, '--scenario', sc, '--n', '300', '--threads', '1', '--settle-ticks', '10',
                              '--cache', cache, '--json'], check=True, capture_output=True, text=True,
                             timeout=100).stdout
        rows = [json.loads(line) for line in out.splitlines() if line.strip()]
        assert [r['scenario'] for r in rows] == ['uniform', sc, 'uniform'], rows
        assert rows[1]['ticks'] == ticks and rows[1]['ratio_to_uniform'] > 0, rows[1]
    # --spawn-order cell|shuffle: the same boids renumbered (the rows' order, what it costs), so the same
    # searches (candidates, neighbours) from another state hash than the boids' own order
    for sc, ticks in (('starling-forming', '20'), ('starling-settled', '5')):
        got = {}
        for order in ('index', 'cell', 'shuffle'):
            out = subprocess.run([bench, '--scenario', sc, '--n', '300', '--threads', '1', '--settle-ticks', '10',
                                  '--cache', cache, '--reference', 'off', '--ticks', ticks, '--repeats', '1',
                                  '--spawn-order', order, '--json'], check=True, capture_output=True, text=True,
                                 timeout=100).stdout
            got[order] = [json.loads(line) for line in out.splitlines() if line.strip()][-1]
        for order in ('cell', 'shuffle'):
            assert got[order]['hash'] != got['index']['hash'], (sc, got)
            for k in ('candidates_per_boid', 'mean_neighbours'):
                assert got[order][k] == got['index'][k], (sc, order, k, got)
    for bad in (['--settle-base', '0'], ['--settle-ticks', '-1'], ['--cache', ''], ['--spawn-order', 'slot']):
        p = subprocess.run([bench, '--scenario', 'starling', *bad], capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and p.stderr.count('\n') == 1 and bad[0] in p.stderr, (bad, p.stderr)
print(f'{len(star) + len(again)} starling rows ok')

# --simd: every path this CPU runs gives the same bits (uniform and starling-forming rows), each row names
# the path it ran, auto names the library's choice; a bad or missing path: one line, exit 2
simd_hash = {}
for path in ('auto', 'base', 'avx2', 'avx512'):
    for sc in ('uniform', 'starling-forming'):
        p = subprocess.run([bench, '--scenario', sc, '--n', '700', '--threads', '2', '--ticks', '3', '--warmup', '1',
                            '--repeats', '1', '--reference', 'off', '--simd', path, '--json'],
                           capture_output=True, text=True, timeout=100)
        if p.returncode == 2 and path != 'auto' and 'not available' in p.stderr:
            assert p.stderr.count('\n') == 1 and '--simd' in p.stderr, p.stderr
            continue
        assert p.returncode == 0, (path, p.stderr)
        r = [json.loads(line) for line in p.stdout.splitlines() if line.strip()][-1]
        assert r['simd'] == path if path != 'auto' else r['simd'] in ('base', 'avx2', 'avx512'), (path, r)
        # the search's path: the one forced, or under auto the widest (on Zen 4 wider than 'simd')
        assert r['search_simd'] == path if path != 'auto' else r['search_simd'] in ('base', 'avx2', 'avx512'), (path, r)
        assert simd_hash.setdefault(sc, r['hash']) == r['hash'], (path, sc, r['hash'], simd_hash)
p = subprocess.run([bench, '--scenario', 'uniform', '--simd', 'sse9'], capture_output=True, text=True, timeout=30)
assert p.returncode == 2 and p.stderr.count('\n') == 1 and 'auto|base|avx2|avx512' in p.stderr, p.stderr
print('simd paths ok')
