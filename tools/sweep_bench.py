#!/usr/bin/env python3
"""Issue 27's sweep target: a sweep of 2 x 2 x 3 short runs on 2 cores finishes within 1.2x the sum of
their single-core times / 2. Also compares the two ways to use the cores: independent runs in parallel
(jobs = 2, one thread each) against one run at a time threading each step (jobs = 1, threads = 2).

usage: tools/sweep_bench.py [MURMUR] [--boids N] [--ticks T] [--rounds R]

Each round measures (the order rotates from round to round), with the load average beside each:
  single  every run alone on one thread (murmur sweep SPEC --index I, one after the other): the sum
  par     murmur sweep SPEC --jobs 2 (threads = 1 per run)
  thr     murmur sweep SPEC2 --jobs 1 (threads = 2 per run)
and prints par / (single / 2) (the target: <= 1.2) and thr / par per round, then of the medians and
of the minima over the rounds (on a busy machine the minimum is the least disturbed figure).
Last, each round's own par / (single / 2), sorted, with their median: the three ways of a round run
back to back, so a round's ratio is a paired figure that the machine's drift between rounds does not enter. CPU
seconds (user + system of the murmur processes) show whether a way does more work or only waits.
Standard library only; scratch files in a temporary folder.
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

SPEC = """# issue 27's performance case: 2 x 2 x 3 short runs
preset = starling
vary topo_k = 6, 7
vary cruise_speed = 9, 11
seeds = 1..3
boids = {boids}
ticks = {ticks}
every = {every}
threads = {threads}
output = {out}
"""


def load():
    return os.getloadavg()[0]


CPU = [0.0]  # CPU seconds (user + system) of the last timed commands


def timed(cmd, cwd):
    t, c = time.perf_counter(), os.times()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr))
    e = os.times()
    CPU[0] += (e.children_user - c.children_user) + (e.children_system - c.children_system)
    return time.perf_counter() - t


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("murmur", nargs="?", default=os.path.join(here, "..", "build", "src", "app", "murmur"))
    ap.add_argument("--boids", type=int, default=2000)
    ap.add_argument("--ticks", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    murmur = os.path.abspath(a.murmur)
    tmp = tempfile.mkdtemp(prefix="murmur-sweep-bench-")
    try:
        for name, threads in (("one.ini", 1), ("two.ini", 2)):
            with open(os.path.join(tmp, name), "w") as fp:
                fp.write(SPEC.format(boids=a.boids, ticks=a.ticks, every=max(1, a.ticks // 3), threads=threads,
                                     out=name.replace(".ini", ".csv")))
        runs = int(subprocess.check_output([murmur, "sweep", "count", "one.ini"], cwd=tmp))
        print("%d runs of %d boids x %d ticks (starling), %d cores" % (runs, a.boids, a.ticks, os.cpu_count()))
        print("%-6s %-7s %9s %8s %7s" % ("round", "what", "wall s", "cpu s", "load"))
        rows = []
        for rnd in range(a.rounds):
            res = {}
            order = (("single", "par", "thr"), ("thr", "single", "par"), ("par", "thr", "single"))[rnd % 3]
            for what in order:
                for d in ("one.csv.parts", "two.csv.parts"):
                    shutil.rmtree(os.path.join(tmp, d), ignore_errors=True)
                l0 = load()
                CPU[0] = 0.0
                if what == "single":
                    wall = sum(timed([murmur, "sweep", "one.ini", "--index", str(i)], tmp) for i in range(runs))
                elif what == "par":
                    wall = timed([murmur, "sweep", "one.ini", "--jobs", "2", "--quiet"], tmp)
                else:
                    wall = timed([murmur, "sweep", "two.ini", "--jobs", "1", "--quiet"], tmp)
                res[what] = wall
                print("%-6d %-7s %9.2f %8.2f %7.2f" % (rnd, what, wall, CPU[0], (l0 + load()) / 2))
            rows.append(res)
            print("round %d: par / (single / 2) = %.2f (target <= 1.2); thr / par = %.2f"
                  % (rnd, res["par"] / (res["single"] / 2), res["thr"] / res["par"]))
        for name, pick in (("median", lambda xs: sorted(xs)[len(xs) // 2]), ("min", min)):
            single, par, thr = (pick([r[w] for r in rows]) for w in ("single", "par", "thr"))
            print("%s of %d rounds: single sum %.2f s, par %.2f s, thr %.2f s; par / (single / 2) = %.2f; "
                  "thr / par = %.2f" % (name, len(rows), single, par, thr, par / (single / 2), thr / par))
        # Each round times the three ways back to back, so a round's own ratio is a paired figure: the
        # machine's drift between rounds (other sessions' jobs come and go) cancels within it.
        ratios = sorted(r["par"] / (r["single"] / 2) for r in rows)
        print("per-round par / (single / 2): %s; median %.2f, max %.2f (target <= 1.2)"
              % (", ".join("%.2f" % x for x in ratios), ratios[len(ratios) // 2], ratios[-1]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
