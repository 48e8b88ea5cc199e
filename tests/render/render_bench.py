#!/usr/bin/env python3
"""Render benchmark: frames of the real viewer (Xvfb + the system's GL), 1280x720, no vsync.

usage: render_bench.py MURMUR [FRAMES]
Prints ms per frame at 10k and 100k boids: the window (Xvfb) with MSAA 0 (the default on llvmpipe)
and 4, and the same renderer offscreen without any display (--headless, EGL). The simulation of the
next frame runs on a worker thread while the current one is drawn: "sim" is its time per tick,
"render" the main thread's frame minus its wait for the worker.
"""
import os
import re
import shutil
import subprocess
import sys


def run(murmur, boids, frames, msaa):
    env = dict(os.environ, MURMUR_MSAA=str(msaa))
    cmd = ['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', murmur, '--preset', 'classic', '--boids', str(boids),
           '--frames', str(frames), '--size', '1280x720', '--vsync', 'off']
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit('failed: %s\n%s' % (' '.join(cmd), r.stderr))
    m = re.search(r'([\d.]+) ms/frame \(sim ([\d.]+) ms, render ([\d.]+) ms\)', r.stdout)
    if not m:
        raise SystemExit('no timing line in:\n' + r.stdout)
    return tuple(float(x) for x in m.groups())


def run_headless(murmur, boids, frames):
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    cmd = [murmur, '--headless', '--preset', 'classic', '--boids', str(boids), '--frames', str(frames), '--size',
           '1280x720']
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit('failed: %s\n%s' % (' '.join(cmd), r.stderr))
    m = re.search(r'([\d.]+) ms/frame', r.stdout)
    if not m:
        raise SystemExit('no timing line in:\n' + r.stdout)
    return float(m.group(1))


def main():
    murmur = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    if not shutil.which('xvfb-run'):
        print('FAIL: xvfb-run is not installed')
        return 1
    print('render benchmark, 1280x720, no vsync, %d frames (first 10 not timed); load %s'
          % (frames, ' '.join('%.2f' % x for x in os.getloadavg())))
    print('%8s %9s %5s %10s %10s %10s' % ('boids', 'where', 'msaa', 'frame ms', 'sim ms',
                                          'render ms'))
    for boids in (10000, 100000):
        n = frames if boids <= 10000 else max(frames // 3, 30)
        for msaa in (0, 4):
            f, s, r = run(murmur, boids, n, msaa)
            print('%8d %9s %5d %10.2f %10.2f %10.2f' % (boids, 'window', msaa, f, s, r))
            sys.stdout.flush()
        print('%8d %9s %5d %10.2f' % (boids, 'headless', 0, run_headless(murmur, boids, n)))
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
