#!/usr/bin/env python3
"""A numpy + scipy cKDTree boids step: murmur's peer baseline for docs/performance.md (ours, not a
port of any published code). The scenario is murmur-bench's `uniform` one: N boids at random in a
periodic cube of side cbrt(N / (30 / (4/3 pi))) (about 30 neighbours within view radius 1),
separation radius 0.3, all-round view, speed 1, dt 1/60; Parker's cohesion, alignment and
separation with murmur's default weights, minimum-image distances, one tick = one tree build, one
radius query of all pairs and vectorised sums over the pairs.

    numpy_boids.py N [TICKS]     prints one JSON line: ms per tick (median of TICKS, 1 warm-up tick)
"""
import json
import math
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import scipy  # noqa: E402
from scipy.spatial import cKDTree  # noqa: E402

VIEW, SEP, DT = 1.0, 0.3, 1.0 / 60.0
COHESION, ALIGNMENT, SEPARATION = 1.0, 2.0, 10.0  # murmur's defaults (1/s^2, 1/s, 1/s^2)


def step(pos, vel, box):
    tree = cKDTree(pos, boxsize=box)
    pairs = tree.query_pairs(VIEW, output_type="ndarray")
    i, j = pairs[:, 0], pairs[:, 1]
    d = pos[j] - pos[i]
    d -= box * np.round(d / box)  # minimum image
    n = len(pos)
    count = np.bincount(i, minlength=n) + np.bincount(j, minlength=n)
    acc = np.zeros_like(pos)
    dist2 = np.einsum("ij,ij->i", d, d)
    close = dist2 < SEP * SEP
    for a in range(3):
        # cohesion: towards the neighbours' mean offset; alignment: towards their mean velocity
        off = np.bincount(i, d[:, a], n) - np.bincount(j, d[:, a], n)
        vsum = np.bincount(i, vel[j, a], n) + np.bincount(j, vel[i, a], n)
        sep = -np.bincount(i[close], d[close, a], n) + np.bincount(j[close], d[close, a], n)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_off = np.where(count > 0, off / np.maximum(count, 1), 0.0)
            mean_v = np.where(count > 0, vsum / np.maximum(count, 1), vel[:, a])
        acc[:, a] = COHESION * mean_off + ALIGNMENT * (mean_v - vel[:, a]) + SEPARATION * sep
    vel = vel + DT * acc
    speed = np.linalg.norm(vel, axis=1)
    vel = vel / np.where(speed > 0, speed, 1.0)[:, None]  # min_speed = max_speed = 1
    pos = np.mod(pos + DT * vel, box)
    return pos, vel, 2.0 * len(pairs) / n


def main():
    n = int(sys.argv[1])
    ticks = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    box = math.cbrt(n / (30.0 / (4.0 / 3.0 * math.pi)))
    rng = np.random.default_rng(1)
    pos = rng.uniform(0.0, box, (n, 3))
    vel = rng.normal(size=(n, 3))
    vel /= np.linalg.norm(vel, axis=1)[:, None]
    pos, vel, _ = step(pos, vel, box)  # warm-up
    times, nb = [], 0.0
    for _ in range(ticks):
        t0 = time.perf_counter()
        pos, vel, nb = step(pos, vel, box)
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    print(json.dumps({"peer": "numpy+cKDTree", "version": "numpy %s, scipy %s, Python %s" % (
        np.__version__, scipy.__version__, sys.version.split()[0]), "n": n, "ticks": ticks,
        "ms_per_tick": times[len(times) // 2], "mean_neighbours": nb}))


if __name__ == "__main__":
    main()
