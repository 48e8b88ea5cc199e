#!/usr/bin/env python3
"""How a frame frames the flock: the share of the frame that the birds' box fills and the share of
bird pixels, for PNGs that murmur wrote (standard library only).

usage: tools/frame_box.py SHOT.png [...]
Bird pixels and the box are measured as tests/render/framing_test.py measures them: a pixel that
differs from its row's median colour by more than 24 of 255 summed over the channels; the box spans
the 1st to the 99th percentile of the bird pixels in x and in y. Render with MURMUR_SHADOWS=0 (the
ground shadows would count as birds).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'render'))
from framing_test import measure  # noqa: E402
from render_test import read_png  # noqa: E402


def main():
    for p in sys.argv[1:]:
        m = measure(read_png(p))
        print('%s: box %.1f%% of the frame %s, centre at %s of its width/height, bird pixels %.2f%%' % (
            p, 100 * m['box_share'], m['box'], m['centre'] and tuple(round(c, 2) for c in m['centre']),
            100 * m['bird_share']))


if __name__ == '__main__':
    main()
