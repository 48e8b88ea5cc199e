#!/usr/bin/env python3
"""Round 21 (issue 26, branch react23; docs/falcon/rounds.md "Round 21"): escape_spread with escape_spread_radius Rs.

    /usr/bin/python3 docs/falcon/round21.py

Per tuning row (run.py's results_tuning_TAG.json, seeds 101-103; only the 27 attacks by strategy and speed at N = 2000,
the --cases strategies run of this round) the issue's reactions (flash or split), flash expansions and waves by the
speed the birds met, wave over flock speed median and NN jump median; off (react20_off) and round 20's rows with the
gain from escape_radius (Rs 0) at the same escape_spread and p for comparison; whether the row adds reactions over off
with no flash in a slow attack and no wave lost (the brief's test for a candidate); attack by attack where a row
differs from the row with Rs 0 at the same escape_spread and p.
"""
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
OFF = "react20_off"
# (tag, escape_spread, Rs, p, the same row with Rs 0)
ROWS = [("react21_spread15", 15, 0, 1, None), ("react22_p2_spread15", 15, 0, 2, None),
        ("react20_spread20", 20, 0, 1, None), ("react22_p2_spread20", 20, 0, 2, None),
        ("react23_r5_p2_spread15", 15, 5, 2, "react22_p2_spread15"),
        ("react23_r10_p2_spread15", 15, 10, 2, "react22_p2_spread15"),
        ("react23_r5_p2_spread20", 20, 5, 2, "react22_p2_spread20"),
        ("react23_r10_p2_spread20", 20, 10, 2, "react22_p2_spread20"),
        ("react23_r5_p1_spread15", 15, 5, 1, "react21_spread15"),
        ("react23_r10_p1_spread15", 15, 10, 1, "react21_spread15")]


def the27(tag):
    path = os.path.join(HERE, "results_tuning_%s.json" % tag)
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        rows = json.load(fp)["rows"]
    seen, out = set(), {}
    for r in rows:
        if r["n"] != 2000 or r["group"].startswith("control") or r["group"].startswith("N = "):
            continue
        key = (r["seed"], tuple(x for x in r["extra"] if not x.startswith("escape_spread")))
        if key in seen:
            continue
        seen.add(key)
        out[key] = r
    return out


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def figures(a):
    rs = list(a.values())
    f = {"n": len(rs), "reacted": sum(bool(r["flash"] or r["split"]) for r in rs),
         "flashes": sum(bool(r["flash"]) for r in rs), "waves": sum(bool(r["wave"]) for r in rs),
         "ratio": med([r["wave_speed"] / r["flock_speed"] for r in rs if r["wave_speed"] and r["flock_speed"]]),
         "nn": med([r["nn_jump"] for r in rs if r["nn_jump"] is not None])}
    for c in ("slow", "medium", "fast"):
        cs = [r for r in rs if r.get("met_class") == c]
        f[c] = len(cs)
        f[c + "_flash"] = sum(bool(r["flash"]) for r in cs)
        f[c + "_wave"] = sum(bool(r["wave"]) for r in cs)
    return f


def line(name, f):
    return ("%-30s the %d: reacted %d; flashes %d (slow %d of %d / medium %d of %d / fast %d of %d); waves %d (%d / %d / %d); "
            "wave/flock median %.2f; NN jump median %.3f" % (
                name, f["n"], f["reacted"], f["flashes"], f["slow_flash"], f["slow"], f["medium_flash"], f["medium"],
                f["fast_flash"], f["fast"], f["waves"], f["slow_wave"], f["medium_wave"], f["fast_wave"], f["ratio"], f["nn"]))


def main():
    off = figures(the27(OFF))
    print(line("off (%s)" % OFF, off))
    cands = []
    for tag, s, rs, p, base in ROWS:
        a = the27(tag)
        name = "spread %d, Rs %s, p %d" % (s, rs if rs else "0 (=R)", p)
        if a is None:
            print("%-30s not run (%s)" % (name, tag))
            continue
        f = figures(a)
        keeps = f["reacted"] > off["reacted"] and f["slow_flash"] == 0 and f["waves"] >= off["waves"]
        print(line(name, f) + ("; ADDS REACTIONS, NO SLOW FLASH, NO WAVE LOST" if keeps else ""))
        if keeps:
            cands.append((f["flashes"], s, rs, p, tag))
        for bname, btag in ((("off", OFF), ("Rs 0", base)) if base else ()):
            b = the27(btag)
            for k, r in sorted(a.items()):
                q = b.get(k)
                if q is None:
                    continue
                if bool(q["flash"]) != bool(r["flash"]) or bool(q["wave"]) != bool(r["wave"]) or \
                        bool(q["flash"] or q["split"]) != bool(r["flash"] or r["split"]):
                    print("    vs %s: %s seed %d (met %s): flash %s -> %s (NN jump %.3f -> %.3f), wave %s -> %s, "
                          "reacted %s -> %s (split %s -> %s)" % (bname, r["group"], r["seed"], r.get("met_class"), bool(q["flash"]), bool(r["flash"]),
                                                q["nn_jump"], r["nn_jump"], bool(q["wave"]), bool(r["wave"]),
                                                bool(q["flash"] or q["split"]), bool(r["flash"] or r["split"]),
                                                bool(q["split"]), bool(r["split"])))
    cands.sort()
    print("candidate: %s" % ("none" if not cands else "%s (flashes over the 27: %d)" % (cands[0][4], cands[0][0])))


if __name__ == "__main__":
    main()
