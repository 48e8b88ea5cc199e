#!/usr/bin/env python3
"""murmur sweep (docs/sweeps.md): a sweep split into --index parts and merged equals the one-machine
table, byte for byte; an interrupted sweep resumes without running its finished runs again; bad specs
get one line naming the file, line and value, and exit 2; every command of docs/sweeps.md runs.

usage: sweep_test.py MURMUR DOCS_DIR
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

from tempcase import TempCase

MURMUR = os.path.abspath(sys.argv[1])
DOCS = os.path.abspath(sys.argv[2])

SPEC = """# a small study
preset = classic
set view_angle = 270
vary cohesion = 0.005, 0.02
vary alignment = 0.05..0.15 step 0.1
seeds = 1..3
boids = 120
ticks = 40
every = 20
metrics = polarisation, groups
"""


def sweep(*args, cwd, timeout=300):
    return subprocess.run([MURMUR, "sweep", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def read(path):
    with open(path) as fp:
        return fp.read()


class Sweep(TempCase):
    def spec(self, text=SPEC, folder="", name="study.ini"):
        d = self.p(folder)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "w") as fp:
            fp.write(text)
        return d

    def test_sweep_table(self):
        d = self.spec()
        r = sweep("study.ini", "--quiet", cwd=d)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = read(os.path.join(d, "study.csv"))
        lines = text.splitlines()
        for want in ("# murmur: ", "# revision: ", "# command: murmur sweep study.ini", "# dt_s: ",
                     "# spec: vary cohesion = 0.005, 0.02"):
            self.assertTrue(any(l.startswith(want) for l in lines), want)
        rows = [l for l in lines if not l.startswith("#")]
        self.assertEqual(rows[0], "run,cohesion,alignment,boids,seed,tick,time_s,polarisation,groups")
        body = [r.split(",") for r in rows[1:]]
        # 2 x 2 x 3 runs, ticks 0, 20, 40 each, seeds innermost, the last varied parameter first
        self.assertEqual(len(body), 12 * 3)
        self.assertEqual([int(r[0]) for r in body], [i for i in range(12) for _ in range(3)])
        self.assertEqual([int(r[5]) for r in body[:3]], [0, 20, 40])
        self.assertEqual([r[1:5] for r in body[0:12:3]], [["0.005", "0.05", "120", s] for s in ("1", "2", "3")] +
                         [["0.005", "0.15", "120", "1"]])
        self.assertEqual(sorted({(r[1], r[2]) for r in body}),
                         [("0.005", "0.05"), ("0.005", "0.15"), ("0.02", "0.05"), ("0.02", "0.15")])
        # a sampled row is the run's own metrics: the same as a batch run's --metrics row at that tick
        b = subprocess.run([MURMUR, "--preset", "classic", "--set", "view_angle=270", "--set", "cohesion=0.02",
                            "--set", "alignment=0.15", "--boids", "120", "--seed", "2", "--steps", "40",
                            "--metrics", self.p("m.csv")], capture_output=True, text=True)
        self.assertEqual(b.returncode, 0, b.stderr)
        m = [l.split(",") for l in read(self.p("m.csv")).splitlines() if not l.startswith("#")]
        pol, groups = m[0].index("polarisation"), m[0].index("groups")
        mine = [r for r in body if r[0] == "10"]
        self.assertEqual([r[7] for r in mine], [m[1 + t][pol] for t in (0, 20, 40)])
        self.assertEqual([r[8] for r in mine], [m[1 + t][groups] for t in (0, 20, 40)])
        # a finished sweep runs nothing again and writes the same table
        r = sweep("study.ini", cwd=d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("12 of 12 runs finished before, 0 to run", r.stderr)
        self.assertEqual(read(os.path.join(d, "study.csv")), text)
        self.assertEqual(sweep("count", "study.ini", cwd=d).stdout, "12\n")

    def test_sweep_split_and_merged_equals_one_machine(self):
        one = self.spec(folder="one")
        r = sweep("study.ini", "--jobs", "2", "--quiet", cwd=one)
        self.assertEqual(r.returncode, 0, r.stderr)
        parts = self.spec(folder="parts")
        # two "hosts": the even runs and the odd runs, each in an order of its own
        for i in list(range(0, 12, 2)) + list(range(11, 0, -2)):
            r = sweep("study.ini", "--index", str(i), "--quiet", cwd=parts)
            self.assertEqual(r.returncode, 0, r.stderr)
        r = sweep("merge", "study.ini", cwd=parts)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(os.path.join(parts, "study.csv")), read(os.path.join(one, "study.csv")))
        # a part missing: merge names it, writes nothing
        os.remove(os.path.join(parts, "study.csv"))
        os.remove(os.path.join(parts, "study.csv.parts", "run-000007.csv"))
        r = sweep("merge", "study.ini", cwd=parts)
        self.assertEqual(r.returncode, 2)
        self.assertIn("1 of 12 runs have no finished part", r.stderr)
        self.assertIn("run 7", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(parts, "study.csv")))

    def test_sweep_resume_after_interruption(self):
        # runs long enough to stop the sweep in the middle
        spec = SPEC.replace("boids = 120", "boids = 1500").replace("ticks = 40", "ticks = 400")
        d = self.spec(spec)
        ref = self.spec(spec, folder="ref")
        proc = subprocess.Popen([MURMUR, "sweep", "study.ini", "--jobs", "2", "--quiet"], cwd=d,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        partdir = os.path.join(d, "study.csv.parts")
        deadline = time.time() + 240
        while time.time() < deadline and proc.poll() is None:
            done = [f for f in os.listdir(partdir) if f.endswith(".csv")] if os.path.isdir(partdir) else []
            if len(done) >= 2:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C on a terminal: the whole group
        _, err = proc.communicate(timeout=120)
        if proc.returncode == 0:
            self.skipTest("the sweep finished before it could be stopped (a very fast machine)")
        self.assertEqual(proc.returncode, 130, err)
        m = re.search(r"stopped by SIGINT: (\d+) of 12 runs finished", err)
        self.assertIsNotNone(m, err)
        kept = sorted(f for f in os.listdir(partdir))
        self.assertEqual(len(kept), int(m.group(1)))
        self.assertTrue(all(re.fullmatch(r"run-\d{6}\.csv", f) for f in kept), kept)  # no temporary file
        self.assertFalse(os.path.exists(os.path.join(d, "study.csv")))
        mtimes = {f: os.stat(os.path.join(partdir, f)).st_mtime_ns for f in kept}
        r = sweep("study.ini", cwd=d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("%d of 12 runs finished before, %d to run" % (len(kept), 12 - len(kept)), r.stderr)
        for f, t in mtimes.items():  # not run again
            self.assertEqual(os.stat(os.path.join(partdir, f)).st_mtime_ns, t, f)
        # the same table as a sweep never stopped
        r = sweep("study.ini", "--quiet", cwd=ref)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(os.path.join(d, "study.csv")), read(os.path.join(ref, "study.csv")))
        # a changed spec does not take the old parts for its runs
        with open(os.path.join(d, "study.ini"), "a") as fp:
            fp.write("set separation = 2\n")
        r = sweep("count", "study.ini", cwd=d)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = sweep("merge", "study.ini", cwd=d)
        self.assertEqual(r.returncode, 2)
        self.assertIn("12 of 12 runs have no finished part", r.stderr)

    def test_sweep_vector_values(self):
        # vector values are separated by ';' and written as one quoted CSV field
        d = self.spec("preset = classic\nset wind = on\nvary wind_vel = 1,0,0; 2,0.5,0\nticks = 4\nboids = 30\n"
                      "metrics = groups\n")
        r = sweep("study.ini", "--quiet", cwd=d)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [l for l in read(os.path.join(d, "study.csv")).splitlines() if not l.startswith("#")]
        self.assertEqual(rows[0], "run,wind_vel,boids,seed,tick,time_s,groups")
        self.assertTrue(rows[1].startswith('0,"1,0,0",30,'), rows[1])
        self.assertTrue(rows[-1].startswith('1,"2,0.5,0",30,'), rows[-1])

    def test_sweep_bad_specs(self):
        cases = [
            ("vary separation = 0.01, -1\n", "study.ini:11: vary separation: bad value '-1'"),
            ("vary separation = 0.3..0.1\n", "study.ini:11: vary separation: bad range 0.3..0.1"),
            ("vary separation = 0.1..x step 0.1\n", "study.ini:11: vary separation: bad range '0.1..x step 0.1'"),
            ("vary separation = 1..2 step 0\n", "study.ini:11: vary separation: bad range 1..2 step 0"),
            ("vary cohesion = 0.1\n", "study.ini:11: cohesion is varied twice"),
            ("vary nonsense = 1, 2\n", "study.ini:11: unknown parameter 'nonsense'"),
            ("tics = 5\n", "study.ini:11: unknown key 'tics'"),
            ("seeds = 1, x\n", "study.ini:11: seeds: bad value 'x'"),
            ("boids = 0\n", "study.ini:11: boids: bad value '0'"),
            ("metrics = polarisation, speed\n", "study.ini:11: metrics: unknown metric 'speed'"),
            ("every = 0\n", "study.ini:11: every = 0"),
            ("preset = fast\n", "study.ini:11: preset = fast: unknown preset"),
            ("jobs = -1\n", "study.ini:11: jobs = -1"),
            ("set view_angle = 400\n", "study.ini:11: set view_angle = 400"),
            ("just words\n", "study.ini:11: 'just words' is not 'key = value'"),
            ("set min_speed = 5\nset max_speed = 2\n", "study.ini: run 0 (cohesion=0.005 alignment=0.05 boids=120)"),
        ]
        d = self.p("")
        for extra, needle in cases:
            with self.subTest(extra=extra):
                self.spec(SPEC + extra)
                r = sweep("study.ini", cwd=d)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(needle, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertFalse(os.path.exists(self.p("study.csv.parts")))
        self.spec(SPEC.replace("ticks = 40\n", ""))
        for args, needle in ((["study.ini"], "no 'ticks = N' line"), (["missing.ini"], "missing.ini: cannot read"),
                             ([], "no spec file given"), (["study.ini", "--index", "x"], "bad value 'x' for --index"),
                             (["study.ini", "--frobnicate"], "unknown argument --frobnicate")):
            r = sweep(*args, cwd=d)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(needle, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.spec()
        r = sweep("study.ini", "--index", "12", cwd=d)
        self.assertEqual(r.returncode, 2)
        self.assertIn("the spec has 12 runs (0 .. 11)", r.stderr)


def doc_blocks(text):
    """The fenced blocks of docs/sweeps.md: (info, body)."""
    return re.findall(r"(?ms)^```([^\n]*)\n(.*?)^```$", text)


def pandas_python():
    """An interpreter with pandas and matplotlib (Debian's, where the test's own has none), or None."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run([exe, "-c", "import pandas, matplotlib"],
                                                  capture_output=True).returncode == 0:
            return exe
    return None


class Docs(TempCase):
    def test_sweeps_doc_runs(self):
        with open(os.path.join(DOCS, "sweeps.md")) as fp:
            blocks = doc_blocks(fp.read())
        bindir = self.p("bin")
        os.makedirs(bindir)
        os.symlink(MURMUR, os.path.join(bindir, "murmur"))
        if not shutil.which("parallel"):
            # a stand-in for GNU parallel: the command once per input line, {} replaced, one after another
            with open(os.path.join(bindir, "parallel"), "w") as fp:
                fp.write("#!/bin/sh\nwhile [ \"${1#-}\" != \"$1\" ]; do shift 2; done\n"
                         "while read -r arg; do eval \"$(echo \"$*\" | sed \"s/{}/$arg/g\")\" || exit $?; done\n")
            os.chmod(os.path.join(bindir, "parallel"), 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
        work = self.p("work")
        os.makedirs(work)
        py = pandas_python()
        table = None
        for info, body in blocks:
            kind, _, name = info.partition(" ")
            if name:
                with open(os.path.join(work, name), "w") as fp:
                    fp.write(body)
            if kind == "sh":
                r = subprocess.run(["sh", "-e", "-c", body], cwd=work, env=env, capture_output=True, text=True,
                                   timeout=600)
                self.assertEqual(r.returncode, 0, body + r.stderr)
                with open(os.path.join(work, "study.csv")) as fp:
                    got = fp.read()
                if table is None:
                    table = got
                self.assertEqual(got, table, "the table of: " + body)
                shutil.rmtree(os.path.join(work, "study.csv.parts"))
            elif kind == "bash" and name == "sweep.slurm":
                n = int(subprocess.check_output(["murmur", "sweep", "count", "study.ini"], cwd=work, env=env))
                self.assertIn("--array=0-%d" % (n - 1), body)
                os.remove(os.path.join(work, "study.csv"))
                for i in range(n):  # what Slurm does: the script once per array index
                    r = subprocess.run(["bash", name], cwd=work, env=dict(env, SLURM_ARRAY_TASK_ID=str(i)),
                                       capture_output=True, text=True, timeout=300)
                    self.assertEqual(r.returncode, 0, r.stderr)
                r = subprocess.run(["murmur", "sweep", "merge", "study.ini"], cwd=work, env=env, capture_output=True,
                                   text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(read(os.path.join(work, "study.csv")), table)
                shutil.rmtree(os.path.join(work, "study.csv.parts"))
            elif kind == "python" and name and py:
                r = subprocess.run([py, name], cwd=work, capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("polarisation", r.stdout + r.stderr + "polarisation")
                self.assertGreater(os.path.getsize(os.path.join(work, "study.png")), 1000)
        self.assertIsNotNone(table, "docs/sweeps.md ran no sweep")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
