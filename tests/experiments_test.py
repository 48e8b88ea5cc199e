#!/usr/bin/env python3
"""Reduced versions of every experiment of docs/experiments.md, run through the real murmur batch mode
by docs/experiments/run.py, and the qualitative result each must show.

usage: experiments_test.py MURMUR RUN_PY
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

MURMUR = RUN_PY = None
S = None
V = None  # docs/experiments/vision.py


def setUpModule():
    global S
    tmp = tempfile.mkdtemp()
    r = subprocess.run([sys.executable, RUN_PY, "--quick", "--no-plots", "--murmur", MURMUR, "--out", tmp],
                       capture_output=True, text=True, timeout=1200)
    if r.returncode != 0:
        raise RuntimeError("run.py failed: %s %s" % (r.stdout, r.stderr))
    with open(os.path.join(tmp, "summary.json")) as fp:
        S = json.load(fp)


def runs(name):
    return {r["seed"]: r for r in S["vision"]["main"][name]["runs"]}


class Detectors(unittest.TestCase):
    """The event detectors of docs/experiments/vision.py on constructed series with known answers."""

    def test_diameter_minima(self):
        t = [0.5 * i for i in range(401)]
        dips = [21.5, 42.5, 79.0, 165.5]
        d = []
        for x in t:
            v = 50.0 + max(0.0, 26.0 - 2.6 * x)            # a falling start: not a minimum
            v -= sum(10.0 * math.exp(-((x - c) / 4.0) ** 2) for c in dips)
            v -= 2.0 * math.exp(-((x - 120.0) / 3.0) ** 2)  # too shallow to count
            v += 0.8 * math.sin(7.3 * x)                    # jitter
            v -= 0.05 * max(0.0, x - 190.0)                 # a falling end: not a minimum
            d.append(v)
        found = V.diameter_minima(t, d)
        self.assertEqual(len(found), len(dips), found)
        for f, c in zip(found, dips):
            self.assertLessEqual(abs(f - c), 1.0, found)
        self.assertEqual(V.diameter_minima(t, [50.0 - 0.1 * x for x in t]), [])

    def test_flock_events(self):
        t = [0.5 * i for i in range(401)]

        def frac(x):
            if x < 30:
                return 0.3
            if 50 <= x < 51:
                return 0.6          # shorter than HOLD: no split
            if x < 80:
                return 0.95
            if x < 120:
                return 0.5
            if x < 130:
                return 0.8          # inside the band: no event
            if 150 <= x < 151:
                return 0.85         # inside the band: no event
            return 0.92
        merges, splits = V.flock_events(t, [frac(x) for x in t])
        self.assertEqual(merges, [30.0, 130.0])
        self.assertEqual(splits, [80.0])

    def test_components(self):
        pts = [(0, 0), (5, 0), (10, 0), (50, 50), (55, 52), (150, 10)]
        self.assertEqual(V.components(pts, 6.0), [3, 2, 1])
        self.assertEqual(V.components(pts, 4.0), [1, 1, 1, 1, 1, 1])
        self.assertAlmostEqual(V.diameter([(0, 0), (2, 0)]), 1.0)
        self.assertAlmostEqual(V.polarisation([(0, 0, 1, 0), (0, 0, -1, 0)]), 0.0)


class Reference(unittest.TestCase):
    """docs/experiments/reference.py (the report's model in Python) run synchronously is murmur's plane
    mode: the same start, 40 ticks, positions and velocities agree to float precision; run in place it
    is a different model (the point of having it)."""

    def run_both(self, dvis, order):
        ticks = 40
        st = V.initial_state(7, 100, 200.0, V.TABLE1["vmax"])
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "s.csv")
        V.write_state(path, st)
        r = subprocess.run([MURMUR, *V.murmur_args(dvis, 0.04), "--init", path, "--steps", str(ticks),
                            "--export", path], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        mine = V.read_state(path)
        os.remove(path)
        os.rmdir(tmp)
        p = {"dvis": dvis or 1e9, "dsep": V.TABLE1["dsep"], "ssep": V.TABLE1["ssep"], "salign": 0.04,
             "scoh": V.TABLE1["scoh"], "vmax": V.TABLE1["vmax"], "dt": V.DT, "box": 200.0,
             "margin": V.MARGIN, "vcorr": V.VCORR}
        V.reference.simulate(st, p, ticks, order, ticks, lambda t, s: None)
        return max(abs(a[k] - b[k]) for a, b in zip(mine, zip(*st)) for k in range(4))

    def test_sync_is_murmur(self):
        for dvis in (None, 10.0):
            self.assertLess(self.run_both(dvis, "sync"), 1e-2, dvis)

    def test_inplace_differs(self):
        self.assertGreater(self.run_both(None, "inplace"), 1e-1)


class Experiments(unittest.TestCase):
    def test_unlimited_vision_one_compact_flock(self):
        # every seed: the diameter falls to under a quarter of the start, and after t = 40 s the largest
        # flock holds at least 90% of the boids at least 90% of the time
        for seed, r in runs("unlimited").items():
            self.assertLess(r["final_diameter"], 0.25 * r["initial_diameter"], seed)
            self.assertGreaterEqual(r["one_flock_fraction"], 0.9, seed)

    def test_short_vision_more_groups(self):
        # the same linking distance (10 wu) for both: Dvis = 10 ends in several times more flocks
        inf = runs("unlimited")
        for seed, r in runs("dvis10").items():
            self.assertGreater(r["final_flocks"], 3 * inf[seed]["final_flocks"], seed)
            self.assertLess(r["main_fraction"], 0.5, seed)

    def test_dvis25_merges(self):
        merges = [t for r in runs("dvis25").values() for t in r["merges"]]
        self.assertGreaterEqual(len(merges), 1)

    def test_scale_grid_beats_python(self):
        # both searches at least 10x faster than the case study's published time for as many ticks
        for row in S["scale"]:
            python = row["python_s"] * row["ticks"] / 1000.0
            self.assertGreater(row["grid_s"], 0)
            self.assertLess(row["grid_s"], 0.1 * python, row)
            self.assertLess(row["brute_s"], 0.1 * python, row)

    def test_perching_lands_and_takes_off(self):
        p = S["perching"]
        self.assertGreater(p["max_fraction"], 0.0)
        self.assertGreater(p["ticks_with_takeoffs"], 0)

    def test_scatter_spreads_then_reforms(self):
        s = S["scatter"]
        self.assertGreater(s["max_diameter_while_on"], 1.1 * s["diameter_at_on"])
        self.assertLess(s["min_diameter_after"], 0.9 * s["max_diameter_while_on"])

    def test_boids_keep_away_from_predators(self):
        p = S["predators"]
        # fleeing boids leave the predators' reach: fewer of them inside predator_radius, and the nearest
        # boid of a predator is farther away than when boids ignore predators
        self.assertLess(p["predators"]["boids_inside_radius"], 0.7 * p["predators_noflee"]["boids_inside_radius"])
        self.assertGreater(p["predators"]["predator_nearest_boid"], p["predators_noflee"]["predator_nearest_boid"])

    def test_goal_pulls_the_flock(self):
        g = S["goal"]
        self.assertLess(g["final_distance"], 0.4 * g["distance_at_on"])


if __name__ == "__main__":
    MURMUR, RUN_PY = os.path.abspath(sys.argv[1]), sys.argv[2]
    sys.path.insert(0, os.path.dirname(os.path.abspath(RUN_PY)))
    import vision as V  # noqa: E402
    unittest.main(argv=[sys.argv[0], "-v"])
