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


def load(paths):
    seen, rows = set(), []
    for p in paths:
        with open(p) as fp:
            for r in json.load(fp)["rows"]:
                key = (r["n"], r["seed"], r["start"], r["nn_jump"], r["falcon_min_m"], r["wave_speed"])
                if r["group"].startswith("control") or key in seen:
                    continue
                seen.add(key)
                rows.append(r)
    return rows


def med(rows, k):
    v = [r[k] for r in rows if r.get(k) is not None]
    return (statistics.median(v), min(v), max(v)) if v else (float("nan"),) * 3


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: reaction.py RESULTS.json...")
    rows = load(sys.argv[1:])
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
    a = med(rows, "alarmed_max")
    print("largest share of the flock escaping at once: median %.3f, range %.3f-%.3f" % a)


if __name__ == "__main__":
    main()
