#!/usr/bin/env python3
"""docs/murmuration.md's figure 'Flock proportions vs N (starling preset)', from Python.

For each flock size and seed: a starling flock settles, then snapshots are taken; each snapshot's
biggest group (points linked within 10 wu, the library's own grouping) is measured with numpy: its
principal axes and extents 2 sqrt(3 lambda), thin <= mid <= long. The plot: mid/thin and long/thin
against N, beside the figure's own data (docs/murmuration/data/per_n.dat, from murmur's batch mode
and src/sim/shape.c, on the same reporting seeds) and the starlings' 2.8 and 5.6 (Ballerini et al. 2008).

    python3 docs/python/extents.py                 # the figure's sizes and seeds (minutes)
    python3 docs/python/extents.py --sizes 200,400 --seeds 1 --settle 300 --snaps 2   # seconds
"""
import argparse
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import murmur

HERE = os.path.dirname(os.path.abspath(__file__))
LINK = 10.0  # wu: docs/murmuration/run.py's group link for the starling preset


def proportions(points):
    """mid/thin and long/thin of the biggest group of points (numpy, float64)."""
    _, labels = murmur.label_groups(points, LINK)
    ids, counts = np.unique(labels, return_counts=True)
    group = points[labels == ids[counts.argmax()]].astype(np.float64)
    lam = np.linalg.eigvalsh(np.cov(group.T, bias=True))  # ascending: thin, mid, long
    thin, mid, long = 2 * np.sqrt(3 * np.clip(lam, 0, None))
    return mid / thin, long / thin


def run(n, seed, args):
    """One flock: settle, then args.snaps snapshots args.every ticks apart."""
    rows = []
    with murmur.Flock("starling", boids=n, seed=seed, threads=1) as f:
        f.step(args.settle)
        for _ in range(args.snaps):
            rows.append((n, seed, f.tick) + proportions(f.positions))  # positions: a view, no copy
            f.step(args.every)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="500,2000,8000")
    ap.add_argument("--seeds", default="2001,2002,2003,2004,2005", help="docs/murmuration.md's reporting seeds")
    ap.add_argument("--settle", type=int, default=2500, help="ticks before the first snapshot")
    ap.add_argument("--snaps", type=int, default=20)
    ap.add_argument("--every", type=int, default=100, help="ticks between snapshots")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="flocks stepped at once (threads)")
    ap.add_argument("--out", default=".", help="folder for extents.csv and extents.png")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    plan = [(n, int(s)) for n in sizes for s in args.seeds.split(",")]
    # each flock steps on one core with the GIL released, so Python threads run flocks side by side
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = [r for part in pool.map(lambda p: run(p[0], p[1], args), plan) for r in part]
    table = np.array(rows)
    os.makedirs(args.out, exist_ok=True)
    np.savetxt(os.path.join(args.out, "extents.csv"), table, delimiter=",", fmt="%.6g",
               header="n,seed,tick,mid_thin,long_thin", comments="")
    stats = []
    for n in sizes:
        t = table[table[:, 0] == n]
        stats.append((n, t[:, 3].mean(), t[:, 3].std(), t[:, 4].mean(), t[:, 4].std()))
        print("N = %5d: mid/thin %.2f ± %.2f, long/thin %.2f ± %.2f (%d snapshots)" % (stats[-1] + (len(t),)))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot")
        return
    s = np.array(stats)
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    ax.errorbar(s[:, 0], s[:, 1], s[:, 2], marker="o", capsize=3, label="width/thickness (Python)")
    ax.errorbar(s[:, 0], s[:, 3], s[:, 4], marker="o", capsize=3, label="length/thickness (Python)")
    ref = os.path.join(HERE, "..", "murmuration", "data", "per_n.dat")
    if os.path.exists(ref):
        d = np.loadtxt(ref, ndmin=2)
        ax.plot(d[:, 0], d[:, 1], "x--", color="C0", alpha=0.6, label="width/thickness (murmuration.md)")
        ax.plot(d[:, 0], d[:, 3], "x--", color="C1", alpha=0.6, label="length/thickness (murmuration.md)")
    ax.axhline(2.8, ls=":", color="gray", label="starlings 2.8")
    ax.axhline(5.6, ls="-.", color="gray", label="starlings 5.6")
    ax.set_xscale("log")
    ax.set_xlabel("boids N")
    ax.set_ylabel("ratio to thickness")
    ax.set_title("Flock proportions vs N (starling preset), from Python")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "extents.png"), dpi=100)
    print("wrote", os.path.join(args.out, "extents.png"))


if __name__ == "__main__":
    main()
