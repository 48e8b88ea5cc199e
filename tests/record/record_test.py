#!/usr/bin/env python3
"""Recording tests: the real program, headless (no DISPLAY at all: EGL + Mesa llvmpipe), writing
videos through ffmpeg and PNG sequences, and every fault it must report cleanly.

usage: record_test.py MURMUR CASE
A missing ffmpeg/ffprobe is a failure, not a skip: CI must run these for real.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'render'))
from render_test import Failure, check, env_headless, read_png, pixel, classify, run_case  # noqa: E402

SMALL = ['--preset', 'classic', '--set', 'boids=1500', '--seed', '11']  # the tests are written for classic


class Ctx:
    def __init__(self, murmur, tmp):
        self.murmur, self.tmp = murmur, tmp

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def run(self, args, expect=0, env=None):
        # the tests are written for classic unless args name a preset (a flag may be given once)
        cmd = [self.murmur, '--headless'] + ([] if '--preset' in args else ['--preset', 'classic']) + args
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env or env_headless(), cwd=self.tmp, timeout=600)
        if r.returncode != expect:
            raise Failure('%s\nexit %d (expected %d)\nstdout:\n%s\nstderr:\n%s' %
                          (' '.join(cmd), r.returncode, expect, r.stdout, r.stderr))
        return r

    def one_line_error(self, r, *words):
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        check(len(lines) == 1, 'want one error line, got:\n' + r.stderr)
        for w in words:
            check(w in lines[0], 'want %r in the error line: %s' % (w, lines[0]))
        return lines[0]

    def leftovers(self, folder=None):
        """Files other than the test's own helpers (partial videos, temporaries, frames)."""
        folder = folder or self.tmp
        return sorted(f for f in os.listdir(folder) if f not in ('bin',))


def probe(path):
    """(frames, width, height, codec) of the first video stream, counted by decoding."""
    r = subprocess.run(['ffprobe', '-v', 'error', '-count_frames', '-select_streams', 'v:0',
                        '-show_entries', 'stream=nb_read_frames,width,height,codec_name',
                        '-of', 'default=noprint_wrappers=1', path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, 'ffprobe cannot read %s: %s' % (path, r.stderr))
    kv = dict(l.split('=', 1) for l in r.stdout.splitlines() if '=' in l)
    return int(kv['nb_read_frames']), int(kv['width']), int(kv['height']), kv['codec_name']


def video_frame_rgb(path, n, w, h):
    r = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-vf', 'select=eq(n\\,%d)' % n,
                        '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(r.returncode == 0 and len(r.stdout) == w * h * 3,
          'cannot decode frame %d of %s: %s' % (n, path, r.stderr.decode()))
    return r.stdout


def not_blank(rgb, what):
    """A rendered flock: many distinct colours, and boid-orange pixels somewhere."""
    px = [tuple(rgb[i:i + 3]) for i in range(0, len(rgb), 3)]
    distinct = len(set(px))
    orange = sum(1 for p in px if classify(p) == 'flying')
    check(distinct > 50, '%s looks blank (%d distinct colours)' % (what, distinct))
    check(orange > 20, '%s has no boids (%d boid-coloured pixels)' % (what, orange))


# ---------------------------------------------------------------- cases

def case_mp4(c):
    """30 frames of 320x240 H.264: ffprobe counts exactly 30 frames of that size; not blank."""
    out = c.path('flock.mp4')
    r = c.run(['--record', out, '--frames', '30', '--size', '320x240'] + SMALL)
    n, w, h, codec = probe(out)
    check((n, w, h, codec) == (30, 320, 240, 'h264'), 'got %d frames %dx%d %s' % (n, w, h, codec))
    for k in (0, 15, 29):
        not_blank(video_frame_rgb(out, k, w, h), 'frame %d' % k)
    check('recorded 30 frames' in r.stdout and out in r.stdout, 'summary line:\n' + r.stdout)
    check(r.stderr == '', 'stderr should be quiet when not a terminal:\n' + r.stderr)
    check(c.leftovers() == ['flock.mp4'], 'left behind: %s' % c.leftovers())
    # odd sizes are padded to even for yuv420p; webm is VP9
    odd = c.path('odd.webm')
    c.run(['--record', odd, '--frames', '5', '--size', '161x121'] + SMALL)
    n, w, h, codec = probe(odd)
    check((n, w, h, codec) == (5, 162, 122, 'vp9'), 'webm: %d frames %dx%d %s' % (n, w, h, codec))


def case_png(c):
    """A PNG sequence: the right count, the right size, sky at the top, boids in the middle."""
    os.mkdir(c.path('frames'))
    pattern = c.path('frames', 'f%04d.png')
    c.run(['--record', pattern, '--frames', '12', '--size', '320x240', '--camera', 'orbit:2']
          + SMALL)
    files = sorted(os.listdir(c.path('frames')))
    check(files == ['f%04d.png' % i for i in range(12)], 'files: %s' % files)
    for name in (files[0], files[-1]):
        img = read_png(c.path('frames', name))
        w, h, bpp, rows = img
        check((w, h) == (320, 240), '%s is %dx%d' % (name, w, h))
        check(classify(pixel(img, 160, 2)) in ('blue', 'grey'), '%s: top centre is not sky: %s'
              % (name, pixel(img, 160, 2)))
        rgb = bytes(v for y in range(h) for x in range(w) for v in rows[y][x * bpp:x * bpp + 3])
        not_blank(rgb, name)
    # the lean bird and the points drawn for large flocks (forced here on a small flock)
    for bird in ('lean', 'points'):
        shot = c.path('%s.png' % bird)
        c.run(['--frames', '3', '--size', '320x240', '--screenshot', shot] + SMALL,
              env=env_headless(MURMUR_BIRD=bird))
        w, h, bpp, rows = img = read_png(shot)
        rgb = bytes(v for y in range(h) for x in range(w) for v in rows[y][x * bpp:x * bpp + 3])
        not_blank(rgb, bird)


def case_determinism(c):
    """The same seed and settings give identical frames twice (one tick of 1/fps per frame)."""
    frames = []
    for run in ('a', 'b'):
        os.mkdir(c.path(run))
        c.run(['--record', c.path(run, 'f%03d.png'), '--frames', '8', '--size', '200x150',
               '--set', 'perch=on', '--camera', 'follow'] + SMALL)
        frames.append([open(c.path(run, 'f%03d.png' % i), 'rb').read() for i in range(8)])
    check(frames[0] == frames[1], 'two identical runs gave different frames')
    check(frames[0][0] != frames[0][7], 'the flock did not move')


def interrupt(c, sig):
    out = c.path('long.mp4')
    cmd = [c.murmur, '--headless', '--record', out, '--frames', '100000', '--size', '320x240'] \
        + SMALL
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env_headless(), cwd=c.tmp)
    time.sleep(3.0)
    p.send_signal(sig)
    so, se = p.communicate(timeout=120)
    check(p.returncode == 128 + sig, 'exit %d after signal %d (want %d):\n%s'
          % (p.returncode, sig, 128 + sig, se))
    check('kept' in se and out in se, 'want a line saying how many frames were kept:\n' + se)
    kept = int(se.split('kept ')[1].split()[0])
    n, w, h, _ = probe(out)
    check(n == kept and n > 0 and (w, h) == (320, 240),
          'file has %d frames %dx%d, the message says %d' % (n, w, h, kept))
    check(c.leftovers() == ['long.mp4'], 'left behind: %s' % c.leftovers())


def case_sigint(c):
    """SIGINT mid-recording: stops at a frame boundary, the file is finished and readable."""
    interrupt(c, signal.SIGINT)


def case_sigterm(c):
    interrupt(c, signal.SIGTERM)


def case_faults(c):
    """Each fault: one clear line, exit 2, nothing misleading left behind."""
    base = ['--frames', '20', '--size', '160x120'] + SMALL
    # ffmpeg not installed: checked before rendering
    r = c.run(['--record', c.path('a.mp4')] + base, expect=2,
              env=env_headless(PATH='/nonexistent'))
    c.one_line_error(r, 'ffmpeg', 'not installed')
    check(c.leftovers() == [], 'left behind: %s' % c.leftovers())
    # missing output folder (video and PNG)
    r = c.run(['--record', c.path('no', 'such', 'a.mp4')] + base, expect=2)
    c.one_line_error(r, 'does not exist')
    r = c.run(['--record', c.path('nodir', 'f%03d.png')] + base, expect=2)
    c.one_line_error(r, 'does not exist')
    # a folder nobody can write in (even root cannot create files in /proc)
    r = c.run(['--record', '/proc/murmur-test.mp4'] + base, expect=2)
    c.one_line_error(r, 'cannot write')
    r = c.run(['--record', '/proc/f%03d.png'] + base, expect=2)
    c.one_line_error(r, 'cannot write')
    # the disk fills up: a video path that is /dev/full (every write fails with ENOSPC)
    os.symlink('/dev/full', c.path('full.mp4'))
    r = c.run(['--record', c.path('full.mp4')] + ['--frames', '60', '--size', '320x240'] + SMALL,
              expect=2)
    c.one_line_error(r, 'ffmpeg', 'No space left on device')
    os.unlink(c.path('full.mp4'))
    check(c.leftovers() == [], 'left behind: %s' % c.leftovers())
    # ffmpeg dying mid-run: a stand-in that reads a little, complains and exits
    os.mkdir(c.path('bin'))
    fake = c.path('bin', 'ffmpeg')
    with open(fake, 'w') as f:
        f.write('#!/bin/sh\nhead -c 200000 >/dev/null\necho "stand-in ffmpeg: gave up" >&2\n'
                'exit 3\n')
    os.chmod(fake, 0o755)
    env = env_headless(PATH=c.path('bin') + ':' + os.environ.get('PATH', ''))
    r = c.run(['--record', c.path('dies.mp4')] + base, expect=2, env=env)
    c.one_line_error(r, 'ffmpeg', 'exit status 3', 'stand-in ffmpeg: gave up')
    check(c.leftovers() == [], 'left behind: %s' % c.leftovers())
    # bad inputs
    r = c.run(['--record', c.path('x.avi')] + base, expect=2)
    c.one_line_error(r, '.mp4')
    r = c.run(['--record', c.path('f.png')] + base, expect=2)
    c.one_line_error(r, 'pattern')
    r = c.run(['--record', c.path('a.mp4'), '--size', '160x120'], expect=2)
    c.one_line_error(r, '--frames')


def rec_red(rgb, w, h):
    """Pixels of the REC mark's red square (235, 40, 40) in the bottom right quarter."""
    return sum(1 for y in range(h // 2, h) for x in range(w // 2, w)
               if all(abs(rgb[3 * (y * w + x) + k] - v) < 12 for k, v in enumerate((235, 40, 40))))


def case_window(c):
    """Recording the window while it is shown (Xvfb): --record, and V pressed twice."""
    check(shutil.which('xvfb-run') is not None, 'xvfb-run is not installed')
    xvfb = ['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', c.murmur]
    out = c.path('win.mp4')
    r = subprocess.run(xvfb + ['--record', out, '--frames', '20', '--size', '320x240', '--screenshot',
                               c.path('win.png')] + SMALL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=c.tmp,
                       timeout=300)
    check(r.returncode == 0, 'window --record failed:\n' + r.stderr)
    n, w, h, _ = probe(out)
    check((n, w, h) == (20, 320, 240), 'window recording: %d frames %dx%d' % (n, w, h))
    not_blank(video_frame_rgb(out, 10, w, h), 'window frame 10')
    # the red REC mark: in the window, never in the video
    ww, wh, win = png_rgb(c.path('win.png'))
    check(rec_red(win, ww, wh) > 30, 'no REC mark in the window: %d red pixels' % rec_red(win, ww, wh))
    last = video_frame_rgb(out, 19, w, h)
    check(rec_red(last, w, h) == 0, 'the REC mark went into the video: %d red pixels' % rec_red(last, w, h))
    os.unlink(out)
    # V at frame 3 starts an auto-named recording, V at frame 13 stops it: frames 3..12
    r = subprocess.run(xvfb + ['--frames', '16', '--size', '320x240', '--keys', '3:V,13:V']
                       + SMALL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       cwd=c.tmp, timeout=300)
    check(r.returncode == 0, 'V recording failed:\n' + r.stderr)
    vids = [f for f in os.listdir(c.tmp) if f.startswith('murmur-') and f.endswith('.mp4')]
    check(len(vids) == 1, 'want one auto-named video, got %s' % os.listdir(c.tmp))
    n, w, h, _ = probe(c.path(vids[0]))
    check((n, w, h) == (10, 320, 240), 'V recording: %d frames %dx%d' % (n, w, h))


def case_no_context(c):
    """Neither EGL nor a display: one clear line and exit 2, no output."""
    r = c.run(['--record', c.path('a.mp4'), '--frames', '3', '--size', '160x120'] + SMALL,
              expect=2, env=env_headless(MURMUR_NO_EGL='1'))
    c.one_line_error(r, '--headless', 'EGL')
    check(c.leftovers() == [], 'left behind: %s' % c.leftovers())


def duration(path):
    r = subprocess.run(['ffprobe', '-v', 'error', '-show_entries', 'format=duration', '-of',
                        'default=noprint_wrappers=1:nokey=1', path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, 'ffprobe cannot read %s: %s' % (path, r.stderr))
    return float(r.stdout.strip())


def csv_body(path):
    """A CSV murmur wrote, without the '#' lines that say how it was made (they name the command)."""
    with open(path) as f:
        return ''.join(l for l in f if not l.startswith('#'))


def metrics_ticks(path):
    rows = csv_body(path).split('\n')[1:]
    return [int(r.split(',')[0]) for r in rows if r]


def case_filming(c):
    """Time-lapse, warm-up, pace without touching dt, GIF, --crf, --export/--metrics headless."""
    # 60 frames at 20 fps, 5 ticks each after 30 warm-up ticks: a 3 s video of 15 s of flock
    out = c.path('lapse.mp4')
    r = c.run(['--record', out, '--frames', '60', '--fps', '20', '--size', '320x240',
               '--ticks-per-frame', '5', '--warmup', '30', '--metrics', c.path('m.csv'),
               '--export', c.path('end.csv')] + SMALL)
    n, w, h, _ = probe(out)
    check((n, w, h) == (60, 320, 240), 'time-lapse: %d frames %dx%d' % (n, w, h))
    d = duration(out)
    check(abs(d - 3.0) < 0.06, 'time-lapse lasts %.3f s, want 3.0' % d)
    check('5 ticks of 0.05 s per frame: 5 simulated s per video s' in r.stdout,
          'pace line (dt kept at 0.05):\n' + r.stdout)
    # frame 0 is the state after the warm-up; 59 frames of 5 ticks follow; one row per tick
    ticks = metrics_ticks(c.path('m.csv'))
    check(ticks == list(range(30, 30 + 59 * 5 + 1)), 'metrics ticks %s..%s (%d rows)'
          % (ticks[:1], ticks[-1:], len(ticks)))
    check(len(csv_body(c.path('end.csv')).strip().split('\n')) == 1 + 1500, '--export: not the 1500 boids')
    # the same run as a batch of the same ticks ends in the same state
    subprocess.run([c.murmur, '--steps', str(30 + 59 * 5), '--export', c.path('batch.csv')] + SMALL,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check(csv_body(c.path('batch.csv')) == csv_body(c.path('end.csv')),
          'the recording did not run the batch\'s ticks with the same dt')
    # --speed: 0.25 simulated s per video s at 10 fps with dt 0.05 -> one tick every other frame
    c.run(['--frames', '21', '--fps', '10', '--speed', '0.25', '--size', '160x120',
           '--export', c.path('slow.csv')] + SMALL)
    subprocess.run([c.murmur, '--steps', '10', '--export', c.path('slow_batch.csv')] + SMALL,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check(csv_body(c.path('slow.csv')) == csv_body(c.path('slow_batch.csv')),
          '--speed 0.25 at 10 fps over 20 frames should run 10 ticks')
    # GIF by extension
    gif = c.path('share.gif')
    c.run(['--record', gif, '--frames', '12', '--size', '200x150'] + SMALL)
    n, w, h, codec = probe(gif)
    check((n, w, h, codec) == (12, 200, 150, 'gif'), 'gif: %d frames %dx%d %s' % (n, w, h, codec))
    # --crf: a higher value gives a smaller file; --x264-preset is passed on
    sizes = {}
    for q in ('10', '40'):
        f = c.path('q%s.mp4' % q)
        c.run(['--record', f, '--frames', '20', '--size', '320x240', '--crf', q,
               '--x264-preset', 'veryfast'] + SMALL)
        sizes[q] = os.path.getsize(f)
    check(sizes['40'] * 2 < sizes['10'], 'crf 40 is not much smaller than crf 10: %s' % sizes)
    r = c.run(['--record', c.path('x.gif'), '--frames', '3', '--crf', '20'] + SMALL, expect=2)
    c.one_line_error(r, '--crf', 'GIF')
    r = c.run(['--record', c.path('x.mp4'), '--frames', '3', '--crf', '55'] + SMALL, expect=2)
    c.one_line_error(r, "'55'", '0..51')


def png_rgb(path):
    w, h, bpp, rows = read_png(path)
    return w, h, bytes(v for y in range(h) for x in range(w) for v in rows[y][x * bpp:x * bpp + 3])


def case_camera(c):
    """--camera-pos/--look-at/--fov and a keyframed path reproduce the same frames; the camera
    printed by the viewer (I) gives its view back; --screenshot-size; bad path files."""
    cam = ['--camera-pos', '70,25,45', '--look-at', '0,25,0', '--fov', '60']
    shots = []
    for k in range(2):
        shot = c.path('cam%d.png' % k)
        c.run(['--frames', '4', '--size', '240x160', '--screenshot', shot] + cam + SMALL)
        shots.append(png_rgb(shot))
    check(shots[0] == shots[1], 'the same camera flags gave different frames')
    c.run(['--frames', '4', '--size', '240x160', '--screenshot', c.path('home.png')] + SMALL)
    check(png_rgb(c.path('home.png')) != shots[0], 'the camera flags changed nothing')
    # a path: the same frames twice, and the frames differ along the path
    with open(c.path('path.txt'), 'w') as f:
        f.write('# time  eye  look-at  fov\n0  120 60 120  0 25 0  50\n'
                '1  -120 40 120  0 25 0\n2  -100 90 -100  0 25 0  30\n')
    runs = []
    for k in range(2):
        os.mkdir(c.path('p%d' % k))
        c.run(['--record', c.path('p%d' % k, 'f%02d.png'), '--frames', '20', '--fps', '10',
               '--size', '200x150', '--camera-path', c.path('path.txt')] + SMALL)
        runs.append([open(c.path('p%d' % k, 'f%02d.png' % i), 'rb').read() for i in range(20)])
    check(runs[0] == runs[1], 'a camera path gave different frames twice')
    check(runs[0][0] != runs[0][10], 'the camera path did not move the camera')
    # the path's keyframe at t = 1 s (frame 10 at 10 fps) is the view of the same flags
    flags = ['--camera-pos', '-120,40,120', '--look-at', '0,25,0', '--fov', '50']
    os.mkdir(c.path('k'))
    c.run(['--record', c.path('k', 'f%02d.png'), '--frames', '11', '--fps', '10', '--size',
           '200x150'] + flags + SMALL)
    check(open(c.path('k', 'f10.png'), 'rb').read() == runs[0][10],
          'keyframe 1 of the path is not the view of its flags')
    # the viewer prints its camera (I): those flags give the same view headless
    check(shutil.which('xvfb-run') is not None, 'xvfb-run is not installed')
    r = subprocess.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', c.murmur, '--frames', '3',
                        '--size', '240x160', '--keys', '2:I', '--hud', 'off', '--screenshot',
                        c.path('win.png')] + cam + SMALL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    check(r.returncode == 0, 'viewer failed:\n' + r.stderr)
    line = [l for l in r.stdout.splitlines() if l.startswith('murmur: camera ')]
    check(len(line) == 1, 'I printed no camera:\n' + r.stdout)
    printed = line[0][len('murmur: camera '):].split()
    check(printed[0] == '--camera-pos' and printed[2] == '--look-at' and printed[4] == '--fov',
          'printed: %s' % printed)
    got = [float(x) for x in printed[1].split(',') + printed[3].split(',') + [printed[5]]]
    want = [70, 25, 45, 0, 25, 0, 60]
    check(all(abs(a - b) < 1e-3 for a, b in zip(got, want)), 'printed %s, want %s' % (got, want))
    # any size, from any camera
    big = c.path('big.png')
    r = c.run(['--frames', '3', '--size', '160x120', '--screenshot', big, '--screenshot-size',
               '640x360'] + cam + SMALL)
    w, h, rgb = png_rgb(big)
    check((w, h) == (640, 360), '--screenshot-size gave %dx%d' % (w, h))
    not_blank(rgb, 'the big screenshot')
    # bad path files: one line naming the file and line
    with open(c.path('bad.txt'), 'w') as f:
        f.write('0 1 2 3 0 0 0\n0 4 5 6 0 0 0\n')
    r = c.run(['--frames', '3', '--camera-path', c.path('bad.txt')] + SMALL, expect=2)
    c.one_line_error(r, 'bad.txt:2', 'later')
    with open(c.path('bad2.txt'), 'w') as f:
        f.write('0 1 2 3 0 0\n')
    r = c.run(['--frames', '3', '--camera-path', c.path('bad2.txt')] + SMALL, expect=2)
    c.one_line_error(r, 'bad2.txt:1', 'time x y z lx ly lz')
    r = c.run(['--frames', '3', '--camera-path', c.path('none.txt')] + SMALL, expect=2)
    c.one_line_error(r, 'none.txt')


def case_follow(c):
    """--camera follow frames the biggest group: two groups of unequal size, far apart; the
    camera centres the big one and its boids fill a good part of the frame."""
    rows = ['kind,x,y,z,vx,vy,vz,perch']
    import random
    rnd = random.Random(5)
    for i in range(600):
        rows.append('boid,%g,%g,%g,4,0,0,0' % (-40 + rnd.uniform(-4, 4), 30 + rnd.uniform(-4, 4),
                                               rnd.uniform(-4, 4)))
    for i in range(200):
        rows.append('boid,%g,%g,%g,-4,0,0,0' % (45 + rnd.uniform(-3, 3), 20 + rnd.uniform(-3, 3),
                                                rnd.uniform(-3, 3)))
    with open(c.path('two.csv'), 'w') as f:
        f.write('\n'.join(rows) + '\n')
    # --camera follow; in the starling preset's roost world the default camera and an orbit follow too
    # (drawn in the studio look, whose amber birds these pixels count: the dusk look is look_test.py's)
    starling = ['--preset', 'starling', '--set', 'look=studio']
    for name, cam in (('follow', ['--camera', 'follow']), ('roost', starling),
                      ('roost_orbit', starling + ['--camera', 'orbit:10'])):
        shot = c.path(name + '.png')
        c.run(['--init', c.path('two.csv'), '--frames', '2', '--size', '320x240', '--screenshot', shot,
               '--seed', '3'] + cam)
        w, h, rgb = png_rgb(shot)
        px = [tuple(rgb[i:i + 3]) for i in range(0, len(rgb), 3)]
        birds = [(i % w, i // w) for i, p in enumerate(px) if classify(p) == 'flying']
        check(len(birds) > 300, '%s: the followed group is small in the frame: %d bird pixels' % (name, len(birds)))
        mx = sum(x for x, _ in birds) / len(birds)
        my = sum(y for _, y in birds) / len(birds)
        check(abs(mx - w / 2) < w * 0.12 and abs(my - h / 2) < h * 0.15,
              '%s: the bird pixels centre at %.0f,%.0f, not the middle of %dx%d' % (name, mx, my, w, h))


CASES = {'filming': case_filming, 'camera': case_camera, 'follow': case_follow, 'mp4': case_mp4, 'png': case_png, 'determinism': case_determinism,
         'sigint': case_sigint, 'sigterm': case_sigterm, 'faults': case_faults,
         'window': case_window, 'no_context': case_no_context}


def main():
    murmur, name = sys.argv[1:3]
    for tool in ('ffmpeg', 'ffprobe'):
        if not shutil.which(tool):
            print('FAIL: %s is not installed (apt-get install ffmpeg); recording tests need it'
                  % tool)
            return 1
    return run_case(name, CASES[name], 'murmur-record-', lambda tmp: Ctx(os.path.abspath(murmur), tmp))


if __name__ == '__main__':
    sys.exit(main())
