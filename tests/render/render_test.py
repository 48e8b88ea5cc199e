#!/usr/bin/env python3
"""Rendering tests of the murmur viewer under Xvfb + Mesa llvmpipe (standard library only).

usage: render_test.py MURMUR RENDER_PROJECT CASE
Each CASE runs the real program in a virtual X server, with a known state loaded by --init,
and checks the screenshot's pixels or the state the program reports. A missing xvfb-run is a
failure, not a skip: CI must run these for real.
"""
import colorsys
import os
import re
import shutil
import subprocess
import sys
import tempfile

from pngread import Failure, check, pixel, read_png  # noqa: F401 (the tests import them from here)

SIZE = (320, 240)
# a small world whose box centre (the camera's target) is the origin, and birds big enough to see
WORLD = ['--set', 'world_min=-20,-20,-20', '--set', 'world_max=20,20,20',
         '--set', 'separation_radius=4']


def run_case(name, case, prefix, make_ctx):
    """Run case(make_ctx(tmp)) in a fresh temporary directory; print ok or FAIL with the case's name,
    return the exit status."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        try:
            case(make_ctx(tmp))
        except Failure as e:
            print('FAIL %s: %s' % (name, e))
            return 1
    print('ok %s' % name)
    return 0


def main_cases(cases, prefix):
    """The main of a viewer test file: argv MURMUR PROJECT CASE; runs cases[CASE] with a Ctx under
    Xvfb (run_case), returns the exit status."""
    murmur, project, name = sys.argv[1:4]
    if not shutil.which('xvfb-run'):
        print('FAIL: xvfb-run is not installed (apt-get install xvfb xauth); render tests need it')
        return 1
    return run_case(name, cases[name], prefix,
                    lambda tmp: Ctx(os.path.abspath(murmur), os.path.abspath(project), tmp))


def env_headless(**extra):
    """The environment of a --headless run: no display (EGL), plus extra."""
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    env.pop('WAYLAND_DISPLAY', None)
    env.update(extra)
    return env


def classify(rgb):
    r, g, b = (c / 255.0 for c in rgb)
    hue, sat, val = colorsys.rgb_to_hsv(r, g, b)
    deg = hue * 360.0
    if sat < 0.28 or val < 0.12:
        return 'grey'
    if 18.0 <= deg <= 55.0:
        return 'flying'      # amber
    if deg >= 340.0 or deg <= 12.0:
        return 'predator'    # red
    if 90.0 <= deg <= 160.0:
        return 'perching'    # green
    if 180.0 <= deg <= 260.0:
        return 'blue'
    return 'other'


def find_near(img, x, y, want, radius=2):
    seen = []
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            rgb = pixel(img, x + dx, y + dy)
            if classify(rgb) == want:
                return rgb
            seen.append(rgb)
    raise Failure('no %s pixel within %dpx of (%.1f, %.1f); saw e.g. %s' %
                  (want, radius, x, y, seen[len(seen) // 2]))


# ---------------------------------------------------------------- running the program

class Ctx:
    def __init__(self, murmur, project, tmp):
        self.murmur, self.project, self.tmp = murmur, project, tmp

    def path(self, name):
        return os.path.join(self.tmp, name)

    def state_csv(self, name, rows):
        p = self.path(name)
        with open(p, 'w') as f:
            f.write('kind,x,y,z,vx,vy,vz,perch\n')
            for r in rows:
                f.write(','.join(str(v) for v in r) + '\n')
        return p

    def run(self, args, frames=3, size=SIZE, display=True, cwd=None, expect=0, env=None, preset='classic'):
        # the tests are written for the classic preset (a later --preset in args wins); preset=None:
        # murmur's own default
        first = ['--preset', preset] if preset else []
        cmd = [self.murmur] + first + ['--frames', str(frames), '--size', '%dx%d' % size] + args
        if display:
            cmd = ['xvfb-run', '-a', '-s', '-screen 0 1280x720x24'] + cmd
        extra, env = env or {}, dict(os.environ)
        env.update(extra)
        if not display:
            env.pop('DISPLAY', None)
            env.pop('WAYLAND_DISPLAY', None)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env, cwd=cwd or self.tmp, timeout=300)
        if r.returncode != expect:
            raise Failure('%s\nexit %d (expected %d)\nstdout:\n%s\nstderr:\n%s' %
                          (' '.join(cmd), r.returncode, expect, r.stdout, r.stderr))
        return r

    def state(self, out):
        for line in out.splitlines():
            if line.startswith('viewer: state '):
                return dict(kv.split('=', 1) for kv in line[len('viewer: state '):].split())
        raise Failure('no state line in:\n' + out)

    def _project(self, args, n):
        """Run render_project and parse its n pixel positions."""
        out = subprocess.run([self.project] + args, stdout=subprocess.PIPE, text=True, check=True).stdout.split('\n')
        res = []
        for line in out[:n]:
            check(line != 'behind', 'point not in view')
            x, y = line.split()
            res.append((float(x), float(y)))
        return res

    def projected_from(self, size, eye, at, points):
        """Pixels of points seen from eye looking at at (render_project --eye)."""
        args = ['%dx%d' % size, '-20,-20,-20', '20,20,20', '--eye', '%g,%g,%g' % eye, '%g,%g,%g' % at]
        return self._project(args + ['%g,%g,%g' % p for p in points], len(points))

    def projected(self, size, lo, hi, points):
        """Pixels of points seen by the home camera of the box lo..hi."""
        return self._project(['%dx%d' % size, lo, hi] + ['%g,%g,%g' % p for p in points], len(points))


# ---------------------------------------------------------------- cases

def case_pixels(c):
    """Boids and a predator at known points, frozen (Space at frame 1): their colours where the
    default camera projects them, the background elsewhere."""
    a, b, p = (0.0, 0.0, 0.0), (10.0, 6.0, -8.0), (-9.0, -6.0, 7.0)
    init = c.state_csv('known.csv', [('boid',) + a + (6, 0, 0, 0), ('boid',) + b + (0, 0, 6, 0),
                                      ('predator',) + p + (6, 0, 0, 0)])
    shot = c.path('pixels.png')
    c.run(['--init', init, '--screenshot', shot, '--keys', 'Space', '--hud', 'off',
           '--set', 'ground=-20'] + WORLD)
    img = read_png(shot)
    pa, pb, pp = c.projected(SIZE, '-20,-20,-20', '20,20,20', [a, b, p])
    check(abs(pa[0] - SIZE[0] / 2) < 0.5 and abs(pa[1] - SIZE[1] / 2) < 0.5,
          'the box centre should project to the image centre, got %s' % (pa,))
    find_near(img, pa[0], pa[1], 'flying')
    find_near(img, pb[0], pb[1], 'flying')
    find_near(img, pp[0], pp[1], 'predator')
    # background: sky at the top, far from every agent
    for x, y in [(10, 8), (SIZE[0] / 2, 8), (SIZE[0] - 10, 8), (SIZE[0] / 2, 40)]:
        rgb = pixel(img, x, y)
        check(classify(rgb) == 'blue' and max(rgb) < 140,
              'background at (%d, %d) should be the dark blue sky, got %s' % (x, y, rgb))
    # nothing amber away from the birds
    count = 0
    w, h, _, _ = img
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            if classify(pixel(img, x, y)) == 'flying':
                near = min(abs(x - q[0]) + abs(y - q[1]) for q in (pa, pb, pp))
                check(near < 30, 'stray boid colour at (%d, %d)' % (x, y))
                count += 1
    check(count > 2, 'too few boid pixels (%d)' % count)


def case_predator_toggle(c):
    """K hides the predators: their colour disappears, the library says predators_on=off."""
    p = (0.0, 0.0, 0.0)
    init = c.state_csv('pred.csv', [('boid', 15, 15, 15, 6, 0, 0, 0), ('predator',) + p + (6, 0, 0, 0)])
    shot = c.path('pred_on.png')
    r = c.run(['--init', init, '--screenshot', shot, '--keys', 'Space', '--hud', 'off',
               '--set', 'ground=-20'] + WORLD)
    check(c.state(r.stdout)['predators_on'] == 'on', 'predators should start on')
    find_near(read_png(shot), SIZE[0] / 2, SIZE[1] / 2, 'predator')
    shot = c.path('pred_off.png')
    r = c.run(['--init', init, '--screenshot', shot, '--keys', 'Space,K', '--hud', 'off',
               '--set', 'ground=-20'] + WORLD)
    st = c.state(r.stdout)
    check(st['predators_on'] == 'off' and st['predators'] == '1', 'K should hide, not remove: %s' % st)
    img = read_png(shot)
    for dy in range(-4, 5):
        for dx in range(-4, 5):
            rgb = pixel(img, SIZE[0] / 2 + dx, SIZE[1] / 2 + dy)
            check(classify(rgb) != 'predator', 'hidden predator still drawn: %s' % (rgb,))


def case_perching(c):
    """A perching boid sits on the ground in the perching colour and stays there."""
    init = c.state_csv('perch.csv', [('boid', 0, 0, 0, 0, 0, 0, 500), ('boid', 12, 12, 12, 6, 0, 0, 0)])
    shot = c.path('perch.png')
    out = c.path('perch_out.csv')
    r = c.run(['--init', init, '--screenshot', shot, '--hud', 'off', '--set', 'perch=on',
               '--set', 'ground=0', '--export', out] + WORLD, frames=5)
    st = c.state(r.stdout)
    check(st['perch'] == 'on' and st['tick'] == '5', 'state: %s' % st)
    find_near(read_png(shot), SIZE[0] / 2, SIZE[1] / 2, 'perching')
    with open(out) as f:
        rows = [line.strip().split(',') for line in f if not line.startswith('#')][1:]
    first = rows[0]
    check(float(first[2]) == 0.0 and int(first[7]) > 0,
          'the perched boid should still be on the ground with a timer: %s' % first)


def case_toggles(c):
    """Keys call the library setters at once; the program reports the library's state."""
    init = c.state_csv('few.csv', [('boid', i * 2.0 - 10, 5.0, 0.0, 6, 0, 0, 0) for i in range(10)])
    base = ['--init', init, '--hud', 'off'] + WORLD
    st = c.state(c.run(base).stdout)
    check(st['perch'] == 'off' and st['goal'] == 'off' and st['wind'] == 'off', 'defaults: %s' % st)
    check(st['scatter'] == 'off' and st['bounds'] == 'soft' and st['predators'] == '0', 'defaults: %s' % st)
    st = c.state(c.run(base + ['--keys', 'P,G,W,S,B,K,A,=']).stdout)
    want = {'perch': 'on', 'goal': 'on', 'wind': 'on', 'scatter': 'on', 'bounds': 'wrap',
            'predators': '3', 'predators_on': 'on', 'view_angle': '360', 'boids': '20'}
    for k, v in want.items():
        check(st[k] == v, 'after P,G,W,S,B,K,A,= expected %s=%s, got %s' % (k, v, st[k]))
    # keys at given frames, toggling back; B cycles through every mode
    st = c.state(c.run(base + ['--keys', '1:P,2:P,2:B,3:B,3:B,4:B,4:-'], frames=5).stdout)
    check(st['perch'] == 'off' and st['bounds'] == 'soft' and st['boids'] == '5', 'state: %s' % st)
    # pause, single ticks, speed
    st = c.state(c.run(base + ['--keys', 'Space,3:.,4:.,4:],4:]'], frames=6).stdout)
    check(st['tick'] == '2' and st['paused'] == 'yes' and st['speed'] == '4', 'state: %s' % st)
    st = c.state(c.run(base + ['--keys', 'F,C,Tab'], frames=2).stdout)
    check(st['follow'] == 'on' and st['color'] == 'speed' and st['hud'] == 'on', 'state: %s' % st)
    # parameter nudging: select the second parameter, increase it
    r = c.run(base + ['--keys', 'Down,Right'], frames=2)
    check('selected' in r.stdout and ' = ' in r.stdout, 'nudge messages missing:\n' + r.stdout)
    # reset with a new seed keeps the counts
    st = c.state(c.run(base + ['--keys', 'R'], frames=2).stdout)
    check(st['boids'] == '10', 'reset changed the count: %s' % st)
    # N: the next preset, live (mur_flock_apply_preset); the message says what it set
    r = c.run(['--keys', '1:N,2:N', '--hud', 'off'], frames=3)
    check('preset starling: 2000 boids, no walls, roost 0,40,0 radius 60' in r.stdout
          and 'preset vision-report: 100 boids, world 0..200 x -1..1 x 0..200, soft walls, plane' in r.stdout,
          'N should report the preset, count and world:\n' + r.stdout)
    st = c.state(r.stdout)
    check(st['boids'] == '100', 'after classic > starling > vision-report: %s' % st)


def case_png(c):
    """Screenshots are valid PNGs of the requested size, written whole; F12 names them by time."""
    for size in [(320, 240), (201, 133)]:
        shot = c.path('shot_%dx%d.png' % size)
        c.run(['--screenshot', shot, '--set', 'boids=500'], size=size, frames=2)
        w, h, _, _ = read_png(shot)
        check((w, h) == size, '%s is %dx%d' % (shot, w, h))
        left = [f for f in os.listdir(c.tmp) if '.tmp.' in f]
        check(not left, 'temporary files left behind: %s' % left)
    d = tempfile.mkdtemp(dir=c.tmp)
    r = c.run(['--keys', 'F12', '--set', 'boids=100'], frames=2, cwd=d)
    shots = [f for f in os.listdir(d) if f.startswith('murmur-') and f.endswith('.png')]
    check(len(shots) == 1, 'F12 should write one timestamped PNG, found %s' % shots)
    check(shots[0] in r.stdout, 'F12 should print the path:\n' + r.stdout)
    read_png(os.path.join(d, shots[0]))
    # an unwritable screenshot path fails clearly
    r = c.run(['--screenshot', os.path.join(c.tmp, 'no', 'such', 'dir.png')], frames=1, expect=2)
    check('no/such' in r.stderr, 'error should name the path:\n' + r.stderr)


def case_default(c):
    """What a new user sees: murmur's default preset is starling, whose camera follows the biggest
    group (no walls to frame), so once the flock has formed its birds sit round the image centre."""
    shot = c.path('default.png')
    r = c.run(['--screenshot', shot, '--hud', 'off', '--set', 'boids=600', '--set', 'look=studio', '--warmup', '1500'],
              frames=30, preset=None)  # the studio look's amber birds are counted (the dusk look: look_test.py)
    st = c.state(r.stdout)
    check(st['follow'] == 'on' and st['bounds'] == 'none', 'default: want the starling roost world followed, got %s' % st)
    img = read_png(shot)
    w, h, _, _ = img
    xs, ys = [], []
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            if classify(pixel(img, x, y)) == 'flying':
                xs.append(x)
                ys.append(y)
    check(len(xs) > 40, 'too few bird pixels in the default view (%d)' % len(xs))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    check(abs(mx - w / 2) < w / 4 and abs(my - h / 2) < h / 4,
          'the followed flock should sit round the centre, its pixels average (%.0f, %.0f)' % (mx, my))


def case_errors(c):
    """No display: one clear line and status 2. A bad --keys: one line and status 2."""
    r = c.run([], display=False, expect=2)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(len(lines) == 1 and 'display' in lines[0].lower(), 'want one line about the display:\n' + r.stderr)
    r = c.run(['--keys', 'Nope'], expect=2)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(len(lines) == 1 and 'Nope' in lines[0], 'want one line naming the key:\n' + r.stderr)


def case_plots(c):
    """M shows the live plots at the top right, the same in two identical scripted runs; --metrics
    writes one row per tick in the viewer too."""
    size = (640, 480)
    plain, plots, met = c.path('plain.png'), c.path('plots.png'), c.path('m.csv')
    c.run(['--screenshot', plain, '--set', 'boids=300', '--seed', '5'], size=size, frames=60)
    c.run(['--screenshot', plots, '--set', 'boids=300', '--seed', '5', '--keys', '1:M', '--metrics', met],
          size=size, frames=60)
    a, b = read_png(plain), read_png(plots)
    changed = total = 0
    for y in range(int(0.05 * size[1]), int(0.5 * size[1])):
        for x in range(int(0.72 * size[0]), int(0.97 * size[0])):
            total += 1
            pa, pb = pixel(a, x, y), pixel(b, x, y)
            changed += sum(abs(int(u) - int(v)) for u, v in zip(pa, pb)) > 30
    check(changed > 0.5 * total, 'the plot panel should cover the top right: %d of %d pixels changed' % (changed, total))
    # sampled on the simulation's clock in scripted runs: the same run draws the same graphs
    again = c.path('plots2.png')
    c.run(['--screenshot', again, '--set', 'boids=300', '--seed', '5', '--keys', '1:M'], size=size, frames=60)
    b2 = read_png(again)
    differ = sum(1 for y in range(int(0.05 * size[1]), int(0.5 * size[1]))
                 for x in range(int(0.72 * size[0]), int(0.97 * size[0])) if pixel(b, x, y) != pixel(b2, x, y))
    check(differ == 0, 'the plots of two identical scripted runs differ in %d pixels' % differ)
    with open(met) as f:
        rows = [l for l in f.read().splitlines() if not l.startswith('#')]
    check(rows[0].startswith('tick,centre_x,'), 'metrics header: %s' % rows[0])
    ticks = [int(r.split(',')[0]) for r in rows[1:]]
    check(ticks == list(range(61)), 'one metrics row per tick 0..60, got %s...' % ticks[:5])


def case_world_scale(c):
    """world=scale: the count keys grow the box, and the camera backs off with it; fixed: neither."""
    for world, factor in (('scale', 2.0), ('fixed', 1.0)):
        base = ['--set', 'world=' + world, '--set', 'boids=2000', '--hud', 'off']
        a = c.state(c.run(base, frames=2).stdout)
        b = c.state(c.run(base + ['--keys', '=,=,='], frames=2).stdout)
        check(a['world'] == world and b['boids'] == '16000', 'state: %s' % b)
        got = float(b['world_max_x']) / float(a['world_max_x'])
        check(abs(got - factor) < 1e-3, 'world=%s: box x grew %g times at 8x the boids, want %g' % (world, got, factor))
        got = float(b['camera_distance']) / float(a['camera_distance'])
        check(abs(got - factor) < 1e-3, 'world=%s: camera distance grew %g times, want %g' % (world, got, factor))


def case_panel(c):
    """E shows the parameter panel (Dear ImGui) at the top right; Tab hides it with the HUD; it is
    never drawn into a recording, even with --hud on."""
    size = (640, 480)
    base = ['--set', 'boids=300', '--seed', '5', '--keys']
    shots = {}
    for name, keys in (('plain', '1:M,2:M'), ('panel', '1:E'), ('hidden', '1:E,2:Tab,3:Tab,4:Tab'),
                       ('plots', '1:E,1:M')):
        c.run(['--screenshot', c.path(name + '.png')] + base + [keys], size=size, frames=6)
        shots[name] = read_png(c.path(name + '.png'))

    def region_changed(a, b, xs=(0.72, 0.97), ys=(0.05, 0.6)):
        changed = total = 0
        for y in range(int(ys[0] * size[1]), int(ys[1] * size[1]), 2):
            for x in range(int(xs[0] * size[0]), int(xs[1] * size[0]), 2):
                total += 1
                changed += sum(abs(int(u) - int(v)) for u, v in zip(pixel(a, x, y), pixel(b, x, y))) > 30
        return changed / total

    def title_blue(img):
        # ImGui's dark style: the title bar of the focused window is (41, 74, 122)
        return sum(1 for y in range(0, size[1] // 2) for x in range(size[0] // 2, size[0])
                   if all(abs(int(p) - q) < 12 for p, q in zip(pixel(img, x, y), (41, 74, 122))))

    frac = region_changed(shots['plain'], shots['panel'])
    check(frac > 0.6, 'the panel should cover the top right: %.0f%% of it changed' % (100 * frac))
    check(title_blue(shots['panel']) > 500, 'no panel title bar: %d pixels' % title_blue(shots['panel']))
    check(title_blue(shots['hidden']) == 0 and title_blue(shots['plain']) == 0,
          'the panel shows without E or after Tab')
    check(not os.path.exists(c.path('imgui.ini')), 'the panel left imgui.ini behind')
    # with the panel at the right, the live plots (M) move to the left under the HUD's lines
    # instead of showing through the panel
    left = region_changed(shots['panel'], shots['plots'], (0.03, 0.33), (0.3, 0.75))
    under = region_changed(shots['panel'], shots['plots'], (0.65, 0.95), (0.2, 0.55))
    check(left > 0.6 and under < 0.02, 'plots with the panel: %.0f%% of the left column changed, '
          '%.0f%% under the panel' % (100 * left, 100 * under))
    # never in a recording: the window shows the panel, the video does not
    out = c.path('rec.mp4')
    c.run(['--record', out, '--hud', 'on', '--screenshot', c.path('win.png')] + base + ['1:E'],
          size=size, frames=6)
    check(title_blue(read_png(c.path('win.png'))) > 500, 'the window should show the panel')
    r = subprocess.run(['ffmpeg', '-v', 'error', '-sseof', '-0.1', '-i', out, '-frames:v', '1', '-y',
                        c.path('last.png')], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, 'cannot decode the recording: ' + r.stderr)
    check(title_blue(read_png(c.path('last.png'))) == 0, 'the panel went into the recording')


def case_pick(c):
    """A scripted click on a bird selects it: its two neighbours get cyan marks, a boid out of its
    view radius and one behind it (outside the view cone) do not; the message gives its speed and
    neighbour count. In topological mode only its topo_k nearest are marked."""
    a = (0.0, 0.0, 0.0)
    near1, near2 = (3.0, 2.0, 0.0), (3.0, -1.0, 1.5)      # in front (+x is its heading), within 6 wu
    far, behind = (14.0, 0.0, 0.0), (-4.0, 0.0, 0.0)       # too far; behind it (outside a 90 deg cone)
    rows = [('boid',) + a + (6, 0, 0, 0)] + [('boid',) + p + (6, 0, 0, 0) for p in (near1, near2, far, behind)]
    init = c.state_csv('pick.csv', rows)
    pa, p1, p2, pf, pb = c.projected(SIZE, '-20,-20,-20', '20,20,20', [a, near1, near2, far, behind])
    shot = c.path('pick.png')
    r = c.run(['--init', init, '--screenshot', shot, '--hud', 'off', '--set', 'ground=-20',
               '--set', 'view_angle=90', '--set', 'view_radius=6',
               '--keys', '1:Space,2:Click@%dx%d' % (round(pa[0]), round(pa[1]))] + WORLD, frames=4)
    check('selected boid 0: speed 6.00 wu/s, 2 neighbours' in r.stdout, 'selection message:\n' + r.stdout)
    img = read_png(shot)

    def cyan_near(q, radius=9):
        n = 0
        for y in range(int(q[1]) - radius, int(q[1]) + radius + 1):
            for x in range(int(q[0]) - radius, int(q[0]) + radius + 1):
                if 0 <= x < SIZE[0] and 0 <= y < SIZE[1]:
                    p = pixel(img, x, y)
                    n += p[0] < 120 and p[1] > 200 and p[2] > 220
        return n
    check(cyan_near(p1) > 4 and cyan_near(p2) > 4, 'neighbours not marked: %d, %d cyan pixels'
          % (cyan_near(p1), cyan_near(p2)))
    check(cyan_near(pf) == 0 and cyan_near(pb) == 0, 'non-neighbours marked: %d, %d cyan pixels'
          % (cyan_near(pf), cyan_near(pb)))
    # topological neighbours (topo_k 1): only the nearest one it sees (near2, 3.5 wu against 3.6) is marked
    r = c.run(['--init', init, '--screenshot', shot, '--hud', 'off', '--set', 'ground=-20',
               '--set', 'view_angle=90', '--set', 'view_radius=6', '--set', 'neighbours=topological',
               '--set', 'topo_k=1', '--keys', '1:Space,2:Click@%dx%d' % (round(pa[0]), round(pa[1]))] + WORLD,
              frames=4)
    check('selected boid 0: speed 6.00 wu/s, 1 topological neighbours' in r.stdout,
          'topological selection message:\n' + r.stdout)
    img = read_png(shot)
    check(cyan_near(p2) > 4 and cyan_near(p1) == 0, 'topological marks: %d cyan pixels at the nearest, %d at the '
          'second' % (cyan_near(p2), cyan_near(p1)))
    # a click on empty sky deselects: no marks at all
    r = c.run(['--init', init, '--screenshot', shot, '--hud', 'off', '--set', 'ground=-20',
               '--keys', '1:Space,2:Click@%dx%d,3:Click@5x5' % (round(pa[0]), round(pa[1]))] + WORLD,
              frames=4)
    img = read_png(shot)
    check(cyan_near(p1) == 0, 'the selection stayed after a click on the sky')
    r = c.run(['--keys', 'Click@12'], expect=2)
    check('Click@12' in r.stderr, 'bad click item: ' + r.stderr)


def case_shadow(c):
    """A bird just above the ground casts a dark disc straight below it; MURMUR_SHADOWS=0 removes it;
    a bird high up casts a fainter one."""
    low, high = (-8.0, -18.5, 0.0), (8.0, 15.0, 0.0)         # ground at -20: 1.5 wu and 35 wu up
    init = c.state_csv('shadow.csv', [('boid',) + low + (0, 0, 6, 0), ('boid',) + high + (0, 0, 6, 0)])
    cam = ['--camera-pos', '0,40,30', '--look-at', '0,-20,0']
    base = ['--init', init, '--hud', 'off', '--set', 'ground=-20', '--keys', 'Space'] + WORLD + cam
    c.run(base + ['--screenshot', c.path('on.png')])
    c.run(base + ['--screenshot', c.path('off.png')], env={'MURMUR_SHADOWS': '0'})
    on, off = read_png(c.path('on.png')), read_png(c.path('off.png'))

    def darkening(q):
        """how much darker the ground is, summed over a 5x5 patch around q, with shadows"""
        tot = 0
        for y in range(int(q[1]) - 2, int(q[1]) + 3):
            for x in range(int(q[0]) - 2, int(q[0]) + 3):
                tot += sum(pixel(off, x, y)) - sum(pixel(on, x, y))
        return tot
    # where the camera (--camera-pos/--look-at) puts the ground points below the birds
    pl, ph = c.projected_from(SIZE, (0, 40, 30), (0, -20, 0), [(low[0], -20, low[2]), (high[0], -20, high[2])])
    dl, dh = darkening(pl), darkening(ph)
    check(dl > 25 * 20, 'no dark shadow under the low bird (darkening %d)' % dl)
    check(dh < dl / 2, 'the high bird\'s shadow is not fainter (%d vs %d)' % (dh, dl))
    check(on != off, 'MURMUR_SHADOWS=0 changed nothing')


def case_lod(c):
    """Level of detail by size on screen (src/gfx/lod.h): 60000 boids seen from close by. The state
    line counts full birds (at most 8000, the nearest), lean birds and points (the far ones); near
    the camera (the frame's bottom quarter) the birds cover far more of the frame than the same
    flock drawn as points only (MURMUR_BIRD=points), which is what software GL drew at this count
    before."""
    size = (640, 360)
    base = ['--boids', '60000', '--hud', 'off', '--camera-pos', '20,30,85', '--look-at', '0,20,40',
            '--keys', 'Space']
    r = c.run(base + ['--screenshot', c.path('lod.png')], frames=4, size=size)
    m = re.search(r'lod=(\d+),(\d+),(\d+)', r.stdout)
    check(m is not None, 'no lod counts in the state line:\n' + r.stdout)
    full, lean, points = (int(x) for x in m.groups())
    check(full + lean + points == 60000, 'lod counts %d+%d+%d do not add up to 60000' % (full, lean, points))
    check(0 < full <= 8000, 'full birds: %d (expected 1..8000)' % full)
    check(points > 0 and lean > 0, 'expected lean birds and far birds as points: %d, %d' % (lean, points))
    r2 = c.run(base + ['--screenshot', c.path('points.png')], frames=4, size=size, env={'MURMUR_BIRD': 'points'})
    check('lod=0,0,60000' in r2.stdout, 'MURMUR_BIRD=points: ' + r2.stdout)

    def near_bird_pixels(img):
        n = 0
        for y in range(size[1] * 3 // 4, size[1], 2):
            for x in range(0, size[0], 2):
                p = pixel(img, x, y)
                n += p[0] > p[2] + 8  # a bird (orange, lit or in shade); sky and ground are bluish grey
        return n
    a, b = near_bird_pixels(read_png(c.path('lod.png'))), near_bird_pixels(read_png(c.path('points.png')))
    check(a > 1.8 * b, 'near birds are not drawn larger than points: %d bird pixels against %d' % (a, b))


def case_axes(c):
    """D draws the biggest group's principal axes: a still 4 x 2 x 8 lattice (spacing 4) seen from
    above gets a cyan line (long axis) and a green one (mid axis) through its centre; without D there
    are none."""
    rows = [('boid', 4.0 * x - 6, 4.0 * y - 2, 4.0 * z - 14, 0, 0, 0, 0)
            for z in range(8) for y in range(2) for x in range(4)]
    init = c.state_csv('lattice.csv', rows)
    size = (640, 480)
    base = ['--init', init, '--set', 'cohesion=0', '--set', 'alignment=0', '--set', 'separation=0',
            '--set', 'min_speed=0', '--set', 'bounds=none', '--set', 'view_radius=5', '--set', 'ground=-20',
            '--camera-pos', '0,45,0.5', '--look-at', '0,0,0'] + WORLD
    c.run(base + ['--keys', '1:D', '--screenshot', c.path('on.png')], frames=12, size=size)
    c.run(base + ['--screenshot', c.path('off.png')], frames=12, size=size)

    def count(img, test):  # below the HUD's lines (their lit toggles are green too)
        return sum(test(pixel(img, x, y)) for y in range(150, size[1]) for x in range(0, size[0]))

    def cyan(p):
        return p[0] < 120 and p[1] > 170 and p[2] > 190

    def green(p):
        return p[0] < 160 and p[1] > 180 and p[2] < 170
    on, off = read_png(c.path('on.png')), read_png(c.path('off.png'))
    check(count(on, cyan) > 100 and count(on, green) > 60, 'axes not drawn: %d cyan, %d green pixels'
          % (count(on, cyan), count(on, green)))
    check(count(off, cyan) == 0 and count(off, green) == 0, 'axes drawn without D: %d cyan, %d green pixels'
          % (count(off, cyan), count(off, green)))


def case_mouse_predator(c):
    """X makes the cursor a predator: one more predator, drawn red where the cursor points; X
    again removes it and restores the predator switch."""
    at = (80, 50)  # sky in the default view: the click there only places the cursor
    keys = '1:Space,2:Click@%dx%d,3:X' % at
    shot = c.path('mp.png')
    r = c.run(['--set', 'boids=200', '--seed', '3', '--hud', 'off', '--screenshot', shot, '--keys', keys],
              frames=5)
    st = c.state(r.stdout)
    check(st['predators'] == '1' and st['predators_on'] == 'on', 'state: %s' % st)
    find_near(read_png(shot), at[0], at[1], 'predator', radius=4)
    r = c.run(['--set', 'boids=200', '--seed', '3', '--keys', keys + ',4:X'], frames=5)
    st = c.state(r.stdout)
    check(st['predators'] == '0' and st['predators_on'] == 'on', 'after X again: %s' % st)


def case_trails(c):
    """T twice: trails for a sample of birds, pale dots behind them; J keeps the selected bird at
    the centre of the view while it flies off."""
    rows = [('boid', x, y, 0.0, 6, 0, 0, 0) for x, y in ((0, 0), (0, 8), (-8, -6), (5, -10))]
    init = c.state_csv('trails.csv', rows)
    base = ['--init', init, '--set', 'ground=-20', '--set', 'cohesion=0', '--set', 'separation=0',
            '--set', 'alignment=0'] + WORLD

    def pale(img):
        w, h = img[0], img[1]
        return sum(1 for y in range(h) for x in range(w)
                   if all(abs(int(p) - q) < 40 for p, q in zip(pixel(img, x, y), (255, 245, 200))))
    c.run(base + ['--hud', 'off', '--screenshot', c.path('t0.png')], frames=30)
    c.run(base + ['--hud', 'off', '--screenshot', c.path('t1.png'), '--keys', '1:T,1:T'], frames=30)
    n0, n1 = pale(read_png(c.path('t0.png'))), pale(read_png(c.path('t1.png')))
    check(n0 == 0 and n1 > 60, 'trail pixels: %d without T, %d with' % (n0, n1))
    # J: boid 0 (clicked at the centre while paused) stays at the centre after 25 frames of flight
    pa = c.projected(SIZE, '-20,-20,-20', '20,20,20', [(0.0, 0.0, 0.0)])[0]
    r = c.run(base + ['--hud', 'off', '--screenshot', c.path('j.png'), '--keys',
                      '1:Space,2:Click@%dx%d,3:J,4:Space' % (round(pa[0]), round(pa[1]))], frames=30)
    check('watching boid 0' in r.stdout, 'J did not watch boid 0:\n' + r.stdout)
    find_near(read_png(c.path('j.png')), SIZE[0] / 2, SIZE[1] / 2, 'flying', radius=6)
    # J twice rides behind it: close up, the bird fills many pixels below the image centre
    r = c.run(base + ['--hud', 'off', '--screenshot', c.path('ride.png'), '--keys',
                      '1:Space,2:Click@%dx%d,3:J,3:J,4:Space' % (round(pa[0]), round(pa[1]))], frames=30)
    check('riding with boid 0' in r.stdout, 'J twice did not ride with boid 0:\n' + r.stdout)
    img = read_png(c.path('ride.png'))
    big = sum(1 for y in range(SIZE[1]) for x in range(SIZE[0]) if classify(pixel(img, x, y)) == 'flying')
    check(big > 150, 'riding: the bird should be close and large, %d bird pixels' % big)


def case_free_run(c):
    """MURMUR_VIEWER_CLOCK=real: the interactive loop, whose simulation runs free on its own thread
    (simthread.h). Keys and clicks still reach the flock (applied when the worker lends it between
    two ticks), the selected bird's neighbours are marked from the published states, X places the
    cursor's predator, and V switches to the lock-step recording and back. Behaviour only: how many
    ticks a frame sees depends on the machine, so no tick counts are checked."""
    env = {'MURMUR_VIEWER_CLOCK': 'real'}
    init = c.state_csv('few.csv', [('boid', i * 2.0 - 10, 5.0, 0.0, 6, 0, 0, 0) for i in range(10)])
    base = ['--init', init, '--hud', 'off'] + WORLD
    r = c.run(base + ['--keys', 'P,G,W,S,B,K,A,='], frames=12, env=env)
    check('free run:' in r.stdout, 'not a free run:\n' + r.stdout)
    st = c.state(r.stdout)
    want = {'perch': 'on', 'goal': 'on', 'wind': 'on', 'scatter': 'on', 'bounds': 'wrap',
            'predators': '3', 'predators_on': 'on', 'view_angle': '360', 'boids': '20'}
    for k, v in want.items():
        check(st[k] == v, 'free run: after P,G,W,S,B,K,A,= expected %s=%s, got %s' % (k, v, st[k]))
    st = c.state(c.run(base + ['--keys', '1:Space,4:],4:]'], frames=10, env=env).stdout)
    check(st['paused'] == 'yes' and st['speed'] == '4', 'free run: %s' % st)
    # a click on a paused bird selects it and marks its neighbours (as case_pick)
    a, near1, near2 = (0.0, 0.0, 0.0), (3.0, 2.0, 0.0), (3.0, -1.0, 1.5)
    # slow birds (0.2 wu/s) without rules: the ticks before the pause reaches the worker neither
    # move them far nor turn them
    pick = c.state_csv('pick.csv', [('boid',) + p + (0.2, 0, 0, 0) for p in (a, near1, near2)])
    pa = c.projected(SIZE, '-20,-20,-20', '20,20,20', [a])[0]
    shot = c.path('free_pick.png')
    r = c.run(['--init', pick, '--screenshot', shot, '--hud', 'off', '--set', 'ground=-20',
               '--set', 'view_angle=90', '--set', 'view_radius=6', '--set', 'min_speed=0',
               '--set', 'max_speed=0.2', '--set', 'cohesion=0', '--set', 'separation=0',
               '--set', 'alignment=0', '--keys', '1:Space,3:Click@%dx%d' % (round(pa[0]), round(pa[1]))]
              + WORLD, frames=8, env=env)
    check('selected boid 0: speed 0.20 wu/s, 2 neighbours' in r.stdout, 'free run: selection message:\n' + r.stdout)
    img = read_png(shot)
    # anywhere in the image: the birds fly until the pause reaches the worker (a slow build: far)
    cyan = sum(1 for y in range(SIZE[1]) for x in range(SIZE[0])
               if pixel(img, x, y)[0] < 120 and pixel(img, x, y)[1] > 200 and pixel(img, x, y)[2] > 220)
    check(cyan > 4, 'free run: no neighbour is marked (%d cyan pixels)' % cyan)
    # X: the cursor's predator
    st = c.state(c.run(['--set', 'boids=200', '--seed', '3', '--hud', 'off', '--keys',
                        '1:Space,2:Click@80x50,3:X'], frames=8, env=env).stdout)
    check(st['predators'] == '1' and st['predators_on'] == 'on', 'free run, X: %s' % st)
    # V: a recording (lock-step, on the video's clock) from the free run, and back
    r = c.run(base + ['--keys', '3:V,10:V'], frames=16, env=env)
    made = [f for f in os.listdir(c.tmp) if f.startswith('murmur-')]
    check(len(made) == 1 and 'recording' in r.stdout.lower(), 'free run, V: %s\n%s' % (made, r.stdout))
    # refused before any window opens (no display needed)
    r = c.run(base, frames=2, env={'MURMUR_VIEWER_CLOCK': 'fast'}, expect=2, display=False)
    check('MURMUR_VIEWER_CLOCK=fast' in r.stderr, 'bad clock value: ' + r.stderr)


CASES = {'free_run': case_free_run, 'default': case_default, 'lod': case_lod, 'axes': case_axes, 'trails': case_trails, 'mouse_predator': case_mouse_predator, 'shadow': case_shadow, 'pick': case_pick, 'panel': case_panel, 'world_scale': case_world_scale, 'pixels': case_pixels, 'predator_toggle': case_predator_toggle,
         'perching': case_perching, 'toggles': case_toggles, 'png': case_png,
         'errors': case_errors, 'plots': case_plots}


def main():
    return main_cases(CASES, 'murmur-render-')


if __name__ == '__main__':
    sys.exit(main())
