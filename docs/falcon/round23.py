#!/usr/bin/env python3
"""Round 23 (issue 26, branch react25; docs/falcon/rounds.md "Round 23"): escape_spread_radius Rs between 10 and 20 m, and p 1
with Rs 10, on the tuning seeds 101-103 (no reporting seeds this round).

    /usr/bin/python3 docs/falcon/round23.py
    /usr/bin/python3 docs/falcon/round23.py best    # the best row's tag and parameters (for sweep_react25b.sh)

Per tuning row (run.py's results_tuning_TAG.json, the 27 attacks by strategy and speed at N = 2000, --cases
strategies) the issue's reactions (flash or split), per-group reactions where spread.py was run on the row
(spread_tuning_TAG_strategies.json: group_jump >= 1.25 or more groups, as round20.py), the NN jump median, flash
expansions by the speed the birds met (slow / medium / fast), waves (the same classes) and the wave over flock speed
median; off (react20_off, main's bits) and the earlier rows at the same escape_spread for comparison.

The brief's test for a candidate (fixed in this file before any row of this round was read): the row adds reactions by
the issue's reading over off (the 27) with no flash in a slow attack, no more flashes in medium attacks than off, and
no wave lost (waves over the 27 at least off's). Only the rows with Rs 10 to 20 m (this round's question; Rs 5 and
Rs 0 are shown for comparison, Rs 5 was round 22's candidate) can be the best row. The best row (the one run across N and with the control): among the
rows that pass, the most reactions, then the fewest flashes over the 27, then the larger NN jump median; if none
passes, the same order among the rows with no slow flash and no more medium flashes than off.
Then, per row where they were run: the 9 across N (results_tuning_TAG_sizes.json: N = 500, 2000, 8000) and the control
(results_tuning_TAG_control.json: birds blind to the falcon; a flash, split or wave there is the flock passing for a
reaction); attack by attack where a new row differs from off and from the row with Rs 0 at the same escape_spread and p.
"""
import json
import os

import round21

HERE = os.path.dirname(os.path.abspath(__file__))
OFF = "react20_off"
# (tag, escape_spread, Rs, p, the same row with Rs 0 (the gain from escape_radius, 20 m), new this round)
ROWS = [("react22_p2_spread15", 15, 0, 2, None, False),
        ("react23_r5_p2_spread15", 15, 5, 2, "react22_p2_spread15", False),
        ("react23_r10_p2_spread15", 15, 10, 2, "react22_p2_spread15", False),
        ("react25_r12.5_p2_spread15", 15, 12.5, 2, "react22_p2_spread15", True),  # added after Rs 15's row was read
        ("react25_r15_p2_spread15", 15, 15, 2, "react22_p2_spread15", True),
        ("react25_r20_p2_spread15", 15, 20, 2, "react22_p2_spread15", True),
        ("react23_r5_p1_spread15", 15, 5, 1, "react21_spread15", False),
        ("react25_r10_p1_spread15", 15, 10, 1, "react21_spread15", True),
        ("react22_p2_spread20", 20, 0, 2, None, False),
        ("react23_r10_p2_spread20", 20, 10, 2, "react22_p2_spread20", False),
        ("react25_r15_p2_spread20", 20, 15, 2, "react22_p2_spread20", True),
        ("react25_r20_p2_spread20", 20, 20, 2, "react22_p2_spread20", True)]


def load(name):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        return json.load(fp)["rows"]


# the 27 attacks of a tuning run at N = 2,000, the median and a row's figures: round 21's (the same reading)
the27 = round21.the27
med = round21.med
figures = round21.figures


def per_group(tag):
    rows = load("spread_tuning_%s_strategies.json" % tag)
    if rows is None:
        return None
    return (sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25 or r["groups_max"] > r["groups_before"]),
            sum(1 for r in rows if (r.get("group_jump") or 0) >= 1.25), len(rows), med([r.get("group_jump") or 0 for r in rows]))


def line(name, f, pg):
    return ("%-24s the %d: reacted %d; per group %s; NN jump median %.3f; flashes %d (slow %d of %d / medium %d of %d / "
            "fast %d of %d); waves %d (%d / %d / %d); wave/flock median %.2f" % (
                name, f["n"], f["reacted"], "%d (group_jump >= 1.25 in %d of %d, median %.3f)" % pg if pg else "not run", f["nn"],
                f["flashes"], f["slow_flash"], f["slow"], f["medium_flash"], f["medium"], f["fast_flash"], f["fast"],
                f["waves"], f["slow_wave"], f["medium_wave"], f["fast_wave"], f["ratio"]))


def across(tag):
    """The 9 across N and the control, where run."""
    out = []
    sizes = load("results_tuning_%s_sizes.json" % tag)
    whole = load("results_tuning_%s.json" % tag) or []
    if sizes is None and any(r["group"].startswith("N = ") for r in whole):
        sizes = whole  # a row run with all cases (round 20's): its 9 across N and control in the one file
    if sizes is not None:
        for n in (500, 2000, 8000):
            rs = [r for r in sizes if r["n"] == n and r["group"].startswith("N = ")]
            out.append("N = %d: reacted %d of %d, flash %d, split %d, wave %d, NN jump median %.3f, wave/flock median %s" % (
                n, sum(bool(r["flash"] or r["split"]) for r in rs), len(rs), sum(bool(r["flash"]) for r in rs),
                sum(bool(r["split"]) for r in rs), sum(bool(r["wave"]) for r in rs),
                med([r["nn_jump"] for r in rs if r["nn_jump"] is not None]),
                "%.2f" % med([r["wave_speed"] / r["flock_speed"] for r in rs if r["wave_speed"] and r["flock_speed"]])
                if any(r["wave_speed"] and r["flock_speed"] for r in rs) else "-"))
        rs = [r for r in sizes if r["group"].startswith("N = ")]
        out.append("the 9 across N: reacted %d of %d, flashes %d, waves %d" % (
            sum(bool(r["flash"] or r["split"]) for r in rs), len(rs), sum(bool(r["flash"]) for r in rs),
            sum(bool(r["wave"]) for r in rs)))
        a33 = list(the27(tag).values()) + [r for r in rs if r["n"] != 2000]  # N = 2000's defaults are among the 27
        out.append("all 33: reacted %d of %d, flashes %d, waves %d" % (
            sum(bool(r["flash"] or r["split"]) for r in a33), len(a33), sum(bool(r["flash"]) for r in a33),
            sum(bool(r["wave"]) for r in a33)))
    ctl = load("results_tuning_%s_control.json" % tag)
    if ctl is None and any(r["group"].startswith("control") for r in whole):
        ctl = whole
    if ctl is not None:
        rs = [r for r in ctl if r["group"].startswith("control")]
        out.append("control (%d, birds blind): flash %d, split %d, wave %d; flash, split or wave %d; NN jump median %.3f" % (
            len(rs), sum(bool(r["flash"]) for r in rs), sum(bool(r["split"]) for r in rs), sum(bool(r["wave"]) for r in rs),
            sum(bool(r["flash"] or r["split"] or r["wave"]) for r in rs), med([r["nn_jump"] for r in rs])))
    return out


def off_across():
    """off's 9 across N and control: round 19's react20_off run (all cases)."""
    rows = load("results_tuning_%s.json" % OFF)
    out = []
    for n in (500, 2000, 8000):
        rs = [r for r in rows if r["n"] == n and r["group"].startswith("N = ")]
        out.append("N = %d: reacted %d of %d, flash %d, split %d, wave %d, NN jump median %.3f" % (
            n, sum(bool(r["flash"] or r["split"]) for r in rs), len(rs), sum(bool(r["flash"]) for r in rs),
            sum(bool(r["split"]) for r in rs), sum(bool(r["wave"]) for r in rs),
            med([r["nn_jump"] for r in rs if r["nn_jump"] is not None])))
    rs = [r for r in rows if r["group"].startswith("N = ")]
    out.append("the 9 across N: reacted %d of %d, flashes %d, waves %d" % (
        sum(bool(r["flash"] or r["split"]) for r in rs), len(rs), sum(bool(r["flash"]) for r in rs),
        sum(bool(r["wave"]) for r in rs)))
    a33 = list(the27(OFF).values()) + [r for r in rs if r["n"] != 2000]
    out.append("all 33: reacted %d of %d, flashes %d, waves %d" % (
        sum(bool(r["flash"] or r["split"]) for r in a33), len(a33), sum(bool(r["flash"]) for r in a33),
        sum(bool(r["wave"]) for r in a33)))
    rs = [r for r in rows if r["group"].startswith("control")]
    out.append("control (%d, birds blind): flash %d, split %d, wave %d; flash, split or wave %d; NN jump median %.3f" % (
        len(rs), sum(bool(r["flash"]) for r in rs), sum(bool(r["split"]) for r in rs), sum(bool(r["wave"]) for r in rs),
        sum(bool(r["flash"] or r["split"] or r["wave"]) for r in rs), med([r["nn_jump"] for r in rs])))
    return out


def diff(a, b, bname):
    for k, r in sorted(a.items()):
        q = b.get(k)
        if q is None:
            continue
        if bool(q["flash"]) != bool(r["flash"]) or bool(q["wave"]) != bool(r["wave"]) or \
                bool(q["flash"] or q["split"]) != bool(r["flash"] or r["split"]):
            print("    vs %s: %s seed %d (met %s): flash %s -> %s (NN jump %.3f -> %.3f), wave %s -> %s, reacted %s -> %s "
                  "(groups %d>%d -> %d>%d)" % (bname, r["group"], r["seed"], r.get("met_class"), bool(q["flash"]),
                                              bool(r["flash"]), q["nn_jump"], r["nn_jump"], bool(q["wave"]), bool(r["wave"]),
                                              bool(q["flash"] or q["split"]), bool(r["flash"] or r["split"]),
                                              q["groups_before"], q["groups_max"], r["groups_before"], r["groups_max"]))


def same_bits(a, b):
    keys = ("flash", "split", "wave", "nn_jump", "wave_speed", "flock_speed", "groups_before", "groups_max")
    return sorted(a) == sorted(b) and all(all(a[k].get(x) == b[k].get(x) for x in keys) for k in a)


def best_args():
    """The best row's run.py arguments (for the sweep script: the 9 across N and the control)."""
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main()
    tag = buf.getvalue().split("best row (across N and control): ")[1].split()[0]
    for t, s, rs, p, _, _ in ROWS:
        if t == tag:
            print("%s escape_spread=%s escape_spread_radius=%s escape_spread_falloff=%s" % (tag, s, rs, p))


def main():
    off = figures(the27(OFF))
    print(line("off (%s)" % OFF, off, per_group(OFF)))
    passed, fallback = [], []
    for tag, s, rs, p, base, new in ROWS:
        a = the27(tag)
        name = "%d, Rs %s, p %d" % (s, rs if rs else "0 (=R)", p)
        if a is None:
            print("%-24s not run (%s)" % (name, tag))
            continue
        f = figures(a)
        keeps = f["slow_flash"] == 0 and f["medium_flash"] <= off["medium_flash"]
        ok = keeps and f["reacted"] > off["reacted"] and f["waves"] >= off["waves"]
        print(line(name, f, per_group(tag)) + ("; PASSES THE BRIEF'S TEST" if ok else ""))
        rank = (-f["reacted"], f["flashes"], -f["nn"], tag)
        if not 10 <= rs <= 20:
            pass
        elif ok:
            passed.append(rank)
        elif keeps:
            fallback.append(rank)
        if rs == 20 and base:
            print("    the same rows as %s (Rs 20 = escape_radius): %s" % (base, same_bits(a, the27(base))))
        if new:
            diff(a, the27(OFF), "off")
            if base and rs != 20:
                diff(a, the27(base), "Rs 0")
        for x in across(tag):
            print("    " + x)
    # the slow and medium attacks (by the speed met under off) that flash in some row at 15 m/s^2: NN jump per row
    at15 = [(t, rs, p) for t, s_, rs, p, _, _ in ROWS if s_ == 15 and the27(t) is not None]
    o = the27(OFF)
    print("slow and medium attacks (met under off) flashing in a row at 15 m/s^2, NN jump per row (* flash, w wave):")
    print("    %-28s %6s " % ("attack", "off") + " ".join("%9s" % ("Rs%s p%d" % (rs, p)) for _, rs, p in at15))
    for k, r in sorted(o.items()):
        rows = [the27(t)[k] for t, _, _ in at15]
        if r.get("met_class") in ("slow", "medium") and any(q["flash"] for q in rows):
            mark = lambda q: "%.3f%s%s" % (q["nn_jump"], "*" if q["flash"] else "", "w" if q["wave"] else "")
            print("    %-28s %6s " % ("%s s%d (%s)" % (r["group"], r["seed"], r["met_class"]), mark(r)) +
                  " ".join("%9s" % mark(q) for q in rows))
    print("off (%s), its 9 across N and control (round 19's run):" % OFF)
    for x in off_across():
        print("    " + x)
    passed.sort()
    fallback.sort()
    print("passes the brief's test, Rs 10-20: %s" % (", ".join(r[3] for r in passed) or "none"))
    best = passed[0] if passed else (fallback[0] if fallback else None)
    print("best row (across N and control): %s%s" % (best[3] if best else "none",
                                                    "" if passed else " (none passes: best of those with no slow flash "
                                                                        "and no more medium flashes than off)"))


if __name__ == "__main__":
    import sys
    best_args() if sys.argv[1:] == ["best"] else main()
