#!/usr/bin/env python3
"""Round 18's declared decision (issue 26, branch react19; docs/falcon/rounds.md "Round 18"): main's escape_copy_speed 20
against 22 on reporting seeds 71-73 (run.py's 33 attacks, the control apart) and supplementary seeds 74-79 (N = 500,
2000, 8000), with spread.py's per-group reading on the 33 attacks. Prints each figure of the rule, both rules, and
whether 22 is adopted.

    /usr/bin/python3 docs/falcon/decide.py [--dir docs/falcon] [--old react19_main] [--new react19_cs22]
        [--spread-old react20_main --spread-new react20_cs22]

--spread-old/--spread-new read spread.py's rows of another tag (branch react20: spread.py's windows before the attack
made run.py's, the corrected per-group figures); without them, the run's own tag.
"""
import argparse
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
FIELD = (3.7, 25.0)


def attacks(path):
    """run.py's rows, one per attack (the defaults at N = 2000 once), the control apart, as summary.py counts them."""
    with open(path) as fp:
        rows = json.load(fp)["rows"]
    seen, out = set(), []
    for r in rows:
        key = (r["n"], r["seed"], tuple(r["extra"]))
        if r["group"].startswith("control") or key in seen:
            continue
        seen.add(key)
        out.append(r)
    return out


def spread(paths):
    seen, out = set(), []
    for p in paths:
        with open(p) as fp:
            for r in json.load(fp)["rows"]:
                key = (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_copy_speed")))
                if key in seen:
                    continue
                seen.add(key)
                out.append(r)
    return out


def figures(d, tag, stag=None):
    rep = attacks(os.path.join(d, "results_reporting_%s.json" % tag))
    # the 27 attacks by strategy and speed at N = 2000 (the defaults, above at 30 m/s, among them: not deduplicated)
    with open(os.path.join(d, "results_reporting_%s.json" % tag)) as fp:
        s27 = [r for r in json.load(fp)["rows"] if "m/s" in r["group"]]
    sup = attacks(os.path.join(d, "results_supplement_%s.json" % tag))
    ratio = [r["wave_speed"] / r["flock_speed"] for r in rep if r["wave_speed"] and r["flock_speed"]]
    ws = [r["wave_speed"] for r in rep + sup if r["wave_speed"]]
    byn = {}
    for r in rep + sup:
        if r["group"].startswith("N = ") and r["wave_speed"]:
            byn.setdefault(r["n"], []).append(r["wave_speed"])
    med = {n: statistics.median(v) for n, v in sorted(byn.items())}
    sp = spread([os.path.join(d, "spread_reporting_%s_%s.json" % (stag or tag, k)) for k in ("sizes", "strategies")])
    gj = [r["group_jump"] for r in sp if r.get("group_jump") is not None]
    f = {
        "attacks": len(rep),
        "ratio_median": statistics.median(ratio), "ratio_n": len(ratio), "ratio_ge13": sum(x >= 1.3 for x in ratio),
        "ratio_2000": statistics.median([r["wave_speed"] / r["flock_speed"] for r in s27
                                         if r["wave_speed"] and r["flock_speed"]]),
        "n27": len(s27),
        "wave_2000": [r["wave_speed"] for r in s27 if r["wave_speed"]],
        "wave_by_n_71": {k: statistics.median(r["wave_speed"] for r in rep if r["group"] == "N = %d" % k and r["wave_speed"])
                         for k in (500, 2000, 8000)},
        "reacted_2000": sum(bool(r["flash"] or r["split"]) for r in s27),
        "reacted_sizes": {k: sum(bool(r["flash"] or r["split"]) for r in rep if r["group"] == "N = %d" % k) for k in (500, 2000, 8000)},
        "reacted": sum(bool(r["flash"] or r["split"]) for r in rep),
        "flash": sum(bool(r["flash"]) for r in rep), "split": sum(bool(r["split"]) for r in rep),
        "waves": sum(bool(r["wave"]) for r in rep),
        "wave_median": statistics.median(r["wave_speed"] for r in rep if r["wave_speed"]),
        "wave_n": {n: len(byn[n]) for n in byn}, "wave_by_n": med,
        "across_n": abs(med[8000] - med[500]) / med[500], "across_n_span": (max(med.values()) - min(med.values())) / min(med.values()),
        "in_field": sum(FIELD[0] <= w <= FIELD[1] for w in ws), "fitted": len(ws), "wave_range": (min(ws), max(ws)),
        "spread_attacks": len(sp),
        "group_reacted": sum(1 for r in sp if (r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"]),
        "group_jump_ge125": sum(x >= 1.25 for x in gj), "group_jump_median": statistics.median(gj),
        "whole_jump_ge125": sum(r["nn_jump"] >= 1.25 for r in sp),
        "group_only": sum(1 for r in sp if (r.get("group_jump") or 0) >= 1.25 and r["nn_jump"] < 1.25),
        "whole_only": sum(1 for r in sp if (r.get("group_jump") or 0) < 1.25 and r["nn_jump"] >= 1.25),
        "not_group_reacted": ["N = %d seed %d %s (group %.2f of the flock, group_jump %.3f, groups %d>%d)" % (
            r["n"], r["seed"], " ".join(x for x in r["extra"] if not x.startswith("escape_copy_speed")) or "defaults",
            r.get("group", 0), r.get("group_jump") or 0, r["groups_before"], r["groups_max"]) for r in sp
            if not ((r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"])],
        "spread_reacted": sum(bool(r["reacted"]) for r in sp),
        "group_ever_median": statistics.median(r["group_ever"] for r in sp if "group_ever" in r),
        "group_share_median": statistics.median(r["group"] for r in sp if "group" in r),
        "ever_median": statistics.median(r["ever"] for r in sp),
    }
    # run.py's reaction against spread.py's on the same attack (before branch react20 spread.py's window before the
    # attack began when the falcon came: one tick)
    runk = {(r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_copy_speed"))): r for r in rep}
    f["run_vs_spread"] = []
    for r in sp:
        q = runk.get((r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_copy_speed"))))
        if q is not None and bool(q["flash"] or q["split"]) != bool(r["reacted"]):
            f["run_vs_spread"].append("N = %d seed %d %s: run.py %s (groups %d>%d, jump %.3f), spread.py %s (groups %d>%d, "
                                      "jump %.3f)" % (r["n"], r["seed"], " ".join(x for x in r["extra"] if not
                                                      x.startswith("escape_copy_speed")) or "defaults",
                                                      bool(q["flash"] or q["split"]), q["groups_before"], q["groups_max"],
                                                      q["nn_jump"], bool(r["reacted"]), r["groups_before"], r["groups_max"],
                                                      r["nn_jump"]))
    return f, rep, sp


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=HERE)
    ap.add_argument("--old", default="react19_main")
    ap.add_argument("--new", default="react19_cs22")
    ap.add_argument("--spread-old")
    ap.add_argument("--spread-new")
    a = ap.parse_args()
    o, orep, osp = figures(a.dir, a.old, a.spread_old)
    n, nrep, nsp = figures(a.dir, a.new, a.spread_new)
    for name, f in (("main (20)", o), ("22", n)):
        print("%s: %d attacks; wave / flock speed median %.3f (%d of %d >= 1.3; at N = 2000's %d: %.3f); reacted %d "
              "(flash %d, split %d); waves %d; wave speed median %.2f m/s; by N (seeds 71-79) %s, N = 500 to 8000 %.1f%% "
              "(span %.1f%%); fitted waves within 3.7-25 m/s %d of %d (%.1f-%.1f)"
              % (name, f["attacks"], f["ratio_median"], f["ratio_ge13"], f["ratio_n"], f["n27"], f["ratio_2000"], f["reacted"],
                 f["flash"], f["split"], f["waves"], f["wave_median"],
                 ", ".join("%d: %.2f (%d waves)" % (k, v, f["wave_n"][k]) for k, v in f["wave_by_n"].items()),
                 100 * f["across_n"], 100 * f["across_n_span"], f["in_field"], f["fitted"], *f["wave_range"]))
        print("   the %d at N = 2000: wave speed median %.2f (%.1f-%.1f) m/s, reacted %d; N = 500, 2000, 8000 from "
              "above at 30 m/s (seeds 71-73): reacted %s, wave speed medians %s (%.1f%% from N = 500 to 8000)"
              % (f["n27"], statistics.median(f["wave_2000"]), min(f["wave_2000"]), max(f["wave_2000"]), f["reacted_2000"],
                 " ".join("%d" % v for v in f["reacted_sizes"].values()),
                 " ".join("%.2f" % v for v in f["wave_by_n_71"].values()),
                 100 * abs(f["wave_by_n_71"][8000] - f["wave_by_n_71"][500]) / f["wave_by_n_71"][500]))
        print("   per group (spread.py, %d attacks): reacted (group_jump >= 1.25 or more groups) %d; group_jump >= 1.25 %d "
              "(median %.3f), whole flock's jump >= 1.25 %d; spread.py's issue reading %d; alarmed ever median %.3f, "
              "the attacked group %.3f of the flock, %.3f of it alarmed"
              % (f["spread_attacks"], f["group_reacted"], f["group_jump_ge125"], f["group_jump_median"],
                 f["whole_jump_ge125"], f["spread_reacted"], f["ever_median"], f["group_share_median"], f["group_ever_median"]))
        print("   run.py and spread.py disagree on the reaction in %d: %s" % (len(f["run_vs_spread"]), "; ".join(f["run_vs_spread"])))
        print("   group_jump >= 1.25 with the whole flock's under: %d; the reverse: %d; not reacting per group: %s"
              % (f["group_only"], f["whole_only"], "; ".join(f["not_group_reacted"]) or "none"))
    # attack by attack: where the two rules differ
    ok = {(r["group"], r["seed"]): r for r in orep}
    for r in nrep:
        q = ok.get((r["group"], r["seed"]))
        if q is None:
            continue
        a1, a2 = bool(q["flash"] or q["split"]), bool(r["flash"] or r["split"])
        if a1 != a2 or bool(q["wave"]) != bool(r["wave"]):
            print("differs: %s seed %d: reacted %s -> %s, wave %s -> %s, groups %s -> %s, NN jump %.3f -> %.3f" % (
                r["group"], r["seed"], a1, a2, bool(q["wave"]), bool(r["wave"]), "%d>%d" % (q["groups_before"], q["groups_max"]),
                "%d>%d" % (r["groups_before"], r["groups_max"]), q["nn_jump"], r["nn_jump"]))
    osk = {(r["n"], r["seed"], tuple(r["extra"])): r for r in osp}
    for r in nsp:
        q = osk.get((r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_copy_speed"))))
        if q is None:
            continue
        g1 = (q.get("group_jump") or 0) >= 1.25 or q["groups_max"] > q["groups_before"]
        g2 = (r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"]
        if g1 != g2:
            print("per group differs: N = %d seed %d %s: %s -> %s (group_jump %.3f -> %.3f, groups %d>%d -> %d>%d)" % (
                r["n"], r["seed"], " ".join(q["extra"]) or "defaults", g1, g2, q.get("group_jump") or 0,
                r.get("group_jump") or 0, q["groups_before"], q["groups_max"], r["groups_before"], r["groups_max"]))
    rule = [
        ("1. main's median under 1.3", o["ratio_median"] < 1.3),
        ("2. 22's median >= 1.3", n["ratio_median"] >= 1.3),
        ("3a. reactions fall by at most one (%d -> %d)" % (o["reacted"], n["reacted"]), n["reacted"] >= o["reacted"] - 1),
        ("3b. per-group reactions fall by at most one (%d -> %d)" % (o["group_reacted"], n["group_reacted"]),
         n["group_reacted"] >= o["group_reacted"] - 1),
        ("4. waves fall by at most one (%d -> %d)" % (o["waves"], n["waves"]), n["waves"] >= o["waves"] - 1),
        ("5. 22: wave speed across N under 20%% (%.1f%%) and every wave within the field" % (100 * n["across_n"]),
         n["across_n"] < 0.2 and n["in_field"] == n["fitted"]),
    ]
    for t, v in rule:
        print("%-80s %s" % (t, "holds" if v else "FAILS"))
    print("decision: %s" % ("adopt escape_copy_speed 22" if all(v for _, v in rule) else "keep main's 20"))


if __name__ == "__main__":
    main()
