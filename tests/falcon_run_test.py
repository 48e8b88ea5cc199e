#!/usr/bin/env python3
"""docs/falcon/run.py's patterns on constructed runs whose answer is known by hand: a flash expansion is
a jump of the nearest-neighbour distance of >= 1.25 over the second before the attack; a split, more
groups in the attack (and 2 s after) than at any tick of as long a window before; a wave, a fitted
front that reached >= 20% of the flock by copying (the `copied` event), not birds alarmed by the
falcon itself; the hop (each copy against the neighbour copied) read from the `hop` event; re-forming
judged on the attacked part (the `part` event: the birds alarmed in the attack), not the whole flock.

    falcon_run_test.py docs/falcon/run.py
"""
import importlib.util
import sys
import unittest

RUN = sys.argv.pop(1) if len(sys.argv) > 1 else "docs/falcon/run.py"
spec = importlib.util.spec_from_file_location("falcon_run", RUN)
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

N = 1000
START, END = 300, 350  # the attack's ticks


def metrics(nn_at=None, groups_before=1, groups_at=None):
    """Rows for ticks 0..2000: nn 1.0, polarisation 0.9, groups_before groups; nn_at / groups_at: {tick: value}."""
    rows = []
    for t in range(0, 2000):
        nn = (nn_at or {}).get(t, 1.0)
        g = (groups_at or {}).get(t, groups_before)
        rows.append({"tick": str(t), "nn_distance": str(nn), "polarisation": "0.9", "groups": str(g), "alarmed": "0.1"})
    return rows


def events(alarmed, copied, speed=15.0):
    ev = [{"tick": str(START), "event": "attack_start", "count": "1", "value": "0", "aux": "0"},
          {"tick": str(START + 20), "event": "lock_on", "count": "0", "value": "8", "aux": "0"},
          {"tick": str(END), "event": "attack_end", "count": str(alarmed), "value": "1", "aux": "0"},
          {"tick": str(END + 150), "event": "wave", "count": str(alarmed), "value": str(speed), "aux": "8"}]
    if copied is not None:
        ev.append({"tick": str(END + 150), "event": "copied", "count": str(copied),
                   "value": str(copied / alarmed if alarmed else 0), "aux": "0"})
    return ev


class Patterns(unittest.TestCase):
    def one(self, ev, me):
        rows = run.analyse(ev, me, N, 1, [])
        self.assertEqual(len(rows), 1)
        return rows[0]

    def test_class_by_the_speed_met(self):
        # the attack_end event's aux (branch react15): the speed the birds met, classed slow / medium / fast at
        # run.py's MET_SLOW (22) and MET_FAST (30) m/s; 0 (none came within escape_radius): no class
        for aux, want in (("0", None), ("21.9", "slow"), ("22", "medium"), ("29.5", "medium"), ("30", "fast"),
                          ("41.2", "fast")):
            ev = events(500, 400)
            ev[2]["aux"] = aux
            r = self.one(ev, metrics())
            self.assertEqual(r["met_class"], want, aux)
            self.assertEqual(r["met_speed"], float(aux) or None)

    def test_class_by_the_closest_approach(self):
        # the closest event (branch react16): the falcon's speed at its closest approach (aux) and the distance
        # (value), classed with the same bounds as the speed met; count -1 (no bird flew): no reading; absent
        # (binaries before it): no reading either, and the speed met's class stays
        for aux, want in (("21.9", "slow"), ("22", "medium"), ("30", "fast")):
            ev = events(500, 400)
            ev[2]["aux"] = "20"
            ev.insert(3, {"tick": str(END), "event": "closest", "count": "40", "value": "2.5", "aux": aux})
            r = self.one(ev, metrics())
            self.assertEqual((r["close_class"], r["close_speed"], r["close_m"]), (want, float(aux), 2.5))
            self.assertEqual(r["met_class"], "slow")
        ev = events(500, 400)
        ev.insert(3, {"tick": str(END), "event": "closest", "count": "-1", "value": "0", "aux": "0"})
        r = self.one(ev, metrics())
        self.assertEqual((r["close_class"], r["close_speed"], r["close_m"]), (None, None, None))
        r = self.one(events(500, 400), metrics())
        self.assertEqual((r["close_class"], r["close_speed"]), (None, None))

    def test_flash_from_the_nn_jump(self):
        r = self.one(events(500, 400), metrics(nn_at={START + 10: 1.3}))
        self.assertAlmostEqual(r["nn_jump"], 1.3)
        self.assertTrue(r["flash"])
        r = self.one(events(500, 400), metrics(nn_at={START + 10: 1.2}))
        self.assertFalse(r["flash"])
        # a jump after the window (attack end + 2 s) is not the attack's
        r = self.one(events(500, 400), metrics(nn_at={END + 120: 1.5}))
        self.assertFalse(r["flash"])

    def test_flash_against_the_window_before(self):
        # the NN distance swings to 1.3 by itself before the attack and again in it: a jump of 1.3 over
        # the second before (the flash of the last rounds), none over the window before (flash_strict)
        r = self.one(events(500, 400), metrics(nn_at={START - 60: 1.3, START + 10: 1.3}))
        self.assertTrue(r["flash"])
        self.assertAlmostEqual(r["nn_jump_prior"], 1.0)
        self.assertFalse(r["flash_strict"])
        # a jump to 1.4 where the window before reached 1.1 at most: 1.27, a flash both ways
        r = self.one(events(500, 400), metrics(nn_at={START - 60: 1.1, START + 10: 1.4}))
        self.assertAlmostEqual(r["nn_jump_prior"], 1.4 / 1.1)
        self.assertTrue(r["flash"] and r["flash_strict"])
        # the window before is as long as the attack's (start .. end + 2 s = 150 ticks): a swing 200 ticks
        # before the start is outside it
        r = self.one(events(500, 400), metrics(nn_at={START - 200: 1.5, START + 10: 1.3}))
        self.assertTrue(r["flash_strict"])

    def test_split_against_the_window_before(self):
        r = self.one(events(500, 400), metrics(groups_at={START + 30: 2}))
        self.assertTrue(r["split"])
        # the groups flicker to 2 before the attack as well: not a split
        r = self.one(events(500, 400), metrics(groups_at={START - 40: 2, START + 30: 2}))
        self.assertFalse(r["split"])

    def test_wave_needs_copied_birds(self):
        # 90% alarmed, but only 10% by copying: the falcon alarmed the rest itself (a flash, no wave)
        r = self.one(events(900, 100), metrics())
        self.assertFalse(r["wave"])
        self.assertEqual(r["copied"], 100)
        # 30% copied: a wave
        self.assertTrue(self.one(events(400, 300), metrics())["wave"])
        # exactly 20% copied counts
        self.assertTrue(self.one(events(400, 200), metrics())["wave"])
        # no front fitted (speed 0): no wave, however many copied
        self.assertFalse(self.one(events(900, 800, speed=0.0), metrics())["wave"])
        # an older binary without the copied event: the birds alarmed, as the last rounds counted
        self.assertTrue(self.one(events(900, None), metrics())["wave"])

    def test_hop_read_from_the_event(self):
        ev = events(400, 300) + [{"tick": str(END + 150), "event": "hop", "count": "300", "value": "1.5",
                                  "aux": "0.09", "x": "2.5"}]
        r = self.one(ev, metrics())
        self.assertEqual((r["hop_m"], r["hop_s"], r["hop_k"]), (1.5, 0.09, 2.5))
        # no copies: no hop
        ev[-1] = dict(ev[-1], count="0", value="0", aux="0", x="0")
        self.assertIsNone(self.one(ev, metrics())["hop_m"])

    def test_flash_read_locally_along_the_path(self):
        # the whole flock's NN distance does not move (metrics(): 1.0 throughout), but the 200 birds the
        # falcon passed within 10 m opened up by 1.4x (their nearest neighbours 0.5 s after the attack
        # against at its start; the path event), the rest by 0.95x: a flash expansion where it passed
        def path(value, aux, count):
            return events(500, 300) + [{"tick": str(END + 150), "event": "path", "count": str(count),
                                        "value": str(value), "aux": str(aux)},
                                       {"tick": str(END + 150), "event": "burst", "count": "150",
                                        "value": "0.9", "aux": "0.95", "x": "0"}]
        r = self.one(path(1.4, 0.95, 200), metrics())
        self.assertFalse(r["flash"])
        self.assertTrue(r["flash_local"])
        self.assertEqual((r["path"], r["path_rest"], r["path_birds"]), (1.4, 0.95, 200))
        self.assertEqual((r["burst"], r["burst_copied"], r["burst_birds"]), (0.9, 0.95, 150))
        # 1.2x: not a flash; exactly 1.25 counts
        self.assertFalse(self.one(path(1.2, 1.0, 200), metrics())["flash_local"])
        self.assertTrue(self.one(path(1.25, 1.0, 200), metrics())["flash_local"])
        # the falcon passed no bird within 10 m (count 0): not a flash
        r = self.one(path(0.0, 1.1, 0), metrics())
        self.assertIsNone(r["path"])
        self.assertFalse(r["flash_local"])
        s = run.summary([self.one(path(1.4, 0.95, 200), metrics()), self.one(path(1.1, 1.0, 200), metrics())])
        self.assertAlmostEqual(s["flash_local_share"], 0.5)
        self.assertAlmostEqual(s["path_median"], 1.25)
        # an older binary without the event: not judged
        self.assertIsNone(self.one(events(500, 300), metrics())["flash_local"])

    def test_reaction_counted_apart(self):
        # the falcon's nearest approach while attacking (falcon_state 1 or 2) from the metrics'
        # falcon_distance: 30 m at its closest: not reached, whatever else; 8 m: reached. A reaction: the
        # whole flock's NN distance up 1.25x (tick 340) or more groups; the path's birds opening up too
        # (reacted_local); neither: no reaction
        def me(closest, nn_at=None, groups_at=None):
            rows = metrics(nn_at=nn_at, groups_at=groups_at)
            for r in rows:
                t = int(r["tick"])
                attacking = START <= t <= END
                r["falcon_state"] = "2" if attacking else "4"
                r["falcon_distance"] = str(closest if t == START + 25 else (40.0 if attacking else 5.0))
            return rows
        far = self.one(events(500, 300), me(30.0))
        self.assertAlmostEqual(far["falcon_min_m"], 30.0)  # the 5 m outside the attack do not count
        self.assertFalse(far["reached"])
        self.assertFalse(far["reacted"])
        near = self.one(events(500, 300), me(8.0, nn_at={340: 1.3}))
        self.assertTrue(near["reached"] and near["reacted"] and near["reacted_local"])
        self.assertTrue(self.one(events(500, 300), me(8.0, groups_at={330: 2}))["reacted"])
        path = events(500, 300) + [{"tick": str(END + 150), "event": "path", "count": "200", "value": "1.4",
                                    "aux": "1.0"}]
        r = self.one(path, me(8.0))
        self.assertFalse(r["reacted"])
        self.assertTrue(r["reacted_local"])
        # binaries without the falcon_distance column: not judged
        self.assertIsNone(self.one(events(500, 300), metrics())["falcon_min_m"])

    def test_reaction_near_the_falcon(self):
        # the metrics' birds near the falcon (falcon_near, falcon_nn; branch react11): the whole flock's NN
        # distance stays 1.0; near the falcon 30 birds at 1.0 m, then at tick 330 at 1.5 m (opened, 1.5 >= 1.4),
        # or at 0.7 m (closed up, <= 0.8); 10 birds near at 1.5 m are too few to judge (NEAR_MIN 20); 1.3 m
        # is neither (the control's birds reached 1.31 by themselves). The reading is left as it is
        def me(nn, birds=30):
            rows = metrics()
            for r in rows:
                t = int(r["tick"])
                near = START <= t <= END
                r["falcon_near"] = str(birds if near else 0)
                r["falcon_nn"] = str((nn if t == 330 else 1.0) if near else 0.0)
            return rows
        r = self.one(events(500, 300), me(1.5))
        self.assertAlmostEqual(r["near_max"], 1.5)
        self.assertTrue(r["opened_near"] and r["reacted_near"] and r["reacted_any"])
        self.assertFalse(r["closed_near"] or r["reacted"])
        r = self.one(events(500, 300), me(0.7))
        self.assertAlmostEqual(r["near_min"], 0.7)
        self.assertTrue(r["closed_near"] and r["reacted_near"] and not r["opened_near"])
        self.assertFalse(self.one(events(500, 300), me(1.5, birds=10))["reacted_near"])
        self.assertFalse(self.one(events(500, 300), me(1.3))["reacted_near"])
        # binaries without the columns: not judged
        r = self.one(events(500, 300), metrics())
        self.assertIsNone(r["near_max"])
        self.assertFalse(r["reacted_near"])

    def test_copied_flights_are_not_a_wave(self):
        # 300 birds copied (30%), but 150 of them copied a flight from the falcon's path (the burst event's
        # x): 15% copied a manoeuvre, no wave; with 50 flights, 25%: a wave
        def ev(flights):
            return events(500, 300) + [{"tick": str(END + 150), "event": "burst", "count": "100", "value": "1.3",
                                        "aux": "1.1", "x": str(flights)}]
        r = self.one(ev(150), metrics())
        self.assertEqual(r["flights"], 150)
        self.assertFalse(r["wave"])
        self.assertTrue(self.one(ev(50), metrics())["wave"])

    def test_recovery_of_the_attacked_part(self):
        # the whole flock flies at 0.9 throughout (metrics()); the attacked part (600 birds) was at 0.88
        # at the attack's start, falls to 0.5 and is back to 0.85 4 s after the attack's end, to 0.88
        # (its level before) after 6 s, and at 0.95 from 10 s on
        def part(t):
            s = (t - END) * run.DT
            return 0.5 if s < 4 else (0.86 if s < 6 else (0.9 if s < 10 else 0.95))
        ev = events(600, 500) + [{"tick": str(t), "event": "part", "count": "600", "value": str(part(t)),
                                  "aux": "0.88"} for t in range(END, END + 1501, 25)]
        r = self.one(ev, metrics())
        self.assertAlmostEqual(r["part_recovery_s"], 4.0)
        self.assertAlmostEqual(r["part_recovery_rel_s"], 6.0)
        self.assertAlmostEqual(r["part_polarisation_before"], 0.88)
        self.assertAlmostEqual(r["part_polarisation_after"], 0.95)
        s = run.summary([r])
        self.assertEqual((s["part_polarised_before"], s["part_polarised_recovered_30s"]), (1, 1))
        # never back within the 30 s: not recovered; samples after 30 s are not read
        ev = events(600, 500) + [{"tick": str(t), "event": "part", "count": "600", "value": "0.6" if t <= END + 1500
                                  else "0.95", "aux": "0.88"} for t in range(END, END + 1601, 25)]
        r = self.one(ev, metrics())
        self.assertIsNone(r["part_recovery_s"])
        self.assertEqual(run.summary([r])["part_polarised_recovered_30s"], 0)
        # no part event (an older binary): nothing judged
        r = self.one(events(600, 500), metrics())
        self.assertIsNone(r["part_polarisation_before"])
        self.assertEqual(run.summary([r])["part_measured"], 0)


if __name__ == "__main__":
    unittest.main()
