#!/usr/bin/env python3
"""Why an attack does or does not make the flock react (issue 26's target: the whole flock's NN distance
up 1.25x or more groups), from one or more results_*.json that docs/falcon/run.py wrote: how close the
falcon came, the whole flock's NN jump, the groups, the birds along the falcon's path against the rest,
and each alarmed bird's own nearest neighbour at the end of its first manoeuvre against at its alarm
(the burst event). The same run in two files (the same numbers) counts once; controls are left out.

    /usr/bin/python3 docs/falcon/reaction.py docs/falcon/results_tuning_wave8_as22.json \\
        docs/falcon/results_tuning_wave8_sizes22.json
"""
import json
import statistics
import sys

JUMP = 1.25
NEAR_OPEN, NEAR_CLOSED = 1.4, 0.8  # docs/falcon/run.py (branch react11)


CONTROL = False  # --control: read the controls (birds blind to the falcon) too
STRATEGIES = False  # --strategies: only the attacks by strategy and speed (N = 2000)


def load(paths):
    seen, rows = set(), []
    for p in paths:
        with open(p) as fp:
            for r in json.load(fp)["rows"]:
                key = (r["n"], r["seed"], r["start"], r["nn_jump"], r["falcon_min_m"], r["wave_speed"])
                if (r["group"].startswith("control") and not CONTROL) or key in seen or (
                        STRATEGIES and "m/s" not in r["group"]):
                    continue
                seen.add(key)
                rows.append(r)
    return rows


def opened(r):
    # run.py's NEAR_OPEN, read from the rows' largest ratio (rows written before the threshold was set too)
    return (r.get("near_max") or 0.0) >= NEAR_OPEN


def closed(r):
    return r.get("near_min") is not None and r["near_min"] <= NEAR_CLOSED


def med(rows, k):
    v = [r[k] for r in rows if r.get(k) is not None]
    return (statistics.median(v), min(v), max(v)) if v else (float("nan"),) * 3


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: reaction.py RESULTS.json...")
    global CONTROL, STRATEGIES
    args = sys.argv[1:]
    CONTROL = "--control" in args
    STRATEGIES = "--strategies" in args
    rows = load([a for a in args if a not in ("--control", "--strategies")])
    sizes = sorted({r["n"] for r in rows})
    print("%d attacks (N = %s)" % (len(rows), ", ".join("%d: %d" % (n, sum(r["n"] == n for r in rows)) for n in sizes)))
    m = med(rows, "falcon_min_m")
    print("the falcon's closest approach to a bird: median %.1f m, range %.1f-%.1f m; within 20 m: %d"
          % (m[0], m[1], m[2], sum(r["reached"] for r in rows)))
    m = med(rows, "nn_jump")
    print("whole flock's NN jump: median %.3f, largest %.3f; >= %.2f in %d" % (m[0], m[2], JUMP,
                                                                             sum(r["nn_jump"] >= JUMP for r in rows)))
    print("more groups in %d; reacted (the issue's reading) %d; with the path's birds (reacted_local) %d"
          % (sum(r["groups_max"] > r["groups_before"] for r in rows), sum(r["reacted"] for r in rows),
             sum(r["reacted_local"] for r in rows)))
    p, q = med(rows, "path"), med(rows, "path_rest")
    print("the path's birds (the falcon within 10 m, median %d birds): NN after / before median %.3f (>= %.2f in %d); "
          "the rest of the flock %.3f" % (med(rows, "path_birds")[0], p[0], JUMP,
                                          sum((r["path"] or 0.0) >= JUMP for r in rows), q[0]))
    b, c = med(rows, "burst"), med(rows, "burst_copied")
    print("each alarmed bird's NN at the end of its first manoeuvre / at its alarm: the birds the falcon alarmed "
          "itself median %.3f (largest %.3f), the copiers median %.3f (largest %.3f)" % (b[0], b[2], c[0], c[2]))
    if any(r.get("near_max") is not None for r in rows):
        # branch react11: the metrics' birds within 10 m of the falcon, their NN distance over the flock's
        x, n = med(rows, "near_max"), med(rows, "near_min")
        print("the birds near the falcon (>= 20 within 10 m): NN / the flock's, largest median %.3f (%.3f-%.3f), "
              "smallest median %.3f (%.3f-%.3f); opened (>= 1.4) in %d, closed up (<= 0.8) in %d, not judged in %d; "
              "the issue's reading or near the falcon (reacted_any) %d; the whole flock's NN, smallest / before: "
              "median %.3f" % (x[0], x[1], x[2], n[0], n[1], n[2], sum(opened(r) for r in rows),
                               sum(closed(r) for r in rows), sum(r.get("near_max") is None for r in rows),
                               sum(r["reacted"] or opened(r) or closed(r) for r in rows), med(rows, "nn_dip")[0]))
    ws = med(rows, "wave_speed")
    print("waves at 20 / 30 / 40 m/s: %s; wave speed median %.1f m/s" % (
        " / ".join(str(sum(bool(r["wave"]) for r in rows if r["group"].endswith(" %d m/s" % v))) for v in (20, 30, 40)),
        ws[0]))
    a = med(rows, "alarmed_max")
    print("largest share of the flock escaping at once: median %.3f, range %.3f-%.3f" % a)


if __name__ == "__main__":
    main()
