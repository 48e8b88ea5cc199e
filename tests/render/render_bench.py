#!/usr/bin/env python3
"""Render benchmark: frames of the real viewer (Xvfb + the system's GL), 1280x720, no vsync.

usage: render_bench.py MURMUR [FRAMES]
Prints ms per frame at 10k and 100k boids: the window (Xvfb) with MSAA 0 (the default on llvmpipe)
and 4, and the same renderer offscreen without any display (--headless, EGL). The simulation of the
next frame runs on a worker thread while the current one is drawn: "sim" is its time per tick,
"render" the main thread's frame minus its wait for the worker.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from timing_run import timing  # noqa: E402


def run(murmur, boids, frames, msaa):
    cmd = ['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', murmur, '--preset', 'classic', '--boids', str(boids),
           '--frames', str(frames), '--size', '1280x720', '--vsync', 'off']
    return timing(cmd, r'([\d.]+) ms/frame \(sim ([\d.]+) ms, render ([\d.]+) ms\)', extra_env={'MURMUR_MSAA': str(msaa)})


def run_headless(murmur, boids, frames):
    cmd = [murmur, '--headless', '--preset', 'classic', '--boids', str(boids), '--frames', str(frames), '--size',
           '1280x720']
    return timing(cmd, r'([\d.]+) ms/frame', display=False)[0]


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
