#!/usr/bin/env python3
"""How many birds fly below the ground plane: the starling preset (bounds=none) has no floor, only a
weak altitude control toward the roost, so a tall flock can reach under y = ground.

usage: tools/below_ground.py MURMUR [--sizes 2000,20000] [--seeds 2001,2002,2003] [--ticks 2500]

For each size and seed it runs `MURMUR --boids N --seed S --steps T --export FILE` (the default
preset) and prints the share of birds whose y is below the ground (0 in the preset) and the 1st and
5th percentiles of y, then each size's mean share over the seeds. Standard library only.
"""
import argparse
import os
import subprocess
import tempfile


def run(murmur, n, seed, ticks, tmp):
    out = os.path.join(tmp, "s-%d-%d.csv" % (n, seed))
    subprocess.run([murmur, "--boids", str(n), "--seed", str(seed), "--steps", str(ticks), "--export", out,
                    "--threads", "2", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    ys, cols = [], None
    with open(out) as fp:
        for line in fp:
            if line.startswith("#"):
                continue
            f = line.strip().split(",")
            if cols is None:
                cols = f
                continue
            if f[0] == "boid":
                ys.append(float(f[cols.index("y")]))
    ys.sort()
    pct = lambda q: ys[min(len(ys) - 1, int(q * len(ys)))]
    return sum(1 for y in ys if y < 0.0) / len(ys), pct(0.01), pct(0.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("murmur")
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--seeds", default="2001,2002,2003")
    ap.add_argument("--ticks", type=int, default=2500)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in a.sizes.split(",")]:
            shares = []
            for s in [int(x) for x in a.seeds.split(",")]:
                share, p1, p5 = run(os.path.abspath(a.murmur), n, s, a.ticks, tmp)
                shares.append(share)
                print("N = %d, seed %d, tick %d: below the ground %.4f of the birds; y 1st pct %.1f, 5th pct %.1f"
                      % (n, s, a.ticks, share, p1, p5), flush=True)
            print("N = %d: mean share below the ground %.4f (%d seeds)" % (n, sum(shares) / len(shares), len(shares)))


if __name__ == "__main__":
    main()
