#!/usr/bin/env python3
"""Round 25 (issue 26, branch react27; docs/falcon/rounds.md "Round 25"): round 24's declared run, once, on seeds 111-113.

    /usr/bin/python3 docs/falcon/round25.py decide   # round 20's rule, unchanged (round20.py decide), main (react26_main)
                                                     # against round 24's candidate (react26_cand); beside it, not part of
                                                     # the rule: each attack whose reaction differs with its length under
                                                     # both; main's target figures on 111-113 (and pooled with 71-73,
                                                     # 81-83, 91-93, as round22.py pooled reads them)

The declaration is round 24's (docs/falcon/rounds.md, "The declared run for the candidate"), written before any run of it.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import round20  # noqa: E402
import round22  # noqa: E402

MAIN, CAND = "react26_main", "react26_cand"


def key(r):
    return (r["n"], r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))


def lengths(main=MAIN, cand=CAND):
    m = {key(r): r for r in round20.attacks(os.path.join(HERE, "results_reporting_%s.json" % main))}
    print("beside the rule: each attack whose reaction (flash or split) differs, with the attack's length (s) under both:")
    k = 0
    for r in round20.attacks(os.path.join(HERE, "results_reporting_%s.json" % cand)):
        q = m.get(key(r))
        if q is None:
            continue
        if bool(q["flash"] or q["split"]) != bool(r["flash"] or r["split"]):
            k += 1
            print("  %s seed %d (met %s): main %s (groups %d>%d, NN jump %.3f, length %.2f s); candidate %s (groups %d>%d, "
                  "NN jump %.3f, length %.2f s)" % (
                      r["group"], r["seed"], r.get("met_class"),
                      "flash" if q["flash"] else ("split" if q["split"] else "none"), q["groups_before"], q["groups_max"],
                      q["nn_jump"], q["length_s"],
                      "flash" if r["flash"] else ("split" if r["split"] else "none"), r["groups_before"], r["groups_max"],
                      r["nn_jump"], r["length_s"]))
    print("  %d attack(s)" % k)


def targets(main=MAIN, seeds="111-113", sets=(("111-113", MAIN),)):
    """main's target figures on its seeds, then pooled over round22.py's sets and `sets` (seeds, tag)."""
    print("beside the rule: main's target figures (main's defaults, %s):" % main)
    f = round20.figures(os.path.join(HERE, "results_reporting_%s.json" % main))
    print("  " + round20.line("main, seeds %s" % seeds, f))
    a = round20.attacks(os.path.join(HERE, "results_reporting_%s.json" % main))
    round22.show("main, seeds %s" % seeds, round22.reading(a))
    allrows = []
    for _, tag in round22.MAIN_SETS + list(sets):
        allrows.extend(round20.attacks(os.path.join(HERE, "results_reporting_%s.json" % tag)))
    round22.show("main, pooled 71-%s (%d)" % (seeds.split("-")[-1], len(allrows)), round22.reading(allrows))


def report(main=MAIN, cand=CAND, seeds="111-113", sets=(("111-113", MAIN),)):
    """round 20's rule, main against the candidate, and beside it the group_jump medians, the attacks that differ and
    main's target figures."""
    round20.decide(main, cand)
    for tag in (main, cand):
        with open(os.path.join(HERE, "spread_reporting_%s_strategies.json" % tag)) as fp:
            gj = [r.get("group_jump") or 0 for r in json.load(fp)["rows"]]
        print("%s: spread.py's group_jump median over the %d: %.3f" % (tag, len(gj), statistics.median(gj)))
    lengths(main, cand)
    targets(main, seeds, sets)


if __name__ == "__main__":
    report()
