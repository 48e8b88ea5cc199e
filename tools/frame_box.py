#!/usr/bin/env python3
"""How a frame frames the flock: the share of the frame that the birds' box fills and the share of
bird pixels, for PNGs that murmur wrote (standard library only).

usage: tools/frame_box.py SHOT.png [...]
A bird pixel differs from its row's median colour (the sky is a vertical gradient and the birds
are few in any row) by more than 24 of 255 summed over the channels; the box spans the 1st to
the 99th percentile of the bird pixels in x and in y (a few strays do not make the box).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'render'))
from render_test import read_png  # noqa: E402


def measure(path, step=2):
    w, h, bpp, rows = read_png(path)
    xs, ys = [], []
    for y in range(0, h, step):
        row = rows[y]
        px = [tuple(row[x * bpp:x * bpp + 3]) for x in range(0, w, step)]
        med = [sorted(c[k] for c in px)[len(px) // 2] for k in range(3)]
        for i, c in enumerate(px):
            if sum(abs(c[k] - med[k]) for k in range(3)) > 24:
                xs.append(i * step)
                ys.append(y)
    n = len(xs)
    if n < 10:
        return {'bird_share': 0.0, 'box_share': 0.0, 'box': None, 'centre': None}
    xs.sort()
    ys.sort()
    x0, x1 = xs[n // 100], xs[n - 1 - n // 100]
    y0, y1 = ys[n // 100], ys[n - 1 - n // 100]
    total = (w // step) * (h // step)
    return {'bird_share': n / total, 'box_share': (x1 - x0 + step) * (y1 - y0 + step) / (w * h),
            'box': (x0, y0, x1, y1), 'centre': ((x0 + x1) / 2 / w, (y0 + y1) / 2 / h)}


def main():
    for p in sys.argv[1:]:
        m = measure(p)
        print('%s: box %.1f%% of the frame %s, centre at %s of its width/height, bird pixels %.2f%%' % (
            p, 100 * m['box_share'], m['box'], m['centre'] and tuple(round(c, 2) for c in m['centre']),
            100 * m['bird_share']))


if __name__ == '__main__':
    main()
