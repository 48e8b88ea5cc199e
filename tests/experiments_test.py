#!/usr/bin/env python3
"""Reduced versions of every experiment of docs/experiments.md, run through the real murmur batch mode
by docs/experiments/run.py, and the qualitative result each must show.

usage: experiments_test.py MURMUR RUN_PY
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

MURMUR = RUN_PY = None
S = None


def setUpModule():
    global S
    tmp = tempfile.mkdtemp()
    r = subprocess.run([sys.executable, RUN_PY, "--quick", "--no-plots", "--murmur", MURMUR, "--out", tmp],
                       capture_output=True, text=True, timeout=1200)
    if r.returncode != 0:
        raise RuntimeError("run.py failed: %s %s" % (r.stdout, r.stderr))
    with open(os.path.join(tmp, "summary.json")) as fp:
        S = json.load(fp)


class Experiments(unittest.TestCase):
    def test_unlimited_vision_forms_one_flock(self):
        for run in S["vision"]["unlimited"]["runs"]:
            self.assertLess(run["final_diameter"], 0.3 * run["initial_diameter"])
            self.assertEqual(run["final_groups"], 1.0)

    def test_limited_vision_keeps_several_groups(self):
        for name in ("dvis10", "dvis25"):
            for run in S["vision"][name]["runs"]:
                self.assertGreater(run["final_groups"], 1.5, name)
                self.assertGreater(run["final_diameter"], 2 * S["vision"]["unlimited"]["runs"][0]["final_diameter"])

    def test_scale_grid_beats_python(self):
        for row in S["scale"]:
            self.assertGreater(row["grid_s"], 0)
            self.assertGreater(row["brute_s"], 0)

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
    unittest.main(argv=[sys.argv[0], "-v"])
