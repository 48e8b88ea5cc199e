#!/usr/bin/env python3
"""The falcon in the viewer (issue 26, item 5) under Xvfb + Mesa llvmpipe (standard library only).

usage: falcon_test.py MURMUR RENDER_PROJECT CASE
Each case runs the real viewer on a few birds loaded by --init, pauses it a few ticks after the falcon
came on (Space, then single ticks), and reads the screenshot's pixels where the default camera
projects the falcon (its position: the state line) or the birds (their positions and escape states:
--export). The helpers are render_test.py's.
"""
import colorsys
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_test import SIZE, WORLD, check, main_cases, pixel, read_png  # noqa: E402

BOX = ('-20,-20,-20', '20,20,20')
# pause at frame 1, then one tick at each of frames 2..5: four ticks, the falcon set up 10 m above
# the birds' centre and diving at them
KEYS = 'Space,2:.,3:.,4:.,5:.'
FALCON = ['--set', 'ground=-20', '--set', 'falcon_setup=10'] + WORLD


def hsv(rgb):
    h, s, v = colorsys.rgb_to_hsv(*(c / 255.0 for c in rgb))
    return h * 360.0, s, v


def is_falcon_studio(rgb):
    """the studio falcon: light blue, brighter than the dark blue sky (max < 140)"""
    h, s, v = hsv(rgb)
    return 180.0 <= h <= 230.0 and s > 0.3 and max(rgb) >= 150


def is_amber(rgb):
    h, s, v = hsv(rgb)
    return 18.0 <= h <= 55.0 and s >= 0.28 and v >= 0.12


def is_magenta(rgb):
    h, s, v = hsv(rgb)
    return 280.0 <= h <= 335.0 and s >= 0.35 and v >= 0.2


def near(img, x, y, pred, radius):
    return [pixel(img, x + dx, y + dy) for dy in range(-radius, radius + 1)
            for dx in range(-radius, radius + 1) if pred(pixel(img, x + dx, y + dy))]


def count(img, pred):
    w, h, _, _ = img
    return sum(1 for y in range(h) for x in range(w) if pred(pixel(img, x, y)))


def birds_csv(c, name, rows):
    return c.state_csv(name, [('boid', x, y, z, 6, 0, 0, 0) for x, y, z in rows])


def falcon_run(c, init, name, falcon, extra=(), keys=KEYS):
    shot = c.path(name + '.png')
    out = c.path(name + '.csv')
    r = c.run(['--init', init, '--screenshot', shot, '--export', out, '--keys', keys, '--hud', 'off',
               '--set', 'falcon=' + falcon] + FALCON + list(extra), frames=8)
    st = c.state(r.stdout)
    check(st['tick'] == '4' and st['paused'] == 'yes', 'four ticks, then paused: %s' % st)
    birds = []
    with open(out) as f:
        lines = [line.strip().split(',') for line in f if not line.startswith('#')]
    head = lines[0]
    for row in lines[1:]:
        d = dict(zip(head, row))
        birds.append(((float(d['x']), float(d['y']), float(d['z'])), int(d.get('escape', 0)) & 7))
    return read_png(shot), st, birds


def case_drawn(c):
    """The studio falcon: light blue pixels where its position projects while it is on, none anywhere
    with it off (the same birds, the same ticks)."""
    init = birds_csv(c, 'birds.csv', [(0, -8, 0), (3, -8, 2), (-3, -8, -2)])
    img, st, _ = falcon_run(c, init, 'on', 'on')
    check(st['falcon_phase'] != '0', 'the falcon should be out: %s' % st)
    pos = tuple(float(v) for v in st['falcon_pos'].split(','))
    (fx, fy), = c.projected(SIZE, BOX[0], BOX[1], [pos])
    hits = near(img, fx, fy, is_falcon_studio, 4)
    check(len(hits) >= 3, 'no falcon pixels within 4 px of its projection (%.1f, %.1f): %d' % (fx, fy, len(hits)))
    total = count(img, is_falcon_studio)
    # larger than a starling: its wings span 2.5 birds' (the birds here are a few pixels)
    check(total >= 12, 'the falcon should cover a dozen pixels or more, got %d' % total)
    # and nowhere else: every falcon pixel within 14 px of the projection
    w, h, _, _ = img
    for y in range(h):
        for x in range(w):
            if is_falcon_studio(pixel(img, x, y)):
                check(abs(x - fx) + abs(y - fy) < 28, 'stray falcon pixel at (%d, %d), falcon at (%.1f, %.1f)' % (x, y, fx, fy))
    img, st, _ = falcon_run(c, init, 'off', 'off')
    check(st['falcon_phase'] == '0', 'no falcon: %s' % st)
    check(count(img, is_falcon_studio) == 0, 'falcon pixels with the falcon off')
    check(not near(img, fx, fy, lambda rgb: max(rgb) >= 150, 4),
          'something bright where the falcon was: %s' % (pixel(img, fx, fy),))


def case_dusk(c):
    """At dusk the falcon is a dark shape on the evening sky: dark pixels at its projection with it on,
    the sky there with it off (a camera below the birds, looking up at them)."""
    init = birds_csv(c, 'birds.csv', [(0, 4, 0), (3, 4, 2), (-3, 4, -2)])
    eye, at = (0.0, -15.0, -45.0), (0.0, 8.0, 0.0)
    view = ['--set', 'look=dusk', '--camera-pos', '%g,%g,%g' % eye, '--look-at', '%g,%g,%g' % at]
    img_on, st, _ = falcon_run(c, init, 'on', 'on', view)
    pos = tuple(float(v) for v in st['falcon_pos'].split(','))
    (fx, fy), = c.projected_from(SIZE, eye, at, [pos])
    img_off, _, _ = falcon_run(c, init, 'off', 'off', view)
    sky = pixel(img_off, fx, fy)
    check(sum(sky) / 3 > 90, 'the sky behind the falcon should be light at dusk: %s' % (sky,))
    dark = near(img_on, fx, fy, lambda rgb: sum(rgb) / 3 < 0.5 * sum(sky) / 3, 4)
    check(len(dark) >= 3, 'no dark falcon pixels near (%.1f, %.1f) on the sky %s' % (fx, fy, sky))
    check(not near(img_off, fx, fy, lambda rgb: sum(rgb) / 3 < 0.5 * sum(sky) / 3, 4),
          'dark pixels where the falcon was, with it off')


def case_tint(c):
    """Shift+Z tints the alarmed birds (escape != 0) and only those: off (the default) every bird is
    amber; on the alarmed ones turn magenta and the calm one stays amber."""
    # three birds near the falcon's dive detect it (radius 14 m, all round, no exposure needed, no
    # copying within the run); one 16 m away does not
    init = birds_csv(c, 'birds.csv', [(-2, -8, 0), (2, -8, 2), (0, -8, -2), (16, -8, 0)])
    esc = ['--set', 'escape_radius=14', '--set', 'escape_fov=360', '--set', 'escape_exposure=0',
           '--set', 'escape_latency=5']
    img_off, st_off, birds = falcon_run(c, init, 'tint_off', 'on', esc)
    check(st_off['tint'] == 'off', 'the tint should be off by default: %s' % st_off)
    alarmed = [p for p, e in birds if e]
    calm = [p for p, e in birds if not e]
    check(len(alarmed) >= 1 and len(calm) >= 1, 'want alarmed and calm birds: %s' % birds)
    img_on, st_on, birds_on = falcon_run(c, init, 'tint_on', 'on', esc, keys=KEYS + ',Shift+Z')
    check(st_on['tint'] == 'on' and birds_on == birds, 'the same state, tint on: %s' % st_on)
    pts = c.projected(SIZE, BOX[0], BOX[1], alarmed + calm)
    for i, (x, y) in enumerate(pts):
        kind = 'alarmed' if i < len(alarmed) else 'calm'
        check(near(img_off, x, y, is_amber, 2), 'tint off: %s bird at (%.1f, %.1f) should be amber' % (kind, x, y))
        check(not near(img_off, x, y, is_magenta, 2), 'tint off: magenta at the %s bird (%.1f, %.1f)' % (kind, x, y))
        if kind == 'alarmed':
            check(near(img_on, x, y, is_magenta, 2), 'tint on: alarmed bird at (%.1f, %.1f) not magenta' % (x, y))
        else:
            check(near(img_on, x, y, is_amber, 2) and not near(img_on, x, y, is_magenta, 2),
                  'tint on: the calm bird at (%.1f, %.1f) should stay amber' % (x, y))
    check(count(img_off, is_magenta) == 0, 'magenta pixels with the tint off')


def csv_rows(path):
    with open(path) as f:
        lines = [line.strip().split(',') for line in f if not line.startswith('#')]
    return [dict(zip(lines[0], row)) for row in lines[1:]]


def ndc(vp, p):
    """p through the column-major view-projection vp: (x, y) in -1..1 across the frame, or None
    behind the eye"""
    clip = [sum(vp[4 * c + r] * v for c, v in enumerate((p[0], p[1], p[2], 1.0))) for r in range(4)]
    return (clip[0] / clip[3], clip[1] / clip[3]) if clip[3] > 1e-6 else None


CAMERA_SIZE = (320, 180)


def frame_pixels(img):
    """A studio frame's bird pixels (red above blue: amber birds, lit or in shade, and the far ones
    drawn as points; the sky and the ground are bluish grey) and the places of its light blue falcon
    pixels."""
    w, _, bpp, rows = img
    birds, blue = 0, []
    for y, row in enumerate(rows):
        for x in range(0, w * bpp, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r > b + 8:
                birds += 1
            elif b >= 150 and b > r + 40 and g > r + 20:
                blue.append((x // bpp, y))
    return birds, blue


def camera_run(c, name, extra):
    """A headless --camera falcon recording of the starling preset in the studio look (the falcon
    light blue, the birds amber): 50 s of attacks at 10 frames a second after a 30 s warm-up (30 s
    until the escape rework of issue 26's round 3 shortened the attacks: 93 attack frames of 300; 40 s
    until issue 24's fourth round (surge, the gentle roost) changed the flight: 'beside' then had 97
    attack frames of 400). Per
    frame: the falcon's phase (the metrics of the tick drawn), where the falcon projects (the frame
    log, MURMUR_FRAME_LOG: the falcon drawn and the view-projection it was drawn with) and the PNG."""
    log, metrics = c.path(name + '-log.csv'), c.path(name + '-metrics.csv')
    c.run(['--headless', '--warmup', '1500', '--fps', '10', '--speed', '1', '--camera', 'falcon',
           '--set', 'falcon=on', '--set', 'falcon_wait=3', '--set', 'look=studio', '--metrics', metrics,
           '--record', c.path(name + '-%03d.png')] + extra, frames=500, size=CAMERA_SIZE, display=False,
          env={'MURMUR_FRAME_LOG': log}, preset=None)
    phase = {int(r['tick']): int(r['falcon_state']) for r in csv_rows(metrics)}
    frames = []
    for r in csv_rows(log):
        vp = [float(r['vp%d' % k]) for k in range(16)]
        at = ndc(vp, (float(r['x']), float(r['y']), float(r['z']))) if r['falcon'] == '1' else None
        frames.append((int(r['frame']), phase[int(r['tick'])], at, c.path(name + '-%03d.png' % int(r['frame']))))
    return frames


def case_camera(c):
    """--camera falcon keeps the attacking falcon in the frame: its projected position is inside the
    frame in at least 90% of the frames of the attack phases (approach, pursuit), in two runs where
    the framing of the flock alone lost it (an attack from above at 40 m/s, one from beside at
    20 m/s; before the fix: 89% and 85%); the birds stay in the frame too (amber pixels in 90% of the
    attack frames read). The log agrees with the picture: where the frame shows light blue falcon
    pixels they lie at the falcon's projection."""
    W, H = CAMERA_SIZE
    # the falcon and the flight as when these two runs were chosen (issue 26's round 4 made the flight
    # grow with the looming rate and the stoop faster: the beside run then has 86 attack frames, too
    # few to judge the camera by; round 5's copy rule, escape_copy_dist, left the above run's birds
    # in 68 of 78 frames read; round 6 (branch wave7) made the copy's latency grow with the neighbour's
    # distance, escape_copy_speed, shortened escape_latency and escape_reaction, copied the flight from the
    # path, escape_copy_flight, faded weak alarms, escape_copy_fade, and shortened escape_flee_time: all
    # pinned to the model before); the camera is what is tested here
    model = ['--set', 'escape_flee_loom=0', '--set', 'falcon_stoop=0', '--set', 'escape_copy_dist=0',
             '--set', 'escape_reaction=0.1', '--set', 'escape_copy_speed=0', '--set', 'escape_latency=0.05',
             '--set', 'escape_copy_fade=0', '--set', 'escape_copy_flight=off', '--set', 'escape_flee_time=1.5']
    runs = (('above', ['--set', 'falcon_attack_speed=40', '--seed', '4'] + model),
            ('beside', ['--set', 'falcon_strategy=beside', '--set', 'falcon_attack_speed=20', '--seed', '3'] + model))
    for name, extra in runs:
        frames = camera_run(c, name, extra)
        attack = [f for f in frames if f[1] in (1, 2)]
        check(len(attack) >= 100, '%s: only %d attack frames of %d' % (name, len(attack), len(frames)))
        inside = [f for f in attack if f[2] and abs(f[2][0]) <= 1.0 and abs(f[2][1]) <= 1.0]
        share = len(inside) / len(attack)
        print('%s: the falcon in the frame in %d of %d attack frames (%.0f%%)'
              % (name, len(inside), len(attack), 100 * share))
        check(share >= 0.9, '%s: the falcon in the frame in %.0f%% of the attack frames' % (name, 100 * share))
        birds = seen = agree = 0
        read = attack[::2]
        for _, _, at, png in read:
            nbird, blue = frame_pixels(read_png(png))
            birds += nbird >= 10
            if blue and at:
                seen += 1
                fx, fy = (at[0] * 0.5 + 0.5) * W, (0.5 - at[1] * 0.5) * H
                mx, my = sum(p[0] for p in blue) / len(blue), sum(p[1] for p in blue) / len(blue)
                agree += abs(mx - fx) <= 6 and abs(my - fy) <= 6
        print('%s: birds in %d of %d frames read; falcon pixels in %d, at its projection in %d'
              % (name, birds, len(read), seen, agree))
        check(birds >= 0.9 * len(read), '%s: birds in only %d of %d attack frames' % (name, birds, len(read)))
        # How often the few-pixel falcon shows its light blue (not in shade, not behind birds) depends
        # on the flight, not on the camera: at least 3 frames must show it, and there the log must agree.
        # Every second attack frame is read (every fourth before issue 24's ground avoidance changed
        # the flight: 'above' then showed the falcon in 2 of 44 frames read, both at its projection).
        check(seen >= 3 and agree >= 0.9 * seen,
              '%s: falcon pixels at its projection in %d of the %d frames that show them' % (name, agree, seen))


CASES = {'drawn': case_drawn, 'dusk': case_dusk, 'tint': case_tint, 'camera': case_camera}


def main():
    return main_cases(CASES, 'murmur-falcon-')


if __name__ == '__main__':
    sys.exit(main())
