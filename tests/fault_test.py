#!/usr/bin/env python3
"""Faults in batch mode, through the real program (stdlib only): a CSV state that changes under the
reader, a reader that goes away (SIGPIPE), allocation failure for huge counts, a full disk, and
outputs that must stay whole or absent. tests/cli_test.py has the plain bad inputs; these are the
cases where the world changes under murmur. Every failure must be: exit status 2, one line on stderr
starting "murmur: ", no new or half-written output file, and an older output file left untouched.

usage: fault_test.py MURMUR
Environment: MURMUR_TEST_QUICK=1 makes the large inputs smaller; MURMUR_VALGRIND="valgrind ARGS" runs
every murmur under that command (both set by `meson test --setup valgrind`).
"""
import os
import re
import resource
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
import unittest

from tempcase import TempCase

MURMUR = None
CMD = None  # [valgrind args...] + [MURMUR]
VALGRIND = shlex.split(os.environ.get("MURMUR_VALGRIND", ""))
QUICK = os.environ.get("MURMUR_TEST_QUICK", "") not in ("", "0")
HEADER = b"kind,x,y,z,vx,vy,vz,perch\n"


def rows_of(data):
    """The lines of a CSV murmur wrote, without its '#' lines (how it was made)."""
    return [l for l in data.splitlines() if not l.startswith(b"#")]


def boid_lines(n, seed=1):
    """n complete CSV lines with varied numbers (and some perching boids)."""
    out = []
    for i in range(n):
        k = (i * 7919 + seed) % 1000
        out.append(b"boid,%.6f,%.6f,%.6f,%.5f,%.5f,%.5f,%d\n" % (
            k * 0.11 - 50, (k * 0.07) % 60, 50 - k * 0.09, (k % 13) - 6.0, (k % 7) - 3.0, (k % 11) - 5.0,
            0 if k % 5 else 1 + k % 50))
    return b"".join(out)


def is_asan(path):
    with open(path, "rb") as fp:
        return b"__asan_init" in fp.read()


def under_valgrind():
    return bool(VALGRIND)


class Fault(TempCase):

    def run_murmur(self, args, timeout=300, **kw):
        return subprocess.run([*CMD, *args], capture_output=True, timeout=timeout, **kw)

    def assert_fails(self, r, needle, args=None):
        err = r.stderr.decode(errors="replace")
        # AddressSanitizer's own note when its allocator returns NULL (only in sanitizer builds)
        err = "".join(l for l in err.splitlines(True) if not re.match(r"==\d+==WARNING: AddressSanitizer failed to allocate", l))
        self.assertEqual(r.returncode, 2, "%s: exit %d, stderr %r" % (args, r.returncode, err))
        lines = err.strip("\n").split("\n")
        self.assertEqual(len(lines), 1, "expected one line, got %r" % err)
        self.assertTrue(lines[0].startswith("murmur: "), lines[0])
        self.assertIn(needle, lines[0])
        return lines[0]

    def assert_no_temp_files(self):
        left = [f for f in os.listdir(self.dir) if ".tmp" in f]
        self.assertEqual(left, [], "temporary files left behind")

    # ------------------------------------------------------------ a CSV that changes under the reader

    def feed_fifo(self, chunks, pause=0.05):
        """Create a FIFO and a thread that writes chunks into it with pauses, then closes it."""
        fifo = self.p("state.fifo")
        os.mkfifo(fifo)

        def writer():
            try:
                with open(fifo, "wb", buffering=0) as fp:
                    for c in chunks:
                        fp.write(c)
                        time.sleep(pause)
            except BrokenPipeError:
                pass

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        return fifo, t

    def test_fifo_fed_slowly_reads_everything(self):
        body = boid_lines(120)
        data = HEADER + body
        # chunks that split lines (and numbers) across writes
        chunks = [data[i:i + 37] for i in range(0, len(data), 37)]
        fifo, t = self.feed_fifo(chunks, pause=0.002)
        r = self.run_murmur(["--init", fifo, "--steps", "0", "--export", self.p("out.csv")])
        t.join(30)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.p("out.csv"), "rb") as fp:
            rows = rows_of(fp.read())[1:]
        self.assertEqual(len(rows), 120)
        # the state is the one that was fed: same numbers (the file has 6 decimals, %.9g reads back)
        first_in = body.splitlines()[0].split(b",")
        first_out = rows[0].split(b",")
        for a, b in zip(first_in[1:], first_out[1:]):
            self.assertAlmostEqual(float(a), float(b), places=4)

    def test_fifo_appended_while_reading(self):
        # the writer stops for a while after 50 lines (the reader waits), then appends 70 more
        fifo, t = self.feed_fifo([HEADER + boid_lines(50), boid_lines(70, seed=2)], pause=0.5)
        r = self.run_murmur(["--init", fifo, "--steps", "1", "--export", self.p("out.csv")])
        t.join(30)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.p("out.csv"), "rb") as fp:
            self.assertEqual(len(rows_of(fp.read())), 121)

    def test_fifo_cut_mid_line(self):
        # a writer that dies in the middle of a line: the last line reads as a number ("0,0,0,1" of
        # "0,0,0,12"), so only the missing line end tells; murmur must not take it as the state
        for cut, needle in ((b"boid,1,2,3,0,0,0,1", "cut short"), (b"boid,1.5,2", "cut short"),
                            (b"boid,1,2,3,0,0,0,12\nbo", "cut short")):
            with self.subTest(cut=cut):
                fifo, t = self.feed_fifo([HEADER + boid_lines(30), cut], pause=0.2)
                old = self.p("out.csv")
                with open(old, "wb") as fp:
                    fp.write(b"old contents\n")
                r = self.run_murmur(["--init", fifo, "--steps", "5", "--export", old, "--metrics",
                                     self.p("m.csv")])
                t.join(30)
                line = self.assert_fails(r, needle)
                self.assertIn(fifo, line)
                with open(old, "rb") as fp:
                    self.assertEqual(fp.read(), b"old contents\n", "an older output was touched")
                self.assertFalse(os.path.exists(self.p("m.csv")))
                self.assert_no_temp_files()
                os.unlink(fifo)
                os.unlink(old)

    def test_fifo_garbage_appended(self):
        fifo, t = self.feed_fifo([HEADER + boid_lines(40), b"boid,1,2,3,0,0,0,0\n\x00\x01\x02\xff\n"], pause=0.2)
        r = self.run_murmur(["--init", fifo, "--steps", "5", "--export", self.p("out.csv")])
        t.join(30)
        self.assert_fails(r, "state.fifo:43")
        self.assertEqual(os.listdir(self.dir), ["state.fifo"])

    def test_large_file_truncated_while_read(self):
        n = 60000 if QUICK else 600000
        path = self.p("big.csv")
        block = boid_lines(1000)
        with open(path, "wb") as fp:
            fp.write(HEADER)
            for _ in range(n // 1000):
                fp.write(block)
        size = os.path.getsize(path)
        cut = size * 2 // 5 + 17  # inside a line
        outcomes = []
        for attempt in range(3):
            with open(path, "r+b") as fp:  # whole again
                fp.seek(0, os.SEEK_END)
                if fp.tell() < size:
                    fp.seek(0)
                    fp.write(HEADER)
                    for _ in range(n // 1000):
                        fp.write(block)
            out = self.p("out.csv")
            proc = subprocess.Popen([*CMD, "--init", path, "--steps", "0", "--export", out],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(0.02 * attempt)
            os.truncate(path, cut)
            _, err = proc.communicate(timeout=600)
            r = subprocess.CompletedProcess(proc.args, proc.returncode, b"", err)
            if proc.returncode == 0:
                # read it all before the cut: a whole, consistent state
                with open(out, "rb") as fp:
                    self.assertEqual(len(rows_of(fp.read())), n + 1)
                os.unlink(out)
                outcomes.append("whole")
            else:
                self.assert_fails(r, "big.csv:")
                self.assertFalse(os.path.exists(out))
                outcomes.append("cut")
            self.assert_no_temp_files()
        self.assertIn("cut", outcomes, "the truncation never raced the reader: %s" % outcomes)

    # ------------------------------------------------------------ SIGPIPE: the reader goes away

    def closed_pipe(self, args):
        proc = subprocess.Popen([*CMD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.read(10)  # like `| head -c 10`
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
        proc.wait(timeout=300)
        self.assertEqual(len(first), 10)
        self.assertNotEqual(proc.returncode, -signal.SIGPIPE, "killed by SIGPIPE instead of reporting it")
        return subprocess.CompletedProcess(proc.args, proc.returncode, b"", err)

    def test_sigpipe_export(self):
        r = self.closed_pipe(["--steps", "1", "--boids", "20000", "--export", "/dev/stdout"])
        self.assertIn("Broken pipe", self.assert_fails(r, "/dev/stdout"))

    def test_sigpipe_metrics(self):
        r = self.closed_pipe(["--steps", "200000", "--boids", "10", "--metrics", "/dev/stdout",
                              "--export", self.p("out.csv")])
        self.assertIn("Broken pipe", self.assert_fails(r, "/dev/stdout"))
        self.assertEqual(os.listdir(self.dir), [])

    def test_sigpipe_through_shell_head(self):
        r = subprocess.run(["bash", "-c", '"$@" --steps 1 --boids 20000 --export /dev/stdout | head -c 10 >/dev/null;'
                            ' echo "status ${PIPESTATUS[0]}" >&2', "fault_test", *CMD], capture_output=True, timeout=300)
        err = r.stderr.decode().strip().split("\n")
        self.assertEqual(err[-1], "status 2", err)
        self.assertEqual(len(err), 2, err)
        self.assertIn("Broken pipe", err[0])

    # ------------------------------------------------------------ allocation failure

    def test_huge_counts_fail_cleanly(self):
        env = dict(os.environ)
        limit = None
        if is_asan(MURMUR):
            # ASan reserves terabytes of shadow: no address-space limit; its allocator refuses instead
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":allocator_may_return_null=1:max_allocation_size_mb=256"
        elif not under_valgrind():
            limit = 1 << 30  # 1 GiB of address space; 50M boids need about 3 GiB
        # (under valgrind its allocator has no such limit: valgrind's own is the check, see below)

        def limit_as():
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        cases = [(["--steps", "1", "--boids", "50000000"], "50000000"),
                 (["--steps", "1", "--set", "boids=40000000", "--set", "predators=1000"], "40000000")]
        if under_valgrind():
            cases = []  # 3 GiB through memcheck takes minutes; the library path is the same
        for args, needle in cases:
            with self.subTest(args=args):
                r = self.run_murmur([*args, "--export", self.p("o.csv"), "--metrics", self.p("m.csv")], env=env,
                                    preexec_fn=limit_as)
                line = self.assert_fails(r, needle, args)
                self.assertIn("memory", line)
                self.assertEqual(os.listdir(self.dir), [])
        # a state file with more boids than memory allows: fails while reading (28 MiB of agents
        # under a 40 MiB address space), with one line
        if not under_valgrind():
            path = self.p("many.csv")
            with open(path, "wb") as fp:
                fp.write(HEADER + b"boid,1,2,3,0,0,0,0\n" * 1000000)

            def tiny():
                if limit:
                    resource.setrlimit(resource.RLIMIT_AS, (40 << 20, 40 << 20))
            env2 = dict(env)
            if is_asan(MURMUR):
                env2["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":allocator_may_return_null=1:max_allocation_size_mb=16"
            r = self.run_murmur(["--init", path, "--steps", "1", "--export", self.p("o.csv")], env=env2,
                                preexec_fn=tiny)
            self.assert_fails(r, "memory")
            self.assertEqual(sorted(os.listdir(self.dir)), ["many.csv"])

    # ------------------------------------------------------------ full disk and whole-or-absent outputs

    def test_dev_full(self):
        for args, needle in (
            (["--export", "/dev/full"], "/dev/full"),
            (["--metrics", "/dev/full"], "/dev/full"),
            (["--metrics", "/dev/full", "--export", "E"], "/dev/full"),
            (["--metrics", "M", "--export", "/dev/full"], "/dev/full"),
        ):
            with self.subTest(args=args):
                args = [self.p(a) if len(a) == 1 else a for a in args]
                r = self.run_murmur(["--steps", "20", "--boids", "500", *args])
                self.assertIn("No space left", self.assert_fails(r, needle, args))
                self.assertEqual(os.listdir(self.dir), [], "%s left files" % args)

    def test_failed_export_keeps_device_metrics(self):
        # metrics written straight to a FIFO (not renamed into place): a failed export must not remove
        # the FIFO (before the fix murmur called remove() on it; with /dev/null that deletes /dev/null)
        fifo = self.p("metrics.fifo")
        os.mkfifo(fifo)
        got = []

        def reader():
            with open(fifo, "rb") as fp:
                got.append(fp.read())

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        r = self.run_murmur(["--steps", "10", "--boids", "100", "--metrics", fifo, "--export", "/dev/full"])
        t.join(30)
        self.assert_fails(r, "/dev/full")
        self.assertTrue(os.path.exists(fifo) and stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was removed")
        self.assertEqual(len(rows_of(got[0])), 12)

    def test_export_to_fifo(self):
        # a FIFO export is written once, whole (no probe that opens and closes it first)
        fifo = self.p("state.fifo")
        os.mkfifo(fifo)
        got = []

        def reader():
            with open(fifo, "rb") as fp:
                got.append(fp.read())
            with open(fifo, "rb") as fp:  # a second open would catch a second writer
                got.append(fp.read())

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        r = self.run_murmur(["--steps", "3", "--boids", "200", "--export", fifo])
        self.assertEqual(r.returncode, 0, r.stderr)
        t.join(2)
        self.assertEqual(len(rows_of(got[0])), 201, "the reader did not get the whole state first")
        # unblock the second open if it is still waiting
        if t.is_alive():
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
            t.join(10)

    def test_old_output_survives_failures(self):
        exp, met = self.p("state.csv"), self.p("metrics.csv")
        for path in (exp, met):
            with open(path, "wb") as fp:
                fp.write(b"precious\n")
        bad = self.p("bad.csv")
        with open(bad, "wb") as fp:
            fp.write(HEADER + b"boid,1,2,3,0,0,0,0\nboid,1,2\n")
        for args in (["--init", bad, "--steps", "5"], ["--steps", "5", "--set", "dt=0"],
                     ["--steps", "5", "--boids", "100", "--params", self.p("missing")]):
            with self.subTest(args=args):
                r = self.run_murmur([*args, "--export", exp, "--metrics", met])
                self.assert_fails(r, "", args)
                for path in (exp, met):
                    with open(path, "rb") as fp:
                        self.assertEqual(fp.read(), b"precious\n")
        # stopped by SIGTERM while running: the outputs are replaced, whole, by the state of the last
        # finished tick (exit 143); no temp files
        proc = subprocess.Popen([*CMD, "--steps", "100000000", "--boids", "2000", "--export", exp, "--metrics", met],
                                stderr=subprocess.PIPE)
        time.sleep(3.0 if under_valgrind() else 1.0)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 143, err)
        self.assertIn(b"stopped by SIGTERM", err)
        with open(exp, "rb") as fp:
            self.assertEqual(len(rows_of(fp.read())), 2001)
        with open(met, "rb") as fp:
            self.assertTrue(rows_of(fp.read())[0].startswith(b"tick,"))
        self.assert_no_temp_files()
        # a second signal stops at once: nothing written, the older files untouched, no temp files
        for path in (exp, met):
            with open(path, "wb") as fp:
                fp.write(b"precious\n")
        proc = subprocess.Popen([*CMD, "--steps", "100000000", "--boids", "200000", "--export", exp, "--metrics", met],
                                stderr=subprocess.PIPE)
        time.sleep(4.0 if under_valgrind() else 1.5)
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGHUP)  # another signal: two of one kind may arrive as one
        _, err = proc.communicate(timeout=120)
        self.assertIn(proc.returncode, (129, 143), err)
        for path in (exp, met):
            with open(path, "rb") as fp:
                self.assertEqual(fp.read(), b"precious\n")
        self.assert_no_temp_files()


if __name__ == "__main__":
    MURMUR = os.path.abspath(sys.argv[1])
    CMD = [*VALGRIND, MURMUR, "--preset", "classic"]  # the tests are written for the classic flock
    unittest.main(argv=[sys.argv[0], "-v"])
