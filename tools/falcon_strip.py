#!/usr/bin/env python3
"""A strip of frames of one falcon attack for docs/falcon.md (issue 26, item 5).

usage: /usr/bin/python3 tools/falcon_strip.py MURMUR OUT.png [FIRST STEP COUNT]
Records the starling preset at dusk with the falcon hunting (--camera falcon, 10 frames a second of
simulated time after a 30 s warm-up), then the same run again with the birds hidden
(MURMUR_BIRD=none) in the studio look, where the falcon is the only light thing on the sky besides
the ground's grid: the pixels brighter and bluer than their row's median (the sky is a vertical
gradient) give its place in each frame, which the strip rings in red (the dusk falcon is as dark as
the birds). The first version looked for light blue pixels, but the falcon, a pixel or two at this
size blended with the dark blue sky, is not light blue (e.g. 41,65,92): it found it in no frame.
COUNT frames from FIRST, STEP apart, each scaled to 320x180, side by side with the time under each;
FIRST = auto: the first frame from frame 20 on in which the falcon is found. With FALCON_STRIP_KEEP=DIR
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


def main():
    murmur, out = sys.argv[1], sys.argv[2]
    first, step, count = sys.argv[3:6] if len(sys.argv) > 5 else ('auto', '3', '5')
    step, count = int(step), int(count)
    keep = os.environ.get('FALCON_STRIP_KEEP')
    with tempfile.TemporaryDirectory(prefix='falcon-strip-') as tmp:
        tmp = keep or tmp
        dusk, bare = os.path.join(tmp, 'dusk'), os.path.join(tmp, 'bare')
        if not (keep and os.path.isdir(bare)):
            os.makedirs(dusk, exist_ok=True)
            os.makedirs(bare, exist_ok=True)
            record(murmur, dusk, [])
            record(murmur, bare, ['--set', 'look=studio'], {'MURMUR_BIRD': 'none'})
        if keep:
            for i in range(100):
                at = falcon_at(os.path.join(bare, 'f%05d.png' % i))
                print('all %d: %s' % (i, 'none' if at is None else '%.0f,%.0f' % at))
        if first == 'auto':
            first = next((i for i in range(20, 100 - step * (count - 1))
                          if falcon_at(os.path.join(bare, 'f%05d.png' % i))), 40)
        first = int(first)
        W, H = 320, 180
        strip = Image.new('RGB', (W * count, H + 16), (20, 20, 24))
        draw = ImageDraw.Draw(strip)
        for k in range(count):
            i = first + k * step
            img = Image.open(os.path.join(dusk, 'f%05d.png' % i)).convert('RGB').resize((W, H), Image.LANCZOS)
            strip.paste(img, (k * W, 0))
            at = falcon_at(os.path.join(bare, 'f%05d.png' % i))
            if at:
                x, y = at[0] / 2 + k * W, at[1] / 2
                draw.ellipse([x - 9, y - 9, x + 9, y + 9], outline=(220, 30, 30), width=2)
            draw.text((k * W + 4, H + 2), 't = %.1f s' % (i / 10.0), fill=(230, 230, 230))
            print('frame %d: falcon at %s' % (i, 'none' if at is None else '%.0f,%.0f' % at))
        strip.save(out, optimize=True)
    print('%s: %d bytes' % (out, os.path.getsize(out)))


if __name__ == '__main__':
    main()
