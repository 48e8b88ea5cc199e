#!/usr/bin/env python3
"""Falcon attacks on murmur's starling flock, measured against the field (docs/falcon.md, issue 26).

    docs/falcon/run.py                   # the reporting run (REPORT_SEEDS, 121-123 since react29): N = 500, 2000, 8000,
                                         # strategies x attack speeds at N = 2000, and the control
    docs/falcon/run.py --tuning [--cases sizes|strategies] [--set NAME=VALUE ...]
                                         # the same cases on the tuning seeds (101, 102, 103), with
                                         # the given parameters: every trial while building
    docs/falcon/run.py --quick           # one small run (a smoke test)

Each run is one batch command and one attack: the starling preset settles for --settle ticks (2500:
50 s), then `--at` switches the falcon on (falcon_wait 60 s: no second attack in the run) and the run
goes on for --attack ticks (1900: 38 s, the attack and 30 s after it) with --events and --metrics.
Per attack (the events' attack_start .. attack_end) it reads: the wave's speed (the `wave` event:
least squares of alarm time against distance, each copied bird against the first bird of its own
front, in the flock's frame; docs/falcon.md) and the flock's speed, the largest share of birds
alarmed, the jump of the nearest-neighbour distance (largest in the attack and 2 s after it, over the
mean of the second before it), more groups than before (a split: the most groups in the attack and
2 s after it against the most in as long a window before it), lock-on and catch, and the time
after the attack until the polarisation is back to >= 0.85 and until it is back to its level before
the attack (the mean of the second before), and its mean over the last second of the 30 s after the
attack. The pattern of an attack: a flash expansion (NN jump >= 1.25), a wave (a front fitted and
>= 20% of the birds alarmed by copying a neighbour: the `copied` event; until this round, alarmed at
all, which the birds fleeing the falcon's path made true in every attack), a split. The control runs the same attacks with
birds that neither see nor flee the falcon (escape_radius 0, escape_flee_time 0): how often the
flock's own fluctuations pass for a flash expansion or a split. Since branch wave7 it also reads the
`path` event (the birds the falcon passed within 10 m: their nearest neighbours 0.5 s after the attack's
end over at its start; >= 1.25 is a flash expansion read locally, `flash_local`), the `burst` event (the
alarmed birds' nearest neighbours at the end of their first manoeuvre over at their alarm) and leaves
the birds that copied a flight from the falcon's path out of the wave. Writes DIR/results_KIND.json and
DIR/results_KIND.md (default DIR: docs/falcon); docs/falcon/figures.py draws the figures from the
json. Standard library only; 2 runs at a time (--jobs).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DT = 0.02  # the starling preset's tick

# declared before any run: tune on TUNING_SEEDS only, report on REPORT_SEEDS (run once). This round
# (issue 26, branch wave): tuning seeds 101, 102, 103, reporting seeds 11, 12, 13, declared at 21:05
# UTC before any run on them (the last rounds reported seeds 1, 2, 3; their rows are kept as
# results_reporting_lift.json)
TUNING_SEEDS = [101, 102, 103]
REPORT_SEEDS = [11, 12, 13]
# declared at 21:41 UTC after the reporting run (which gave 27% from N = 500 to 8,000 against 10% on
# the tuning seeds), before any run on them: more attacks per size, the sizes only, reported whatever
# they show (--supplement)
SUPPLEMENT_SEEDS = [14, 15, 16, 17, 18, 19]
# this round (issue 26, branch mix, from main 8752ed7): tuned on TUNING_SEEDS only; reported on the
# same REPORT_SEEDS and SUPPLEMENT_SEEDS again, declared at 00:05 UTC before any run of this branch's
# code on them, so that each attack pairs with main's (results_*_ground.json): until the falcon
# comes (tick 2500) the flocks are the same
# this round (issue 26, branch wave6, from main 086c6d1): tuned on TUNING_SEEDS only (escape_copy_dist);
# reported on the same REPORT_SEEDS and SUPPLEMENT_SEEDS again, declared at 03:15 UTC before any run of
# this branch's code on them, so that each attack pairs with main's on the merged preset
# (results_*_order.json). A run started at 03:15 on an earlier state of the branch (the rate summed over
# the neighbours, the flock's frame) was stopped at 03:19 before it wrote anything, unread; the
# reporting run and the supplement ran on commit 50245dd's code from 03:39 UTC
# this round (issue 26, branch wave7, from main cc603d5): tuned on TUNING_SEEDS only (escape_copy_speed,
# escape_copy_fade, escape_copy_flight, escape_flee_time); reported on the same REPORT_SEEDS and
# SUPPLEMENT_SEEDS again, declared at 06:32 UTC before any run of this branch's code on them, so that each
# attack pairs with main's (results_*_wave6.json: main's code at cc603d5 is branch wave6's). Run twice:
# at 06:41 UTC on commit 6119949's code (escape_copy_fade 0.02; results_*_wave7_fade.json) and at 07:01
# on commit cc7702d's (escape_copy_fade 0, after a trial on the tuning seeds; results_*_wave7.json)
# this round (issue 26, branch wave8, from main 11cda72): tuned on TUNING_SEEDS only (escape_alarm_speed);
# reported on the same REPORT_SEEDS and SUPPLEMENT_SEEDS again, declared at 09:58 UTC before any run of this
# branch's code on them, so that each attack pairs with main's (results_*_wave7.json)
# this round (issue 26, branch open10, from main 19ad050): tuned on TUNING_SEEDS only (escape_part_speed,
# escape_part_accel, escape_part_speedup); reported on the same REPORT_SEEDS and SUPPLEMENT_SEEDS again, declared
# at 16:19 UTC before any run of this branch's code on them (results_*_open10.json)
# this round (issue 26, branch react11, from main ba3b85e): tuned on TUNING_SEEDS only (escape_vacuole, the
# readings near the falcon); NEW reporting seeds, declared at 19:26 UTC on 26 November before any run on them
# (11-19 had been seen in rounds 4-9): REPORT_SEEDS 21, 22, 23 and SUPPLEMENT_SEEDS 24-29 (run once)
REPORT_SEEDS = [21, 22, 23]
SUPPLEMENT_SEEDS = [24, 25, 26, 27, 28, 29]
# this round (issue 26, branch react12, from main a07de7b): tuned on TUNING_SEEDS only (escape_flash_speed,
# escape_flash_time; the vacuole's width re-checked); NEW reporting seeds, declared at 22:25 UTC on 26 November
# before any run on them (21-29 were seen in round 10, and seeds 25 and 27 of the supplement were re-run in this
# round to find why they did not re-form): REPORT_SEEDS 31, 32, 33 and SUPPLEMENT_SEEDS 34-39 (run once)
REPORT_SEEDS = [31, 32, 33]
SUPPLEMENT_SEEDS = [34, 35, 36, 37, 38, 39]
# this round (issue 26, branch react13, from main 370166f): tuned on TUNING_SEEDS only (escape_flash_hops 3, 6, 10;
# 10 kept); NEW reporting seeds, declared at 23:24 UTC on 26 November before any run on them (31-39 were reported in
# round 11, and 31, 37, 38, 39 re-run here one attack at a time to diagnose the re-forming misses): REPORT_SEEDS
# 41, 42, 43 and SUPPLEMENT_SEEDS 44-49 (run once), each paired with round 11's rule (escape_flash_hops=0)
REPORT_SEEDS = [41, 42, 43]
SUPPLEMENT_SEEDS = [44, 45, 46, 47, 48, 49]
# this round (issue 26, branch react14, from main df0b9c4): tuned on TUNING_SEEDS only (escape_wave_hops); NEW
# reporting seeds, declared at 01:11 UTC on 27 November before any run on them (41-49 were reported in round 12):
# REPORT_SEEDS 51, 52, 53 and SUPPLEMENT_SEEDS 54-59 (run once), each paired with main's rule (escape_wave_hops=0)
REPORT_SEEDS = [51, 52, 53]
SUPPLEMENT_SEEDS = [54, 55, 56, 57, 58, 59]
# and, declared at 01:55 UTC on 27 November before any run on them, MIX_SEEDS 61-66: the 27 attacks by strategy and speed
# at N = 2000 on more flocks (--mix, the pattern mix only; run once on the lead's 16-core machine, each paired with
# main's rule)
MIX_SEEDS = [61, 62, 63, 64, 65, 66]
# this round (issue 26, branch react19, from main 0b768c7): no tuning (round 16's escape_copy_speed 22 against main's
# 20); NEW reporting seeds, declared in docs/falcon/rounds.md (Round 18) before any run on them: REPORT_SEEDS 71, 72, 73 and
# SUPPLEMENT_SEEDS 74-79 (run once per rule, each paired with main's)
REPORT_SEEDS = [71, 72, 73]
SUPPLEMENT_SEEDS = [74, 75, 76, 77, 78, 79]
# this round (issue 26, branch react22, from main 2b63c40): tuned on TUNING_SEEDS only (escape_spread with
# escape_spread_falloff 2 and 3); NEW reporting seeds, declared in docs/falcon/rounds.md (Round 20) before any run on them:
# REPORT_SEEDS 81, 82, 83 (run once per rule: main's defaults and the candidate; no supplement)
REPORT_SEEDS = [81, 82, 83]
# this round (issue 26, branch react24, from main 84073d7): no tuning (react23's candidate escape_spread 15,
# escape_spread_radius 5, escape_spread_falloff 2 against main's defaults); NEW reporting seeds, declared in docs/falcon/rounds.md
# (Round 22) before any run on them (no results file holds 91-93): REPORT_SEEDS 91, 92, 93 (run once per rule; no supplement)
REPORT_SEEDS = [91, 92, 93]
# round 25 (issue 26, branch react27, from main eb7b2ef): no tuning (round 24's candidate escape_spread 15,
# escape_spread_radius 12.5, escape_spread_falloff 3 against main's defaults); NEW reporting seeds, declared in
# docs/falcon/rounds.md (Round 24) before any run on them (no json under docs holds 111-113: round24.py seeds):
# REPORT_SEEDS 111, 112, 113 (run once per rule; no supplement)
REPORT_SEEDS = [111, 112, 113]
# round 27 (issue 26, branch react29, from main b350b99): no tuning (round 26's candidate escape_spread 15,
# escape_spread_radius 12.5, escape_spread_falloff 3, escape_spread_speed 20 against main's defaults); NEW reporting
# seeds, declared in docs/falcon/rounds.md (Round 26) before any run on them (no json under docs holds 121-123:
# round26.py seeds): REPORT_SEEDS 121, 122, 123 (run once per rule; no supplement)
REPORT_SEEDS = [121, 122, 123]
SIZES = [500, 2000, 8000]
STRATEGIES = ["above", "behind", "beside"]
SPEEDS = [20, 30, 40]
# the field (issue 26; * from secondary summaries): Procaccini et al. 2011: waves 3.7 .. 25 m/s, mean
# 13.4; Storms et al. 2019: flash expansion more likely in fast attacks from above, waves at medium
# speed, *78% of attacks without a split
FIELD_WAVE = (3.7, 13.4, 25.0)
# the patterns: a flash expansion is a jump of the nearest-neighbour distance of at least FLASH_JUMP; a
# wave, a fitted front that reached at least WAVE_SHARE of the flock by copying
FLASH_JUMP = 1.25
WAVE_SHARE = 0.2
# the speed the birds met (branch react15): the falcon's own speed on the attack's first tick with a flying bird
# within escape_radius (the attack_end event's aux; 0 or absent: none came that near, no class). Each attack is
# classed by it as Storms et al. 2019 class hunts by the falcon's measured speed (their classes' bounds were not
# checked against the paper): slow under MET_SLOW, medium from MET_SLOW to under MET_FAST, fast from MET_FAST.
# The same bounds class the attacks a second time by the falcon's speed at its closest approach to a bird (the
# closest event, branch react16; declared in round 15's brief before it was measured): nearer the birds than the
# first sight, after the falcon has sped up in its stoop.
# Declared at 02:33 UTC on 27 November, before any re-classified result was looked at, from the model's own
# thresholds: under escape_alarm_speed (22 m/s) a bird that sees the falcon only turns away and is not copied
# (no wave can start); from escape_part_speed (30 m/s) a bird that sees the falcon coming straight at it parts
# (the startle, the burst), and escape_wave_hops' medium front is the band between them
MET_SLOW = 22.0
MET_FAST = 30.0


def met_class(v):
    if not v:
        return None
    return "slow" if v < MET_SLOW else ("medium" if v < MET_FAST else "fast")


# an attack reached the flock when the falcon came within REACH m of a bird while attacking (the metrics'
# falcon_distance; the starling preset's escape_radius: nearer, the birds can see it). The target "every
# attack makes the flock react" is read on those attacks; the others are counted apart (branch wave8)
REACH = 20.0
# the birds near the falcon (the metrics' falcon_near, falcon_nn, branch react11: the flying birds within 10 m
# of it, their mean nearest-neighbour distance): read at the ticks of the attack and the 2 s after it with at
# least NEAR_MIN birds near, over the whole flock's NN distance at that tick; the flock opened where the
# falcon is when that reached NEAR_OPEN (`opened_near`: a vacuole, a flash expansion along its path), drew
# together there when it fell to NEAR_CLOSED (`closed_near`: a blackening, a compaction); `reacted_near`,
# either. The thresholds were set on the control of the tuning seeds (birds blind to the falcon, the 27
# attacks by strategy and speed, results_tuning_react11_blind.json): there the birds near the falcon (the
# flock's border, where it passes) reached 1.04-1.31 of the flock's NN distance (1.25 or more in 6 of 27) and
# fell to 0.88-1.14, so 1.4 and 0.8 fire in none of them. The control of each run says how often they fire
NEAR_MIN = 20
NEAR_OPEN = 1.4
NEAR_CLOSED = 0.8
# the whole flock drew together (the field's blackening, a compaction): its NN distance fell to 1 / FLASH_JUMP
# of the second before or below at some tick of the attack and the 2 s after it (`compact`)


def murmur_path(given):
    for p in [given, os.path.join(ROOT, "build", "src", "app", "murmur")]:
        if p and os.path.exists(p):
            return p
    sys.exit("run.py: build murmur first (meson compile -C build) or give --murmur")


def read(path):
    with open(path) as fp:
        rows = [r for r in csv.reader(l for l in fp if not l.startswith("#"))]
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def one_run(murmur, n, seed, settle, attack, extra, tmp):
    tag = "n%d_s%d_%s" % (n, seed, "_".join(x.replace("=", "-") for x in extra) or "default")
    ev, me = os.path.join(tmp, tag + "_ev.csv"), os.path.join(tmp, tag + "_m.csv")
    cmd = [murmur, "--preset", "starling", "--boids", str(n), "--seed", str(seed), "--quiet",
           "--steps", str(settle + attack), "--at", "%d:falcon=on" % settle,
           "--set", "falcon_wait=60", "--events", ev, "--metrics", me]
    for x in extra:
        cmd += ["--set", x]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("run.py: %s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    return analyse(read(ev), read(me), n, seed, extra)


def analyse(events, metrics, n, seed, extra):
    m = {int(r["tick"]): r for r in metrics}
    ticks = sorted(m)
    attacks, cur = [], None
    for e in events:
        k, t = e["event"], int(e["tick"])
        if k == "attack_start":
            cur = {"start": t, "end": None, "wave": None, "flock_speed": None, "wave_birds": 0, "copied": None, "direct": None,
                   "hop_m": None, "hop_s": None, "hop_k": None, "part": [], "catch": False, "lock_on": False,
                   "burst": None, "burst_copied": None, "burst_birds": None, "flights": None,
                   "path": None, "path_rest": None, "path_birds": None, "met_speed": None,
                   "close_m": None, "close_speed": None}
            attacks.append(cur)
        elif cur is None:
            continue
        elif k == "attack_end":
            cur["end"] = t
            # the speed the birds met, m/s (branch react15; binaries before it write 0: None)
            cur["met_speed"] = float(e.get("aux") or 0) or None
        elif k == "closest":
            # the closest approach (branch react16): the falcon's speed on the attack's first tick with its least
            # distance to a flying bird (aux), and that distance (value); count -1: no bird flew
            if int(e["count"]) >= 0:
                cur["close_m"], cur["close_speed"] = float(e["value"]), float(e["aux"])
        elif k == "catch":
            cur["catch"] = True
        elif k == "lock_on":
            cur["lock_on"] = True
        elif k == "wave":
            cur["wave"] = float(e["value"]) or None
            cur["flock_speed"] = float(e["aux"])
            cur["wave_birds"] = int(e["count"])
        elif k == "copied":
            cur["copied"] = int(e["count"])
            cur["direct"] = int(float(e["aux"]))
        elif k == "part":
            # the birds alarmed in the attack: their polarisation every 0.5 s from the attack's end (value)
            # and at its start (aux)
            cur["part"].append((int(e["tick"]), float(e["value"]), float(e["aux"]), int(e["count"])))
        elif k == "burst":
            # the local burst: the birds' nearest neighbour at the end of their first manoeuvre over that at
            # their alarm, for the birds the falcon alarmed itself (value) and those that copied (aux)
            if int(e["count"]) > 0:
                cur["burst"] = float(e["value"])
            cur["burst_copied"] = float(e["aux"]) or None
            cur["burst_birds"] = int(e["count"])
            # the birds whose first alarm copied a neighbour's flight from the falcon's path (the burst
            # spreading; escape_copy_flight), not a manoeuvre (the wave of orientation)
            cur["flights"] = int(float(e.get("x") or 0))
        elif k == "path":
            # the flock along the falcon's path (the birds it passed within 10 m): their nearest neighbours
            # 0.5 s after the attack's end over at its start (value), the rest of the flock's (aux)
            if int(e["count"]) > 0:
                cur["path"] = float(e["value"])
            cur["path_rest"] = float(e["aux"]) or None
            cur["path_birds"] = int(e["count"])
        elif k == "hop":
            # the copies hop by hop: mean distance from the neighbour copied, mean time after its alarm,
            # mean number of neighbours the copier could copy then
            if int(e["count"]) > 0:
                cur["hop_m"], cur["hop_s"], cur["hop_k"] = float(e["value"]), float(e["aux"]), float(e["x"])
    out = []
    for a in attacks:
        if a["end"] is None:
            continue
        s, end = a["start"], a["end"]
        before = [float(m[t]["nn_distance"]) for t in range(s - 50, s) if t in m]
        pol0 = statistics.mean(float(m[t]["polarisation"]) for t in range(s - 50, s) if t in m) if before else None
        during = [float(m[t]["nn_distance"]) for t in range(s, end + 100) if t in m]
        # a split: more groups at some tick of the attack and the 2 s after it than at any tick of as
        # long a window before it (the groups flicker: a max against a max, so the control reads 0)
        span = end + 100 - s
        g0 = max((int(m[t]["groups"]) for t in range(s - span, s) if t in m), default=0)
        g1 = max((int(m[t]["groups"]) for t in range(s, end + 100) if t in m), default=0)
        alarmed = max((float(m[t]["alarmed"]) for t in range(s, end + 100) if t in m), default=0.0)
        # the falcon's nearest approach to a flying bird while it attacked (approach 1, pursuit 2)
        fdist = [float(m[t]["falcon_distance"]) for t in range(s, end + 1) if t in m and "falcon_distance" in m[t]
                 and m[t].get("falcon_state") in ("1", "2")]
        fmin = min(fdist) if fdist else None
        # the birds near the falcon against the whole flock, tick by tick (metrics falcon_near, falcon_nn)
        near = [float(m[t]["falcon_nn"]) / float(m[t]["nn_distance"]) for t in range(s, end + 100)
                if t in m and int(m[t].get("falcon_near") or 0) >= NEAR_MIN and float(m[t]["nn_distance"]) > 0]
        rec = rec_rel = None
        for t in range(end, end + 1500):
            if t in m and float(m[t]["polarisation"]) >= 0.85 and rec is None:
                rec = (t - end) * DT
            if t in m and pol0 is not None and float(m[t]["polarisation"]) >= pol0 and rec_rel is None:
                rec_rel = (t - end) * DT
        late = [float(m[t]["polarisation"]) for t in range(end + 1450, end + 1500) if t in m]
        pol1 = statistics.mean(late) if late else None
        if not before or not during:
            continue
        nn0 = statistics.mean(before)
        jump = max(during) / nn0 if nn0 > 0 else 0.0
        dip = min(during) / nn0 if nn0 > 0 else 0.0
        # the same against the largest NN distance of as long a window before the attack (as the split):
        # a flock whose NN distance swings by itself (the control's, birds blind to the falcon, reached
        # 1.20 on reporting seed 12 at main 48e7493) does not read as a flash expansion
        prior = [float(m[t]["nn_distance"]) for t in range(s - span, s) if t in m]
        jump_prior = max(during) / max(prior) if prior and max(prior) > 0 else 0.0
        # re-forming judged on the part of the flock the falcon attacked (the birds alarmed in the attack:
        # the part event), not on the whole flock, whose groups may never have flown one way
        part = [p for p in a["part"] if end <= p[0] <= end + 1500]
        ppol0 = part[0][2] if part else None
        prec = next(((p[0] - end) * DT for p in part if p[1] >= 0.85), None)
        prec_rel = next(((p[0] - end) * DT for p in part if p[1] >= ppol0), None) if part else None
        plate = [p[1] for p in part if p[0] >= end + 1450]
        out.append({"n": n, "seed": seed, "extra": extra, "start": s, "length_s": (end - s) * DT,
                    "wave_speed": a["wave"], "flock_speed": a["flock_speed"], "wave_birds": a["wave_birds"],
                    "alarmed_max": alarmed, "nn_jump": jump, "groups_before": g0, "groups_max": g1,
                    "split": g1 > g0, "flash": jump >= FLASH_JUMP,
                    "nn_jump_prior": jump_prior, "flash_strict": jump_prior >= FLASH_JUMP,
                    "copied": a["copied"], "direct": a["direct"],
                    "hop_m": a["hop_m"], "hop_s": a["hop_s"], "hop_k": a["hop_k"],
                    # the birds alarmed: their nearest neighbours at the end of their first manoeuvre over at
                    # their alarm (the burst event)
                    "burst": a["burst"], "burst_copied": a["burst_copied"], "burst_birds": a["burst_birds"],
                    # a flash expansion read locally: the birds along the falcon's path opened up by FLASH_JUMP
                    # or more against themselves at the attack's start (the path event); None: no such event
                    "path": a["path"], "path_rest": a["path_rest"], "path_birds": a["path_birds"],
                    "flash_local": None if a["path_birds"] is None else (a["path"] or 0.0) >= FLASH_JUMP,
                    "flights": a["flights"],
                    "met_speed": a["met_speed"], "met_class": met_class(a["met_speed"]),
                    # the second reading (branch react16): the speed at the closest approach, the same bounds
                    "close_m": a["close_m"], "close_speed": a["close_speed"], "close_class": met_class(a["close_speed"]),
                    "part_birds": part[0][3] if part else None, "part_polarisation_before": ppol0,
                    "part_recovery_s": prec, "part_recovery_rel_s": prec_rel,
                    "part_polarisation_after": statistics.mean(plate) if plate else None,
                    # a wave: the alarm travelled by copying through at least WAVE_SHARE of the flock (a
                    # front fitted, and that many birds alarmed by a neighbour, not by the falcon itself:
                    # birds fleeing the falcon's path are the flash expansion, not a wave); binaries
                    # without the copied event: the birds alarmed, as before
                    # (less the birds that copied a flight from the falcon's path: the burst, not a wave)
                    "wave": a["wave"] is not None and ((a["copied"] - (a["flights"] or 0)) if a["copied"] is not None
                                                       else a["wave_birds"]) >= WAVE_SHARE * n,
                    "falcon_min_m": fmin, "reached": fmin is not None and fmin < REACH,
                    # a reaction (the target): the whole flock's NN distance jumped by FLASH_JUMP, or more
                    # groups (split); "reacted_local" adds the birds along the falcon's path opening up by as much
                    "reacted": jump >= FLASH_JUMP or g1 > g0,
                    "reacted_local": jump >= FLASH_JUMP or g1 > g0 or bool(a["path_birds"] and (a["path"] or 0.0) >= FLASH_JUMP),
                    # branch react11: the whole flock's smallest NN distance over the second before (a
                    # compaction), the birds near the falcon over the whole flock (largest, smallest, median)
                    "nn_dip": dip, "compact": dip <= 1.0 / FLASH_JUMP,
                    "near_max": max(near) if near else None, "near_min": min(near) if near else None,
                    "near_median": statistics.median(near) if near else None, "near_ticks": len(near),
                    "opened_near": bool(near) and max(near) >= NEAR_OPEN,
                    "closed_near": bool(near) and min(near) <= NEAR_CLOSED,
                    "reacted_near": bool(near) and (max(near) >= NEAR_OPEN or min(near) <= NEAR_CLOSED),
                    # the reading or the birds near the falcon's (branch react11)
                    "reacted_any": jump >= FLASH_JUMP or g1 > g0 or (bool(near) and (max(near) >= NEAR_OPEN
                                                                                    or min(near) <= NEAR_CLOSED)),
                    "recovery_s": rec, "recovery_rel_s": rec_rel, "polarisation_after": pol1, "catch": a["catch"], "lock_on": a["lock_on"], "polarisation_before": pol0})
    return out


def summary(rows):
    ws = [r["wave_speed"] for r in rows if r["wave_speed"]]
    fs = [r["flock_speed"] for r in rows if r["wave_speed"] and r["flock_speed"]]
    rec = [r["recovery_s"] for r in rows if r["recovery_s"] is not None]
    pol = [r for r in rows if r["polarisation_before"] is not None and r["polarisation_before"] >= 0.85]
    ppol = [r for r in rows if r.get("part_polarisation_before") is not None and r["part_polarisation_before"] >= 0.85]
    k = len(rows)

    def share(key):
        return sum(bool(r[key]) for r in rows) / k if k else None

    return {
        "attacks": k,
        "wave_speed_median": statistics.median(ws) if ws else None,
        "wave_speed_min": min(ws) if ws else None,
        "wave_speed_max": max(ws) if ws else None,
        "wave_over_flock_median": statistics.median(w / f for w, f in zip(ws, fs)) if fs else None,
        "flash_share": share("flash"),
        "flash_strict_share": share("flash_strict"),
        "nn_jump_prior_median": statistics.median(r["nn_jump_prior"] for r in rows) if k else None,
        "wave_share": share("wave"),
        "split_share": share("split"),
        "lock_on_share": share("lock_on"),
        "catch_share": share("catch"),
        "reacted_share": sum(r["flash"] or r["split"] for r in rows) / k if k else None,
        "recovered_30s_share": sum(1 for r in rows if r["recovery_s"] is not None and r["recovery_s"] <= 30) / k
        if k else None,
        "polarised_before": len(pol),
        "polarised_recovered_30s_share": sum(1 for r in pol if r["recovery_s"] is not None and r["recovery_s"] <= 30)
        / len(pol) if pol else None,
        "recovery_median_s": statistics.median(rec) if rec else None,
        "polarisation_before": statistics.median(r["polarisation_before"] for r in rows) if k else None,
        "polarisation_after": statistics.median(r["polarisation_after"] for r in rows
                                                if r["polarisation_after"] is not None)
        if any(r["polarisation_after"] is not None for r in rows) else None,
        "recovered_rel_30s_share": sum(1 for r in rows if r["recovery_rel_s"] is not None and r["recovery_rel_s"] <= 30)
        / k if k else None,
        "alarmed_median": statistics.median(r["alarmed_max"] for r in rows) if k else None,
        "nn_jump_median": statistics.median(r["nn_jump"] for r in rows) if k else None,
        # the copies hop by hop (the hop event) and the birds the falcon alarmed itself, as a share of N
        "hop_m_median": med([r.get("hop_m") for r in rows]),
        "burst_median": med([r.get("burst") for r in rows]),
        "path_median": med([r.get("path") for r in rows]),
        "path_rest_median": med([r.get("path_rest") for r in rows]),
        "burst_copied_median": med([r.get("burst_copied") for r in rows]),
        "flash_local_share": sum(1 for r in rows if r.get("flash_local")) / k if k else None,
        # the reaction read on the whole flock or on the birds along the falcon's path (branch open10)
        "reacted_local_share": sum(1 for r in rows if r.get("reacted_local")) / k if k else None,
        "hop_s_median": med([r.get("hop_s") for r in rows]),
        # branch react11: the birds near the falcon (largest ratio to the whole flock's NN distance), the
        # whole flock's dip, and the reactions read on them
        "near_max_median": med([r.get("near_max") for r in rows]),
        "near_min_median": med([r.get("near_min") for r in rows]),
        "opened_near_share": sum(1 for r in rows if r.get("opened_near")) / k if k else None,
        "closed_near_share": sum(1 for r in rows if r.get("closed_near")) / k if k else None,
        "nn_dip_median": med([r.get("nn_dip") for r in rows]),
        "reacted_near_share": sum(1 for r in rows if r.get("reacted_near")) / k if k else None,
        "compact_share": sum(1 for r in rows if r.get("compact")) / k if k else None,
        "reacted_any_share": sum(1 for r in rows if r.get("reacted_any")) / k if k else None,
        "hop_k_median": med([r.get("hop_k") for r in rows]),
        # the attacked part (the part event): polarised >= 0.85 before, of those back to 0.85 within 30 s;
        # all: back to its own level before within 30 s
        "part_polarised_before": len(ppol),
        "part_polarised_recovered_30s": sum(1 for r in ppol if r["part_recovery_s"] is not None
                                            and r["part_recovery_s"] <= 30),
        "part_recovered_30s": sum(1 for r in rows if r.get("part_recovery_s") is not None and r["part_recovery_s"] <= 30),
        "part_recovered_rel_30s": sum(1 for r in rows if r.get("part_recovery_rel_s") is not None
                                      and r["part_recovery_rel_s"] <= 30),
        "part_measured": sum(1 for r in rows if r.get("part_polarisation_before") is not None),
        "part_polarisation_before": med([r.get("part_polarisation_before") for r in rows]),
        "part_polarisation_after": med([r.get("part_polarisation_after") for r in rows]),
        "direct_share_median": med([r["direct"] / r["n"] if r.get("direct") is not None else None for r in rows]),
    }


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, p=2):
    return "-" if x is None else ("%.*f" % (p, x))


def table(title, groups):
    lines = ["### " + title, "",
             "| run | attacks | wave speed m/s: median (range) | wave / flock speed | alarmed (median max) "
             "| NN jump (median) | flash | split | flash or split | wave | lock-on | catch | polarisation before "
             "| back to >= 0.85 in 30 s (all; of those >= 0.85 before) | polarisation 29-30 s after "
             "| back to its level before in 30 s | NN jump over the window before (median) | flash over the window before "
             "| hop m (median) | hop s (median) | neighbours to copy (median) | alarmed by the falcon itself, share (median) "
             "| attacked part: polarisation before / 29-30 s after (median) | attacked part back to >= 0.85 in 30 s "
             "(all; of those >= 0.85 before) | attacked part back to its level before in 30 s "
             "| burst: NN after / before, birds alarmed by the falcon (median) | burst, copiers (median) "
             "| path: NN after / before, birds within 10 m of the falcon (median) | the rest (median) | flash, local (path) "
             "| flash or split, or the path's birds opened (reacted, local) "
             "| near the falcon: NN / the flock's, largest (median) | smallest (median) | opened near the falcon "
             "| closed up near the falcon | either (reacted, near) | the issue's reading or near the falcon (reacted, any) "
             "| whole flock's NN, smallest / before (median) | compacted (NN down to 0.8) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in groups:
        lines.append("| %s | %d | %s (%s-%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s; %s of %d | %s | %s | %s | %s "
                     "| %s | %s | %s | %s | %s / %s | %d of %d; %d of %d | %d of %d | %s | %s | %s | %s | %s | %s "
                     "| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, s["attacks"], fmt(s["wave_speed_median"], 1), fmt(s["wave_speed_min"], 1),
            fmt(s["wave_speed_max"], 1), fmt(s["wave_over_flock_median"]),
            fmt(s["alarmed_median"]), fmt(s["nn_jump_median"]), fmt(s["flash_share"]), fmt(s["split_share"]),
            fmt(s["reacted_share"]), fmt(s["wave_share"]), fmt(s["lock_on_share"]), fmt(s["catch_share"]),
            fmt(s["polarisation_before"]), fmt(s["recovered_30s_share"]), fmt(s["polarised_recovered_30s_share"]),
            s["polarised_before"], fmt(s["polarisation_after"]), fmt(s["recovered_rel_30s_share"]),
            fmt(s["nn_jump_prior_median"]), fmt(s["flash_strict_share"]), fmt(s.get("hop_m_median")),
            fmt(s.get("hop_s_median"), 3), fmt(s.get("hop_k_median"), 1), fmt(s.get("direct_share_median")),
            fmt(s["part_polarisation_before"]), fmt(s["part_polarisation_after"]), s["part_recovered_30s"],
            s["part_measured"], s["part_polarised_recovered_30s"], s["part_polarised_before"],
            s["part_recovered_rel_30s"], s["part_measured"], fmt(s.get("burst_median")),
            fmt(s.get("burst_copied_median")), fmt(s.get("path_median")), fmt(s.get("path_rest_median")),
            fmt(s.get("flash_local_share")), fmt(s.get("reacted_local_share")), fmt(s.get("near_max_median")),
            fmt(s.get("near_min_median")), fmt(s.get("opened_near_share")), fmt(s.get("closed_near_share")),
            fmt(s.get("reacted_near_share")), fmt(s.get("reacted_any_share")), fmt(s.get("nn_dip_median")), fmt(s.get("compact_share"))))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--settle", type=int, default=2500, help="ticks before the falcon comes (default 2500 = 50 s)")
    ap.add_argument("--attack", type=int, default=1900,
                    help="ticks with the falcon (default 1900 = 38 s: one attack and 30 s after it)")
    ap.add_argument("--tuning", action="store_true", help="the reporting run's cases on the tuning seeds (%s)" % TUNING_SEEDS)
    ap.add_argument("--cases", choices=["all", "sizes", "strategies", "control"], default="all",
                    help="with --tuning or on the reporting seeds: the sizes, the strategies at N = 2000, the control alone "
                         "(branch react25), or all (with the control)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="parameters for every run (with --tuning: a trial; on the reporting seeds: the model before a change)")
    ap.add_argument("--tag", default="", help="results_KIND_TAG.*")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--supplement", action="store_true",
                    help="N = 500, 2000, 8000 on the supplementary seeds (%s)" % SUPPLEMENT_SEEDS)
    ap.add_argument("--mix", action="store_true",
                    help="the attacks by strategy and speed at N = 2000 on the pattern mix's seeds (%s)" % MIX_SEEDS)
    ap.add_argument("--mix-seeds", type=int, nargs="+", help="with --mix: these of its seeds only")
    a = ap.parse_args()
    murmur = murmur_path(a.murmur)
    jobs = []
    if a.quick:
        jobs = [("quick", 500, 1, [])]
        a.settle, a.attack = 300, 600
    else:
        seeds = TUNING_SEEDS if a.tuning else (SUPPLEMENT_SEEDS if a.supplement else REPORT_SEEDS)
        if a.mix:
            seeds = [s for s in MIX_SEEDS if not a.mix_seeds or s in a.mix_seeds]
        cases = a.cases if a.tuning else ("sizes" if a.supplement else ("strategies" if a.mix else "all"))
        if not a.tuning and not a.supplement and not a.mix and a.cases != "all":
            cases = a.cases  # one part of the reporting run again (branch react15: the strategies, to class by met speed)
        # --set on the reporting seeds: only to replay the model before a round's change (branch wave8: main's
        # rule, escape_alarm_speed=0, on the same flocks), never to choose a value
        trial = list(a.set)
        if cases in ("all", "sizes"):
            for n in SIZES:
                for s in seeds:
                    jobs.append(("N = %d" % n, n, s, trial))
        if cases in ("all", "strategies"):
            for st in STRATEGIES:
                for v in SPEEDS:
                    for s in seeds:
                        extra = [] if (st, v) == ("above", 30) else ["falcon_strategy=" + st,
                                                                      "falcon_attack_speed=%d" % v]
                        jobs.append(("%s, %d m/s" % (st, v), 2000, s, extra + trial))
        if cases in ("all", "control"):
            for s in seeds:
                jobs.append(("control: birds blind to the falcon, N = 2000", 2000, s,
                             ["escape_radius=0", "escape_flee_time=0"] + trial))
    cache = {}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = []
        for name, n, s, extra in jobs:
            key = (n, s, tuple(extra))
            if key not in cache:  # the defaults (above, 30 m/s) at N = 2000 are one run in two groups
                cache[key] = pool.submit(one_run, murmur, n, s, a.settle, a.attack, extra, tmp)
            futs.append((name, cache[key]))
        results = [(name, f.result()) for name, f in futs]
    groups, rows = {}, []
    for name, rs in results:
        groups.setdefault(name, []).extend(rs)
        rows.extend(dict(r, group=name) for r in rs)
    summ = [(name, summary(rs)) for name, rs in groups.items()]
    os.makedirs(a.out, exist_ok=True)
    kind = ("tuning" if a.tuning else ("quick" if a.quick else ("supplement" if a.supplement else
                                                                ("mix" if a.mix else "reporting")))) + (
        "_" + a.tag if a.tag else "")
    seeds = TUNING_SEEDS if a.tuning else (SUPPLEMENT_SEEDS if a.supplement else REPORT_SEEDS)
    if a.mix:
        seeds = [s for s in MIX_SEEDS if not a.mix_seeds or s in a.mix_seeds]
    with open(os.path.join(a.out, "results_%s.json" % kind), "w") as fp:
        json.dump({"settle": a.settle, "attack": a.attack, "seeds": seeds, "set": a.set,
                   "rows": rows, "summary": dict(summ)},
                  fp, indent=1)
    md = table("%s run (settle %d ticks, %d ticks with the falcon, one attack a run; seeds %s%s)" % (
        kind, a.settle, a.attack, seeds, "; " + " ".join(a.set) if a.set else ""), summ)
    md += "\nfield: wave speed %.1f .. %.1f m/s, mean %.1f (Procaccini et al. 2011)\n" % (
        FIELD_WAVE[0], FIELD_WAVE[2], FIELD_WAVE[1])
    with open(os.path.join(a.out, "results_%s.md" % kind), "w") as fp:
        fp.write(md)
    print(md)


if __name__ == "__main__":
    main()
