#!/usr/bin/env python3
"""The murmur program in batch mode, as a user runs it: outputs, determinism, and every kind of bad
input (exit status 2, one line on stderr naming the problem, no output file left behind).

usage: cli_test.py MURMUR PARAMETERS_MD
"""
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import unittest

from tempcase import TempCase

MURMUR = None
PARAMS_MD = None
# `meson test --setup valgrind` sets MURMUR_VALGRIND="valgrind ARGS": every murmur runs under it
VALGRIND = shlex.split(os.environ.get("MURMUR_VALGRIND", ""))


def run(*args, env=None, timeout=120, preset="classic"):
    """murmur with args; the tests are written for the classic preset (the library's defaults), so it
    goes first unless preset=None (murmur's own default) or args name one (a flag may be given once)."""
    e = dict(os.environ)
    if env:
        e.update(env)
    first = ["--preset", preset] if preset and "--preset" not in args else []
    return subprocess.run([*VALGRIND, MURMUR, *first, *args], capture_output=True, text=True, timeout=timeout, env=e)


def body(path):
    """A CSV murmur wrote without its '#' lines (how it was made: version, parameters, command line)."""
    with open(path) as fp:
        return "".join(l for l in fp.readlines() if not l.startswith("#"))


def read_csv(path):
    lines = body(path).splitlines()
    return lines[0], [l.split(",") for l in lines[1:]]


class Batch(TempCase):

    def test_help_version_list(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--steps", r.stdout)
        r = run("--version")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"^murmur \d+\.\d+\.\d+")
        r = run("--list-params")
        self.assertEqual(r.returncode, 0)
        for name in ("boids predators seed dt view_radius view_angle cohesion alignment separation "
                     "separation_radius min_speed max_speed bounds world_min world_max bounds_margin "
                     "bounds_turn perch ground perch_min perch_max goal goal_pos goal_weight wind wind_vel "
                     "scatter predator_radius predator_speed flee neighbour_search").split():
            self.assertRegex(r.stdout, r"(?m)^%s\s" % name)

    def test_experimental_rows_off_in_every_preset(self):
        # the rules tuning rounds tried and did not adopt are listed last, under their own heading, and no
        # preset sets them: each one's value under every preset is the library's (classic) value
        presets = re.findall(r"(?m)^([\w-]+): ", run("--list-presets").stdout)
        self.assertGreaterEqual(len(presets), 3)
        for preset in presets:
            r = run("--preset", preset, "--list-params", preset=None)
            self.assertEqual(r.returncode, 0, r.stderr)
            main, sep, rest = r.stdout.partition("\nexperimental: ")
            self.assertTrue(sep, preset)
            rows = [line.split() for line in rest.splitlines()[1:] if line.strip()]
            names = [row[0] for row in rows]
            for name in ("rim_pull", "surge_separation_radius", "escape_spread_radius"):
                self.assertIn(name, names)
                self.assertNotRegex(main, r"(?m)^%s\s" % name)
            for row in rows:
                self.assertEqual(row[2], row[3], "%s sets experimental %s" % (preset, row[0]))
            # the rules the presets use stay in the main table
            for name in ("cohesion", "centrality", "surge", "separation_nearest", "escape_radius"):
                self.assertRegex(main, r"(?m)^%s\s" % name)

    def test_parameters_doc_is_current(self):
        r = run("--list-params=markdown", preset=None)
        self.assertEqual(r.returncode, 0)
        with open(PARAMS_MD) as fp:
            doc = fp.read()
        self.assertEqual(doc, r.stdout,
                         "docs/parameters.md is stale: regenerate with murmur --list-params=markdown > docs/parameters.md")

    def test_batch_outputs(self):
        r = run("--steps", "50", "--boids", "300", "--export", self.p("e.csv"), "--metrics", self.p("m.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        head, rows = read_csv(self.p("m.csv"))
        # the first ten columns keep their names and order; time_s (issue 27) and issue 24's columns follow
        self.assertEqual(head, "tick,centre_x,centre_y,centre_z,diameter,polarisation,mean_neighbours,"
                               "nn_distance,perching,groups,time_s,thin_tilt,neighbour_turnover,at_speed_limit,"
                               "heading_changes,splits,merges,heading_changes_per_min,splits_per_min,merges_per_min,"
                               "falcon_distance,alarmed,falcon_state,falcon_near,falcon_nn")
        self.assertEqual([int(r[0]) for r in rows], list(range(51)))
        with open(self.p("m.csv")) as fp:
            dt = float(re.search(r"(?m)^# dt_s: (\S+)$", fp.read()).group(1))
        for row in rows:
            self.assertEqual(len(row), 25)
            self.assertAlmostEqual(float(row[10]), int(row[0]) * dt, places=5)
            self.assertTrue(0.0 <= float(row[5]) <= 1.0)
            self.assertGreaterEqual(int(row[9]), 1)
            self.assertTrue(0.0 <= float(row[11]) <= 90.0)
            self.assertEqual(float(row[12]), -1.0)  # 50 ticks: the 10 s window has not passed
            self.assertTrue(0.0 <= float(row[13]) <= 1.0)
        head, rows = read_csv(self.p("e.csv"))
        self.assertEqual(head, "kind,x,y,z,vx,vy,vz,perch,roll")
        self.assertEqual(len(rows), 300)
        self.assertTrue(all(r[0] == "boid" for r in rows))
        self.assertEqual(sorted(os.listdir(self.dir)), ["e.csv", "m.csv"])

    def test_falcon_events(self):
        # issue 26: --at switches the falcon on a live flock; --events logs its attacks, the state CSV
        # gains the escape column and the metrics the falcon's columns
        r = run("--steps", "400", "--boids", "400", "--at", "50:falcon=on", "--set", "falcon_setup=20",
                "--events", self.p("ev.csv"), "--metrics", self.p("m.csv"), "--export", self.p("e.csv"),
                preset="starling")
        self.assertEqual(r.returncode, 0, r.stderr)
        head, rows = read_csv(self.p("ev.csv"))
        self.assertEqual(head, "tick,time,event,bird,x,y,z,value,aux,count")
        kinds = [row[2] for row in rows]
        falcon = [row for row in rows if row[2] not in ("split", "merge")]
        self.assertEqual(falcon[0][2], "attack_start")
        self.assertEqual(int(falcon[0][0]), 50)
        self.assertIn("attack_end", kinds)
        self.assertTrue(set(kinds) <= {"attack_start", "lock_on", "catch", "attack_end", "wave", "copied", "hop", "part", "burst", "path", "closest", "split", "merge"})
        head, rows = read_csv(self.p("m.csv"))
        self.assertTrue(head.endswith(",falcon_distance,alarmed,falcon_state,falcon_near,falcon_nn"))
        state, alarmed = head.split(",").index("falcon_state"), head.split(",").index("alarmed")
        self.assertEqual({int(row[state]) for row in rows[:50]}, {0})
        self.assertTrue(any(float(row[alarmed]) > 0 for row in rows))
        self.assertTrue(all(0 <= float(row[alarmed]) <= 1 for row in rows))
        head, rows = read_csv(self.p("e.csv"))
        self.assertEqual(head, "kind,x,y,z,vx,vy,vz,perch,roll,escape")
        self.assertTrue(all(0 <= int(row[9]) <= 5 for row in rows))

    def test_init_round_trip_and_predators(self):
        r = run("--steps", "20", "--boids", "200", "--set", "predators=2", "--export", self.p("a.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run("--init", self.p("a.csv"), "--steps", "0", "--export", self.p("b.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(body(self.p("a.csv")), body(self.p("b.csv")))
        _, rows = read_csv(self.p("b.csv"))
        self.assertEqual(sum(1 for r in rows if r[0] == "predator"), 2)

    def test_params_file_and_set_precedence(self):
        with open(self.p("p.txt"), "w") as fp:
            fp.write("# a comment\n\nboids = 123   # trailing comment\nbounds=wrap\n")
        r = run("--params", self.p("p.txt"), "--steps", "1", "--export", self.p("a.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(read_csv(self.p("a.csv"))[1]), 123)
        r = run("--set", "boids=77", "--params", self.p("p.txt"), "--steps", "1", "--export", self.p("b.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(read_csv(self.p("b.csv"))[1]), 77)

    def test_same_seed_same_result_any_threads(self):
        outs = []
        for i, threads in enumerate(("1", "2", "4", "2")):
            path = self.p("s%d.csv" % i)
            r = run("--steps", "60", "--boids", "1500", "--seed", "9", "--set", "perch=on", "--set", "predators=2",
                    "--export", path, env={"MURMUR_THREADS": threads})
            self.assertEqual(r.returncode, 0, r.stderr)
            outs.append(body(path))
        self.assertTrue(all(o == outs[0] for o in outs))
        r = run("--steps", "60", "--boids", "1500", "--seed", "10", "--set", "perch=on", "--set", "predators=2",
                "--export", self.p("other.csv"))
        self.assertNotEqual(body(self.p("other.csv")), outs[0])

    def test_scheduled_changes(self):
        r = run("--steps", "20", "--boids", "300", "--at", "10:boids=50", "--at", "5:perch=on",
                "--export", self.p("a.csv"), "--metrics", self.p("m.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(read_csv(self.p("a.csv"))[1]), 50)
        # the metrics rows see the flock shrink at tick 10
        _, rows = read_csv(self.p("m.csv"))
        self.assertEqual(len(rows), 21)

    def test_outputs_resume_is_bit_identical(self):
        # 200 ticks at once, or 100, --resume, 100 more: the same state hash, for the classic and the
        # starling preset, with a change before the stop (in the state's parameters) and one after it
        def hash_of(r):
            self.assertEqual(r.returncode, 0, r.stderr)
            return re.search(r"state hash ([0-9a-f]+)", r.stderr).group(1)
        for preset in ("classic", "starling"):
            with self.subTest(preset=preset):
                common = ["--preset", preset, "--boids", "400", "--seed", "5", "--set", "view_angle=270"]
                full = hash_of(run(*common, "--steps", "200", "--at", "60:scatter=on", "--at", "150:scatter=off",
                                   "--set", "perch=on"))
                half = self.p(preset + "-half.csv")
                hash_of(run(*common, "--steps", "100", "--at", "60:scatter=on", "--at", "150:scatter=off",
                            "--set", "perch=on", "--export", half, "--save-params", self.p(preset + ".params")))
                with open(half) as fp:
                    text = fp.read()
                for line in ("# preset: " + preset, "# seed: 5", "# boids: 400", "# set: view_angle = 270",
                             "# set: scatter = on", "# tick: 100", "# time_s: "):
                    self.assertIn("\n" + line, text)
                self.assertRegex(text, r"# command: murmur --preset %s --boids 400 .*--export " % preset)
                m = self.p(preset + "-rest-m.csv")
                rest = run("--resume", half, "--steps", "100", "--at", "150:scatter=off", "--metrics", m, preset=None)
                self.assertEqual(hash_of(rest), full)
                # the metrics go on from the saved tick and time
                _, rows = read_csv(m)
                self.assertEqual([int(r[0]) for r in rows], list(range(100, 201)))
                self.assertLess(abs(float(rows[0][10]) - float(re.search(r"# time_s: (\S+)", text).group(1))), 1e-6)
                # --init takes the same file as a state at tick 0 (a new run): another hash
                self.assertNotEqual(hash_of(run("--init", half, "--steps", "100", preset=None)), full)
                # the parameter file repeats the run from its start
                again = run("--params", self.p(preset + ".params"), "--steps", "200", "--at", "60:scatter=on",
                            "--at", "150:scatter=off", preset=None)
                self.assertEqual(hash_of(again), full)
        # what --resume refuses: a file without the lines, flags it replaces, a change before its tick
        with open(self.p("plain.csv"), "w") as fp:
            fp.write("kind,x,y,z,vx,vy,vz,perch\nboid,1,2,3,0,0,1,0\n")
        for args, needle in ((["--resume", self.p("plain.csv")], "no '# preset:', '# tick:'"),
                             (["--resume", half, "--preset", "classic"], "excludes --init, --preset"),
                             (["--resume", half, "--at", "50:scatter=off"], "is before tick 100")):
            r = run(*args, "--steps", "1", preset=None)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(needle, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_signal_writes_outputs(self):
        # SIGINT, SIGTERM, SIGHUP: the run stops after the tick in progress and writes its outputs as
        # they stand (metrics through the last finished tick, that tick's state), exit 128 + N
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with self.subTest(sig=sig):
                x, y = self.p("x%d.csv" % sig), self.p("y%d.csv" % sig)
                proc = subprocess.Popen([*VALGRIND, MURMUR, "--steps", "100000000", "--boids", "20000", "--export", x,
                                         "--metrics", y], stderr=subprocess.PIPE, text=True)
                time.sleep(5.0 if VALGRIND else 1.0)  # valgrind takes a while to start
                proc.send_signal(sig)
                _, err = proc.communicate(timeout=60)
                self.assertEqual(proc.returncode, 128 + sig, err)
                m = re.search(r"stopped by SIG\w+ after (\d+) of 100000000 ticks", err)
                self.assertIsNotNone(m, err)
                done = int(m.group(1))
                header, rows = read_csv(y)
                self.assertTrue(header.startswith("tick,"))
                self.assertEqual([int(r[0]) for r in rows], list(range(done + 1)))
                _, state = read_csv(x)
                self.assertEqual(len(state), 20000)
                left = [f for f in os.listdir(self.dir) if "tmp" in f]
                self.assertEqual(left, [])


class BadInput(TempCase):
    """Each case: exit 2, one line on stderr containing `needle`, nothing written."""

    def write(self, name, data):
        with open(self.p(name), "wb") as fp:
            fp.write(data)
        return self.p(name)

    def bad(self, args, needle, outputs=True):
        extra = ["--export", self.p("out.csv"), "--metrics", self.p("met.csv")] if outputs else []
        before = set(os.listdir(self.dir))
        r = run(*args, *extra)
        self.assertEqual(r.returncode, 2, "%s: exit %d, stderr %r" % (args, r.returncode, r.stderr))
        lines = r.stderr.strip("\n").split("\n")
        self.assertEqual(len(lines), 1, "%s: expected one line, got %r" % (args, r.stderr))
        self.assertIn(needle, lines[0], args)
        self.assertTrue(lines[0].startswith("murmur: "))
        self.assertEqual(set(os.listdir(self.dir)), before, "%s left files behind" % (args,))
        return lines[0]

    def test_flags(self):
        self.bad(["--bogus"], "--bogus")
        self.bad(["--steps"], "missing value after --steps", outputs=False)
        self.bad(["--steps", "abc"], "'abc'")
        self.bad(["--steps", "-5"], "'-5'")
        self.bad(["--steps", "10", "--threads", "0"], "--threads")
        self.bad(["--steps", "10", "--size", "10x10"], "--size")
        self.bad(["--steps", "10", "--fps", "nan"], "--fps")
        self.bad(["--steps", "10", "--camera", "spin"], "--camera")
        self.bad(["--steps", "10", "--hud", "maybe"], "--hud")
        self.bad(["--steps", "10", "--quiet=1"], "--quiet")
        self.bad(["--steps", "10", "--force=yes"], "--force")
        self.bad(["--steps", "10", "--set", "world=huge"], "fixed|scale")
        self.bad(["--version=3"], "--version")
        self.bad(["--steps", "10", "--at", "x:scatter=on"], "--at")
        self.bad(["--steps", "10", "--at", "5:seed=3"], "seed")
        self.bad(["--steps", "10", "--at", "5:nothing=3"], "nothing")
        self.bad(["--steps", "10", "--at", "5:view_radius=-2"], "view_radius")
        self.bad(["--steps", "10", "--at", "5:min_speed=50"], "min_speed")
        self.bad(["--steps", "10", "--set", "falcon_gain=nan"], "falcon_gain")
        self.bad(["--steps", "10", "--set", "reaction_ticks=0"], "reaction_ticks")
        self.bad(["--steps", "10", "--set", "reaction_ticks=9"], "[1, 8]")
        self.bad(["--steps", "10", "--set", "reaction_ticks=2.5"], "reaction_ticks")
        self.bad(["--steps", "10", "--preset", "classic", "--set", "reaction_ticks=3"], "neighbours=topological")
        self.bad(["--steps", "10", "--set", "reaction_hold=neighbours"], "sums|list")
        self.bad(["--steps", "10", "--at", "5:reaction_hold=both"], "reaction_hold")
        self.bad(["--steps", "10", "--at", "5:falcon_strategy=below"], "above|behind|beside")
        self.bad(["--steps", "10", "--set", "falcon=on", "--set", "bounds=wrap"], "falcon")
        # filming and camera flags (issue 13)
        self.bad(["--steps", "10", "--ticks-per-frame", "0"], "--ticks-per-frame")
        self.bad(["--steps", "10", "--ticks-per-frame", "2.5"], "'2.5'")
        self.bad(["--steps", "10", "--speed", "-1"], "--speed")
        self.bad(["--steps", "10", "--speed", "inf"], "'inf'")
        self.bad(["--headless", "--frames", "1", "--speed", "2", "--ticks-per-frame", "3"], "--speed")
        self.bad(["--steps", "10", "--warmup", "-3"], "--warmup")
        self.bad(["--steps", "10", "--warmup", "5"], "--warmup")
        self.bad(["--steps", "10", "--crf", "64"], "--crf")
        self.bad(["--steps", "10", "--crf", "x"], "'x'")
        self.bad(["--steps", "10", "--preset", "quick"], "'quick'")
        self.bad(["--steps", "10", "--camera-pos", "1,2"], "--camera-pos")
        self.bad(["--steps", "10", "--camera-pos", "1,2,nan"], "'1,2,nan'")
        self.bad(["--steps", "10", "--look-at", "1,2,3,4"], "--look-at")
        self.bad(["--steps", "10", "--fov", "0"], "--fov")
        self.bad(["--steps", "10", "--fov", "171"], "[1, 170]")
        self.bad(["--steps", "10", "--screenshot-size", "8x8"], "--screenshot-size")
        self.bad(["--headless", "--frames", "1", "--camera-path", "p.txt", "--camera", "follow"], "--camera-path")
        self.bad(["--headless", "--frames", "3", "--screenshot-size", "64x64"], "--screenshot")

    def test_graphics_variables(self):
        # a graphics variable with a value no renderer takes: one line naming it and what is allowed,
        # exit 2, before any work (src/app/cli/env.c; docs/environment.md)
        for name, value, allowed in (("MURMUR_SPLAT", "yes", "0 or 1"), ("MURMUR_FRAME_CPU", "2", "0 or 1"),
                                     ("MURMUR_SHADOWS", "on", "0 or 1"),
                                     ("MURMUR_TINT_ALARM", "yes", "0 or 1")):
            with self.subTest(var=name):
                before = set(os.listdir(self.dir))
                r = run("--headless", "--frames", "1", "--boids", "10", env={name: value})
                self.assertEqual(r.returncode, 2, r.stderr)
                lines = r.stderr.strip("\n").split("\n")
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertIn("bad %s='%s': expected %s" % (name, value, allowed), lines[0])
                self.assertEqual(set(os.listdir(self.dir)), before)

    def test_values(self):
        cases = [
            (["--set", "nonsense=1"], "nonsense"),
            (["--set", "view_radius"], "name=value"),
            (["--set", "view_radius=-1"], "view_radius"),
            (["--set", "view_radius=nan"], "'nan'"),
            (["--set", "view_radius=inf"], "'inf'"),
            (["--set", "view_radius=abc"], "'abc'"),
            (["--set", "cohesion=1e400"], "cohesion"),
            (["--set", "view_angle=0"], "(0, 360]"),
            (["--set", "view_angle=361"], "(0, 360]"),
            (["--set", "dt=0"], "dt"),
            (["--set", "separation_radius=-0.5"], "separation_radius"),
            (["--set", "min_speed=20", "--set", "max_speed=10"], "min_speed"),
            (["--set", "world_min=10,10,10", "--set", "world_max=0,0,0"], "world_min"),
            (["--set", "world_max=1,2"], "world_max"),
            (["--set", "perch_min=50", "--set", "perch_max=10"], "perch_min"),
            (["--set", "bounds=box"], "soft|wrap|bounce|none"),
            (["--set", "perch=yes please"], "on|off"),
            (["--boids", "-5"], "'-5'"),
            (["--boids", "1e12"], "'1e12'"),
            (["--boids", "99999999999"], "boids"),
            (["--seed", "-1"], "seed"),
            # the starling parameters and presets
            (["--preset", "stirling"], "classic|starling|vision-report"),
            (["--set", "neighbours=nearest"], "metric|topological"),
            (["--set", "topo_k=0.5"], "[1, 20]"),
            (["--set", "topo_k=21"], "topo_k"),
            (["--set", "topo_k=nan"], "'nan'"),
            (["--set", "cruise_speed=-1"], "cruise_speed"),
            (["--set", "speed_tau=-0.1"], "speed_tau"),
            (["--set", "roost=maybe"], "on|off"),
            (["--set", "roost_pos=1,2"], "roost_pos"),
            (["--set", "roost_pos=1,inf,2"], "roost_pos"),
            (["--set", "roost_radius=-5"], "roost_radius"),
            (["--set", "roost_weight=-1"], "roost_weight"),
            (["--set", "roost_vertical=1e400"], "roost_vertical"),
            (["--set", "bank=sideways"], "on|off"),
            (["--set", "bank_rate=0"], "bank_rate"),
            (["--set", "max_turn=0"], "max_turn"),
            (["--set", "max_turn=1e9"], "max_turn"),
            (["--set", "hard_radius=-0.2"], "hard_radius"),
            (["--set", "hard_radius=0.2"], "neighbours=topological"),
            (["--preset", "starling", "--set", "bounds=wrap"], "bounds=wrap"),
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                self.bad(["--steps", "5", *args], needle)

    def test_params_files(self):
        self.bad(["--steps", "5", "--params", self.p("missing.txt")], "missing.txt")
        path = self.write("p1.txt", b"boids = 10\nview_radius = -3\n")
        self.bad(["--steps", "5", "--params", path], "p1.txt:2")
        path = self.write("p2.txt", b"just words\n")
        self.bad(["--steps", "5", "--params", path], "p2.txt:1")
        path = self.write("p3.txt", b"boids = 10\n\x00\x01\x02garbage\xff\n")
        self.bad(["--steps", "5", "--params", path], "p3.txt:2")
        path = self.write("p4.txt", b"unknown_thing = 4\n")
        self.bad(["--steps", "5", "--params", path], "unknown_thing")
        path = self.write("p5.txt", b"boids = 10\npreset = nope\n")
        self.bad(["--steps", "5", "--params", path], "p5.txt:2")

    def test_presets(self):
        r = run("--list-presets")
        self.assertEqual(r.returncode, 0)
        for name in ("classic:", "starling:", "vision-report:", "neighbours=topological"):
            self.assertIn(name, r.stdout)
        # starling is murmur's default preset (classic the library's); a preset line in a file is the
        # same as --preset
        a = run("--steps", "20", "--boids", "300", "--preset", "starling")
        path = self.write("pre.txt", b"preset = starling\nboids = 300\n")
        b = run("--steps", "20", "--params", path)
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertEqual(a.stderr.split("hash")[-1], b.stderr.split("hash")[-1])
        c = run("--steps", "20", "--boids", "300", "--preset", "classic")
        d = run("--steps", "20", "--boids", "300", preset=None)
        self.assertNotEqual(a.stderr.split("hash")[-1], c.stderr.split("hash")[-1])
        self.assertEqual(a.stderr.split("hash")[-1], d.stderr.split("hash")[-1])
        # --list-params gives the default preset's values beside the library's (classic)
        r = run("--list-params", preset=None)
        self.assertRegex(r.stdout, r"(?m)^name\s+type\s+starling\s+classic\s")
        self.assertRegex(r.stdout, r"(?m)^neighbours\s+enum\s+topological\s+metric\s")

    def test_state_files(self):
        head = b"kind,x,y,z,vx,vy,vz,perch\n"
        self.bad(["--steps", "5", "--init", self.p("missing.csv")], "missing.csv")
        cases = [
            ("short.csv", head + b"boid,1,2,3,0,0,0,0\nboid,1,2,3\n", "short.csv:3"),
            ("kind.csv", head + b"bird,1,2,3,0,0,0,0\n", "unknown kind"),
            ("nan.csv", head + b"boid,1,nan,3,0,0,0,0\n", "y is not a finite number"),
            ("inf.csv", head + b"boid,1,2,3,inf,0,0,0\n", "vx is not a finite number"),
            ("huge.csv", head + b"boid,1,2,3e39,0,0,0,0\n", "z is not a finite number"),
            ("perch.csv", head + b"boid,1,2,3,0,0,0,-4\n", "perch"),
            ("header.csv", b"x,y,z\n1,2,3\n", "header"),
            ("empty.csv", b"", "empty"),
            ("binary.csv", head + b"boid,1,2,3,0,0,0,0\n\x7fELF\x00\x00\x01\x02\x03\n", "binary.csv:3"),
            ("long.csv", head + b"boid," + b"1" * 5000 + b",2,3,0,0,0,0\n", "longer than"),
        ]
        for name, data, needle in cases:
            with self.subTest(file=name):
                path = self.write(name, data)
                self.bad(["--steps", "5", "--init", path], needle)

    def test_unwritable_outputs(self):
        t0 = time.time()
        self.bad(["--steps", "100000", "--export", "/nonexistent-dir/x.csv"], "/nonexistent-dir/x.csv", outputs=False)
        self.bad(["--steps", "100000", "--metrics", "/nonexistent-dir/m.csv"], "/nonexistent-dir/m.csv", outputs=False)
        self.assertLess(time.time() - t0, 20, "unwritable outputs must fail before the run")
        self.bad(["--steps", "5", "--export", self.dir], "directory", outputs=False)
        # a full disk
        if os.path.exists("/dev/full"):
            self.bad(["--steps", "5", "--boids", "100", "--export", "/dev/full"], "/dev/full", outputs=False)
            self.bad(["--steps", "5", "--boids", "100", "--metrics", "/dev/full"], "/dev/full", outputs=False)
        # a file system that refuses new files even to root
        self.bad(["--steps", "5", "--export", "/proc/murmur-out.csv"], "/proc/murmur-out.csv", outputs=False)

if __name__ == "__main__":
    MURMUR = os.path.abspath(sys.argv[1])
    PARAMS_MD = sys.argv[2]
    unittest.main(argv=[sys.argv[0], "-v"])
