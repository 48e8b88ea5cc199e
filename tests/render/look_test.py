#!/usr/bin/env python3
"""The dusk look's targets (issue 25), measured on the pixels of real frames (standard library only).

usage: look_test.py MURMUR SECONDS [BOIDS ...] [--keep DIR] [--set NAME=VALUE ...]

For each count, the program (headless: EGL + Mesa llvmpipe) flies the default preset (starling, the
dusk look) for SECONDS of simulated time and saves one frame, HUD off, 1280x720, with its state
(--export). A second run loads that state (--init) and draws the same frame without the boids
(MURMUR_BIRD=none): the sky behind every bird. A bird pixel is one whose luminance differs from
the sky's by more than 0.02 (0-1 scale, Rec. 709 weights on the stored values). The targets:
  - at least 80% of the bird pixels darker than the sky behind them,
  - a median luminance step (sky minus frame) of at least 0.15,
  - the flock's box (the 1st to 99th percentile of the bird pixels' x and y) at least 12% of the frame,
  - bird pixels at least 1.5% of the frame,
  - and no flicker: the flock's darkness (the sum of the steps) changes by at most 5% from that frame
    to the next (a tick and 1/30 s of wing beats later).
The targets are checked on the default view (the follow camera of the starling preset: an observer
on the ground below the flock, framing it), as a user gets it with --warmup and --frames 1; the
no-flicker check draws the last state twice from a fixed observer placed from the state
(observer() below), a tick apart. That observer's numbers are printed too.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_test import Failure, check, env_headless, read_png  # noqa: E402

SIZE = (1280, 720)
STEP_MIN = 0.02   # luminance difference that makes a bird pixel


def run(cmd, env):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=900)
    if r.returncode != 0:
        raise Failure('%s\nexit %d\nstdout:\n%s\nstderr:\n%s' % (' '.join(cmd), r.returncode, r.stdout, r.stderr))
    return r


def luminance_rows(img):
    w, h, bpp, rows = img
    out = []
    for row in rows:
        out.append([(0.2126 * row[x * bpp] + 0.7152 * row[x * bpp + 1] + 0.0722 * row[x * bpp + 2]) / 255.0
                    for x in range(w)])
    return out


def percentile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def measure(frame_png, sky_png):
    """The four numbers of the targets, from a frame and the same frame without the boids."""
    a, b = read_png(frame_png), read_png(sky_png)
    w, h = a[0], a[1]
    check((w, h) == (b[0], b[1]), 'frame and sky differ in size')
    la, lb = luminance_rows(a), luminance_rows(b)
    xs, ys, steps = [], [], []
    darker = 0
    for y in range(h):
        ra, rb = la[y], lb[y]
        for x in range(w):
            d = rb[x] - ra[x]
            if abs(d) > STEP_MIN:
                xs.append(x)
                ys.append(y)
                steps.append(d)
                darker += d > 0.0
    n = len(steps)
    check(n > 0, '%s: no bird pixels at all' % frame_png)
    dark = sum(steps)
    steps.sort()
    xs.sort()
    ys.sort()
    box = ((percentile(xs, 0.99) - percentile(xs, 0.01) + 1) * (percentile(ys, 0.99) - percentile(ys, 0.01) + 1))
    return {'darker': darker / n, 'median_step': steps[n // 2], 'box': box / (w * h), 'pixels': n / (w * h),
            'dark': dark}


def read_state(path):
    """Flying boids' positions of an --export file."""
    pts = []
    with open(path) as f:
        next(f)
        for line in f:
            r = line.split(',')
            if r[0] == 'boid' and int(r[7]) == 0:
                pts.append((float(r[1]), float(r[2]), float(r[3])))
    return pts


def observer(pts):
    """Camera flags for an observer standing on the ground (eye 2 wu up) on the -z side of the flock,
    looking at its middle from as far as makes its width (2nd to 98th percentile in x) 3/4 of the
    frame's width (45 degree vertical field of view, 16:9)."""
    def mid(v):
        v = sorted(v)
        return v[len(v) // 2], v[int(0.98 * len(v))] - v[int(0.02 * len(v))]
    (cx, wx), (cy, _), (cz, _) = mid([p[0] for p in pts]), mid([p[1] for p in pts]), mid([p[2] for p in pts])
    tan_half_w = 0.41421356 * SIZE[0] / SIZE[1]
    dist = max(wx, 1.0) / (0.75 * 2.0 * tan_half_w)
    return ['--camera', 'fixed', '--fov', '45', '--camera-pos', '%g,2,%g' % (cx, cz - dist),
            '--look-at', '%g,%g,%g' % (cx, cy, cz)]


def one_count(murmur, seconds, boids, tmp, sets=()):
    """Fly the default preset for seconds, then draw its last state twice from the default camera and
    from an observer's (with the boids and without): {camera: (numbers, frame, sky)}."""
    # the starling preset's tick (a parameter of the preset, read from the program, not assumed)
    r = run([murmur, '--list-params'], env_headless())
    dt = None
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == 'dt':
            dt = float(f[2])  # name, type, the value in force (the starling preset's)
    check(dt, 'no dt in --list-params:\n' + r.stdout)
    ticks = int(round(seconds / dt))

    def name(kind, cam, ext):
        return os.path.join(tmp, '%s_%s_%d.%s' % (kind, cam, boids, ext))
    state = name('state', 'flight', 'csv')
    common = [murmur, '--headless', '--frames', '1', '--size', '%dx%d' % SIZE, '--hud', 'off']
    run(common + list(sets) + ['--set', 'boids=%d' % boids, '--warmup', str(ticks), '--screenshot', name('frame', 'default', 'png'),
                  '--export', state], env_headless())
    run(common + ['--init', state, '--screenshot', name('sky', 'default', 'png')], env_headless(MURMUR_BIRD='none'))
    cam = observer(read_state(state))
    for env, kind in ((env_headless(), 'frame'), (env_headless(MURMUR_BIRD='none'), 'sky')):
        run(common + cam + ['--init', state, '--screenshot', name(kind, 'observer', 'png')], env)
    # the next frame (a tick and a frame's time of wing beats later; the fixed camera sees the same sky)
    run(common[:2] + ['--frames', '2'] + common[4:] + cam + ['--init', state, '--screenshot',
                                                             name('frame', 'next', 'png')], env_headless())
    out = {}
    for c in ('default', 'observer', 'next'):
        frame, sky = name('frame', c, 'png'), name('sky', 'observer' if c == 'next' else c, 'png')
        out[c] = (measure(frame, sky), frame, sky)
    return out


def main(argv):
    keep, sets = None, []
    if '--keep' in argv:
        i = argv.index('--keep')
        keep = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    while '--set' in argv:
        i = argv.index('--set')
        sets += argv[i:i + 2]
        argv = argv[:i] + argv[i + 2:]
    murmur, seconds = argv[1], float(argv[2])
    counts = [int(a) for a in argv[3:]] or [2000, 20000]
    failed = 0
    with tempfile.TemporaryDirectory(prefix='murmur-look-') as tmp:
        for boids in counts:
            try:
                res = one_count(murmur, seconds, boids, tmp, sets)
                for cam in ('default', 'observer', 'next'):
                    m, frame, sky = res[cam]
                    print('look %d boids after %g s, %s camera: %.1f%% of bird pixels darker than the sky, median '
                          'step %.3f, box %.1f%% of the frame, bird pixels %.2f%%'
                          % (boids, seconds, cam, 100 * m['darker'], m['median_step'], 100 * m['box'],
                             100 * m['pixels']))
                    if keep:
                        os.makedirs(keep, exist_ok=True)
                        for f in (frame, sky, os.path.join(tmp, 'state_flight_%d.csv' % boids)):
                            shutil.copy(f, keep)
                # no flicker (the observer's fixed camera drawn twice, a tick apart)
                m = res['observer'][0]
                # no flicker: the flock's darkness (the sum of the steps) the same in the next frame
                change = abs(res['next'][0]['dark'] - m['dark']) / m['dark']
                print('look %d boids: the darkness changes %.2f%% from one frame to the next' % (boids, 100 * change))
                check(change <= 0.05, '%d boids: the flock\'s darkness changes %.1f%% from one frame to the next, '
                      'want <= 5%%' % (boids, 100 * change))
                m = res['default'][0]  # the targets: the default view, as a user gets it
                check(m['darker'] >= 0.80, '%d boids: %.1f%% of bird pixels darker than the sky, want >= 80%%'
                      % (boids, 100 * m['darker']))
                check(m['median_step'] >= 0.15, '%d boids: median luminance step %.3f, want >= 0.15'
                      % (boids, m['median_step']))
                check(m['box'] >= 0.12, '%d boids: the flock\'s box is %.1f%% of the frame, want >= 12%%'
                      % (boids, 100 * m['box']))
                check(m['pixels'] >= 0.015, '%d boids: bird pixels are %.2f%% of the frame, want >= 1.5%%'
                      % (boids, 100 * m['pixels']))
                print('ok look-%d' % boids)
            except Failure as e:
                print('FAIL look-%d: %s' % (boids, e))
                failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
