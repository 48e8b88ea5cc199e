#!/usr/bin/env python3
"""murmur's adversarial round (issue 21, item 10): several hundred hostile runs of the real program,
each with an expected outcome, classified as passed / crash / hang / loss / wrong status / unclear.

usage: adversarial.py [--quick] [--jobs N] [--filter REGEX] [--list] [--keep]
                      [--table FILE] [--json FILE] MURMUR [MURMUR...]

Each MURMUR is a murmur executable (a release build and a sanitizer build, say); every case runs
against each one. The last line of the output is always

    N cases: P passed, C crashes, H hangs, L losses, S wrong statuses, U unclear

and the exit status is 1 when anything but "passed" is non-zero. --table FILE writes the results as
a generated section of FILE (docs/reliability.md), replacing an earlier one. Python 3 stdlib only.

The outcomes, first match wins:
  crash         killed by a signal the case did not send, or a sanitizer report on stderr
  hang          over the case's time limit (or not stopped in time after a signal)
  loss          a pre-existing file changed or removed, a device or link replaced, a new file left
                behind by a failed run (partial output, temporary file), an expected output missing
                or incomplete
  wrong status  the exit status differs from the expected one
  unclear       the message is not exactly one line starting "murmur: " naming the bad value
A case is a row of the tables below (see Case): args, the expected status, the words the error line
must contain (needles), the files made beforehand, the outputs a good run creates and checks on them.

Cases that write to /dev run inside a private mount namespace with a private /dev (tmpfs with the
usual nodes), so a bug cannot replace the machine's /dev/full or /dev/stdout; the real /dev is also
checked (and repaired) before and after the round. Environment: MURMUR_VALGRIND="valgrind ARGS" runs
every murmur under it (limits 10x, address-space cases skipped), as in tests/fault_test.py.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VALGRIND = shlex.split(os.environ.get("MURMUR_VALGRIND", ""))
HEADER = b"kind,x,y,z,vx,vy,vz,perch\n"
OUTCOMES = ("passed", "crash", "hang", "loss", "wrong status", "unclear")
SAN_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:")
STOP_RE = re.compile(r"(?i)stop|interrupt|signal")
LOST_RE = re.compile(r"(?i)no output|not written|discard|lost|cannot write|error")
CLASSES = [
    ("cli", "command-line flags: bad values, modes, repeats, unknown flags"),
    ("params", "parameters: every parameter of --list-params out of range / non-finite / garbage by --set and by file, parameter files of every kind"),
    ("csv", "CSV state files (--init): bad values in every column, cut and binary files, devices, pipes, FIFOs"),
    ("outputs", "output paths: printf patterns, devices, links, FIFOs, long names, outputs that commit together"),
    ("signals", "SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGKILL to batch runs and recordings"),
    ("limits", "resource limits: RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_AS, RLIMIT_STACK"),
    ("env", "environment variables"),
    ("crowded", "crowded states: coincident boids, tiny boxes, extreme coordinates"),
]


# ------------------------------------------------------------------------------------------ cases

class Case:
    """One hostile run and what must happen.

    name      unique, short
    cls       one of CLASSES
    args      murmur's arguments (run in the case's own empty folder, so relative names land there)
    status    expected exit status: an int or a tuple of allowed ones (0, 2, 130 ...; -N = killed by
              signal N, only for a signal the case sends itself)
    needles   words the one error line must contain (when the status is 2); [] accepts any line
    files     {name: bytes} made before the run (inputs and older outputs); all must stay unchanged
              unless named in `creates`
    setup     f(ctx) for FIFOs, links, ptys ...; ctx.later(f) registers a cleanup
    creates   names a good run must create (or replace); checks run on them
    check     f(ctx) -> None or a problem (an expected output incomplete: counted as loss)
    keep      new names allowed after a failed or stopped run (kept PNG frames ...; regexes)
    stdin     None (/dev/null), ("file", bytes), ("pipe", bytes), ("hold", bytes): a pipe kept open
    env/unset environment changes; limits {"fsize": n, "nofile": n, "as": n, "stack": n}
    driver    f(ctx, proc) for signal cases: sends signals, records them in ctx.sent
    shell     a bash script run instead of murmur; "$@" is the murmur command (use `exec "$@" ...`)
    timeout   seconds (multiplied under sanitizers and valgrind)
    sandbox   run in a private /dev (default: when an argument names /dev/)
    release   False: skipped in sanitizer builds and under valgrind (address-space limits)
    quick     part of --quick
    """

    def __init__(self, name, cls, args, status=2, needles=(), files=None, setup=None, creates=(), check=None,
                 keep=(), stdin=None, env=None, unset=(), limits=None, driver=None, shell=None, timeout=10,
                 sandbox=None, release=True, quick=False, stop_line=False, note=""):
        assert cls in dict(CLASSES), cls
        self.name, self.cls, self.args = name, cls, [str(a) for a in args]
        self.status = status if isinstance(status, tuple) else (status,)
        self.needles = [needles] if isinstance(needles, str) else list(needles)
        self.files = files or {}
        self.setup, self.creates, self.check, self.keep = setup, list(creates), check, list(keep)
        self.stdin, self.env, self.unset, self.limits = stdin, env or {}, list(unset), limits or {}
        self.driver, self.shell, self.timeout = driver, shell, timeout
        self.sandbox = sandbox if sandbox is not None else any("/dev/" in a for a in self.args + [shell or ""])
        self.release_only = not release
        self.quick, self.stop_line, self.note = quick, stop_line, note


class Ctx:
    def __init__(self, base, exe):
        self.base = base
        self.dir = os.path.join(base, "work")
        self.io = os.path.join(base, "io")
        os.mkdir(self.dir)
        os.mkdir(self.io)
        self.exe = exe
        self.sent = set()
        self.cleanups = []
        self.notes = []
        self.signal_to_exit = None

    def p(self, name):
        return os.path.join(self.dir, name)

    def later(self, f):
        self.cleanups.append(f)

    def read(self, name):
        with open(self.p(name), "rb") as fp:
            return fp.read()

    def stdout(self):
        with open(os.path.join(self.io, "stdout"), "rb") as fp:
            return fp.read()


# ---------------------------------------------------------------- checks on outputs (None = fine)

def data_lines(blob):
    return [l for l in blob.decode(errors="replace").splitlines() if not l.startswith("#")]


def parse_state(blob, n=None, kind_counts=None):
    lines = data_lines(blob)
    # columns may be added at the end (RULES.md): roll, the bank angle, since issue 27
    head = HEADER.decode().strip()
    if not lines or not (lines[0] == head or lines[0].startswith(head + ",")):
        return "state header missing: %r" % (lines[:1],)
    rows = lines[1:]
    for i, r in enumerate(rows):
        f = r.split(",")
        if len(f) < 8 or f[0] not in ("boid", "predator"):
            return "state row %d malformed: %r" % (i + 1, r[:80])
        for v in f[1:7]:
            try:
                x = float(v)
            except ValueError:
                return "state row %d: %r is not a number" % (i + 1, v)
            if x != x or x in (float("inf"), float("-inf")):
                return "state row %d: non-finite value %r" % (i + 1, v)
    if n is not None:
        boids = sum(1 for r in rows if r.startswith("boid,"))
        if boids != n:
            return "state has %d boid rows, expected %d" % (boids, n)
    return None


def state(name, n=None):
    def check(ctx):
        if not os.path.exists(ctx.p(name)):
            return "%s missing" % name
        return parse_state(ctx.read(name), n)
    check.__doc__ = "%s: a whole state%s" % (name, "" if n is None else " of %d boids" % n)
    return check


def stdout_state(n):
    def check(ctx):
        return parse_state(ctx.stdout(), n)
    return check


def metrics_rows(blob, ticks=None, at_least=0):
    lines = data_lines(blob)
    if not lines or not lines[0].startswith("tick,"):
        return "metrics header missing", None
    rows = lines[1:]
    for i, r in enumerate(rows):
        f = r.split(",")
        if len(f) != len(lines[0].split(",")):
            return "metrics row %d incomplete: %r" % (i + 1, r[:80]), None
        if f[0] != str(i):
            return "metrics row %d has tick %r, expected %d" % (i + 1, f[0], i), None
    if ticks is not None and len(rows) != ticks + 1:
        return "metrics has %d rows, expected ticks 0..%d" % (len(rows), ticks), None
    if len(rows) < at_least:
        return "metrics has %d rows, expected at least %d" % (len(rows), at_least), None
    return None, len(rows) - 1


def metrics(name, ticks=None, at_least=1):
    def check(ctx):
        if not os.path.exists(ctx.p(name)):
            return "%s missing" % name
        return metrics_rows(ctx.read(name), ticks, at_least)[0]
    return check


def png(name):
    def check(ctx):
        if not os.path.exists(ctx.p(name)):
            return "%s missing" % name
        b = ctx.read(name)
        if not b.startswith(b"\x89PNG\r\n\x1a\n") or b"IEND" not in b[-16:]:
            return "%s is not a whole PNG (%d bytes)" % (name, len(b))
        return None
    return check


def frames_of(pattern_re, at_least=1):
    def check(ctx):
        got = [f for f in os.listdir(ctx.dir) if re.fullmatch(pattern_re, f)]
        if len(got) < at_least:
            return "expected >= %d frames matching %s, got %d" % (at_least, pattern_re, len(got))
        for f in got:
            problem = png(f)(ctx)
            if problem:
                return problem
        return None
    return check


def video(name, at_least=1):
    def check(ctx):
        if not os.path.exists(ctx.p(name)):
            return "%s missing" % name
        if not shutil.which("ffprobe"):
            return None
        r = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames", "-of", "csv=p=0", ctx.p(name)], capture_output=True, text=True,
                           timeout=60)
        try:
            n = int(r.stdout.strip().split("\n")[0])
        except ValueError:
            return "ffprobe cannot read %s: %s" % (name, (r.stderr or r.stdout).strip()[:200])
        return None if n >= at_least else "%s has %d frames" % (name, n)
    return check


def stdout_has(text):
    def check(ctx):
        return None if text.encode() in ctx.stdout() else "stdout lacks %r" % text
    return check


def all_of(*checks):
    def check(ctx):
        for c in checks:
            problem = c(ctx)
            if problem:
                return problem
        return None
    return check


def is_link_to(name, target):
    def check(ctx):
        p = ctx.p(name)
        if not os.path.islink(p) or os.readlink(p) != target:
            return "%s is no longer a link to %s" % (name, target)
        return None
    return check


# ------------------------------------------------------------------------- setups

def release_fifo(path, flags, t):
    """Open the FIFO's other end once (flags: O_RDONLY or O_WRONLY), so that thread t, if it still waits
    in open(), goes on; then join it."""
    try:
        os.close(os.open(path, flags | os.O_NONBLOCK))
    except OSError:
        pass
    t.join(5)


def fifo_with(name, data=None, hold=False, endless=None):
    """A FIFO `name`; a thread writes data (or endless copies of a chunk) into it, then closes it
    unless hold. data None: nobody ever opens it for writing."""
    def setup(ctx):
        path = ctx.p(name)
        os.mkfifo(path)
        if data is None and endless is None:
            return
        stop = threading.Event()

        def writer():
            try:
                fd = os.open(path, os.O_WRONLY)
            except OSError:
                return
            try:
                if endless is not None:
                    sent = 0
                    while not stop.is_set() and sent < (512 << 20):
                        os.write(fd, endless)
                        sent += len(endless)
                else:
                    os.write(fd, data)
                    while hold and not stop.is_set():
                        time.sleep(0.05)
            except OSError:
                pass
            finally:
                os.close(fd)

        t = threading.Thread(target=writer, daemon=True)
        t.start()

        def done():
            stop.set()
            release_fifo(path, os.O_RDONLY, t)  # a writer still waiting in open()
        ctx.later(done)
    return setup


def fifo_reader(name, into):
    """A FIFO with a reader thread that keeps what it read in into[0]."""
    def setup(ctx):
        path = ctx.p(name)
        os.mkfifo(path)
        box = []

        def reader():
            with open(path, "rb") as fp:
                box.append(fp.read())

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        ctx.fifo_data = box

        ctx.later(lambda: release_fifo(path, os.O_WRONLY, t))  # a reader still waiting in open()
    return setup


def fifo_got(parse):
    """A check on what the FIFO reader (fifo_reader) got: parse(bytes) -> None or the problem."""
    def check(ctx):
        deadline = time.time() + 5
        while not ctx.fifo_data and time.time() < deadline:
            time.sleep(0.05)
        if not ctx.fifo_data:
            return "the FIFO reader got nothing"
        return parse(ctx.fifo_data[0])
    return check


def fifo_got_state(n):
    return fifo_got(lambda data: parse_state(data, n))


def fifo_got_metrics(ticks):
    return fifo_got(lambda data: metrics_rows(data, ticks)[0])


def symlink(name, target):
    def setup(ctx):
        os.symlink(target, ctx.p(name))
    return setup


def mkdirs(*names):
    def setup(ctx):
        for n in names:
            os.makedirs(ctx.p(n), exist_ok=True)
    return setup


def big_file(name, line, size):
    """A file of `size` bytes or more made of copies of `line` (after the CSV header for .csv)."""
    def setup(ctx):
        with open(ctx.p(name), "wb") as fp:
            if name.endswith(".csv"):
                fp.write(HEADER)
            block = line * max(1, (1 << 20) // len(line))
            written = 0
            while written < size:
                fp.write(block)
                written += len(block)
    return setup


def endless_line_file(name, size, prefix=b""):
    def setup(ctx):
        with open(ctx.p(name), "wb") as fp:
            fp.write(prefix)
            chunk = b"7" * (1 << 20)
            for _ in range(size >> 20):
                fp.write(chunk)
    return setup


def pty_arg(flag):
    """Replace the placeholder PTY in args with the slave side of a fresh pseudo-terminal."""
    def setup(ctx):
        master, slave = os.openpty()
        ctx.pty_path = os.ttyname(slave)
        ctx.later(lambda: (os.close(master), os.close(slave)))
    return setup


def combine(*setups):
    def setup(ctx):
        for s in setups:
            s(ctx)
    return setup


# ------------------------------------------------------------------------- signal drivers

def wait_for_new(ctx, before, limit=4.0):
    """Wait until the run makes something in its folder (its outputs are open), at most limit s."""
    t0 = time.time()
    while time.time() - t0 < limit:
        if set(os.listdir(ctx.dir)) - before:
            return True
        time.sleep(0.02)
    return False


def send(sigs, delay=0.4, group=False, wait_files=True, gap=0.05, then_within=5.0):
    """Send each signal of sigs (after the run opened its outputs, plus delay); the run must then end
    within then_within seconds (else: hang)."""
    def driver(ctx, proc):
        before = set(os.listdir(ctx.dir))
        if wait_files:
            wait_for_new(ctx, before)
        time.sleep(delay)
        for s in sigs:
            ctx.sent.add(s)
            try:
                if group:
                    os.killpg(proc.pid, s)
                else:
                    proc.send_signal(s)
            except ProcessLookupError:
                pass
            time.sleep(gap)
        ctx.signal_to_exit = then_within
    return driver


# ------------------------------------------------------------------------- the tables

BATCH = ["--steps", "1", "--boids", "5"]
HEAD = ["--headless", "--frames", "1", "--size", "64x64", "--boids", "5"]


def head(frames):
    """HEAD with another frame count (a flag may be given once)."""
    return ["--headless", "--frames", frames, "--size", "64x64", "--boids", "5"]
PRECIOUS = b"precious older output\n"
OLD = {"old-e.csv": PRECIOUS, "old-m.csv": PRECIOUS}
OLD_OUT = ["--export", "old-e.csv", "--metrics", "old-m.csv"]   # on a failed run both stay as they were
VALID_STATE = HEADER + b"".join(b"boid,%d,40,%d,1,0,0,0\n" % (i, -i) for i in range(7))
CAMPATH = b"0 0 40 60 0 40 0\n1 10 40 60 0 40 0 50\n"


def list_params(exe):
    r = subprocess.run([*VALGRIND, exe, "--list-params"], capture_output=True, text=True, timeout=120)
    params = []
    for line in r.stdout.splitlines()[1:]:
        cols = re.split(r"\s{2,}", line.strip())
        if len(cols[0].split()) == 2:  # a name longer than its column runs into the type after one space
            cols = cols[0].split() + cols[1:]
        if len(cols) < 6:
            continue
        params.append({"name": cols[0], "type": cols[1], "default": cols[2], "range": cols[4]})
    return params


def fnum(x):
    return ("%.17g" % x) if x != int(x) or abs(x) >= 1e15 else str(int(x))


def bad_values(p):
    """(label, text) pairs that must be refused for parameter p (from --list-params)."""
    t, rng = p["type"], p["range"]
    out = []
    if t == "float":
        m = re.match(r"([\[(])\s*([^,]+),\s*([^\]\)]+)([\])])", rng)
        if m:
            lo, hi = float(m.group(2)), float(m.group(3))
            out.append(("below", fnum(lo) if m.group(1) == "(" else fnum(lo - max(1.0, abs(lo)))))
            out.append(("above", fnum(hi) if m.group(4) == ")" else fnum(hi + max(1.0, abs(hi)))))
        out += [("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("1e999", "1e999"), ("empty", ""),
                ("garbage", "12abc")]
    elif t == "int":
        m = re.match(r"(-?\d+) \.\. (-?\d+)", rng)
        if m:
            out.append(("below", str(int(m.group(1)) - 1)))
            out.append(("above", str(int(m.group(2)) + 1)))
        out += [("fraction", "1.5"), ("garbage", "abc"), ("empty", ""), ("1e999", "1e999")]
    elif t == "seed":
        out += [("negative", "-1"), ("2^64", "18446744073709551616"), ("garbage", "abc"), ("empty", "")]
    elif t == "vec3":
        out += [("two", "1,2"), ("nan", "1,2,nan"), ("inf", "1,inf,2"), ("-inf", "-inf,0,0"),
                ("garbage", "a,b,c"), ("four", "1,2,3,4"), ("above", "2e6,0,0"), ("empty", "")]
    elif t == "switch":
        out += [("maybe", "maybe"), ("empty", ""), ("two", "2")]
    elif t == "enum":
        out += [("bogus", "bogus"), ("empty", "")]
    return out


def param_cases(params):
    cases = []
    for i, p in enumerate(params):
        name = p["name"]
        for j, (label, val) in enumerate(bad_values(p)):
            needles = [name] + (["'%s'" % val] if val else [])
            q = (i < 3 and j < 2) or (p["type"] == "float" and label == "nan" and name in ("dt", "cohesion"))
            cases.append(Case("set %s %s" % (name, label), "params",
                              ["--steps", "1", "--set", "%s=%s" % (name, val), *OLD_OUT], needles=needles, files=OLD,
                              quick=q))
            if label in ("below", "above", "nan", "inf", "garbage", "two", "maybe", "bogus", "negative"):
                cases.append(Case("file %s %s" % (name, label), "params",
                                  ["--steps", "1", "--params", "p.txt", *OLD_OUT],
                                  needles=["p.txt:2", name], files={**OLD, "p.txt": b"# bad\n%s = %s\n" % (
                                      name.encode(), val.encode())}, quick=q and label == "nan"))
    return cases


def cli_cases():
    C = []
    # flag: (valid value, [bad values]); view flags are tried with --headless
    batch_flags = {
        "--steps": ("1", ["abc", "-5", "1.5", "", "99999999999999999999", "5x", "nan", "0x10"]),
        "--boids": ("5", ["-1", "abc", "1e12", "50000001", "", "1.5"]),
        "--seed": ("3", ["-1", "abc", "18446744073709551616", ""]),
        "--threads": ("1", ["0", "-1", "abc", "1.5", ""]),
        "--preset": ("classic", ["quick", "", "%s%n%d"]),
        "--at": ("1:cohesion=1", ["x:scatter=on", ("5:seed=3", "seed"), ("5:nothing=3", "nothing"), "-1:cohesion=1",
                                  ("5:view_radius=nan", "nan"), "99999999999999999999:cohesion=1", "5", ("", "--at"), "5:cohesion",
                                  "%s:%n=1"]),
        "--set": ("cohesion=1", [("nonsense=1", "nonsense"), "view_radius", ("=5", "''"), ("", "name=value"),
                                ("%s%n=1", "%s%n"), ("%5$s=2", "%5$s")]),
    }
    view_flags = {
        "--size": ("64x64", ["10x10", "0x0", "64", "axb", "64x", "x64", "100000x100000", "-64x64", "64x64x64", ""]),
        "--frames": ("1", ["-1", "abc", "1.5", "99999999999999999999", ""]),
        "--keys": ("P", ["99999999999999999999:P", "nosuchkey", "10:", ":P", "%s%n"]),
        "--fps": ("30", ["0", "-1", "nan", "inf", "abc", "1e999"]),
        "--camera": ("fixed", ["spin", "orbit:", "orbit:abc", "orbit:-1", "orbit:nan", "%n"]),
        "--hud": ("off", ["maybe", ""]),
        "--vsync": ("off", ["maybe", ""]),
        "--ticks-per-frame": ("1", ["0", "2.5", "-1", "abc"]),
        "--speed": ("1", ["-1", "0", "inf", "nan"]),
        "--warmup": ("1", ["-3", "abc", "1.5"]),
        "--crf": ("18", ["64", "-1", "x", "nan"]),
        "--x264-preset": ("fast", ["fastest", "%s"]),
        "--camera-pos": ("0,40,60", ["1,2", "1,2,nan", "a,b,c", "1,2,3,4", "1e999,0,0"]),
        "--look-at": ("0,40,0", ["1,2", "inf,0,0", "a,b,c", "1,2,3,4"]),
        "--fov": ("45", ["0", "171", "nan", "-1", "abc"]),
        "--screenshot-size": ("64x64", ["8x8", "0x0", "abc", "99999x99999"]),
    }
    for flag, (_, bads) in batch_flags.items():
        for k, v in enumerate(bads):
            v, needle = v if isinstance(v, tuple) else (v, v or "''")
            args = [*BATCH, *OLD_OUT]
            if flag in ("--steps", "--boids"):
                args = ["--steps", "1", "--boids", "5", *OLD_OUT]
                args[args.index(flag) + 1] = v
            else:
                args += [flag, v]
            C.append(Case("%s %r" % (flag, v), "cli", args, needles=[needle], files=OLD, quick=k == 0 and flag in ("--steps", "--set")))
    for flag, (_, bads) in view_flags.items():
        for k, v in enumerate(bads):
            extra = ["--screenshot", "s.png"] if flag == "--screenshot-size" else []
            args = [*HEAD, *extra, flag, v]
            if flag in ("--size", "--frames"):
                args = [*HEAD, *extra]
                args[args.index(flag) + 1] = v
            # --keys and --vsync work only in the viewer (a display): headless refuses them by name
            C.append(Case("%s %r" % (flag, v), "cli", args,
                          needles=[flag] if flag in ("--keys", "--vsync") else [v or "''"],
                          quick=k == 0 and flag in ("--size", "--fps")))
    # a flag that cannot apply in a mode: refused, naming the flag
    in_view_only = {**{f: v for f, (v, _) in view_flags.items()}, "--record": "r%03d.png", "--screenshot": "s.png",
                    "--camera-path": "cam.txt", "--headless": None}
    for flag, v in in_view_only.items():
        C.append(Case("batch refuses %s" % flag, "cli", [*BATCH, flag, *([v] if v else []), *OLD_OUT],
                      needles=[flag], files={**OLD, "cam.txt": CAMPATH}, quick=flag in ("--record", "--frames")))
    C.append(Case("issue: --record %s.mp4 in batch", "cli",
                  ["--quiet", "--steps", "1", "--boids", "5", "--record", "%s.mp4", "--metrics", "1.csv"],
                  needles=["--record"], quick=True))
    for flag, v in (("--at", "1:cohesion=1"), ("--quiet", None)):
        C.append(Case("headless refuses %s" % flag, "cli", [*HEAD, flag, *([v] if v else [])], needles=[flag],
                      quick=flag == "--at"))
    # flags that work in every mode
    common = [("--export", "e.csv", state("e.csv", 5)), ("--metrics", "m.csv", metrics("m.csv", at_least=1)),
              ("--preset", "classic", None), ("--seed", "3", None), ("--set", "cohesion=1", None),
              ("--params", "p.txt", None), ("--init", "s.csv", None), ("--threads", "1", None), ("--force", None, None)]
    for flag, v, chk in common:
        creates = [v] if flag in ("--export", "--metrics") else []
        C.append(Case("headless takes %s" % flag, "cli", [*HEAD, flag, *([v] if v else [])], status=0,
                      files={"p.txt": b"cohesion = 2\n", "s.csv": VALID_STATE}, creates=creates, check=chk,
                      quick=flag == "--export"))
    # a flag given twice
    twice_batch = {"--steps": ("1", "2"), "--boids": ("5", "6"), "--seed": ("1", "2"), "--preset": ("classic", "starling"),
                   "--params": ("p.txt", "p.txt"), "--init": ("s.csv", "s.csv"), "--threads": ("1", "2"),
                   "--export": ("a.csv", "b.csv"), "--metrics": ("a.csv", "b.csv"), "--quiet": (None, None),
                   "--force": (None, None)}
    for flag, (a, b) in twice_batch.items():
        args = [*BATCH] + [flag] + ([a] if a else []) + [flag] + ([b] if b else [])
        C.append(Case("twice %s" % flag, "cli", args, needles=[flag],
                      files={"p.txt": b"cohesion = 2\n", "s.csv": VALID_STATE}, quick=flag == "--export"))
    twice_view = dict((f, (v, v)) for f, (v, _) in view_flags.items() if f not in ("--size", "--frames"))
    twice_view.update({"--size": ("64x64", "32x32"), "--frames": ("1", "2"), "--screenshot": ("a.png", "b.png"),
                       "--record": ("a%03d.png", "b%03d.png"), "--headless": (None, None),
                       "--camera-path": ("cam.txt", "cam.txt")})
    for flag, (a, b) in twice_view.items():
        extra = ["--screenshot", "s.png"] if flag == "--screenshot-size" else []
        args = [*HEAD, *extra, flag, *([a] if a else []), flag, *([b] if b else [])]
        C.append(Case("twice %s" % flag, "cli", args, needles=[flag], files={"cam.txt": CAMPATH}))
    C.append(Case("twice --set is fine", "cli", [*BATCH, "--set", "cohesion=1", "--set", "cohesion=2", "--export",
                                                 "e.csv"], status=0, creates=["e.csv"], check=state("e.csv", 5)))
    C.append(Case("twice --at is fine", "cli", ["--steps", "3", "--boids", "5", "--at", "1:cohesion=1", "--at",
                                                "2:cohesion=2", "--export", "e.csv"], status=0, creates=["e.csv"],
                  check=state("e.csv", 5)))
    # a value flag at the end, without its value
    for flag in list(batch_flags) + list(view_flags) + ["--export", "--metrics", "--params", "--init", "--record",
                                                        "--screenshot", "--camera-path"]:
        base = ["--boids", "5"] if flag == "--steps" else ([*HEAD] if flag in view_flags or flag in (
            "--record", "--screenshot", "--camera-path") else [*BATCH])
        if flag in ("--size", "--frames"):
            base = [a for a in HEAD if a not in ("--size", "64x64", "--frames", "1")]
        C.append(Case("no value after %s" % flag, "cli", [*base, flag], needles=[flag], quick=flag == "--steps"))
    # switches given a value, options given a bad one, unknown flags
    for args, needle, batch in ((["--quiet=1"], "--quiet", True), (["--force=yes"], "--force", True),
                                (["--version=3"], "--version", False), (["--list-presets=x"], "--list-presets", False),
                                (["--list-params=html"], "html", False), (["--help=xml"], "xml", False),
                                (["--list-keys=x"], "'x'", False), (["--bogus"], "--bogus", True), (["-x"], "-x", True),
                                (["---steps", "1"], "---steps", False), (["--STEPS", "1"], "--STEPS", False),
                                (["foo"], "foo", True), (["-"], "'-'", True), (["--steps="], "--steps", False),
                                (["--=5"], "--=", True), (["--%s%n"], "--%s%n", True), (["%n%n%n%n"], "%n%n%n%n", True),
                                (["--steps", "1", "--boids=", "5"], "--boids", False)):
        C.append(Case("flag %s" % " ".join(args), "cli", [*BATCH, *args] if batch else args, needles=[needle],
                      quick=args == ["--bogus"]))
    for args in (["--help"], ["-h"], ["--version"], ["--list-params"], ["--list-keys"], ["--list-presets"],
                 ["--help=markdown"], ["--list-params=markdown"]):
        C.append(Case("info %s" % args[0], "cli", args, status=0, check=lambda ctx: None if ctx.stdout() else "no output"))
    # camera paths and keys scripts
    cam_bad = {"garbage": b"0 0 40 60 0 40 0\nhello world\n", "nan": b"0 0 40 60 0 40 0\n1 nan 40 60 0 40 0\n",
               "inf fov": b"0 0 40 60 0 40 0 inf\n1 0 40 60 0 40 0\n", "binary": b"0 0 40 60 0 40 0\n\x00\x01\xff\n",
               "time backwards": b"1 0 40 60 0 40 0\n0 0 40 60 0 40 0\n", "empty": b"",
               "long line": b"0 0 40 60 0 40 0 " + b"5" * 5000 + b"\n"}
    for label, data in cam_bad.items():
        C.append(Case("camera-path %s" % label, "cli", [*HEAD, "--camera-path", "cam.txt"], needles=["cam.txt"],
                      files={"cam.txt": data}))
    C.append(Case("camera-path good", "cli", [*HEAD, "--camera-path", "cam.txt", "--screenshot", "s.png"], status=0,
                  files={"cam.txt": CAMPATH}, creates=["s.png"], check=png("s.png")))
    for label, path, needle in (("missing", "nope.txt", "nope.txt"), ("directory", ".", "--camera-path"),
                                ("/dev/zero", "/dev/zero", "/dev/zero"), ("percent name", "c%s%n.txt", "c%s%n.txt")):
        C.append(Case("camera-path %s" % label, "cli", [*HEAD, "--camera-path", path], needles=[needle]))
    return C


def input_cases(flag, cls, good, ok_check, bad_name):
    """Input files of every kind for --params or --init (good: a valid file's bytes; ok_check(n)).
    bad_name: the word the error line needs for an empty or device input."""
    C = []
    f = "in.txt" if flag == "--params" else "in.csv"
    run = lambda src, *more: ["--steps", "1", flag, src, *more]
    n_good = 10 if flag == "--params" else 7
    empty_ok = flag == "--params"
    C += [
        Case("%s missing file" % flag, cls, run("nope", *OLD_OUT), needles=["nope"], files=OLD),
        Case("%s directory" % flag, cls, run("d", *OLD_OUT), needles=["'d'"], files=OLD, setup=mkdirs("d")),
        Case("%s /dev/zero" % flag, cls, run("/dev/zero", *OLD_OUT), needles=["/dev/zero"], files=OLD,
             limits={"as": 2 << 30}, quick=flag == "--params"),
        Case("%s /dev/urandom" % flag, cls, run("/dev/urandom", *OLD_OUT), needles=["/dev/urandom"], files=OLD,
             limits={"as": 2 << 30}),
        Case("%s /dev/null" % flag, cls, run("/dev/null", "--export", "e.csv"), status=0 if empty_ok else 2,
             needles=[] if empty_ok else ["/dev/null", "empty"], creates=["e.csv"] if empty_ok else [],
             check=state("e.csv") if empty_ok else None, quick=flag == "--init"),
        Case("%s terminal" % flag, cls, [], needles=["/dev/pts/"], setup=pty_arg(flag), sandbox=False),
        Case("%s - from a pipe" % flag, cls, run("-", "--export", "e.csv"), status=0, stdin=("pipe", good),
             creates=["e.csv"], check=state("e.csv", n_good), quick=True),
        Case("%s /dev/stdin from a pipe" % flag, cls, run("/dev/stdin", "--export", "e.csv"), status=0,
             stdin=("pipe", good), creates=["e.csv"], check=state("e.csv", n_good), quick=flag == "--params"),
        Case("%s - from a file" % flag, cls, run("-", "--export", "e.csv"), status=0, stdin=("file", good),
             creates=["e.csv"], check=state("e.csv", n_good)),
        Case("%s - empty pipe" % flag, cls, run("-", "--export", "e.csv"), status=0 if empty_ok else 2,
             needles=[] if empty_ok else ["empty"], stdin=("pipe", b""), creates=["e.csv"] if empty_ok else [],
             check=state("e.csv") if empty_ok else None),
        Case("%s - pipe kept open, no data" % flag, cls, run("-", *OLD_OUT), files=OLD, stdin=("hold", b""),
             needles=[], timeout=20),
        Case("%s - pipe kept open after data" % flag, cls, run("-", *OLD_OUT), files=OLD, stdin=("hold", good),
             needles=[], timeout=20),
        Case("%s process substitution" % flag, cls, [], status=0, shell='exec "$@" --steps 1 %s <(printf %%s %s) '
             '--export e.csv' % (flag, shlex.quote(good.decode())), creates=["e.csv"], check=state("e.csv", n_good)),
        Case("%s FIFO fed" % flag, cls, run("in.fifo", "--export", "e.csv"), status=0, setup=fifo_with("in.fifo", good),
             creates=["e.csv"], check=state("e.csv", n_good)),
        Case("%s FIFO nobody writes" % flag, cls, run("in.fifo", *OLD_OUT), files=OLD, setup=fifo_with("in.fifo"),
             needles=["in.fifo"], timeout=20, quick=flag == "--params"),
        Case("%s FIFO writer stalls" % flag, cls, run("in.fifo", *OLD_OUT), files=OLD,
             setup=fifo_with("in.fifo", good[:len(good) // 2], hold=True), needles=["in.fifo"], timeout=20),
        Case("%s FIFO endless line" % flag, cls, run("in.fifo", *OLD_OUT), files=OLD,
             setup=fifo_with("in.fifo", endless=b"7" * 65536), needles=["in.fifo"], limits={"as": 2 << 30}),
        Case("%s FIFO endless lines" % flag, cls, run("in.fifo", *OLD_OUT), files=OLD,
             setup=fifo_with("in.fifo", endless=(b"# comment\n" if flag == "--params" else b"boid,1,2,3,0,0,0,0\n") * 4096),
             needles=["in.fifo"], limits={"as": 2 << 30}, timeout=30),
        Case("%s endless line file" % flag, cls, run(f, *OLD_OUT), files=OLD, needles=[f],
             setup=endless_line_file(f, 16 << 20, HEADER if flag == "--init" else b"")),
        Case("%s over 64 MiB" % flag, cls, ["--steps", "0", flag, f, *OLD_OUT], files=OLD, needles=[f], timeout=30,
             setup=big_file(f, b"# a comment line of a large parameter file\n" if flag == "--params" else
                            b"boid,1.5,40.25,-3.125,1,0,0,0\n", 65 << 20), limits={"as": 2 << 30}),
        Case("%s NUL bytes" % flag, cls, run(f, *OLD_OUT), files={**OLD, f: good[:8] + b"\x00\x00" + good[8:]},
             needles=[f]),
        Case("%s binary junk" % flag, cls, run(f, *OLD_OUT), files={**OLD, f: good + bytes(range(256)) * 4 + b"\n"},
             needles=[f]),
        Case("%s ELF file" % flag, cls, run(os.path.realpath("/bin/true"), *OLD_OUT), files=OLD, needles=["true"]),
        Case("%s name with %%s%%n, missing" % flag, cls, run("in%s%n%5$s.x", *OLD_OUT), files=OLD,
             needles=["in%s%n%5$s.x"], quick=flag == "--init"),
        Case("%s name with %%s%%n, valid" % flag, cls, run("in%s%n%d.x", "--export", "e.csv"), status=0,
             files={"in%s%n%d.x": good}, creates=["e.csv"], check=state("e.csv", n_good)),
        Case("%s - twice" % flag, cls, run("-", "--params" if flag == "--init" else "--init", "-"), needles=["-"],
             stdin=("pipe", good)),
        Case("%s empty name" % flag, cls, run("", *OLD_OUT), files=OLD, needles=["''"]),
        Case("%s trailing slash" % flag, cls, run(f + "/", *OLD_OUT), files={**OLD, f: good}, needles=[f]),
    ]
    for c in C:
        if c.name.endswith("terminal"):
            c.args = None  # filled in from ctx.pty_path at run time
            c.pty_args = lambda tty, flag=flag: [*BATCH, flag, tty]
    return C


def params_file_cases():
    C = []
    good = b"boids = 10\n"
    C += input_cases("--params", "params", good, None, None)
    lines = {
        "no equals": (b"boids 10\n", "p.txt:1"), "empty value": (b"boids =\n", "p.txt:1"),
        "empty name": (b"= 10\n", "p.txt:1"), "unknown": (b"bogus_name = 1\n", "bogus_name"),
        "percent name": (b"%s%n%5$s = 1\n", "%s%n%5$s"), "percent value": (b"boids = %s%n\n", "%s%n"),
        "bad preset": (b"preset = nope\n", "nope"), "line 1100": (b"# " + b"x" * 1100 + b"\nboids = 10\n", "p.txt:1"),
        "only NUL": (b"\x00" * 100, "p.txt"), "NUL in value": (b"boids = 1\x000\n", "p.txt:1"),
        "two values": (b"boids = 10 20\n", "p.txt:1"), "vector short": (b"world_min = 1,2\n", "world_min"),
        "semantic": (b"min_speed = 50\nmax_speed = 10\n", "min_speed"), "unicode minus": (b"boids = \xe2\x88\x925\n", "p.txt:1"),
        "latin1 junk": (b"boids = 1\xe9\n", "p.txt:1"), "huge exponent": (b"dt = 1e-85\n", "dt"),
        "hex float": (b"cohesion = 0x1p999999\n", "cohesion"),
    }
    for label, (data, needle) in lines.items():
        C.append(Case("params file %s" % label, "params", [*BATCH, "--params", "p.txt", *OLD_OUT], needles=[needle],
                      files={**OLD, "p.txt": data}, quick=label == "percent name"))
    oks = {"comments and blanks": b"# c\n\n  boids = 10   # trailing\n", "line 1000": b"boids = 10 #" + b"x" * 985 + b"\n",
           "no final newline": b"boids = 10", "crowd of lines": b"boids = 10\n" * 5000}
    for label, data in oks.items():
        C.append(Case("params file %s" % label, "params", ["--steps", "1", "--params", "p.txt", "--export", "e.csv"], status=0,
                      files={"p.txt": data}, creates=["e.csv"], check=state("e.csv", 10)))
    C.append(Case("issue: echo boids=10 | --params -", "params", [], status=0, stdin=("pipe", b"boids=10\n"),
                  shell='exec "$@" --steps 1 --params - --export e.csv', creates=["e.csv"], check=state("e.csv", 10),
                  quick=True))
    return C


def csv_cases():
    C = []
    C += input_cases("--init", "csv", VALID_STATE, None, None)
    cols = ["x", "y", "z", "vx", "vy", "vz"]
    for ci, col in enumerate(cols):
        for label, val in (("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("1e999", "1e999"), ("3e39", "3e39"),
                           ("1e10", "1e10"), ("empty", ""), ("garbage", "1x")):
            f = ["boid", "1", "40", "2", "0", "0", "0", "0"]
            f[1 + ci] = val
            data = HEADER + b"boid,0,40,0,1,0,0,0\n" + ",".join(f).encode() + b"\n"
            C.append(Case("init %s %s" % (col, label), "csv", [*BATCH, "--init", "s.csv", *OLD_OUT],
                          needles=["s.csv:3"], files={**OLD, "s.csv": data}, quick=col == "y" and label == "nan"))
    rows = {
        "perch negative": b"boid,1,2,3,0,0,0,-4\n", "perch fraction": b"boid,1,2,3,0,0,0,1.5\n",
        "perch huge": b"boid,1,2,3,0,0,0,99999999999999999999\n", "perch nan": b"boid,1,2,3,0,0,0,nan\n",
        "unknown kind": b"bird,1,2,3,0,0,0,0\n", "empty kind": b",1,2,3,0,0,0,0\n", "percent kind": b"%s%n,1,2,3,0,0,0,0\n",
        "short row": b"boid,1,2,3\n", "empty row fields": b",,,,,,,\n", "only commas": b",\n",
        "NUL in row": b"boid,1,2\x00,3,0,0,0,0\n", "line 1100": b"boid,1," + b"0" * 1100 + b"2,3,0,0,0,0\n",
        "no final newline": b"boid,1,40,3,0,0,0,1", "spaces": b"boid, 1 , 2 ,3,0,0,0,0 junk\n",
    }
    for label, row in rows.items():
        C.append(Case("init %s" % label, "csv", [*BATCH, "--init", "s.csv", *OLD_OUT], needles=["s.csv:"],
                      files={**OLD, "s.csv": HEADER + b"boid,0,40,0,1,0,0,0\n" + row},
                      quick=label in ("no final newline", "percent kind")))
    heads = {"no header": b"boid,0,40,0,1,0,0,0\n", "wrong header": b"x,y,z\n1,2,3\n",
             "header only comments": b"# only a comment\n", "header with NUL": b"kind,x\x00,y,z,vx,vy,vz,perch\n",
             "empty": b"", "blank line": b"\n", "BOM then junk": b"\xef\xbb\xbfjunk\n"}
    for label, data in heads.items():
        C.append(Case("init %s" % label, "csv", [*BATCH, "--init", "s.csv", *OLD_OUT], needles=["s.csv"],
                      files={**OLD, "s.csv": data}))
    oks = {"comments": (b"# made by hand\n" + VALID_STATE, 7),
           "extra columns": (HEADER.strip() + b",extra\n" + b"boid,0,40,0,1,0,0,0,9\n" * 3, 3),
           "predators": (VALID_STATE + b"predator,0,45,0,1,0,0,0\n", 7),
           "perching": (HEADER + b"boid,0,0,0,0,0,0,30\n" * 4, 4),
           "line 1000": (HEADER + b"boid,1." + b"0" * 980 + b",40,3,0,0,0,0\n", 1),
           "at 1e9": (HEADER + b"boid,1e9,1e9,-1e9,0,0,0,0\nboid,0,40,0,1,0,0,0\n", 2)}
    for label, (data, n) in oks.items():
        C.append(Case("init good %s" % label, "csv", ["--steps", "2", "--init", "s.csv", "--export", "e.csv"],
                      status=0, files={"s.csv": data}, creates=["e.csv"], check=state("e.csv", n)))
    return C


def output_cases():
    C = []
    N = 5
    # printf in output names: plain names for --export/--metrics/--screenshot
    for i, name in enumerate(("e%s%n.csv", "e%5$s.csv", "%%.csv", "%d.csv", "e%n%n%n%n%n%n.csv", "%.99999f.csv")):
        C.append(Case("export named %s" % name, "outputs", [*BATCH, "--export", name], status=0, creates=[name],
                      check=state(name, N), quick=i == 0))
        C.append(Case("metrics named %s" % name, "outputs", [*BATCH, "--metrics", name], status=0, creates=[name],
                      check=metrics(name, 1)))
    for name in ("s%s.png", "s%n%d.png", "%5$s.png"):
        C.append(Case("screenshot named %s" % name, "outputs", [*HEAD, "--screenshot", name], status=0,
                      creates=[name], check=png(name)))
    # record patterns: one integer conversion is a frame pattern, %% a literal, anything else refused
    C.append(Case("issue: --record f%s.png --export f1.png", "outputs", [*HEAD, "--record", "f%s.png", "--export",
                                                                          "f1.png"], needles=["f%s.png"], quick=True))
    C.append(Case("issue: --record f%n.png --screenshot f7.png", "outputs",
                  [*HEAD, "--record", "f%n.png", "--screenshot", "f7.png"], needles=["f%n.png"], quick=True))
    for pat in ("f%5$s.png", "f%d%d.png", "f%x.png", "f%s%d.png", "f%.png", "f%99999999d.png",
                "%s.mp4", "v%n.mp4", "f%*d.png"):
        C.append(Case("record pattern %s" % pat, "outputs", [*HEAD, "--record", pat, "--metrics", "m.csv"],
                      needles=[pat]))
    for pat, rx in (("f%05d.png", r"f\d{5}\.png"), ("f%%%03d.png", r"f%\d{3}\.png"), ("f%d.png", r"f\d+\.png")):
        C.append(Case("record pattern %s" % pat, "outputs", [*head("2"), "--record", pat], status=0,
                      keep=[rx], check=frames_of(rx, 2), quick=pat == "f%05d.png"))
    # paths that cannot take a file
    for label, path, needle in (("missing folder", "nodir/e.csv", "nodir/e.csv"), ("a folder", "d", "'d'"),
                                ("/proc", "/proc/murmur-adv.csv", "/proc/murmur-adv.csv"),
                                ("/sys", "/sys/murmur-adv.csv", "/sys/murmur-adv.csv"),
                                ("empty name", "", "''"), ("trailing slash", "e.csv/", "e.csv/"),
                                ("path too long", "a/" * 2100 + "e.csv", "a/a/a/a/")):
        for flag in ("--export", "--metrics"):
            C.append(Case("%s to %s" % (flag, label), "outputs", ["--steps", "2000", "--boids", "5", flag, path],
                          needles=[needle.replace("--export", flag)], setup=mkdirs("d"), timeout=10,
                          quick=label == "/proc" and flag == "--export"))
    C.append(Case("screenshot to a missing folder", "outputs", [*HEAD, "--screenshot", "nodir/s.png"],
                  needles=["nodir/s.png"]))
    C.append(Case("record to a missing folder", "outputs", [*HEAD, "--record", "nodir/v.mp4"], needles=["nodir/v.mp4"]))
    C.append(Case("record pattern in a missing folder", "outputs", [*HEAD, "--record", "nodir/f%03d.png"],
                  needles=["nodir"]))
    # name lengths: 255 bytes is the limit of a name
    n255, n256 = "e" * 251 + ".csv", "e" * 252 + ".csv"
    C.append(Case("export name of 255 bytes", "outputs", [*BATCH, "--export", n255], status=0, creates=[n255],
                  check=state(n255, N), quick=True))
    C.append(Case("export name of 256 bytes", "outputs", [*BATCH, "--export", n256], needles=["e" * 40], quick=True))
    C.append(Case("metrics name of 255 bytes", "outputs", [*BATCH, "--metrics", n255], status=0, creates=[n255],
                  check=metrics(n255, 1)))
    C.append(Case("screenshot name of 255 bytes", "outputs", [*HEAD, "--screenshot", "s" * 251 + ".png"], status=0,
                  creates=["s" * 251 + ".png"], check=png("s" * 251 + ".png")))
    C.append(Case("screenshot name of 256 bytes", "outputs", [*HEAD, "--screenshot", "s" * 252 + ".png"],
                  needles=["s" * 40]))
    # devices: written into, never replaced (these run with a private /dev)
    C.append(Case("export /dev/stdout", "outputs", [*BATCH, "--export", "/dev/stdout"], status=0,
                  check=stdout_state(N), quick=True))
    C.append(Case("metrics /dev/stdout", "outputs", ["--steps", "3", "--boids", "5", "--metrics", "/dev/stdout"],
                  status=0, check=lambda ctx: metrics_rows(ctx.stdout(), 3)[0]))
    C.append(Case("export /dev/null", "outputs", [*BATCH, "--export", "/dev/null"], status=0))
    C.append(Case("metrics /dev/zero", "outputs", [*BATCH, "--metrics", "/dev/zero"], status=0))
    for flag in ("--export", "--metrics"):
        C.append(Case("%s /dev/full" % flag, "outputs", [*BATCH, flag, "/dev/full", *(
            ["--metrics", "m.csv"] if flag == "--export" else ["--export", "e.csv"])], needles=["/dev/full"]))
    C.append(Case("screenshot /dev/full", "outputs", [*HEAD, "--screenshot", "/dev/full"], needles=["/dev/full"],
                  quick=True))
    C.append(Case("screenshot /dev/null", "outputs", [*HEAD, "--screenshot", "/dev/null"], status=0))
    C.append(Case("record /dev/full", "outputs", [*head("3"), "--record", "/dev/full"],
                  needles=["/dev/full"]))
    # all outputs commit together: a failing one leaves the others as they were
    C.append(Case("issue: metrics kept when export cannot be written (/dev/full)", "outputs",
                  ["--steps", "3", "--boids", "5", "--metrics", "m.csv", "--export", "/dev/full"], needles=["/dev/full"],
                  files={"m.csv": PRECIOUS}, quick=True))
    C.append(Case("issue: metrics kept when export folder is /proc", "outputs",
                  ["--steps", "3", "--boids", "5", "--metrics", "m.csv", "--export", "/proc/full/e.csv"],
                  needles=["/proc/full/e.csv"], files={"m.csv": PRECIOUS}, quick=True))
    C.append(Case("export kept when metrics folder missing", "outputs",
                  ["--steps", "3", "--boids", "5", "--export", "e.csv", "--metrics", "nodir/m.csv"],
                  needles=["nodir/m.csv"], files={"e.csv": PRECIOUS}))
    C.append(Case("screenshot kept when export fails", "outputs", [*HEAD, "--screenshot", "s.png", "--export",
                                                                   "/dev/full"], needles=["/dev/full"],
                  files={"s.png": PRECIOUS}))
    C.append(Case("no new screenshot when export fails", "outputs", [*HEAD, "--screenshot", "s.png", "--export",
                                                                     "/dev/full"], needles=["/dev/full"]))
    C.append(Case("video kept when metrics fails", "outputs", [*head("3"), "--record", "v.mp4", "--metrics",
                                                              "/dev/full"], needles=["/dev/full"],
                  files={"v.mp4": PRECIOUS}))
    C.append(Case("frames not left when export fails", "outputs", [*head("3"), "--record", "f%03d.png",
                                                                   "--export", "/dev/full"], needles=["/dev/full"]))
    C.append(Case("old outputs kept on bad crf", "outputs", [*HEAD, "--record", "v.mp4", "--crf", "99", "--screenshot",
                                                             "s.png"], needles=["99"],
                  files={"v.mp4": PRECIOUS, "s.png": PRECIOUS}))
    # links: the target gets the content, the link stays a link
    C.append(Case("export through a link to a file", "outputs", [*BATCH, "--export", "link.csv"], status=0,
                  files={"real.csv": PRECIOUS}, setup=symlink("link.csv", "real.csv"), creates=["real.csv"],
                  check=all_of(state("real.csv", N), is_link_to("link.csv", "real.csv"))))
    C.append(Case("metrics through a link to a file", "outputs", [*BATCH, "--metrics", "link.csv"], status=0,
                  files={"real.csv": PRECIOUS}, setup=symlink("link.csv", "real.csv"), creates=["real.csv"],
                  check=all_of(metrics("real.csv", 1), is_link_to("link.csv", "real.csv"))))
    C.append(Case("screenshot through a link to a file", "outputs", [*HEAD, "--screenshot", "link.png"], status=0,
                  files={"real.png": PRECIOUS}, setup=symlink("link.png", "real.png"), creates=["real.png"],
                  check=all_of(png("real.png"), is_link_to("link.png", "real.png"))))
    C.append(Case("export through a link to /dev/null", "outputs", [*BATCH, "--export", "link.csv"], status=0,
                  setup=symlink("link.csv", "/dev/null"), check=is_link_to("link.csv", "/dev/null"), sandbox=True))
    C.append(Case("export through a link to /dev/full", "outputs", [*BATCH, "--export", "link.csv"],
                  needles=["link.csv"], setup=symlink("link.csv", "/dev/full"), sandbox=True))
    C.append(Case("export through a link to /dev/stdout", "outputs", [*BATCH, "--export", "link.csv"], status=0,
                  setup=symlink("link.csv", "/dev/stdout"), check=all_of(stdout_state(N),
                                                                         is_link_to("link.csv", "/dev/stdout")),
                  sandbox=True))
    # FIFOs as outputs: written into, once, whole
    C.append(Case("export into a FIFO", "outputs", [*BATCH, "--export", "o.fifo"], status=0,
                  setup=fifo_reader("o.fifo", None), check=fifo_got_state(N)))
    C.append(Case("metrics into a FIFO", "outputs", ["--steps", "4", "--boids", "5", "--metrics", "o.fifo"], status=0,
                  setup=fifo_reader("o.fifo", None), check=fifo_got_metrics(4)))
    # one file named twice
    C.append(Case("same file twice", "outputs", [*BATCH, "--export", "x.csv", "--metrics", "x.csv"], needles=["x.csv"]))
    C.append(Case("same file twice via ./", "outputs", [*BATCH, "--export", "x.csv", "--metrics", "./x.csv"],
                  needles=["x.csv"]))
    C.append(Case("same file twice via a link", "outputs", [*BATCH, "--export", "x.csv", "--metrics", "l.csv"],
                  needles=["x.csv"], files={"x.csv": PRECIOUS}, setup=symlink("l.csv", "x.csv")))
    C.append(Case("screenshot and export same file", "outputs", [*HEAD, "--screenshot", "o.png", "--export", "o.png"],
                  needles=["o.png"]))
    C.append(Case("record and screenshot same file", "outputs", [*HEAD, "--record", "o.mp4", "--screenshot", "o.mp4"],
                  needles=["o.mp4"]))
    C.append(Case("replace an older export", "outputs", [*BATCH, "--export", "e.csv"], status=0,
                  files={"e.csv": PRECIOUS}, creates=["e.csv"], check=state("e.csv", N)))
    return C


def signal_cases():
    C = []
    long_batch = ["--steps", "100000000", "--boids", "50", "--metrics", "m.csv", "--export", "e.csv"]
    after = all_of(metrics("m.csv", at_least=2), state("e.csv", 50))
    for sig, st in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        C.append(Case("batch %s" % sig.name, "signals", long_batch, status=st, driver=send([sig]), creates=["m.csv", "e.csv"],
                      check=after, stop_line=True, timeout=20, quick=sig == signal.SIGINT))
    C.append(Case("batch SIGINT to the process group", "signals", long_batch, status=130,
                  driver=send([signal.SIGINT], group=True), creates=["m.csv", "e.csv"], check=after, stop_line=True,
                  timeout=20))
    C.append(Case("batch SIGINT replaces older outputs", "signals", long_batch, status=130, driver=send([signal.SIGINT]),
                  files={"m.csv": PRECIOUS, "e.csv": PRECIOUS}, creates=["m.csv", "e.csv"], check=after,
                  stop_line=True, timeout=20))
    C.append(Case("batch SIGINT twice", "signals", long_batch, status=130, driver=send([signal.SIGINT, signal.SIGINT]),
                  creates=["m.csv", "e.csv"], check=after, stop_line=True, timeout=20))
    C.append(Case("batch SIGTERM then SIGINT", "signals", long_batch, status=(143, 130),
                  driver=send([signal.SIGTERM, signal.SIGINT], gap=0.01), creates=["m.csv", "e.csv"], check=after,
                  stop_line=True, timeout=20))
    # 20 ms in: a signal that comes before main() has installed the handlers (a sanitizer build starts
    # slowly, and the OpenMP restart execs once) ends the process by the default action, with nothing
    # written yet: either outcome keeps every file
    C.append(Case("batch SIGINT at start", "signals", long_batch, status=(130, -signal.SIGINT),
                  driver=send([signal.SIGINT], delay=0.02, wait_files=False), keep=["m.csv", "e.csv"],
                  check=lambda ctx: None if not os.path.exists(ctx.p("m.csv")) else metrics("m.csv", at_least=1)(ctx),
                  stop_line=True, timeout=20))
    C.append(Case("batch SIGINT, big flock", "signals", ["--steps", "100000000", "--boids", "20000", "--metrics", "m.csv",
                                                         "--export", "e.csv"], status=130, driver=send([signal.SIGINT]),
                  creates=["m.csv", "e.csv"], check=all_of(metrics("m.csv", at_least=1), state("e.csv", 20000)),
                  stop_line=True, timeout=30))
    C.append(Case("batch SIGINT while reading a FIFO", "signals", ["--steps", "5", "--init", "in.fifo", *OLD_OUT],
                  status=(130, -signal.SIGINT), files=OLD, setup=fifo_with("in.fifo"), driver=send([signal.SIGINT], delay=0.5,
                                                                                 wait_files=False),
                  stop_line=True, timeout=20))
    for sig in (signal.SIGKILL, signal.SIGQUIT):
        C.append(Case("batch %s" % sig.name, "signals", [*long_batch[:4], "--metrics", "m.csv", "--export", "e.csv"],
                      status=(-sig, 128 + sig), driver=send([sig]), files={"e.csv": PRECIOUS}, keep=[r"(?!e\.csv$|m\.csv$).*"],
                      timeout=20))
    rec = ["--headless", "--record", "out.mp4", "--frames", "100000", "--size", "64x64", "--boids", "50"]
    warm = [*rec[:-2], "--boids", "2000", "--warmup", "100000000"]
    C.append(Case("recording SIGINT", "signals", rec, status=130, driver=send([signal.SIGINT], delay=0.8),
                  creates=["out.mp4"], check=video("out.mp4"), stop_line=True, timeout=30, quick=True))
    C.append(Case("recording SIGINT to the process group", "signals", rec, status=130,
                  driver=send([signal.SIGINT], delay=0.8, group=True), creates=["out.mp4"], check=video("out.mp4"),
                  stop_line=True, timeout=30, quick=True))
    C.append(Case("recording SIGTERM", "signals", rec, status=143, driver=send([signal.SIGTERM], delay=0.8),
                  creates=["out.mp4"], check=video("out.mp4"), stop_line=True, timeout=30))
    C.append(Case("recording SIGHUP", "signals", rec, status=129, driver=send([signal.SIGHUP], delay=0.8),
                  creates=["out.mp4"], check=video("out.mp4"), stop_line=True, timeout=30))
    C.append(Case("recording webm SIGINT", "signals", [*rec[:2], "out.webm", *rec[3:]], status=130,
                  driver=send([signal.SIGINT], delay=0.8), creates=["out.webm"], check=video("out.webm"),
                  stop_line=True, timeout=30))
    C.append(Case("recording SIGINT during warmup", "signals", warm,
                  status=130, driver=send([signal.SIGINT], delay=1.0, wait_files=False), stop_line=True, timeout=30))
    C.append(Case("recording SIGINT during warmup, process group", "signals",
                  warm, status=130,
                  driver=send([signal.SIGINT], delay=1.0, wait_files=False, group=True), stop_line=True, timeout=30))
    C.append(Case("PNG recording SIGINT keeps frames", "signals",
                  ["--headless", "--record", "f%05d.png", "--frames", "100000", "--size", "64x64", "--boids", "50"],
                  status=130, driver=send([signal.SIGINT], delay=0.5), keep=[r"f\d{5}\.png"],
                  check=frames_of(r"f\d{5}\.png", 1), stop_line=True, timeout=30))
    C.append(Case("recording SIGKILL leaves no partial video", "signals", rec, status=-signal.SIGKILL,
                  driver=send([signal.SIGKILL], delay=0.8, group=True), keep=[r"(?!out\.mp4$).*"], timeout=30))
    return C


def limit_cases():
    C = []
    fs = lambda n: {"fsize": n}
    C += [
        Case("fsize export", "limits", ["--steps", "1", "--boids", "2000", "--export", "e.csv"], needles=["e.csv"],
             limits=fs(20000), quick=True),
        Case("fsize export keeps the older one", "limits", ["--steps", "1", "--boids", "2000", "--export", "e.csv"],
             needles=["e.csv"], files={"e.csv": PRECIOUS}, limits=fs(20000)),
        Case("fsize metrics", "limits", ["--steps", "400", "--boids", "5", "--metrics", "m.csv"], needles=["m.csv"],
             limits=fs(4000)),
        Case("fsize export, metrics kept", "limits", ["--steps", "3", "--boids", "2000", "--metrics", "m.csv", "--export",
                                                      "e.csv"], needles=["e.csv"], files={"m.csv": PRECIOUS},
             limits=fs(20000)),
        Case("fsize zero", "limits", [*BATCH, "--export", "e.csv", "--metrics", "m.csv"], needles=[], limits=fs(0)),
        Case("fsize one byte", "limits", [*BATCH, "--export", "e.csv"], needles=["e.csv"], limits=fs(1)),
        Case("fsize screenshot", "limits", ["--headless", "--frames", "1", "--size", "256x256", "--boids", "200",
                                            "--screenshot", "s.png"], needles=["s.png"], limits=fs(2000)),
        Case("fsize PNG frames", "limits", ["--headless", "--frames", "5", "--size", "256x256", "--boids", "200",
                                            "--record", "f%03d.png"], needles=["f%03d.png"], limits=fs(2000)),
        Case("fsize video", "limits", ["--headless", "--frames", "60", "--size", "128x128", "--boids", "200",
                                       "--record", "v.mp4"], needles=["v.mp4"], limits=fs(3000), timeout=20),
        Case("fsize video keeps the older one", "limits", ["--headless", "--frames", "60", "--size", "128x128", "--boids",
                                                           "200", "--record", "v.mp4"], needles=["v.mp4"],
             files={"v.mp4": PRECIOUS}, limits=fs(3000), timeout=20),
    ]
    for n in (5, 6, 8, 12):
        C.append(Case("nofile %d batch" % n, "limits", ["--steps", "2", "--boids", "50", "--params", "p.txt", "--init",
                                                        "s.csv", "--export", "e.csv", "--metrics", "m.csv"],
                      status=(0, 2), needles=[], files={"p.txt": b"cohesion = 2\n", "s.csv": VALID_STATE},
                      keep=[r"e\.csv", r"m\.csv"], limits={"nofile": n}, quick=n == 8))
    for n in (8, 16):
        C.append(Case("nofile %d headless" % n, "limits", [*HEAD, "--screenshot", "s.png", "--export", "e.csv"],
                      status=(0, 2), needles=[], keep=[r"s\.png", r"e\.csv"], limits={"nofile": n}))
    C.append(Case("nofile 16 video", "limits", [*head("3"), "--record", "v.mp4"], status=(0, 2), needles=[],
                  keep=[r"v\.mp4"], limits={"nofile": 16}))
    C += [
        Case("as 64 MiB, 2M boids", "limits", ["--steps", "1", "--boids", "2000000", "--export", "e.csv"],
             needles=["memory"], limits={"as": 64 << 20}, release=False, quick=True),
        Case("as 1 GiB, 30M boids", "limits", ["--steps", "1", "--boids", "30000000", "--export", "e.csv"],
             needles=["memory"], limits={"as": 1 << 30}, release=False),
        Case("as 256 MiB, big init file", "limits", ["--steps", "1", "--init", "s.csv", "--export", "e.csv"],
             needles=["memory"], setup=big_file("s.csv", b"boid,1,40,3,0,0,0,0\n", 60 << 20),
             limits={"as": 256 << 20}, release=False, timeout=30),
        Case("as 2 GiB, ordinary run", "limits", ["--steps", "3", "--boids", "2000", "--export", "e.csv"], status=0,
             creates=["e.csv"], check=state("e.csv", 2000), limits={"as": 2 << 30}, release=False),
        Case("as 2 GiB, headless", "limits", [*HEAD, "--screenshot", "s.png"], status=(0, 2), needles=[],
             keep=[r"s\.png"], limits={"as": 2 << 30}, release=False),
        Case("stack 64 KiB", "limits", ["--steps", "3", "--boids", "500", "--export", "e.csv"], status=(0, 2), needles=[],
             keep=[r"e\.csv"], limits={"stack": 64 << 10}),
        Case("stack 64 KiB headless", "limits", [*HEAD, "--screenshot", "s.png"], status=(0, 2), needles=[],
             keep=[r"s\.png"], limits={"stack": 64 << 10}),
    ]
    return C


def env_cases():
    C = []
    has512 = False
    try:
        with open("/proc/cpuinfo") as fp:
            has512 = " avx512f" in fp.read()
    except OSError:
        pass
    bad = {
        "MURMUR_THREADS": ["0", "-1", "abc", "1.5", "4x", "99999999999999999999999", "%s%n"],
        "OMP_NUM_THREADS": ["0", "abc", "-2", ",", "1.5", "%n"],
        "MURMUR_SIMD": ["bogus", "AVX3", "%s"] + ([] if has512 else ["avx512"]),
        "MURMUR_CELL_REACH": ["0", "3", "abc", "-1", "1.0"],
    }
    for var, vals in bad.items():
        for k, v in enumerate(vals):
            C.append(Case("%s=%r" % (var, v), "env", [*BATCH, *OLD_OUT], env={var: v}, needles=[var, v.strip() or var],
                          files=OLD, quick=k == 0))
    good = {"MURMUR_THREADS": ["1", "64", "100000", ""], "OMP_NUM_THREADS": ["1", "4,2", "100000"],
            "MURMUR_SIMD": ["base", ""], "MURMUR_CELL_REACH": ["1", "2"]}
    for var, vals in good.items():
        for v in vals:
            C.append(Case("%s=%r works" % (var, v), "env", [*BATCH, "--export", "e.csv"], env={var: v}, status=0,
                          creates=["e.csv"], check=state("e.csv", 5), quick=v == "100000"))
    C.append(Case("MURMUR_THREADS bad, --threads given", "env", [*BATCH, "--threads", "1", "--export", "e.csv"],
                  env={"MURMUR_THREADS": "abc"}, status=(0, 2), needles=["MURMUR_THREADS"], keep=[r"e\.csv"]))
    gfx = {"MURMUR_MSAA": ["abc", "17", "-1"], "MURMUR_SHADOWS": ["2", "yes"], "MURMUR_BIRD": ["bogus"]}
    for var, vals in gfx.items():
        for v in vals:
            C.append(Case("%s=%r headless" % (var, v), "env", [*HEAD, "--screenshot", "s.png"], env={var: v},
                          needles=[var, v]))
    C.append(Case("MURMUR_X264_PRESET=bogus", "env", [*head("2"), "--record", "v.mp4"],
                  env={"MURMUR_X264_PRESET": "bogus"}, needles=["bogus"]))
    C.append(Case("no ffmpeg on PATH, mp4", "env", [*head("2"), "--record", "v.mp4"],
                  env={"PATH": "/nonexistent"}, needles=["ffmpeg"], files={"v.mp4": PRECIOUS}, quick=True))
    C.append(Case("no ffmpeg on PATH, PNG frames", "env", [*head("2"), "--record", "f%03d.png"],
                  env={"PATH": "/nonexistent"}, status=0, keep=[r"f\d{3}\.png"], check=frames_of(r"f\d{3}\.png", 2)))
    C.append(Case("empty environment", "env", [*BATCH, "--export", "e.csv"], env={"__CLEAR__": "1"}, status=0,
                  creates=["e.csv"], check=state("e.csv", 5)))
    C.append(Case("comma locale", "env", [*BATCH, "--export", "e.csv", "--set", "cohesion=0.5"],
                  env={"LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"}, status=0, creates=["e.csv"],
                  check=state("e.csv", 5)))
    return C


def crowded_cases(quick_scale=False):
    C = []

    def coincident(n):
        return HEADER + b"boid,0,40,0,0,0,0,0\n" * n

    for n, q in ((20000, False), (2000, True)):
        C.append(Case("%d coincident boids" % n, "crowded", ["--steps", "3", "--init", "s.csv", "--export", "e.csv"],
                      status=0, files={"s.csv": coincident(n)}, creates=["e.csv"], check=state("e.csv", n),
                      timeout=60, quick=q))
    for n, q in ((100000, False), (5000, True)):
        C.append(Case("%d boids in a 4 wu box" % n, "crowded",
                      ["--steps", "2", "--boids", n, "--set", "world_min=-2,38,-2", "--set", "world_max=2,42,2", "--set",
                       "bounds=bounce", "--export", "e.csv"], status=0, creates=["e.csv"], check=state("e.csv", n),
                      timeout=60, quick=q))
    for label, args in (("classic", ["--preset", "classic"]), ("classic brute", ["--preset", "classic", "--set",
                                                                                 "neighbour_search=brute"]),
                        ("wrap", ["--preset", "classic", "--set", "bounds=wrap"]),
                        ("plane", ["--set", "plane=on"]),
                        ("zero speed", ["--preset", "classic", "--set", "min_speed=0"]),
                        ("cone 1 deg", ["--preset", "classic", "--set", "view_angle=1"]),
                        ("topo k 20", ["--set", "topo_k=20", "--set", "hard_radius=0"])):
        C.append(Case("3000 coincident, %s" % label, "crowded", ["--steps", "3", "--init", "s.csv", *args, "--export",
                                                                 "e.csv"], status=0,
                      files={"s.csv": coincident(3000)}, creates=["e.csv"], check=state("e.csv", 3000), timeout=60))
    C.append(Case("3000 coincident perching on the ground", "crowded",
                  ["--steps", "3", "--init", "s.csv", "--preset", "classic", "--set", "perch=on", "--export", "e.csv"],
                  status=0, files={"s.csv": HEADER + b"boid,0,0,0,0,-1,0,0\n" * 3000}, creates=["e.csv"],
                  check=state("e.csv", 3000), timeout=60))
    C.append(Case("boids at +-1e9", "crowded", ["--steps", "3", "--init", "s.csv", "--set", "bounds=none", "--export",
                                                "e.csv"], status=0,
                  files={"s.csv": HEADER + b"boid,1e9,1e9,1e9,0,0,0,0\nboid,-1e9,-1e9,-1e9,0,0,0,0\n" * 50},
                  creates=["e.csv"], check=state("e.csv", 100), timeout=60))
    C.append(Case("boids at max speed head-on", "crowded", ["--steps", "5", "--init", "s.csv", "--export", "e.csv"],
                  status=0, files={"s.csv": HEADER + (b"boid,-1,40,0,1e6,0,0,0\nboid,1,40,0,-1e6,0,0,0\n") * 500},
                  creates=["e.csv"], check=state("e.csv", 1000), timeout=60))
    C.append(Case("coincident, headless", "crowded", ["--headless", "--frames", "2", "--size", "64x64", "--init", "s.csv",
                                                      "--screenshot", "s.png", "--export", "e.csv"], status=0,
                  files={"s.csv": coincident(2000)}, creates=["s.png", "e.csv"], check=state("e.csv", 2000),
                  timeout=60))
    return C


def all_cases(exe):
    cases = cli_cases() + param_cases(list_params(exe)) + params_file_cases() + csv_cases() + output_cases() \
        + signal_cases() + limit_cases() + env_cases() + crowded_cases()
    seen = set()
    for c in cases:
        assert c.name not in seen, "duplicate case name %r" % c.name
        seen.add(c.name)
    return cases


# ------------------------------------------------------------------------------------------ running

def is_asan(path):
    try:
        with open(path, "rb") as fp:
            return b"__asan_init" in fp.read()
    except OSError:
        return False


def snapshot(root):
    """{relative path: (kind, content or link target or None)} of everything under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as fp:
                    b = fp.read()
                out[rel] = ("file", b if len(b) < (1 << 20) else ("big", len(b), hash(b)))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", None)
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


DEV_NODES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}
DEV_LINKS = {"stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "fd": "/proc/self/fd"}


def dev_state(root="/dev"):
    """What matters of a /dev: the kind of each node we use, and extra entries."""
    out = {}
    for n in os.listdir(root):
        p = os.path.join(root, n)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode):
            out[n] = "link:" + os.readlink(p)
        elif stat.S_ISCHR(st.st_mode):
            out[n] = "chr:%d,%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
        elif stat.S_ISDIR(st.st_mode):
            out[n] = "dir"
        else:
            out[n] = "other:%o" % stat.S_IFMT(st.st_mode)
    return out


def real_dev_check(repair):
    """The machine's /dev nodes this round could touch: returns problems; repairs them when asked."""
    problems = []
    for n, (ma, mi) in DEV_NODES.items():
        p = "/dev/" + n
        try:
            st = os.lstat(p)
            ok = stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) == ma and os.minor(st.st_rdev) == mi
        except OSError:
            ok = False
        if not ok:
            problems.append(p)
            if repair:
                if os.path.lexists(p):
                    os.unlink(p)
                os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(ma, mi))
                os.chmod(p, 0o666)
    for n, target in DEV_LINKS.items():
        p = "/dev/" + n
        if not (os.path.islink(p) and os.readlink(p) == target):
            problems.append(p)
            if repair:
                if os.path.lexists(p):
                    os.unlink(p)
                os.symlink(target, p)
    for n in os.listdir("/dev"):
        if re.search(r"^(full|null|zero|stdout|stderr|urandom)\b.*(tmp|~)|\.tmp", n):
            problems.append("/dev/" + n)
            if repair:
                try:
                    os.unlink("/dev/" + n)
                except OSError:
                    pass
    return problems


def sandbox_main(io, cmd):
    """Runs inside `unshare -m`: a private /dev, then cmd; writes the status and /dev's state to io."""
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=755", "murmur-adv-dev", "/dev"], check=True)
    for n, (ma, mi) in DEV_NODES.items():
        os.mknod("/dev/" + n, 0o666 | stat.S_IFCHR, os.makedev(ma, mi))
        os.chmod("/dev/" + n, 0o666)
    for n, t in DEV_LINKS.items():
        os.symlink(t, "/dev/" + n)
    os.mkdir("/dev/shm")
    os.chmod("/dev/shm", 0o1777)
    before = dev_state()
    rc = subprocess.call(cmd)
    with open(os.path.join(io, "sandbox.json"), "w") as fp:
        json.dump({"rc": rc, "before": before, "after": dev_state()}, fp)
    return 0


def have_unshare():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    r = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return r.returncode == 0


class Runner:
    def __init__(self, exe, opts):
        self.exe = os.path.abspath(exe)
        self.asan = is_asan(self.exe)
        self.opts = opts
        self.factor = 10 if VALGRIND else (2 if self.asan else 1)
        self.unshare = have_unshare()
        r = subprocess.run([self.exe, "--help"], capture_output=True, text=True)
        self.gfx = "--headless" in r.stdout
        self.ffmpeg = bool(shutil.which("ffmpeg"))
        env = dict(os.environ)
        if self.asan:
            env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
            supp = os.path.join(ROOT, "tests", "lsan.supp")
            if os.path.exists(supp):
                env.setdefault("LSAN_OPTIONS", "suppressions=%s:print_suppressions=0" % supp)
            env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
        self.env = env

    def skip_reason(self, c):
        if c.release_only and (self.asan or VALGRIND):
            return "address-space limit: release builds only (ASan reserves terabytes of shadow)"
        text = " ".join((c.args or []) + [c.shell or ""])
        if "--headless" in text and not self.gfx:
            return "headless: this build has no graphics"
        if re.search(r"\.(mp4|webm)\b", text) and not self.ffmpeg:
            return "video: no ffmpeg on this machine"
        if c.sandbox and not self.unshare:
            return "writes to /dev: needs root and unshare for a private /dev"
        return None

    def run(self, c):
        base = tempfile.mkdtemp(prefix="murmur-adv-")
        ctx = Ctx(base, self.exe)
        try:
            return self._run(c, ctx)
        finally:
            for f in reversed(ctx.cleanups):
                try:
                    f()
                except Exception:
                    pass
            if self.opts.keep:
                print("  kept %s" % base, file=sys.stderr)
            else:
                shutil.rmtree(base, ignore_errors=True)

    def _run(self, c, ctx):
        for name, data in c.files.items():
            with open(ctx.p(name), "wb") as fp:
                fp.write(data)
        if c.setup:
            c.setup(ctx)
        args = c.args if c.args is not None else c.pty_args(ctx.pty_path)
        pre = snapshot(ctx.dir)
        mur = [*VALGRIND, self.exe]
        if c.shell:
            cmd = ["bash", "-c", c.shell, "murmur", *mur]
        else:
            cmd = [*mur, *args]
        limits = dict(c.limits)
        if self.asan or VALGRIND:
            limits.pop("as", None)  # ASan reserves terabytes of shadow: a memory guard in release builds only
        if limits:
            lim = []
            for k, v in limits.items():
                lim.append("--%s=%d:%d" % (k, v, v))
            cmd = ["prlimit", *lim, "--", *cmd]
        if c.sandbox:
            cmd = ["unshare", "-m", sys.executable, os.path.abspath(__file__), "--sandbox-run", ctx.io, "--", *cmd]
        env = dict(self.env)
        if c.env.get("__CLEAR__"):
            env = {k: v for k, v in env.items() if k.endswith("SAN_OPTIONS")}
        else:
            env.update(c.env)
        for k in c.unset:
            env.pop(k, None)
        stdin_kind = c.stdin[0] if c.stdin else None
        if stdin_kind == "file":
            with open(os.path.join(ctx.io, "stdin"), "wb") as fp:
                fp.write(c.stdin[1])
            stdin = open(os.path.join(ctx.io, "stdin"), "rb")
        elif stdin_kind in ("pipe", "hold"):
            stdin = subprocess.PIPE
        else:
            stdin = subprocess.DEVNULL
        out = open(os.path.join(ctx.io, "stdout"), "wb")
        err = open(os.path.join(ctx.io, "stderr"), "wb")
        # stderr through a pipe (copied to the file by a thread): a file size limit of the case must
        # not cut murmur's message, which a terminal or a pipe would show whole
        err_r, err_w = os.pipe()

        def copy_err():
            while True:
                b = os.read(err_r, 65536)
                if not b:
                    break
                err.write(b)
            os.close(err_r)
        err_thread = threading.Thread(target=copy_err, daemon=True)
        err_thread.start()
        limit = (min(c.timeout, 20) if self.opts.quick else c.timeout) * self.factor
        t0 = time.time()
        proc = subprocess.Popen(cmd, cwd=ctx.dir, stdin=stdin, stdout=out, stderr=err_w, env=env, start_new_session=True)
        os.close(err_w)
        if stdin_kind in ("pipe", "hold"):
            def feed():
                try:
                    proc.stdin.write(c.stdin[1])
                    proc.stdin.flush()
                    if stdin_kind == "pipe":
                        proc.stdin.close()
                except OSError:
                    pass
            threading.Thread(target=feed, daemon=True).start()
        hung = None
        if c.driver:
            c.driver(ctx, proc)
        try:
            if ctx.signal_to_exit is not None:
                ts = time.time()
                proc.wait(timeout=min(ctx.signal_to_exit * self.factor, max(1.0, limit - (ts - t0))))
            else:
                proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            hung = ("still running %.0f s after the signal" % (time.time() - ts)) if ctx.signal_to_exit is not None \
                else "over its %.0f s limit" % limit
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        wall = time.time() - t0
        if stdin_kind in ("pipe", "hold"):
            try:
                proc.stdin.close()
            except OSError:
                pass
        elif stdin_kind == "file":
            stdin.close()
        out.close()
        err_thread.join(10)
        err.close()
        rc = proc.returncode
        dev = None
        if c.sandbox and not hung:
            try:
                with open(os.path.join(ctx.io, "sandbox.json")) as fp:
                    sb = json.load(fp)
                rc, dev = sb["rc"], (sb["before"], sb["after"])
            except (OSError, ValueError):
                pass
        with open(os.path.join(ctx.io, "stderr"), "rb") as fp:
            stderr = fp.read().decode(errors="replace")
        return self.classify(c, ctx, rc, hung, stderr, pre, dev, wall)

    def classify(self, c, ctx, rc, hung, stderr, pre, dev, wall):
        problems = {o: [] for o in OUTCOMES[1:]}
        # crash
        if rc is not None and rc < 0 and -rc not in ctx.sent and not hung:
            problems["crash"].append("killed by %s" % signal.Signals(-rc).name)
        if rc is not None and 128 < rc < 128 + 32 and rc - 128 in (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS,
                                                                     signal.SIGXFSZ) and rc not in c.status:
            problems["crash"].append("exit %d (a shell's report of death by %s)" % (rc, signal.Signals(rc - 128).name))
        m = SAN_RE.search(stderr)
        if m:
            line = next((l for l in stderr.splitlines() if SAN_RE.search(l)), m.group(0))
            problems["crash"].append("sanitizer: %s" % line.strip()[:160])
        # hang
        if hung:
            problems["hang"].append(hung)
        ok_status = rc in c.status
        # loss: pre-existing entries
        post = snapshot(ctx.dir)
        refused_but_ran = rc == 0 and 0 not in c.status  # not refused: its outputs are the run's, not a loss
        for rel, (kind, content) in (pre.items() if not refused_but_ran else ()):
            if rel in c.creates and rc is not None and rc in c.status and rc in (0, 129, 130, 143):
                continue  # a good run (or a stopped one) replaces it
            if rel not in post:
                problems["loss"].append("%s removed" % rel)
            elif post[rel] != (kind, content):
                problems["loss"].append("%s changed (%s -> %s)" % (rel, kind, post[rel][0]))
        if dev:
            before, after = dev
            for n in set(before) | set(after):
                if before.get(n) != after.get(n):
                    problems["loss"].append("/dev/%s: %s -> %s" % (n, before.get(n), after.get(n)))
        new = sorted(set(post) - set(pre))
        if not refused_but_ran and not hung:
            allowed = set(c.creates) if rc in c.status else set()
            for rel in new:
                if rel in allowed or any(re.fullmatch(k, rel) for k in c.keep):
                    continue
                problems["loss"].append("left behind: %s" % (rel if len(rel) < 60 else rel[:57] + "..."))
        if ok_status and not hung:
            for rel in c.creates:
                if rel not in post:
                    problems["loss"].append("expected output %s missing" % rel[:60])
            if c.check and not problems["loss"]:
                try:
                    why = c.check(ctx)
                except Exception as e:  # a check that cannot read its file
                    why = "check failed: %r" % e
                if why:
                    problems["loss"].append(why)
        # status
        if not ok_status and not hung and not problems["crash"]:
            problems["wrong status"].append("exit %s, expected %s" % (rc, "/".join(map(str, c.status))))
        # the message
        # AddressSanitizer's note when its allocator returns NULL, and the OpenMP runtime's own line about a
        # bad OMP_NUM_THREADS (printed when the library loads, before main: docs/environment.md)
        lines = [l for l in stderr.splitlines()
                 if not re.match(r"==\d+==WARNING: AddressSanitizer failed to allocate|libgomp: ", l)]
        if ok_status and rc == 2:
            text = [l for l in lines if l.strip()]
            if len(text) != 1:
                problems["unclear"].append("%d stderr lines: %r" % (len(text), "\n".join(text)[:240]))
            elif not text[0].startswith("murmur: "):
                problems["unclear"].append("not 'murmur: ...': %r" % text[0][:200])
            else:
                missing = [n for n in c.needles if n not in text[0]]
                if missing:
                    problems["unclear"].append("line %r does not name %r" % (text[0][:200], missing[0][:60]))
        if ok_status and c.stop_line and rc and rc > 0:
            mlines = [l for l in lines if l.startswith("murmur: ")]
            stops = [l for l in mlines if STOP_RE.search(l)]
            if len(stops) != 1 or any(LOST_RE.search(l) for l in mlines):
                problems["unclear"].append("expected one line saying it was stopped, got %r" % "\n".join(mlines)[:240])
        outcome = next((o for o in OUTCOMES[1:] if problems[o]), "passed")
        detail = "; ".join(p for o in OUTCOMES[1:] for p in problems[o])
        return {"name": c.name, "cls": c.cls, "outcome": outcome, "detail": detail, "rc": rc,
                "wall": round(wall, 2), "stderr": stderr[-400:]}


def build_info(exe):
    bdir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(exe))))
    info = {"exe": os.path.relpath(os.path.abspath(exe), ROOT), "buildtype": "?", "sanitize": "?"}
    try:
        with open(os.path.join(bdir, "meson-info", "intro-buildoptions.json")) as fp:
            for o in json.load(fp):
                if o["name"] in ("buildtype", "b_sanitize"):
                    info["buildtype" if o["name"] == "buildtype" else "sanitize"] = str(o["value"])
    except (OSError, ValueError, KeyError):
        info["sanitize"] = "address" if is_asan(exe) else "none"
    for key, cmd in (("describe", ["git", "describe", "--always", "--dirty", "--tags"]),
                     ("commit", ["git", "rev-parse", "HEAD"])):
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        info[key] = r.stdout.strip() if r.returncode == 0 else "?"
    r = subprocess.run([*VALGRIND, exe, "--version"], capture_output=True, text=True)
    info["version"] = r.stdout.strip()
    return info


def summary_line(results):
    n = len(results)
    k = {o: sum(1 for r in results if r["outcome"] == o) for o in OUTCOMES}
    return "%d cases: %d passed, %d crashes, %d hangs, %d losses, %d wrong statuses, %d unclear" % (
        n, k["passed"], k["crash"], k["hang"], k["loss"], k["wrong status"], k["unclear"])


BEGIN = "<!-- adversarial round: generated by tools/adversarial.py --table; do not edit by hand -->"
END = "<!-- end of the adversarial round -->"


def write_table(path, runs, quick):
    out = [BEGIN, "", "## The adversarial round", "",
           "`tools/adversarial.sh` (or `tools/adversarial.py MURMUR...`) runs every case below against the real "
           "program; `--quick` is a subset (meson test `adversarial`, suite `fault`). Each case has an expected "
           "status, the words its one error line must name, the files that must stay byte-identical, and the "
           "outputs a good run makes. Outcomes: **crash** (a signal the case did not send, or a sanitizer report), "
           "**hang** (over the case's time limit, or not stopped in time after a signal), **loss** (an older file "
           "changed or removed, a device or link replaced, a partial or temporary file left, an expected output "
           "missing or incomplete), **wrong status**, **unclear** (not exactly one line `murmur: ...` naming the "
           "bad value).", ""]
    for info, results, skipped in runs:
        out += ["### %s (%s, sanitizer: %s)" % (info["exe"], info["buildtype"], info["sanitize"]), "",
                "Run %s on `%s` (commit %s), %s, %s%s." % (
                    datetime.date.today().isoformat(), info["describe"], info["commit"][:12], info["version"],
                    "quick subset" if quick else "all cases",
                    ("; %d cases skipped: %s" % (len(skipped), "; ".join(sorted(set(skipped.values())))))
                    if skipped else ""), "",
                "| class | cases | passed | crash | hang | loss | wrong status | unclear | skipped |",
                "|---|---|---|---|---|---|---|---|---|"]
        total = {o: 0 for o in OUTCOMES}
        for cls, _ in CLASSES:
            rs = [r for r in results if r["cls"] == cls]
            sk = sum(1 for n, v in skipped.items() if n[0] == cls)
            row = [sum(1 for r in rs if r["outcome"] == o) for o in OUTCOMES]
            for o, v in zip(OUTCOMES, row):
                total[o] += v
            out.append("| %s | %d | %s | %d |" % (cls, len(rs), " | ".join(map(str, row)), sk))
        out.append("| **all** | %d | %s | %d |" % (len(results), " | ".join(str(total[o]) for o in OUTCOMES),
                                                    len(skipped)))
        out += ["", "`%s`" % summary_line(results), ""]
        failing = [r for r in results if r["outcome"] != "passed"]
        if failing:
            out += ["Failing cases (class: case: outcome: what happened):", ""]
            for cls, _ in CLASSES:
                fs = [r for r in failing if r["cls"] == cls]
                if not fs:
                    continue
                out.append("<details><summary>%s: %d failing</summary>" % (cls, len(fs)))
                out.append("")
                for r in fs:
                    out.append("- `%s`: %s: %s" % (r["name"].replace("`", "'").replace("|", "\\|"), r["outcome"],
                                                   r["detail"].replace("|", "\\|").replace("`", "'")[:300]))
                out += ["", "</details>", ""]
    out += ["### The classes", "", "| class | what it covers |", "|---|---|"]
    out += ["| %s | %s |" % (cls, what) for cls, what in CLASSES]
    out += ["", END, ""]
    text = "\n".join(out)
    try:
        with open(path) as fp:
            old = fp.read()
    except OSError:
        old = ""
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END) + 1:]
    else:
        new = old.rstrip("\n") + ("\n\n" if old else "") + text
    with open(path, "w") as fp:
        fp.write(new)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--sandbox-run":
        sep = sys.argv.index("--")
        return sandbox_main(sys.argv[2], sys.argv[sep + 1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("murmur", nargs="+", help="murmur executables (release, sanitizer ...)")
    ap.add_argument("--quick", action="store_true", help="the quick subset (meson test adversarial)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--filter", help="only cases whose name matches this regex")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--keep", action="store_true", help="keep each case's folder")
    ap.add_argument("--table", help="write the results into this markdown file (docs/reliability.md)")
    ap.add_argument("--json", help="write the results as JSON")
    ap.add_argument("--verbose", "-v", action="store_true")
    opts = ap.parse_args()

    cases = all_cases(opts.murmur[0])
    if opts.quick:
        cases = [c for c in cases if c.quick]
    if opts.filter:
        cases = [c for c in cases if re.search(opts.filter, c.name)]
    if opts.list:
        for c in cases:
            print("%-8s %s%s" % (c.cls, c.name, "  [quick]" if c.quick else ""))
        print("%d cases (%s)" % (len(cases), ", ".join("%s %d" % (k, sum(1 for c in cases if c.cls == k))
                                                       for k, _ in CLASSES)))
        return 0
    dev_before = real_dev_check(repair=True)
    if dev_before:
        print("warning: /dev was damaged before the round, repaired: %s" % dev_before, file=sys.stderr)

    all_results, runs = [], []
    for exe in opts.murmur:
        runner = Runner(exe, opts)
        info = build_info(exe)
        label = "%s (%s%s)" % (info["exe"], info["buildtype"], ", asan" if runner.asan else "")
        print("== %s: %d cases, %d workers" % (label, len(cases), opts.jobs), flush=True)
        todo, skipped = [], {}
        for c in cases:
            why = runner.skip_reason(c)
            if why:
                skipped[(c.cls, c.name)] = why
            else:
                todo.append(c)
        t0 = time.time()
        results = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            futs = {pool.submit(runner.run, c): c for c in todo}
            for f in concurrent.futures.as_completed(futs):
                c = futs[f]
                try:
                    r = f.result()
                except Exception as e:
                    r = {"name": c.name, "cls": c.cls, "outcome": "crash", "detail": "harness error: %r" % e,
                         "rc": None, "wall": 0, "stderr": ""}
                results.append(r)
                if r["outcome"] != "passed":
                    print("%-12s [%s] %s: %s" % (r["outcome"].upper(), r["cls"], r["name"], r["detail"][:400]),
                          flush=True)
                elif opts.verbose:
                    print("passed       [%s] %s (%.1f s)" % (r["cls"], r["name"], r["wall"]), flush=True)
        order = {c.name: i for i, c in enumerate(todo)}
        results.sort(key=lambda r: order[r["name"]])
        dev_after = real_dev_check(repair=True)
        if dev_after:
            print("LOSS: the machine's /dev was changed during the round, repaired: %s" % dev_after, flush=True)
            results.append({"name": "the machine's /dev", "cls": "outputs", "outcome": "loss",
                            "detail": "changed: %s" % dev_after, "rc": None, "wall": 0, "stderr": ""})
        if skipped:
            print("skipped %d cases: %s" % (len(skipped), "; ".join(sorted(set(skipped.values())))))
        print("%s: %s (%.0f s)" % (label, summary_line(results), time.time() - t0), flush=True)
        for r in results:
            r["build"] = info["exe"]
        all_results += results
        runs.append((info, results, skipped))
    if opts.json:
        with open(opts.json, "w") as fp:
            json.dump([{"info": i, "results": r, "skipped": ["%s: %s" % k for k in s]} for i, r, s in runs], fp,
                      indent=1)
    if opts.table:
        write_table(opts.table, runs, opts.quick)
    line = summary_line(all_results)
    print(line)
    return 0 if all(r["outcome"] == "passed" for r in all_results) else 1


if __name__ == "__main__":
    sys.exit(main())
