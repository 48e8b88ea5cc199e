#!/usr/bin/env python3
"""Recording benchmark: headless frames per second at 1280x720 with 10k boids, no display (EGL):
rendering only, recording an MP4 (ffmpeg in its own process), recording PNGs (libpng, level 1).

usage: record_bench.py MURMUR [FRAMES] [REPEATS]
Each figure is the median of REPEATS runs; the first frame (shader compilation) is not timed for
rendering only, and recordings are timed whole (the summary line). The machine load at the start
is printed: take the figures when it is low.
"""
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from timing_run import timing  # noqa: E402


def run(murmur, args, frames):
    cmd = [murmur, '--headless', '--preset', 'classic', '--frames', str(frames), '--size', '1280x720',
           '--boids', '10000', '--seed', '1'] + args
    return timing(cmd, r'\(([\d.]+) fps\)', display=False)[0]


def main():
    murmur = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if not shutil.which('ffmpeg'):
        print('FAIL: ffmpeg is not installed')
        return 1
    print('record benchmark: headless, 1280x720, 10k boids, %d frames, median of %d; load %s'
          % (frames, repeats, ' '.join('%.2f' % x for x in os.getloadavg())))
    with tempfile.TemporaryDirectory(prefix='murmur-rbench-') as tmp:
        cases = [('render only', []),
                 ('MP4 (H.264)', ['--record', os.path.join(tmp, 'a.mp4')]),
                 ('PNG frames', ['--record', os.path.join(tmp, 'f%05d.png')])]
        res = {}
        for name, args in cases:
            fps = statistics.median(run(murmur, args, frames) for _ in range(repeats))
            res[name] = fps
            for f in os.listdir(tmp):
                os.unlink(os.path.join(tmp, f))
        base = res['render only']
        print('%-14s %8s %10s %12s' % ('mode', 'fps', 'ms/frame', 'vs render'))
        for name, fps in res.items():
            print('%-14s %8.1f %10.2f %+11.0f%%' % (name, fps, 1000.0 / fps,
                                                   100.0 * (base / fps - 1.0)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
