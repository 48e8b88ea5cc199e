#!/usr/bin/env python3
"""Round 19 (issue 26, branch react20): escape_spread on the tuning seeds 101-103 against the same build with it off.
Reads run.py's results_tuning_TAG.json (the 27 attacks by strategy and speed at N = 2000, the 9 across N, the control)
and, where present, spread.py's spread_tuning_TAG_strategies.json (the attacked group's own NN jump); prints per tag the
issue's reactions (flash or split), flashes, splits, waves, wave over flock speed, group_jump, and attack by attack
where a tag differs from the first.

    /usr/bin/python3 docs/falcon/round19.py react20_off react20_spread20 [...]
    /usr/bin/python3 docs/falcon/round19.py react20_off react20_spread10+react21_spread10   # run.py's TAG, spread.py's
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(tag):
    # TAG or TAG+SPREADTAG: run.py's results_tuning_TAG.json with spread.py's spread_tuning_SPREADTAG_strategies.json
    # (round 19's second part: react20's runs at 10 read with react21's spread.py run at 10)
    tag, _, sptag = tag.partition("+")
    with open(os.path.join(HERE, "results_tuning_%s.json" % tag)) as fp:
        rows = json.load(fp)["rows"]
    seen, out = set(), []
    for r in rows:
        key = (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))
        if key in seen:
            continue
        seen.add(key)
        out.append(r)
    sp = {}
    p = os.path.join(HERE, "spread_tuning_%s_strategies.json" % (sptag or tag))
    if os.path.exists(p):
        with open(p) as fp:
            for r in json.load(fp)["rows"]:
                sp[(r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))] = r
    return out, sp


def key(r):
    return (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))


def main():
    tags = sys.argv[1:]
    base = None
    for tag in tags:
        rows, sp = load(tag)
        # the defaults at N = 2000 (above, 30 m/s) are one run, kept under "N = 2000": in the 27 and in the 9
        parts = [("the 27 at N = 2000", [r for r in rows if r["n"] == 2000 and not r["group"].startswith("control")]),
                 ("the 9 across N", [r for r in rows if r["group"].startswith("N = ")]),
                 ("the control", [r for r in rows if r["group"].startswith("control")])]
        print("%s:" % tag)
        for name, rs in parts:
            if not rs:  # a run of one --cases only (react21's 7.5: the 27)
                print("  %s: not run" % name)
                continue
            ratio = [r["wave_speed"] / r["flock_speed"] for r in rs if r["wave_speed"] and r["flock_speed"]]
            print("  %s (%d): reacted %d (flash %d, split %d); waves %d; wave / flock speed median %s; NN jump median %.3f"
                  % (name, len(rs), sum(bool(r["flash"] or r["split"]) for r in rs), sum(bool(r["flash"]) for r in rs),
                     sum(bool(r["split"]) for r in rs), sum(bool(r["wave"]) for r in rs),
                     "%.3f (%d fitted)" % (statistics.median(ratio), len(ratio)) if ratio else "-",
                     statistics.median(r["nn_jump"] for r in rs)))
        if sp:
            gj = [r["group_jump"] for r in sp.values() if r.get("group_jump") is not None]
            print("  spread.py, the 27 at N = 2000: group_jump >= 1.25 in %d of %d (median %.3f, range %.3f-%.3f); whole "
                  "flock's jump >= 1.25 %d; per-group reactions %d; the attacked group %.2f of the flock (median), %.3f of "
                  "it alarmed" % (sum(x >= 1.25 for x in gj), len(gj), statistics.median(gj), min(gj), max(gj),
                                  sum(r["nn_jump"] >= 1.25 for r in sp.values()),
                                  sum(1 for r in sp.values() if (r.get("group_jump") or 0) >= 1.25 or
                                      r["groups_max"] > r["groups_before"]),
                                  statistics.median(r["group"] for r in sp.values() if "group" in r),
                                  statistics.median(r["group_ever"] for r in sp.values() if "group_ever" in r)))
        if base is None:
            base = (tag, {key(r): r for r in rows}, sp)
            continue
        for r in rows:
            q = base[1].get(key(r))
            if q is None:
                continue
            a1, a2 = bool(q["flash"] or q["split"]), bool(r["flash"] or r["split"])
            if a1 != a2 or bool(q["flash"]) != bool(r["flash"]) or bool(q["wave"]) != bool(r["wave"]):
                print("  differs from %s: %s seed %d: reacted %s -> %s, flash %s -> %s, wave %s -> %s, groups %d>%d -> %d>%d, "
                      "NN jump %.3f -> %.3f" % (base[0], r["group"], r["seed"], a1, a2, bool(q["flash"]), bool(r["flash"]),
                                                 bool(q["wave"]), bool(r["wave"]), q["groups_before"], q["groups_max"],
                                                 r["groups_before"], r["groups_max"], q["nn_jump"], r["nn_jump"]))
        for k, r in sp.items():
            q = base[2].get(k)
            if q is not None and ((q.get("group_jump") or 0) >= 1.25) != ((r.get("group_jump") or 0) >= 1.25):
                print("  group_jump differs from %s: N = %d seed %d %s: %.3f -> %.3f" % (
                    base[0], r["n"], r["seed"], " ".join(k[2]) or "defaults", q["group_jump"], r["group_jump"]))


if __name__ == "__main__":
    main()
