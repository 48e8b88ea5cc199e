#!/usr/bin/env python3
"""Calibration of the program's cost model (src/app/cli/cost.c, docs/performance/rounds.md "The time model"):
single-thread CPU time per boid-tick of murmur-bench's uniform scenario, metric neighbours at several
densities and topological neighbours at several topo_k, and a least-squares fit of
    metric:       a + b x neighbours
    topological:  a + b x candidates      (candidates scanned per boid, the bench's cand/boid)
then the same CPU time of the program's presets, for the fixed cost of the starling rules.

usage: tools/cost_model.py build [N]
(build: the build folder; N boids, default 20000). CPU time, not wall time: on a shared machine a
single-thread process's CPU time per tick stays near the idle machine's wall time while the wall time
doubles with the load. Each figure is the difference of two runs (T2 and T1 ticks after 1 warm-up
tick) over T2 - T1 ticks, so that creating the flock cancels; the least of 3 such differences.
"""
import json
import os
import resource
import subprocess
import sys
import time


def cpu_of(cmd):
    """CPU seconds (user + system) of the command, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def per_tick(make, n, t1, t2, repeats=3):
    """Least CPU us per boid-tick over `repeats` pairs; make(T) gives the command for T ticks."""
    best, last = None, None
    for _ in range(repeats):
        c1, _ = cpu_of(make(t1))
        c2, last = cpu_of(make(t2))
        us = (c2 - c1) / ((t2 - t1) * n) * 1e6
        best = us if best is None else min(best, us)
    return best, last


def bench_row(bench, n, mode, extra):
    def make(t):
        return [bench, "--scenario", "uniform", "--n", str(n), "--threads", "1", "--fallback", "off",
                "--neighbours", mode, "--warmup", "1", "--ticks", str(t), "--repeats", "1", "--json", *extra]
    t1, t2 = (10, 40) if n >= 10000 else (50, 250)
    us, out = per_tick(make, n, t1, t2)
    row = json.loads(out.stdout.strip().splitlines()[-1])
    return us, row["mean_neighbours"], row["candidates_per_boid"]


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def loadavg():
    with open("/proc/loadavg") as fp:
        return " ".join(fp.read().split()[:3])


def main():
    build = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    bench = os.path.join(build, "tests", "bench", "murmur-bench")
    murmur = os.path.join(build, "src", "app", "murmur")
    print("load average before: %s (%s)" % (loadavg(), time.strftime("%Y-%m-%d %H:%M")))
    print("\nmetric, uniform %d boids: density, neighbours, us per boid-tick" % n)
    for title, mode, flag, values, x_of in (
            ("metric, uniform %d boids: density, neighbours, candidates, us per boid-tick" % n, "metric",
             "--density", (2, 5, 15, 30, 100, 300), lambda k, cand: k),
            ("topological, uniform %d boids: topo_k, neighbours, candidates, us per boid-tick" % n, "topological",
             "--topo-k", (1, 3, 6.5, 10, 15, 20), lambda k, cand: cand)):
        print("\n" + title)
        xs, ys = [], []
        for v in values:
            us, k, cand = bench_row(bench, n, mode, [flag, str(v)])
            xs.append(x_of(k, cand))
            ys.append(us)
            print("  %5g %8.2f %8.1f %8.4f" % (v, k, cand, us))
        a, b = fit(xs, ys)
        print("  fit: %.4f + %.6f x %s us" % (a, b, "neighbours" if mode == "metric" else "candidates"))
    print("\nthe program, --threads 1: preset, boids, us per boid-tick")
    for preset in ("classic", "starling", "vision-report"):
        for m in (2000, 20000):
            def make(t, preset=preset, m=m):
                return [murmur, "--preset", preset, "--boids", str(m), "--threads", "1", "--steps", str(t)]
            us, _ = per_tick(make, m, 10, 40) if m >= 10000 else per_tick(make, m, 50, 250)
            print("  %-13s %6d %8.4f" % (preset, m, us))
    print("\nload average after: %s" % loadavg())


if __name__ == "__main__":
    main()
