#!/usr/bin/env python3
"""The reporting run's totals over its attacks (each run once, the control apart), from a
results_*.json that docs/falcon/run.py wrote:

    /usr/bin/python3 docs/falcon/summary.py [docs/falcon/results_reporting.json] [--met-from OTHER.json]

--met-from takes each attack's speed the birds met (and its class) from another run of the same flocks and
attacks (a results file from before branch react15 has none; the speed met is the same under main's rule and
escape_wave_hops, the birds acting alike until the falcon is in sight).
"""
import json
import math
import os
import statistics
import sys

FIELD = (3.7, 25.0)
# run.py's MET_SLOW and MET_FAST (the classes by the speed the birds met)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import MET_FAST, MET_SLOW  # noqa: E402

MET = (MET_SLOW, MET_FAST)


def by_class(rows, key, what):
    cls, spd = key + "_class", key + "_speed"
    met = [r for r in rows if "m/s" in r["group"] and cls in r]
    if not met:
        return
    print("by %s (slow < %g, medium < %g, fast; m/s):" % (what, MET[0], MET[1]))
    for c in ("slow", "medium", "fast", None):
        rs = [r for r in met if r[cls] == c]
        if not rs:
            continue
        sp = [r[spd] for r in rs if r[spd]]
        print("%-14s %d attacks%s: flash %d (over the window before %d), wave %d, split %d; settings, seed, at m/s: %s" % (
            c or "not met", len(rs), " (%.1f-%.1f m/s)" % (min(sp), max(sp)) if sp else "",
            sum(bool(r["flash"]) for r in rs), sum(bool(r.get("flash_strict")) for r in rs),
            sum(bool(r["wave"]) for r in rs), sum(bool(r["split"]) for r in rs),
            ", ".join("%s %s %s%s" % (r["group"], r["seed"], "%.1f" % r[spd] if r[spd] else "-",
                                      " (wave)" if r["wave"] else "") for r in rs)))
    # how often a class as large as the medium one, drawn at random from these attacks, holds at least as many
    # of the waves (hypergeometric): whether the medium class's waves stand out from chance
    med_rs = [r for r in met if r[cls] == "medium"]
    n_all, w_all, n_med = len(met), sum(bool(r["wave"]) for r in met), len(med_rs)
    w_med = sum(bool(r["wave"]) for r in med_rs)
    if n_med and w_all:
        p = sum(math.comb(w_all, k) * math.comb(n_all - w_all, n_med - k) for k in range(w_med, min(w_all, n_med) + 1))
        print("medium: %d of the %d waves in %d of %d attacks; a random class of %d holds %d or more with probability %.2g"
              % (w_med, w_all, n_med, n_all, n_med, w_med, p / math.comb(n_all, n_med)))
    # attacks within 0.01 m/s of a bound (a level attack at its top speed falcon_attack_speed = MET_FAST reads 30 m/s to
    # within float rounding, which then decides its class): named, and the medium waves with them in the class above
    edge = [r for r in met if r[spd] and any(abs(r[spd] - b) < 0.01 for b in MET)]
    if edge:
        up = [r for r in met if r[spd] and MET[0] <= r[spd] + 0.01 < MET[1]]
        print("within 0.01 m/s of a bound: %s; with them in the class above, medium attacks that waved: %d of %d" % (
            ", ".join("%s %s %.6f%s" % (r["group"], r["seed"], r[spd], " (wave)" if r["wave"] else "") for r in edge),
            sum(bool(r["wave"]) for r in up), len(up)))
    if key == "close":
        moved = [r for r in met if r.get("met_class") != r[cls]]
        print("classed otherwise than by the speed met: %d of %d (%s); closest approach median %.1f m" % (
            len(moved), len(met), ", ".join("%s %s %s->%s" % (r["group"], r["seed"], r.get("met_class"), r[cls])
                                             for r in moved) or "none",
            statistics.median(r["close_m"] for r in met if r.get("close_m") is not None)
            if any(r.get("close_m") is not None for r in met) else float("nan")))


def main():
    args = sys.argv[1:]
    met_from = None
    if "--met-from" in args:  # the speed the birds met from another run of the same flocks and attacks (branch react15)
        k = args.index("--met-from")
        met_from = args[k + 1]
        del args[k:k + 2]
    path = args[0] if args else os.path.join(os.path.dirname(__file__), "results_reporting.json")
    with open(path) as fp:
        rows = json.load(fp)["rows"]
    if met_from:
        with open(met_from) as fp:
            other = {(r["group"], r["seed"], r["n"]): r for r in json.load(fp)["rows"]}
        for r in rows:
            o = other.get((r["group"], r["seed"], r["n"]))
            if o is not None and "met_class" in o:
                r["met_speed"], r["met_class"] = o["met_speed"], o["met_class"]
    seen, att = set(), []
    for r in rows:
        key = (r["n"], r["seed"], tuple(r["extra"]))
        if r["group"].startswith("control") or key in seen:
            continue
        seen.add(key)
        att.append(r)
    ws = [r["wave_speed"] for r in att if r["wave_speed"]]
    ratio = [r["wave_speed"] / r["flock_speed"] for r in att if r["wave_speed"] and r["flock_speed"]]
    jumps = [r["nn_jump"] for r in att]
    print("%d attacks; %d fitted a front: median %.1f m/s, mean %.1f, range %.1f-%.1f, %d within the field's %.1f-%.1f"
          % (len(att), len(ws), statistics.median(ws), statistics.mean(ws), min(ws), max(ws),
             sum(FIELD[0] <= w <= FIELD[1] for w in ws), FIELD[0], FIELD[1]))
    print("wave / flock speed: median %.2f, %d of %d at least 1.3" % (statistics.median(ratio), sum(x >= 1.3 for x in ratio), len(ratio)))
    print("splits %d, flash expansions %d (NN jump median %.2f, largest %.2f), lock-on %d, catches %d, of %d"
          % (sum(bool(r["split"]) for r in att), sum(bool(r["flash"]) for r in att), statistics.median(jumps), max(jumps),
             sum(bool(r["lock_on"]) for r in att), sum(bool(r["catch"]) for r in att), len(att)))
    if all("flash_strict" in r for r in att):
        pj = [r["nn_jump_prior"] for r in att]
        print("flash expansions over the window before (NN jump against the largest NN distance of as long a window "
              "before the attack >= 1.25): %d of %d (median %.2f, largest %.2f)"
              % (sum(bool(r["flash_strict"]) for r in att), len(att), statistics.median(pj), max(pj)))
    if all("reached" in r for r in att):
        # the target "every attack makes the flock react", read on the attacks that reached the flock (the falcon
        # within 20 m of a bird while attacking); the others counted apart (branch wave8)
        reach = [r for r in att if r["reached"]]
        print("reached the flock (falcon within 20 m of a bird): %d of %d; of those, reacted (whole flock's NN jump "
              ">= 1.25 or more groups) %d, with the path's birds opening >= 1.25 too %d; not reached: %d (nearest %s m)"
              % (len(reach), len(att), sum(bool(r["reacted"]) for r in reach), sum(bool(r["reacted_local"]) for r in reach),
                 len(att) - len(reach), " ".join("%.1f" % r["falcon_min_m"] if r["falcon_min_m"] is not None else "-"
                                                 for r in att if not r["reached"])))
    pol = [r["polarisation_before"] for r in att]
    print("polarisation before the attack: median %.2f, %d of %d at least 0.85" % (statistics.median(pol), sum(p >= 0.85 for p in pol), len(pol)))
    after = [(r["polarisation_before"], r["polarisation_after"]) for r in att if r.get("polarisation_after") is not None]
    if after:
        print("polarisation 29-30 s after the attack: median %.2f (before: %.2f), %d of %d at least 0.85, %d of %d back to "
              "their level before within 30 s"
              % (statistics.median(a for _, a in after), statistics.median(b for b, _ in after),
                 sum(a >= 0.85 for _, a in after), len(after),
                 sum(1 for r in att if r.get("recovery_rel_s") is not None and r["recovery_rel_s"] <= 30), len(att)))
    rec = [r for r in att if r["polarisation_before"] >= 0.85]
    print("of the %d attacks on a flock at least 0.85 polarised, %d back to 0.85 within 30 s"
          % (len(rec), sum(1 for r in rec if r["recovery_s"] is not None and r["recovery_s"] <= 30)))
    # the pattern mix by attack type (N = 2000, the strategies x speeds groups)
    by = {}
    for r in rows:
        g = r["group"]
        if "m/s" not in g:
            continue
        st, v = g.split(", ")
        for key in (st, v, g):
            b = by.setdefault(key, [0, 0, 0, 0, [], 0])
            b[0] += 1
            b[1] += bool(r["flash"])
            b[5] += bool(r.get("flash_strict"))
            b[2] += bool(r["wave"])
            b[3] += bool(r["split"])
            if r.get("direct") is not None:
                b[4].append(r["direct"])
    for key in sorted(by, key=lambda k: (k[0].isdigit(), "," in k, k)):
        k, fl, wv, sp, di, fs = by[key]
        print("%-14s %d attacks: flash %d (over the window before %d), wave %d, split %d%s" % (
            key, k, fl, fs, wv, sp, ", birds alarmed by the falcon itself: median %d (%s)" % (
                statistics.median(di), " ".join(str(x) for x in di)) if di else ""))
    # the pattern mix by the speed the birds met (branch react15: the attack_end event's aux, classed by run.py's
    # MET_SLOW and MET_FAST), beside the settings' above; with each class, the settings its attacks had
    # the pattern mix by the speed the birds met (branch react15: the attack_end event's aux, classed by run.py's
    # MET_SLOW and MET_FAST), beside the settings' above; with each class, the settings its attacks had; then the same
    # by the falcon's speed at its closest approach (branch react16: the closest event), the same bounds
    for key, what in (("met", "the speed the birds met"), ("close", "the speed at the closest approach")):
        by_class(rows, key, what)
    # the burst read locally (branch wave7: the path and burst events), by attack type and for the control
    loc = {}
    for r in rows:
        if r.get("flash_local") is None:
            continue
        g = r["group"]
        keys = [g.split(", ")[0], g.split(", ")[1], g] if "m/s" in g else [g]
        for key in keys:
            loc.setdefault(key, []).append(r)
    if loc:
        print("the birds along the falcon's path (within 10 m): NN after / before (path), the rest of the flock, "
              "flash read locally (path >= 1.25), birds that copied a flight, birds that copied a manoeuvre:")
    for key in sorted(loc, key=lambda k: (k[0].isdigit(), "," in k, k)):
        rs = loc[key]
        med = lambda xs: statistics.median(xs) if xs else float("nan")
        print("%-14s %d attacks: path median %.2f (%s), rest %.2f, flash (local) %d, flights median %d, manoeuvre "
              "copies median %d" % (
                  key, len(rs), med([r["path"] for r in rs if r.get("path")]),
                  " ".join("%.2f" % r["path"] if r.get("path") else "-" for r in rs),
                  med([r["path_rest"] for r in rs if r.get("path_rest")]), sum(bool(r["flash_local"]) for r in rs),
                  med([r.get("flights") or 0 for r in rs]),
                  med([(r.get("copied") or 0) - (r.get("flights") or 0) for r in rs])))


if __name__ == "__main__":
    main()
