#!/usr/bin/env python3
"""Round 22 (issue 26, branch react24; docs/falcon/rounds.md "Round 22"): react23's candidate on new seeds, main's wave readings.

    /usr/bin/python3 docs/falcon/round22.py decide   # round 20's declared rule, unchanged (round20.py decide), on seeds 91-93:
                                                     # main (react24_main) against the candidate (react24_cand)
    /usr/bin/python3 docs/falcon/round22.py pooled   # main's wave over flock speed median and waves by the speed the birds
                                                     # met, on 71-73, 81-83 and 91-93 each and pooled (99 attacks)

pooled reads main's reporting rows as they are: 71-73 is round 18's results_reporting_react19_cs22.json
(escape_copy_speed 22, main's default since 8d2e35e), 81-83 round 20's results_reporting_react22_main.json, 91-93 this
round's results_reporting_react24_main.json. The ratio is round20.py decide's: every attack of the 33 with a fitted
front and a flock speed; the classes are the 27 at N = 2000 by the speed the birds met (run.py's MET_SLOW, MET_FAST);
the medium peak is round 20's point 3 for main itself: more medium waves than slow and than fast.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import round20  # noqa: E402

MAIN_SETS = [("71-73", "react19_cs22"), ("81-83", "react22_main"), ("91-93", "react24_main")]


def reading(a):
    s27 = [r for r in a if r["n"] == 2000]
    ratio = [r["wave_speed"] / r["flock_speed"] for r in a if r["wave_speed"] and r["flock_speed"]]
    ratio_w = [r["wave_speed"] / r["flock_speed"] for r in a if r["wave"] and r["wave_speed"] and r["flock_speed"]]
    f = {"n": len(a), "n27": len(s27), "waves": sum(bool(r["wave"]) for r in a), "ratio": statistics.median(ratio),
         "fitted": len(ratio), "ratio_waves": statistics.median(ratio_w) if ratio_w else None, "n_waves": len(ratio_w),
         "ratio_ge13": sum(x >= 1.3 for x in ratio)}
    for c in ("slow", "medium", "fast"):
        rs = [r for r in s27 if r.get("met_class") == c]
        f[c] = len(rs)
        f[c + "_wave"] = sum(bool(r["wave"]) for r in rs)
    f["peak"] = f["medium_wave"] > max(f["slow_wave"], f["fast_wave"])
    return f


def show(name, f):
    print("%-26s %d attacks: waves %d; the %d at N = 2000 by the speed met: slow %d of %d / medium %d of %d / fast %d of %d; "
          "medium peak %s; wave over flock speed median %.2f (%d fitted, %d of them >= 1.3); over the counted waves only "
          "%s (%d)" % (name, f["n"], f["waves"], f["n27"], f["slow_wave"], f["slow"], f["medium_wave"], f["medium"],
                       f["fast_wave"], f["fast"], "held" if f["peak"] else "MISSED", f["ratio"], f["fitted"], f["ratio_ge13"],
                       "%.2f" % f["ratio_waves"] if f["ratio_waves"] is not None else "-", f["n_waves"]))


def pooled():
    allrows = []
    for seeds, tag in MAIN_SETS:
        path = os.path.join(HERE, "results_reporting_%s.json" % tag)
        if not os.path.exists(path):
            print("%-26s not run" % ("seeds " + seeds))
            continue
        a = round20.attacks(path)
        allrows.extend(a)
        show("main, seeds %s" % seeds, reading(a))
    show("main, pooled", reading(allrows))


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "pooled"
    if what == "decide":
        round20.decide("react24_main", "react24_cand")
        for tag in ("react24_main", "react24_cand"):
            with open(os.path.join(HERE, "spread_reporting_%s_strategies.json" % tag)) as fp:
                gj = [r.get("group_jump") or 0 for r in json.load(fp)["rows"]]
            print("%s: spread.py's group_jump median over the %d: %.3f" % (tag, len(gj), statistics.median(gj)))
    else:
        pooled()
