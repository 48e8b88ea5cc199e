#!/usr/bin/env python3
"""Round 24 (issue 26, branch react26; docs/falcon/rounds.md "Round 24"): why some attacks make no reaction, and one fix
swept on the tuning seeds 101-103 (no reporting seeds this round, no default changed).

    /usr/bin/python3 docs/falcon/round24.py diagnose MURMUR   # every attack without a reaction on main: what happened
    /usr/bin/python3 docs/falcon/round24.py sweep             # the sweep's rows, the best row, the declared test
    /usr/bin/python3 docs/falcon/round24.py seeds             # the seeds >= 100 the jsons hold (for the later run's)

The declaration (committed before any row of the sweep below was read, and before the diagnosis runs of this round):
- Seeds: the tuning seeds 101, 102, 103 only (run.py --tuning; spread.py --seeds 101 102 103). No reporting seeds are run.
- The reaction is the issue's reading (run.py's `reacted`: the whole flock's NN jump >= 1.25 or more groups); the
  per-group reading (spread.py: the attacked group's `group_jump` >= 1.25 or more groups) is shown beside it as a
  diagnostic only.
- The diagnosis classes each attack without a reaction on main (off: react20_off, main's bits) by one rule:
  * the falcon's: the flock could not see it (the falcon never within escape_radius, 20 m, of a flying bird while
    attacking, or no bird alarmed by the falcon itself);
  * the reading's: seen, and the attacked group's own reading reacts (spread.py: group_jump >= 1.25 or more groups)
    while the whole flock's does not;
  * the prey's: seen, and the attacked group did not open by 1.25 either (no spread).
- The sweep (the brief's fix for the prey's cause): `escape_spread` 15 m/s^2 with `escape_spread_falloff` 3 and
  `escape_spread_radius` 10 and 12.5 m (round 23's left rows), the 27 at N = 2,000 (run.py --cases strategies), with
  spread.py's per-group reading of the 27 on each row. The best row by round 23's order (round23.py: among the rows that
  add reactions over off with no slow flash, no more medium flashes than off and no wave lost, the most reactions, then
  the fewest flashes over the 27, then the larger NN jump median; if none passes, the same order among the rows with no
  slow flash and no more medium flashes than off) is run across N (--cases sizes) and with the control (--cases control).
- A candidate is named only if round 20's rule (round20.py `decide`'s five points) passes it on the tuning seeds, the
  best row's 33 (its 27 and its 9 across N) against off's 33 (react20_off) and its per-group reactions (the 27) against
  off's (spread_tuning_react20_off_strategies.json): (1a) more reactions by the issue's reading over the 33; (1b)
  per-group reactions not fewer; (2) waves over the 33 at most one fewer; (3) the medium peak kept (more medium waves
  than slow and than fast among the 27, at least off's medium count less one); (4) slow flashes (the 27) at most off's.
  Named or not, no reporting seeds are run this round and no default moves.
"""
import json
import os
import statistics
import sys

import round20

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OFF = "react20_off"
ROWS = [("react26_r10_p3_spread15", 15, 10, 3), ("react26_r12.5_p3_spread15", 15, 12.5, 3)]
# for comparison (round 21's and 23's rows at 15 m/s^2, p 2)
EARLIER = [("react23_r10_p2_spread15", 15, 10, 2), ("react25_r12.5_p2_spread15", 15, 12.5, 2)]
REACH = 20.0  # escape_radius of the starling preset, m


def load(name):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        return json.load(fp)


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")


def key(r):
    """An attack: N, seed and the case's own parameters (the trial's escape_spread* left out)."""
    return (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))


def attacks(rows):
    """run.py's rows, one per attack (the defaults at N = 2000 once), the control apart."""
    seen, out = set(), []
    for r in rows:
        if r["group"].startswith("control") or key(r) in seen:
            continue
        seen.add(key(r))
        out.append(r)
    return out


def spread_rows(*names):
    """spread.py's rows by attack (several files: strategies and sizes)."""
    out = {}
    for name in names:
        d = load(name)
        for r in (d or {}).get("rows", []):
            out[key(r)] = r
    return out


def case_name(r):
    ex = dict(x.split("=", 1) for x in r["extra"])
    if "falcon_strategy" in ex:
        return "%s %s" % (ex["falcon_strategy"], ex["falcon_attack_speed"])
    return "N = %d" % r["n"] if r["n"] != 2000 else "above 30 (N = 2000)"


def klass(r, g):
    """The declared classes (the docstring): the falcon's, the reading's, the prey's; '?' without the per-group row."""
    if r["falcon_min_m"] is None or r["falcon_min_m"] >= REACH or not r["direct"]:
        return "falcon's"
    if g is None:
        return "prey's or reading's (no per-group row)"
    if (g.get("group_jump") or 0) >= 1.25 or g["groups_max"] > g["groups_before"]:
        return "reading's"
    return "prey's"


def events_of(murmur, r, settle=2500, attack=1900):
    """The attack again through the program (run.py's command): its events (lock-on target, closest bird, catch) and
    run.py's row from it (to check the replay gives react20_off's figures)."""
    import subprocess
    import tempfile
    import run
    with tempfile.TemporaryDirectory() as tmp:
        ev, me = os.path.join(tmp, "ev.csv"), os.path.join(tmp, "m.csv")
        cmd = [murmur, "--preset", "starling", "--boids", str(r["n"]), "--seed", str(r["seed"]), "--quiet",
               "--steps", str(settle + attack), "--at", "%d:falcon=on" % settle, "--set", "falcon_wait=60",
               "--events", ev, "--metrics", me]
        for x in r["extra"]:
            cmd += ["--set", x]
        subprocess.run(cmd, check=True, capture_output=True, env=dict(os.environ, MURMUR_THREADS="1"))
        evs, mets = run.read(ev), run.read(me)
        row = run.analyse(evs, mets, r["n"], r["seed"], r["extra"])[0]
    first = {}
    for e in evs:
        first.setdefault(e["event"], e)
    return first, row


def target_distance(r, first, build):
    """The distance from the falcon to its lock-on target at the falcon's closest approach to the flock (the closest
    event's tick, the falcon's position then), read in a replay through the Python module (the flock as spread.py
    replays it); the least over that tick and the next (the event's tick is the plan's, one tick either way)."""
    sys.path.insert(0, os.path.join(build, "python"))
    import numpy as np
    import murmur
    tgt = int(first["lock_on"]["bird"])
    close_bird = int(first["closest"]["bird"])
    if tgt < 0:
        return None, "centroid"
    if tgt == close_bird:
        return float(first["closest"]["value"]), "the closest bird"
    t_close = int(first["attack_start"]["tick"]) + int(first["closest"]["count"])
    fpos = np.array([float(first["closest"][c]) for c in "xyz"])
    f = murmur.Flock("starling", boids=r["n"], seed=r["seed"], threads=1)
    f.step(2500)
    f.set(falcon="on", falcon_wait=60, **dict((k, float(v) if v.replace(".", "").isdigit() else v)
                                              for k, v in (x.split("=", 1) for x in r["extra"])))
    f.step(t_close - 1 - f.tick)
    ds = []
    for _ in range(3):
        ds.append(float(np.linalg.norm(np.asarray(f.positions, dtype=np.float64)[tgt] - fpos)))
        f.step(1)
    f.close()
    return min(ds), "bird %d (closest: %d)" % (tgt, close_bird)


def diagnose(murmur=None):
    """Every attack without a reaction by the issue's reading on main: the tuning seeds (react20_off, the 33) with this
    round's runs of each (events, the per-group reading), and the reporting seeds' raw rows already under docs/falcon
    (71-73 round 18, 81-83 round 20, 91-93 round 22; read only, not run again)."""
    sets = [("tuning 101-103 (react20_off)", "results_tuning_react20_off.json",
             ["spread_tuning_react20_off_strategies.json", "spread_tuning_react26_off_misses.json"]),
            ("71-73 (react19_cs22, main's defaults since)", "results_reporting_react19_cs22.json",
             ["spread_reporting_react19_cs22_strategies.json", "spread_reporting_react19_cs22_sizes.json"]),
            ("81-83 (react22_main)", "results_reporting_react22_main.json", ["spread_reporting_react22_main_strategies.json"]),
            ("91-93 (react24_main)", "results_reporting_react24_main.json", ["spread_reporting_react24_main_strategies.json"])]
    build = os.path.dirname(os.path.dirname(os.path.dirname(murmur))) if murmur else None
    rows_out, summ = [], []
    print("| seeds | attack | seed | met (m/s, class) | closest to a bird, m | lock-on; to its target at the closest, m | catch "
          "| alarmed: by the falcon / by copying (largest share at once) | NN jump (whole flock) | groups before > max "
          "| attacked group: share of the flock; its birds alarmed; its own NN jump; groups | the miss |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, res, sp in sets:
        d = load(res)
        g = spread_rows(*sp)
        for r in attacks(d["rows"]):
            if r["flash"] or r["split"]:
                continue
            gr = g.get(key(r))
            tgt = "-"
            if murmur and name.startswith("tuning"):
                first, again = events_of(murmur, r)
                same = all(again[k] == r[k] for k in ("nn_jump", "groups_before", "groups_max", "direct", "copied",
                                                      "falcon_min_m", "wave_speed"))
                td, what = target_distance(r, first, build)
                tgt = "%s; %s (%s)%s" % ("yes" if r["lock_on"] else "no", "-" if td is None else "%.1f" % td, what,
                                        "" if same else " [replay differs from react20_off]")
                rows_out.append({"key": list(key(r)), "target": first["lock_on"]["bird"], "closest_bird":
                                 first["closest"]["bird"], "target_m": td, "same_as_off": same,
                                 "lock_on_m": float(first["lock_on"]["value"])})
            else:
                tgt = "%s; -" % ("yes" if r["lock_on"] else "no")
            summ.append((r, gr, klass(r, gr)))
            print("| %s | %s | %d | %.1f, %s | %.1f | %s | %s | %d / %d (%.2f) | %.3f | %d > %d | %s | %s |" % (
                name, case_name(r), r["seed"], r["met_speed"] or 0, r["met_class"], r["falcon_min_m"], tgt,
                "yes" if r["catch"] else "no", r["direct"], r["copied"], r["alarmed_max"], r["nn_jump"],
                r["groups_before"], r["groups_max"],
                "%.3f; %.2f; %.3f; %d > %d" % (gr["group"], gr["group_ever"], gr["group_jump"], gr["groups_before"],
                                               gr["groups_max"]) if gr else "not read",
                klass(r, gr)))
    print()
    print("misses: %d; the falcon's %d, the prey's %d, the reading's %d (of them the attacked group opened by 1.25: %d; by "
          "spread.py's count of groups alone: %d)" % (
              len(summ), sum(k == "falcon's" for _, _, k in summ), sum(k == "prey's" for _, _, k in summ),
              sum(k == "reading's" for _, _, k in summ),
              sum(k == "reading's" and (g.get("group_jump") or 0) >= 1.25 for _, g, k in summ),
              sum(k == "reading's" and (g.get("group_jump") or 0) < 1.25 for _, g, k in summ)))
    print("closest approach to a bird %.1f-%.1f m; lock-on in %d; catches %d; birds alarmed by the falcon itself %d-%d, by "
          "copying %d-%d; the attacked group's birds all alarmed in %d; the whole flock's NN jump %.3f-%.3f; the attacked "
          "group's own %.3f-%.3f (the prey's misses: %.3f-%.3f); the attacked group's share of the flock %.3f-%.3f" % (
              min(r["falcon_min_m"] for r, _, _ in summ), max(r["falcon_min_m"] for r, _, _ in summ),
              sum(bool(r["lock_on"]) for r, _, _ in summ), sum(bool(r["catch"]) for r, _, _ in summ),
              min(r["direct"] for r, _, _ in summ), max(r["direct"] for r, _, _ in summ),
              min(r["copied"] for r, _, _ in summ), max(r["copied"] for r, _, _ in summ),
              sum(1 for _, g, _ in summ if g and g["group_ever"] >= 0.99),
              min(r["nn_jump"] for r, _, _ in summ), max(r["nn_jump"] for r, _, _ in summ),
              min(g["group_jump"] for _, g, _ in summ if g), max(g["group_jump"] for _, g, _ in summ if g),
              min(g["group_jump"] for _, g, k in summ if g and k == "prey's"),
              max(g["group_jump"] for _, g, k in summ if g and k == "prey's"),
              min(g["group"] for _, g, _ in summ if g), max(g["group"] for _, g, _ in summ if g)))
    if rows_out:
        with open(os.path.join(HERE, "diagnosis_react26.json"), "w") as fp:
            json.dump({"rows": rows_out}, fp, indent=1)


def fig33(rows27, rows_sizes):
    """round20.py's figures over the 33 (the 27 and the 9 across N, the defaults at N = 2000 once)."""
    return round20.figures_of(attacks(rows27 + rows_sizes))


def per_group(tag):
    d = load("spread_tuning_%s_strategies.json" % tag)
    if d is None:
        return None
    rows = d["rows"]
    return {"reacted": sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"]),
            "opened": sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25), "n": len(rows),
            "median": med([r.get("group_jump") for r in rows])}


def sweep():
    import round21
    import round23
    off27 = round21.the27(OFF)
    off = round21.figures(off27)
    rows = [("off", OFF, None)] + [("%s, Rs %s, p %d" % (s, rs, p), t, None) for t, s, rs, p in EARLIER] + \
           [("%s, Rs %s, p %d" % (s, rs, p), t, "new") for t, s, rs, p in ROWS]
    passed, fallback = [], []
    for name, tag, new in rows:
        a = round21.the27(tag)
        if a is None:
            print("%-24s not run (%s)" % (name, tag))
            continue
        f = round21.figures(a)
        pg = per_group(tag)
        keeps = f["slow_flash"] == 0 and f["medium_flash"] <= off["medium_flash"]
        ok = keeps and f["reacted"] > off["reacted"] and f["waves"] >= off["waves"]
        alone = sum(bool(r["split"] and not r["flash"]) for r in a.values())
        print("%-24s the %d: reacted %d (by a split alone %d); per group %s; NN jump median %.3f; flashes %d (slow %d of %d / medium %d of %d / "
              "fast %d of %d); waves %d (%d / %d / %d); wave/flock median %.2f%s" % (
                  name, f["n"], f["reacted"], alone, "%d (group_jump >= 1.25 in %d of %d, median %.3f)" % (
                      pg["reacted"], pg["opened"], pg["n"], pg["median"]) if pg else "not run", f["nn"], f["flashes"],
                  f["slow_flash"], f["slow"], f["medium_flash"], f["medium"], f["fast_flash"], f["fast"], f["waves"],
                  f["slow_wave"], f["medium_wave"], f["fast_wave"], f["ratio"],
                  "; passes round 23's test" if ok and tag != OFF else ""))
        if new:
            round23.diff(a, off27, "off")
            (passed if ok else fallback if keeps else []).append((-f["reacted"], f["flashes"], -f["nn"], tag))
            for x in round23.across(tag):
                print("    " + x)
    passed.sort()
    fallback.sort()
    best = passed[0] if passed else (fallback[0] if fallback else None)
    print("best row (across N and control): %s%s" % (best[3] if best else "none", "" if passed or not best else
                                                    " (none passes: best of those with no slow flash and no more medium "
                                                    "flashes than off)"))
    if best is None:
        return
    tag = best[3]
    sizes = load("results_tuning_%s_sizes.json" % tag)
    if sizes is None:
        print("round 20's rule: the best row's 9 across N not run")
        return
    o = load("results_tuning_%s.json" % OFF)["rows"]
    om = {(r["n"], r["seed"]): r for r in o if r["group"].startswith("N = ")}
    print("the 9 across N against off (flash, split: groups in the window before > most in the attack and 2 s after, "
          "NN jump, the attack's length; the window before is as long as the attack and 2 s):")
    for r in sizes["rows"]:
        q = om[(r["n"], r["seed"])]
        print("    N = %d seed %d: off %s%s %d > %d, NN jump %.3f, %.2f s; %s %s%s %d > %d, NN jump %.3f, %.2f s" % (
            r["n"], r["seed"], "flash " if q["flash"] else "", "split" if q["split"] else "no split", q["groups_before"],
            q["groups_max"], q["nn_jump"], q["length_s"], tag, "flash " if r["flash"] else "",
            "split" if r["split"] else "no split", r["groups_before"], r["groups_max"], r["nn_jump"], r["length_s"]))
    m = fig33([r for r in o if not r["group"].startswith("N = ")], [r for r in o if r["group"].startswith("N = ")])
    c = fig33(load("results_tuning_%s.json" % tag)["rows"], sizes["rows"])
    gm, gc = per_group(OFF), per_group(tag)
    for nm, f in (("off", m), (tag, c)):
        print("%-28s the 33: reacted %d of %d; flashes %d (the 27: %d; slow %d of %d / medium %d of %d / fast %d of %d); "
              "waves %d (the 27: slow %d / medium %d / fast %d)" % (
                  nm, f["reacted"], f["n33"], f["flashes"], f["flash27"], f["slow_flash"], f["slow"], f["medium_flash"],
                  f["medium"], f["fast_flash"], f["fast"], f["waves"], f["slow_wave"], f["medium_wave"], f["fast_wave"]))
    pts = [("1a reactions by the issue's reading up (the 33)", c["reacted"] > m["reacted"]),
           ("1b per-group reactions not fewer (the 27)", gm is not None and gc is not None and gc["reacted"] >= gm["reacted"]),
           ("2 waves down by at most one (the 33)", c["waves"] >= m["waves"] - 1),
           ("3 the medium peak kept: most waves in the medium class, at least off's medium less one",
            c["medium_wave"] > max(c["slow_wave"], c["fast_wave"]) and c["medium_wave"] >= m["medium_wave"] - 1),
           ("4 flashes in slow attacks at most off's (the 27)", c["slow_flash"] <= m["slow_flash"])]
    for nm, v in pts:
        print("%-90s %s" % (nm, "holds" if v else "MISSED"))
    print("candidate named (for a later declared run): %s" % tag if all(v for _, v in pts) else "no candidate named")


def seeds():
    """The seeds of 100 and over that any json under docs/ holds (rows' seeds and `seeds` lists): the later declared
    run's seeds must not be among them."""
    import glob
    seen = set()
    for path in glob.glob(os.path.join(HERE, "..", "**", "*.json"), recursive=True):
        try:
            with open(path) as fp:
                d = json.load(fp)
        except (ValueError, OSError):
            continue
        if not isinstance(d, dict):
            continue
        seen.update(x for x in (d.get("seeds") or []) if isinstance(x, int))
        rows = d.get("rows") if isinstance(d.get("rows"), list) else []
        seen.update(r["seed"] for r in rows if isinstance(r, dict) and isinstance(r.get("seed"), int))
    print("seeds >= 100 in docs/**/*.json: %s; 111, 112, 113 among them: %s" % (
        sorted(x for x in seen if x >= 100), any(x in seen for x in (111, 112, 113))))


if __name__ == "__main__":
    if sys.argv[1] == "seeds":
        seeds()
    elif sys.argv[1] == "diagnose":
        diagnose(sys.argv[2] if len(sys.argv) > 2 else None)
    else:
        sweep()
