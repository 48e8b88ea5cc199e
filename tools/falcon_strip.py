#!/usr/bin/env python3
"""A strip of frames of one falcon attack for docs/falcon.md (issue 26, item 5).

usage: /usr/bin/python3 tools/falcon_strip.py MURMUR OUT.png [FIRST STEP COUNT [SEED]]
       /usr/bin/python3 tools/falcon_strip.py MURMUR OUT.png --closeup [SEED [EX,EY,EZ [FOV [AFTER [STEP [COUNT]]]]]]
The second form is a close-up of one wave (closeup(), below).
       /usr/bin/python3 tools/falcon_strip.py MURMUR OUT.png --wave [SEED [EX,EY,EZ [FOV [STEP [COUNT]]]]]
The third (branch wave8) is one attack and its wave seen from outside the group, with a second row of the
same frames with the escaping birds tinted (wave_strip(), below).
Records the starling preset at dusk with the falcon hunting (--camera falcon, 10 frames a second of
simulated time after a 30 s warm-up), then the same run again with the birds hidden
(MURMUR_BIRD=none) in the studio look, where the falcon is the only light thing on the sky besides
the ground's grid: the pixels brighter and bluer than their row's median (the sky is a vertical
gradient) give its place in each frame, which the strip rings in red (the dusk falcon is as dark as
the birds). The first version looked for light blue pixels, but the falcon, a pixel or two at this
size blended with the dark blue sky, is not light blue (e.g. 41,65,92): it found it in no frame.
COUNT frames from FIRST, STEP apart, each scaled to 320x180, side by side with the time and the share of
birds escaping (a batch run of the same seed and settings) under each; a second row the same frames
recorded with the escaping birds tinted (MURMUR_TINT_ALARM=1); a title line with the commit and seed.
FIRST = auto: the first frame with at least 5% of the birds escaping from which the falcon is found in
every frame of the strip (branch wave8; until then the first frame from frame 20 on with the falcon). With FALCON_STRIP_KEEP=DIR
the two recordings are kept in DIR (dusk/, bare/) and the falcon's place in every frame is printed.
Needs numpy and PIL (Debian's /usr/bin/python3).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

RUN = ['--headless', '--size', '640x360', '--warmup', '1500', '--frames', '100', '--fps', '10',
       '--speed', '1', '--camera', 'falcon', '--set', 'falcon=on', '--set', 'falcon_wait=3']


def record(murmur, folder, extra, env=None):
    e = dict(os.environ)
    e.update(env or {})
    subprocess.run([murmur] + RUN + extra + ['--record', os.path.join(folder, 'f%05d.png')],
                   check=True, env=e, stdout=subprocess.DEVNULL)


def falcon_at(path):
    """the centre of the falcon's pixels in the bare studio frame, or None: brighter than their row's
    median (the sky is a vertical gradient) by more than 20 (the sum over R, G, B), and bluer (the
    light blue falcon, blended with the sky, adds more blue than red), in rows where at most 12 pixels
    are (the ground's disk below the flock fills rows with hundreds)"""
    a = np.asarray(Image.open(path).convert('RGB')).astype(int)
    d = a - np.median(a, axis=1, keepdims=True).astype(int)
    m = (d.sum(axis=-1) > 20) & (d[..., 2] - d[..., 0] > 10)
    m[m.sum(axis=1) > 12] = False  # rows through the ground's disk (hundreds of pixels), not the falcon
    ys, xs = np.nonzero(m)
    if len(xs) < 1:
        return None
    return float(xs.mean()), float(ys.mean())


# the close-up of one wave (--closeup): the flock from below and to the side at a few tens of metres,
# a narrow field of view, 25 frames a second (2 ticks a frame), so a bird's roll (0.25 s one way, 0.3 s
# the other) spans several frames
CLOSE_FPS = 25
CLOSE_TICKS = 2  # ticks a frame at CLOSE_FPS and --speed 1 (dt 0.02 s)
CLOSE_WARMUP = 2500
CLOSE_FRAMES = 150


def closeup(murmur, out, seed, eye, fov, first_after, step, count):
    """COUNT frames STEP apart of the flock seen close up (eye: offset from the biggest group's centre,
    m, looking at that centre; fov, deg; the middle 480x270 of each 960x540 frame, unscaled), from FIRST_AFTER s after the first attack's `copied` alarm
    began, found in a batch run of the same seed and settings (its metrics' `alarmed` column: the first
    tick after the attack's start with >= 5% of the birds escaping); a second row the same frames
    with the birds escaping tinted is not possible headless (the tint is a viewer key), so the time
    under each frame gives the share of birds escaping then (the batch run's metrics)"""
    ticks = CLOSE_WARMUP + CLOSE_FRAMES * CLOSE_TICKS
    common = ['--seed', str(seed), '--set', 'falcon=on', '--set', 'falcon_wait=3']
    with tempfile.TemporaryDirectory(prefix='falcon-close-') as tmp:
        tmp = os.environ.get('FALCON_STRIP_KEEP') or tmp
        os.makedirs(tmp, exist_ok=True)
        ev, me = os.path.join(tmp, 'ev.csv'), os.path.join(tmp, 'm.csv')
        subprocess.run([murmur, '--quiet', '--steps', str(ticks), '--events', ev, '--metrics', me] + common,
                       check=True, stdout=subprocess.DEVNULL)
        rows = [l.strip().split(',') for l in open(me) if not l.startswith('#')]
        head = rows[0]
        m = {int(r[head.index('tick')]): r for r in rows[1:]}
        al = {t: float(r[head.index('alarmed')]) for t, r in m.items()}
        evs = [l.strip().split(',') for l in open(ev)][1:]
        starts = [int(e[0]) for e in evs if e[2] == 'attack_start' and int(e[0]) >= CLOSE_WARMUP]
        if not starts:
            sys.exit('falcon_strip.py: no attack in the recorded ticks')
        t0 = next((t for t in range(starts[0], ticks) if al.get(t, 0) >= 0.05), starts[0])
        first = max(0, (t0 - CLOSE_WARMUP) // CLOSE_TICKS + int(round(first_after * CLOSE_FPS)))
        path = os.path.join(tmp, 'path.txt')
        with open(path, 'w') as fp:
            fp.write('relative\n0 %g %g %g 0 0 0 %g\n' % (eye[0], eye[1], eye[2], fov))
        frames = os.path.join(tmp, 'close')
        os.makedirs(frames, exist_ok=True)
        subprocess.run([murmur, '--headless', '--size', '960x540', '--warmup', str(CLOSE_WARMUP), '--frames',
                        str(min(CLOSE_FRAMES, first + step * count + 1)), '--fps', str(CLOSE_FPS), '--speed', '1',
                        '--camera-path', path, '--record', os.path.join(frames, 'f%05d.png')] + common,
                       check=True, stdout=subprocess.DEVNULL)
        W, H = 480, 270
        strip = Image.new('RGB', (W * count, H + 16), (20, 20, 24))
        draw = ImageDraw.Draw(strip)
        for k in range(count):
            i = first + k * step
            img = Image.open(os.path.join(frames, 'f%05d.png' % i)).convert('RGB')
            x0, y0 = (img.width - W) // 2, (img.height - H) // 2  # the frame's middle at full size, not scaled
            strip.paste(img.crop((x0, y0, x0 + W, y0 + H)), (k * W, 0))
            t = CLOSE_WARMUP + i * CLOSE_TICKS
            draw.text((k * W + 4, H + 2), 't = %+.2f s, %.0f%% escaping' % ((t - t0) * 0.02, 100 * al.get(t, 0)),
                      fill=(230, 230, 230))
            print('frame %d (tick %d): %.1f%% of the birds escaping' % (i, t, 100 * al.get(t, 0)))
        strip.save(out, optimize=True)
    print('%s: %d bytes (alarm began at tick %d, attack at %d)' % (out, os.path.getsize(out), t0, starts[0]))


# the wave strip (--wave): one attack on a settled flock, as run.py's (the falcon switched on at tick
# WAVE_SETTLE, falcon_wait=60: one attack), seen from outside the biggest group at 25 frames a second
WAVE_SETTLE = 2500
WAVE_FRAMES = 60


def light_blue(path):
    """the centre of the falcon's pixels in a frame of the studio look with the birds hidden (MURMUR_BIRD=none):
    the falcon is light blue (0.45, 0.80, 1.00), the sky and the ground's grid dark and grey; None when it is
    not in the frame"""
    a = np.asarray(Image.open(path).convert('RGB')).astype(int)
    m = (a[..., 2] > 150) & (a[..., 2] - a[..., 0] > 50) & (a[..., 1] > 110)
    ys, xs = np.nonzero(m)
    if len(xs) < 1:
        return None
    return float(xs.mean()), float(ys.mean())


def wave_strip(murmur, out, seed, eye, fov, step, count):
    """COUNT frames STEP apart (2 ticks a frame) of one attack at N = 2,000 from tick WAVE_SETTLE on: from the
    frame before the first bird escapes; top row the default look (dusk), bottom row the same frames in the
    studio look with the escaping birds tinted (MURMUR_TINT_ALARM=1); the falcon ringed where a third
    recording (studio look, birds hidden) shows it; the share of birds escaping under each frame (a batch run
    of the same seed and settings); a title with the commit and seed"""
    # the settled flock's state at WAVE_SETTLE (--at works in batch runs only), then every run from it with the
    # falcon on from its first tick (the birds' escape states start calm)
    with tempfile.TemporaryDirectory(prefix='falcon-wave-') as tmp:
        tmp = os.environ.get('FALCON_STRIP_KEEP') or tmp
        os.makedirs(tmp, exist_ok=True)
        state, me = os.path.join(tmp, 'state.csv'), os.path.join(tmp, 'm.csv')
        subprocess.run([murmur, '--quiet', '--seed', str(seed), '--steps', str(WAVE_SETTLE), '--export', state],
                       check=True, stdout=subprocess.DEVNULL)
        common = ['--seed', str(seed), '--init', state, '--set', 'falcon=on', '--set', 'falcon_wait=60']
        ticks = WAVE_FRAMES * CLOSE_TICKS
        subprocess.run([murmur, '--quiet', '--steps', str(ticks), '--metrics', me] + common, check=True,
                       stdout=subprocess.DEVNULL)
        rows = [l.strip().split(',') for l in open(me) if not l.startswith('#')]
        head = rows[0]
        al = {int(r[head.index('tick')]): float(r[head.index('alarmed')]) for r in rows[1:]}
        t0 = next((t for t in range(0, ticks) if al.get(t, 0) > 0), 0)
        path = os.path.join(tmp, 'path.txt')
        with open(path, 'w') as fp:
            fp.write('relative\n0 %g %g %g 0 0 0 %g\n' % (eye[0], eye[1], eye[2], fov))
        rec = {}
        for name, extra, env in (('dusk', [], {}), ('tint', ['--set', 'look=studio'], {'MURMUR_TINT_ALARM': '1'}),
                                 ('bare', ['--set', 'look=studio'], {'MURMUR_BIRD': 'none'})):
            rec[name] = os.path.join(tmp, name)
            os.makedirs(rec[name], exist_ok=True)
            e = dict(os.environ)
            e.update(env)
            subprocess.run([murmur, '--headless', '--size', '960x540', '--frames',
                            str(WAVE_FRAMES), '--fps', str(CLOSE_FPS), '--speed', '1', '--camera-path', path,
                            '--record', os.path.join(rec[name], 'f%05d.png')] + common + extra,
                           check=True, env=e, stdout=subprocess.DEVNULL)
        first = max(0, t0 // CLOSE_TICKS - 1)
        W, H, TOP = 480, 270, 16
        strip = Image.new('RGB', (W * count, TOP + 2 * H + 16), (20, 20, 24))
        draw = ImageDraw.Draw(strip)
        draw.text((4, 2), 'murmur %s, starling preset, 2,000 birds, seed %d, settled %d ticks, then the falcon from above; top: the '
                  'default look; bottom: the same frames, studio look, escaping birds tinted; falcon ringed'
                  % (commit_label(), seed, WAVE_SETTLE), fill=(230, 230, 230))
        for k in range(count):
            i = first + k * step
            if i >= WAVE_FRAMES:
                break
            at = light_blue(os.path.join(rec['bare'], 'f%05d.png' % i))
            for row, name in enumerate(('dusk', 'tint')):
                img = Image.open(os.path.join(rec[name], 'f%05d.png' % i)).convert('RGB').resize((W, H), Image.LANCZOS)
                strip.paste(img, (k * W, TOP + row * H))
                if at:
                    x, y = at[0] / 2 + k * W, at[1] / 2 + TOP + row * H
                    draw.ellipse([x - 9, y - 9, x + 9, y + 9], outline=(220, 30, 30), width=2)
            t = (i + 1) * CLOSE_TICKS
            draw.text((k * W + 4, TOP + 2 * H + 2), 't = %.2f s after the set-up, %.0f%% escaping' % (
                t * 0.02, 100 * al.get(t, 0)), fill=(230, 230, 230))
            print('frame %d (tick %d): falcon at %s, %.1f%% escaping' % (
                i, t, 'none' if at is None else '%.0f,%.0f' % at, 100 * al.get(t, 0)))
        strip.save(out, optimize=True)
    print('%s: %d bytes (commit %s, seed %d, first alarm at tick %d)' % (out, os.path.getsize(out), commit_label(),
                                                                        seed, t0))


def commit_label():
    """the commit the strip is drawn on (short hash, '+' when the work tree differs from it)"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        h = subprocess.run(['git', '-C', root, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True,
                           check=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', root, 'status', '--porcelain', '--untracked-files=no'],
                               capture_output=True, text=True).stdout.strip()
        return h + ('+' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


STRIP_FPS, STRIP_TICKS, STRIP_WARMUP, STRIP_FRAMES = 10, 5, 1500, 100  # RUN's: 5 ticks a frame after 1500


def alarmed_by_frame(murmur, seed, extra, tmp):
    """the share of birds escaping at each recorded frame (a batch run of the same seed and settings:
    the metrics' alarmed column at tick STRIP_WARMUP + STRIP_TICKS * (frame + 1))"""
    me = os.path.join(tmp, 'm.csv')
    subprocess.run([murmur, '--quiet', '--steps', str(STRIP_WARMUP + STRIP_TICKS * (STRIP_FRAMES + 1)), '--metrics', me,
                    '--set', 'falcon=on', '--set', 'falcon_wait=3'] + extra, check=True, stdout=subprocess.DEVNULL)
    rows = [l.strip().split(',') for l in open(me) if not l.startswith('#')]
    head = rows[0]
    al = {int(r[head.index('tick')]): float(r[head.index('alarmed')]) for r in rows[1:]}
    return [al.get(STRIP_WARMUP + STRIP_TICKS * (i + 1), 0.0) for i in range(STRIP_FRAMES)]


def main():
    if len(sys.argv) > 3 and sys.argv[3] == '--closeup':
        # falcon_strip.py MURMUR OUT.png --closeup [SEED [EX,EY,EZ [FOV [AFTER [STEP [COUNT]]]]]]
        a = sys.argv[4:] + [None] * 6
        closeup(sys.argv[1], sys.argv[2], int(a[0] or 11), [float(x) for x in (a[1] or '0,-20,30').split(',')],
                float(a[2] or 30), float(a[3] or 0.0), int(a[4] or 3), int(a[5] or 6))
        return
    if len(sys.argv) > 3 and sys.argv[3] == '--wave':
        # falcon_strip.py MURMUR OUT.png --wave [SEED [EX,EY,EZ [FOV [STEP [COUNT]]]]]
        a = sys.argv[4:] + [None] * 5
        wave_strip(sys.argv[1], sys.argv[2], int(a[0] or 101), [float(x) for x in (a[1] or '0,0,90').split(',')],
                   float(a[2] or 50), int(a[3] or 3), int(a[4] or 6))
        return
    # falcon_strip.py MURMUR OUT.png [FIRST STEP COUNT [SEED]]
    murmur, out = sys.argv[1], sys.argv[2]
    first, step, count = sys.argv[3:6] if len(sys.argv) > 5 else ('auto', '3', '5')
    seed = sys.argv[6] if len(sys.argv) > 6 else None
    step, count = int(step), int(count)
    extra = ['--seed', seed] if seed else []
    keep = os.environ.get('FALCON_STRIP_KEEP')
    with tempfile.TemporaryDirectory(prefix='falcon-strip-') as tmp:
        tmp = keep or tmp
        dusk, tint, bare = os.path.join(tmp, 'dusk'), os.path.join(tmp, 'tint'), os.path.join(tmp, 'bare')
        if not (keep and os.path.isdir(bare)):
            for d in (dusk, tint, bare):
                os.makedirs(d, exist_ok=True)
            record(murmur, dusk, extra)
            # the same frames with the escaping birds tinted (MURMUR_TINT_ALARM, as the viewer's Shift+Z)
            record(murmur, tint, extra, {'MURMUR_TINT_ALARM': '1'})
            record(murmur, bare, extra + ['--set', 'look=studio'], {'MURMUR_BIRD': 'none'})
        al = alarmed_by_frame(murmur, seed, extra, tmp)
        found = [falcon_at(os.path.join(bare, 'f%05d.png' % i)) for i in range(STRIP_FRAMES)]
        if keep:
            for i in range(STRIP_FRAMES):
                print('all %d: %s, %.1f%% escaping' % (i, 'none' if found[i] is None else '%.0f,%.0f' % found[i],
                                                       100 * al[i]))
        span = step * (count - 1)
        if first == 'auto':
            # the first frame from which the falcon is found in every frame of the strip and at least 5% of
            # the birds escape in its first frame (the alarm spreading in the frames after it)
            first = next((i for i in range(0, STRIP_FRAMES - span)
                          if al[i] >= 0.05 and all(found[i + k * step] for k in range(count))), None)
            if first is None:
                sys.exit('falcon_strip.py: no %d frames %d apart with the falcon in each and an alarm' % (count, step))
        first = int(first)
        W, H, TOP = 320, 180, 16
        strip = Image.new('RGB', (W * count, TOP + 2 * H + 16), (20, 20, 24))
        draw = ImageDraw.Draw(strip)
        draw.text((4, 2), 'murmur %s, starling preset, 2,000 birds, seed %s, falcon_wait=3; top: the default look; '
                  'bottom: the same frames, escaping birds tinted; falcon ringed' % (commit_label(), seed or 'default'),
                  fill=(230, 230, 230))
        for k in range(count):
            i = first + k * step
            for row, folder in enumerate((dusk, tint)):
                img = Image.open(os.path.join(folder, 'f%05d.png' % i)).convert('RGB').resize((W, H), Image.LANCZOS)
                strip.paste(img, (k * W, TOP + row * H))
                at = found[i]
                if at:
                    x, y = at[0] / 2 + k * W, at[1] / 2 + TOP + row * H
                    draw.ellipse([x - 9, y - 9, x + 9, y + 9], outline=(220, 30, 30), width=2)
            draw.text((k * W + 4, TOP + 2 * H + 2), 't = %.1f s, %.0f%% escaping' % (i / 10.0, 100 * al[i]),
                      fill=(230, 230, 230))
            print('frame %d: falcon at %s, %.1f%% escaping' % (
                i, 'none' if found[i] is None else '%.0f,%.0f' % found[i], 100 * al[i]))
        strip.save(out, optimize=True)
    print('%s: %d bytes (commit %s, seed %s)' % (out, os.path.getsize(out), commit_label(), seed or 'default'))


if __name__ == '__main__':
    main()
