#!/usr/bin/env python3
"""A Python step (import murmur) against the same step from C (issue 27: at most 1.05x at 100k boids).

    tools/python_step_bench.py [--build build] [--preset starling] [--boids 100000] [--seed 1]
                               [--warmup 50] [--ticks 20] [--threads 1] [--rounds 4] [--check]

Each round runs the C side (BUILD/python/tests/step_c: mur_flock_step timed alone, tick by tick) and
the Python side (a fresh interpreter: Flock(...).step() timed by time.perf_counter around the call,
so the call, argument parsing and the GIL's release are in; and the process's CPU time, which a loaded
machine's scheduling disturbs less), C and Python alternating, the order
swapped every round, each a fresh process with the same flock, warm-up and ticks. Each side prints
the medians of its timed ticks (wall and CPU); the script prints every round with the load average beside it, the
Python/C ratio of each round and the median ratio. Both sides must end on the same state hash
(--check: exit 1 if not). --in-process adds rounds in which one interpreter steps one flock, its
ticks alternately a C call timed in C (the extension's c_timed_step: clock_gettime around
mur_flock_step, as step_c does) and Flock.step() timed in Python: no difference between processes
(memory placement, scheduling) enters, which on a loaded machine is most of the spread.
Use the release build; run on a quiet machine for figures to keep.
"""
import argparse
import os
import statistics
import subprocess
import sys

PY_SIDE = r"""
import sys, time
import murmur
preset, boids, seed, warmup, ticks, threads = sys.argv[1:7]
f = murmur.Flock(preset, boids=int(boids), seed=int(seed), threads=int(threads))
f.step(int(warmup))
ms, cpu = [], []
step, wall, proc = f.step, time.perf_counter, time.process_time
for _ in range(int(ticks)):
    c0, t0 = proc(), wall()
    step()
    t1, c1 = wall(), proc()
    ms.append((t1 - t0) * 1e3)
    cpu.append((c1 - c0) * 1e3)
ms.sort()
cpu.sort()
print("median_ms %.4f cpu_ms %.4f hash %016x" % (ms[len(ms) // 2], cpu[len(cpu) // 2], f.hash))
"""


IN_PROCESS = r"""
import sys, time
import murmur
preset, boids, seed, warmup, ticks, threads = sys.argv[1:7]
f = murmur.Flock(preset, boids=int(boids), seed=int(seed), threads=int(threads))
f.step(int(warmup))
c_ms, c_cpu, p_ms, p_cpu = [], [], [], []
step, wall, proc = f.step, time.perf_counter, time.process_time
for t in range(2 * int(ticks)):
    if (t % 4) in (0, 3):  # C, Python, Python, C, C, Python, ...: each side as often first
        ms, cpu = f._f.c_timed_step()
        c_ms.append(ms)
        c_cpu.append(cpu)
    else:
        c0, t0 = proc(), wall()
        step()
        t1, c1 = wall(), proc()
        p_ms.append((t1 - t0) * 1e3)
        p_cpu.append((c1 - c0) * 1e3)
med = lambda v: sorted(v)[len(v) // 2]
print("c_ms %.4f c_cpu %.4f py_ms %.4f py_cpu %.4f c_min %.4f py_min %.4f hash %016x"
      % (med(c_ms), med(c_cpu), med(p_ms), med(p_cpu), min(c_cpu), min(p_cpu), f.hash))
"""


def in_process(args, conf, env):
    """C and Python steps of one flock in one process, tick by tick (C, Py, Py, C, ...)."""
    rw, rc, rm = [], [], []
    for r in range(args.rounds):
        out = subprocess.run([sys.executable, "-c", IN_PROCESS] + conf, env=env, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("in-process run failed: " + out.stderr.strip())
        w = out.stdout.split()
        v = {w[i]: w[i + 1] for i in range(0, len(w) - 1, 2)}
        c, p, cc, pc = float(v["c_ms"]), float(v["py_ms"]), float(v["c_cpu"]), float(v["py_cpu"])
        cm, pm = float(v["c_min"]), float(v["py_min"])
        rw.append(p / c)
        rc.append(pc / cc)
        rm.append(pm / cm)
        print("round %d (one process, ticks alternating): wall C %.3f ms, Python %.3f ms, Python/C %.3f; "
              "CPU C %.3f ms, Python %.3f ms, Python/C %.3f; least CPU C %.3f, Python %.3f, Python/C %.3f (load %.2f)"
              % (r + 1, c, p, p / c, cc, pc, pc / cc, cm, pm, pm / cm, os.getloadavg()[0]))
    print("median Python/C over %d rounds, in one process: wall %.3f, CPU %.3f, least CPU %.3f"
          % (len(rw), statistics.median(rw), statistics.median(rc), statistics.median(rm)))


def parse(out):
    """(wall ms, CPU ms, hash) from a side's line."""
    w = out.split()
    return float(w[w.index("median_ms") + 1]), float(w[w.index("cpu_ms") + 1]), w[w.index("hash") + 1]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--preset", default="starling")
    ap.add_argument("--boids", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--ticks", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--check", action="store_true", help="exit 1 unless both sides end on the same hash")
    ap.add_argument("--in-process", action="store_true",
                    help="also: one flock in one interpreter, its ticks alternately stepped by a C call timed in C "
                         "(the extension's c_timed_step) and by Flock.step() timed in Python")
    ap.add_argument("--only-in-process", action="store_true", help="the --in-process rounds alone")
    args = ap.parse_args()
    conf = [args.preset, str(args.boids), str(args.seed), str(args.warmup), str(args.ticks), str(args.threads)]
    env = dict(os.environ, PYTHONPATH=os.path.join(args.build, "python"), OMP_WAIT_POLICY="passive")
    c_cmd = [os.path.join(args.build, "python", "tests", "step_c")] + conf
    py_cmd = [sys.executable, "-c", PY_SIDE] + conf
    print("%s, %d boids, seed %d, %d warm-up + %d timed ticks, %d thread(s); median ms per tick"
          % (args.preset, args.boids, args.seed, args.warmup, args.ticks, args.threads))
    ratios, cpu_ratios, hashes = [], [], set()
    if args.only_in_process:
        in_process(args, conf, env)
        return
    for r in range(args.rounds):
        got = {}
        for side in (("C", "Python") if r % 2 == 0 else ("Python", "C")):
            out = subprocess.run(c_cmd if side == "C" else py_cmd, env=env, capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit("%s side failed: %s" % (side, out.stderr.strip()))
            got[side] = parse(out.stdout)
            hashes.add(got[side][2])
        load = os.getloadavg()[0]
        ratio = got["Python"][0] / got["C"][0] if got["C"][0] > 0 else float("nan")
        cratio = got["Python"][1] / got["C"][1] if got["C"][1] > 0 else float("nan")
        ratios.append(ratio)
        cpu_ratios.append(cratio)
        print("round %d: wall C %.3f ms, Python %.3f ms, Python/C %.3f; CPU C %.3f ms, Python %.3f ms, "
              "Python/C %.3f (load %.2f)" % (r + 1, got["C"][0], got["Python"][0], ratio, got["C"][1],
                                            got["Python"][1], cratio, load))
    print("median Python/C over %d rounds: wall %.3f, CPU %.3f" % (len(ratios), statistics.median(ratios),
                                                                   statistics.median(cpu_ratios)))
    if args.in_process:
        in_process(args, conf, env)
    if len(hashes) != 1:
        print("hashes differ: %s" % sorted(hashes))
        if args.check:
            sys.exit(1)
    elif args.check:
        print("same hash on both sides: %s" % hashes.pop())


if __name__ == "__main__":
    main()
