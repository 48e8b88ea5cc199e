#!/usr/bin/env python3
"""Figures of docs/performance/rounds.md, section "Batch runs at scale": time per boid-tick against the boid
count under world=fixed and world=scale, mean neighbours (expected by the cost model, measured by
the program), and the cost model (expected time per tick) against the measured time.

usage: tools/scale_figures.py build/src/app/murmur [docs/performance/rounds.md]
Runs the program in batch mode (stderr on a pseudo-terminal, so it prints its cost line), prints
the tables, and with a second argument rewrites the text between the markers of that section.
"""
import os
import pty
import re
import subprocess
import sys
import time

MURMUR = sys.argv[1]
COUNTS = [1000, 10000, 100000, 1000000]
BEGIN, END = "<!-- scale_figures: begin -->", "<!-- scale_figures: end -->"


def run(args):
    """murmur with stderr on a pseudo-terminal: (cost line, summary line)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([MURMUR, "--preset", "classic", *args], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    if p.wait() != 0:
        raise SystemExit("murmur %s failed: %s" % (" ".join(args), out.decode(errors="replace")))
    lines = re.split(r"[\r\n]+", out.decode(errors="replace"))
    cost = next(l for l in lines if "library memory" in l)
    summary = next(l for l in lines if "per boid-tick" in l)
    return cost, summary


def parse(cost, summary):
    k_exp = float(re.search(r"about ([\d.]+) neighbours", cost).group(1))
    t = re.search(r"expected ([\d.e+-]+) (ms|s|min|h) per tick", cost)
    mult = {"ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}[t.group(2)]
    us = float(re.search(r"\(([\d.]+) us per boid-tick", summary).group(1))
    secs = float(re.search(r"in ([\d.]+) s", summary).group(1))
    k = float(re.search(r"mean neighbours ([\d.]+)", summary).group(1))
    return k_exp, float(t.group(1)) * mult, us, secs, k


def steps_for(n):
    return max(5, min(20, 2000000 // n))  # 5 at least: the first tick also touches fresh memory


def measure(world, n, threads, repeats):
    """Best of `repeats` runs: (expected k, expected s per tick, us per boid-tick, s per tick, k after)."""
    best = None
    for _ in range(repeats):
        steps = steps_for(n)
        r = parse(*run(["--steps", str(steps), "--boids", str(n), "--set", "world=" + world, "--threads",
                        str(threads)]))
        r = (r[0], r[1], r[2], r[3] / steps, r[4])
        if best is None or r[2] < best[2]:
            best = r
    return best


def loadavg():
    with open("/proc/loadavg") as fp:
        return " ".join(fp.read().split()[:3])


def main():
    out = []
    load0 = loadavg()
    t0 = time.time()
    # the neighbour model against the state the flock starts from (--steps 0)
    out.append("Mean neighbours of the starting state (`--steps 0`): the cost model's expectation and the program's "
               "measurement.\n")
    out.append("| boids | world | expected | measured | measured / expected |")
    out.append("| ---: | --- | ---: | ---: | ---: |")
    for world in ("fixed", "scale"):
        for n in COUNTS:
            k_exp, _, _, _, k = parse(*run(["--steps", "0", "--boids", str(n), "--set", "world=" + world]))
            out.append("| %d | %s | %.2f | %.2f | %.2f |" % (n, world, k_exp, k, k / k_exp if k_exp else 0))
    out.append("")
    out.append("Time per boid-tick (best of 3 runs, 1 at 1M boids, of 5 to 20 ticks) on 1 and 2 threads, measured "
               "and as the cost model expects it (`--threads 1` and `--threads 2`).\n")
    out.append("| boids | world | mean neighbours after | 1 thread: us per boid-tick | model | measured / model | "
               "2 threads: us per boid-tick | model | measured / model |")
    out.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for world in ("fixed", "scale"):
        for n in COUNTS:
            reps = 1 if n >= 1000000 else 3
            one = measure(world, n, 1, reps)
            two = measure(world, n, 2, reps)
            m1, m2 = one[1] / n * 1e6, two[1] / n * 1e6
            out.append("| %d | %s | %.1f | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |" % (
                n, world, two[4], one[2], m1, one[2] / m1, two[2], m2, two[2] / m2))
    out.append("")
    out.append("Load average before: %s; after: %s; %.0f s of runs (`tools/scale_figures.py`, release build)."
               % (load0, loadavg(), time.time() - t0))
    text = "\n".join(out)
    print(text)
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as fp:
            doc = fp.read()
        a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        with open(sys.argv[2], "w") as fp:
            fp.write(doc[:a] + "\n" + text + "\n" + doc[b:])


if __name__ == "__main__":
    main()
