#!/usr/bin/env python3
"""Climbers with the flight on (issue 24, docs/rules.md "Flight"): run the starling preset with
--set pairs (default flight=on, the preset's min_speed 2) on each seed and print, from the final
state, the birds' height (median, 99th percentile, maximum), the share above a height (default
80 m, 40 m over the roost), the share at min_speed (within 0.1 %) and the share climbing faster
than 1.5 m/s. Standard library only.

    tools/flight_stall_check.py --murmur build-test/src/app/murmur --boids 2000 --seeds 1001,1002,1003
"""
import argparse
import math
import os
import subprocess
import tempfile


def stats(path, min_speed, above):
    ys, lim, climb = [], 0, 0
    with open(path) as f:
        for line in f:
            r = line.strip().split(",")
            if line.startswith("#") or r[0] not in ("0", "boid"):
                continue
            y, vx, vy, vz = float(r[2]), float(r[4]), float(r[5]), float(r[6])
            ys.append(y)
            lim += math.sqrt(vx * vx + vy * vy + vz * vz) <= min_speed * 1.001
            climb += vy > 1.5
    ys.sort()
    n = len(ys)
    return n, ys[n // 2], ys[int(0.99 * n)], ys[-1], sum(y > above for y in ys) / n, lim / n, climb / n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join("build", "src", "app", "murmur"))
    ap.add_argument("--boids", type=int, default=2000)
    ap.add_argument("--seeds", default="1001,1002,1003")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--above", type=float, default=80.0)
    ap.add_argument("--min-speed", type=float, default=2.0, help="the run's min_speed (the preset's 2)")
    ap.add_argument("--set", dest="sets", action="append", default=None, metavar="NAME=VALUE")
    a = ap.parse_args()
    sets = a.sets if a.sets is not None else ["flight=on"]
    with tempfile.TemporaryDirectory() as tmp:
        for seed in a.seeds.split(","):
            out = os.path.join(tmp, "s.csv")
            cmd = [a.murmur, "--preset", "starling", "--boids", str(a.boids), "--seed", seed, "--steps",
                   str(a.steps), "--export", out]
            for s in sets:
                cmd += ["--set", s]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            n, med, p99, top, hi, lim, climb = stats(out, a.min_speed, a.above)
            print("seed %s N=%d %s: height median %.1f p99 %.1f max %.1f, above %g m %.4f, at min_speed %.4f, "
                  "v_y > 1.5 m/s %.4f" % (seed, n, ",".join(sets), med, p99, top, a.above, hi, lim, climb))


if __name__ == "__main__":
    main()
