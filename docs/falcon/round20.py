#!/usr/bin/env python3
"""Round 20 (issue 26, branch react22; docs/falcon/rounds.md "Round 20"): escape_spread with escape_spread_falloff p.

    /usr/bin/python3 docs/falcon/round20.py pick     # the tuning rows (seeds 101-103) and the declared pick of a candidate
    /usr/bin/python3 docs/falcon/round20.py decide   # the declared rule on the reporting seeds 81-83: main against it

pick: per tuning row (run.py's results_tuning_TAG.json, the 27 by strategy and speed at N = 2000 and the 9 across N, the
defaults at N = 2000 once) the issue's reactions over the 33, flash expansions by the speed the birds met (the 27),
waves, and whether the row keeps flashes out of slow attacks while adding reactions; then the declared pick: among
those rows, the fewest flash expansions over the 27; a tie to the smaller escape_spread, then to the larger p.
decide: the same figures of main and the candidate on the reporting seeds (results_reporting_react22_main.json,
results_reporting_react22_cand.json) with spread.py's per-group reactions (spread_reporting_react22_*_strategies.json),
each point of the declared rule, and whether the candidate is adopted.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OFF = "react20_off"
ROWS = [("react22_p2_spread10", 2, 10), ("react22_p2_spread15", 2, 15), ("react22_p2_spread20", 2, 20),
        ("react22_p3_spread10", 3, 10), ("react22_p3_spread15", 3, 15), ("react22_p3_spread20", 3, 20)]


def attacks(path):
    """run.py's rows, one per attack (the defaults at N = 2000 once), the control apart."""
    with open(path) as fp:
        rows = json.load(fp)["rows"]
    seen, out = set(), []
    for r in rows:
        key = (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))
        if r["group"].startswith("control") or key in seen:
            continue
        seen.add(key)
        out.append(r)
    return out


def figures(path):
    return figures_of(attacks(path))


def figures_of(a):
    """the figures over the attacks a (one row per attack): reactions, flashes, waves, and by the speed met."""
    s27 = [r for r in a if r["n"] == 2000]  # the 27 at N = 2000 (the defaults among them)
    f = {"n33": len(a), "reacted": sum(bool(r["flash"] or r["split"]) for r in a),
         "flashes": sum(bool(r["flash"]) for r in a), "waves": sum(bool(r["wave"]) for r in a),
         "flash27": sum(bool(r["flash"]) for r in s27)}
    for c in ("slow", "medium", "fast"):
        rs = [r for r in s27 if r.get("met_class") == c]
        f[c] = len(rs)
        f[c + "_flash"] = sum(bool(r["flash"]) for r in rs)
        f[c + "_wave"] = sum(bool(r["wave"]) for r in rs)
    return f


def line(name, f):
    return ("%-22s reacted %d of %d; flashes %d (the 27: %d; slow %d of %d / medium %d of %d / fast %d of %d); waves %d "
            "(slow %d / medium %d / fast %d)" % (name, f["reacted"], f["n33"], f["flashes"], f["flash27"], f["slow_flash"],
                                                 f["slow"], f["medium_flash"], f["medium"], f["fast_flash"], f["fast"],
                                                 f["waves"], f["slow_wave"], f["medium_wave"], f["fast_wave"]))


def pick():
    off = figures(os.path.join(HERE, "results_tuning_%s.json" % OFF))
    print(line("off (" + OFF + ")", off))
    ok = []
    for tag, p, s in ROWS:
        path = os.path.join(HERE, "results_tuning_%s.json" % tag)
        if not os.path.exists(path):
            print("%-22s not run" % tag)
            continue
        f = figures(path)
        keeps = f["slow_flash"] == 0 and f["reacted"] > off["reacted"]
        print(line("p %d, spread %d" % (p, s), f) + ("; keeps slow attacks free of flashes, adds reactions" if keeps else ""))
        if keeps:
            ok.append((f["flash27"], s, -p, tag))
    if not ok:
        print("pick: none (no reporting run)")
        return
    ok.sort()
    print("pick: %s (flashes over the 27: %d)" % (ok[0][3], ok[0][0]))


def per_group(tag):
    path = os.path.join(HERE, "spread_reporting_%s_strategies.json" % tag)
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        rows = json.load(fp)["rows"]
    return (sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"]), len(rows),
            "group_jump >= 1.25 in %d" % sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25))


def decide(main_tag="react22_main", cand_tag="react22_cand"):
    """The declared rule; round 22 (react24) calls it with its own tags, the rule unchanged."""
    m = figures(os.path.join(HERE, "results_reporting_%s.json" % main_tag))
    c = figures(os.path.join(HERE, "results_reporting_%s.json" % cand_tag))
    print(line("main", m))
    print(line("candidate", c))
    for name, tag in (("main", main_tag), ("candidate", cand_tag)):
        with open(os.path.join(HERE, "results_reporting_%s.json" % tag)) as fp:
            rows = json.load(fp)["rows"]
        ctl = [r for r in rows if r["group"].startswith("control")]
        a = attacks(os.path.join(HERE, "results_reporting_%s.json" % tag))
        ratio = sorted(r["wave_speed"] / r["flock_speed"] for r in a if r["wave_speed"] and r["flock_speed"])
        print("%-10s control (%d): flash %d, split %d, wave %d; wave over flock speed median %.2f (%d fitted); the 9 across N "
              "reacted %d; splits %d of 33" % (
                  name, len(ctl), sum(bool(r["flash"]) for r in ctl), sum(bool(r["split"]) for r in ctl),
                  sum(bool(r["wave"]) for r in ctl), ratio[len(ratio) // 2] if len(ratio) % 2 else
                  (ratio[len(ratio) // 2 - 1] + ratio[len(ratio) // 2]) / 2, len(ratio),
                  sum(bool(r["flash"] or r["split"]) for r in rows if r["group"].startswith("N = ")),
                  sum(bool(r["split"]) for r in a)))
    mm = {(r["n"], r["seed"], tuple(r["extra"])): r for r in attacks(os.path.join(HERE, "results_reporting_%s.json" % main_tag))}
    for r in attacks(os.path.join(HERE, "results_reporting_%s.json" % cand_tag)):
        q = mm.get((r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread"))))
        if q is None:
            continue
        if bool(q["flash"] or q["split"]) != bool(r["flash"] or r["split"]) or bool(q["flash"]) != bool(r["flash"]) or \
                bool(q["wave"]) != bool(r["wave"]):
            print("  differs: %s seed %d (met %s): reacted %s -> %s, flash %s -> %s (NN jump %.3f -> %.3f), wave %s -> %s, "
                  "groups %d>%d -> %d>%d" % (r["group"], r["seed"], r.get("met_class"), bool(q["flash"] or q["split"]),
                                             bool(r["flash"] or r["split"]), bool(q["flash"]), bool(r["flash"]), q["nn_jump"],
                                             r["nn_jump"], bool(q["wave"]), bool(r["wave"]), q["groups_before"],
                                             q["groups_max"], r["groups_before"], r["groups_max"]))
    gm, gc = per_group(main_tag), per_group(cand_tag)
    print("per group (spread.py, the 27): main %s, candidate %s" % (gm, gc))
    pts = [("1a reactions by the issue's reading up (the 33)", c["reacted"] > m["reacted"]),
           ("1b per-group reactions not fewer (the 27)", gm is not None and gc is not None and gc[0] >= gm[0]),
           ("2 waves down by at most one (the 33)", c["waves"] >= m["waves"] - 1),
           ("3 the medium peak kept: most waves in the medium class, at least main's medium less one",
            c["medium_wave"] > max(c["slow_wave"], c["fast_wave"]) and c["medium_wave"] >= m["medium_wave"] - 1),
           ("4 flashes in slow attacks at most main's (the 27)", c["slow_flash"] <= m["slow_flash"])]
    for name, v in pts:
        print("%-90s %s" % (name, "holds" if v else "MISSED"))
    print("adopted" if all(v for _, v in pts) else "not adopted")


if __name__ == "__main__":
    {"pick": pick, "decide": decide}[sys.argv[1] if len(sys.argv) > 1 else "pick"]()
