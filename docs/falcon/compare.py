#!/usr/bin/env python3
"""Two runs of docs/falcon/run.py on the same seeds, attack by attack (the flocks are the same until
the falcon comes, so each attack pairs with the other run's): flash expansions, splits, waves,
polarisation recovery and wave speed by case, in each run.

    /usr/bin/python3 docs/falcon/compare.py OLD.json NEW.json
"""
import json
import statistics
import sys


def rows(path):
    with open(path) as fp:
        d = json.load(fp)
    out = {}
    for r in d["rows"]:
        out[(r["group"], r["seed"])] = r
    return out


def main():
    a, b = rows(sys.argv[1]), rows(sys.argv[2])
    keys = [k for k in a if k in b]
    groups = []
    for g, _ in keys:
        if g not in groups:
            groups.append(g)
    print("| case | attacks | flash (old, new) | flash over the window before | split | wave | wave speed median, m/s | alarmed by the falcon itself, median (new) | back to >= 0.85 in 30 s, of those >= 0.85 before |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for g in groups:
        ks = [k for k in keys if k[0] == g]

        def cnt(d, key):
            return sum(bool(d[k].get(key)) for k in ks)

        def med(d):
            w = [d[k]["wave_speed"] for k in ks if d[k]["wave_speed"]]
            return "%.1f" % statistics.median(w) if w else "-"

        def rec(d):
            p = [k for k in ks if d[k]["polarisation_before"] is not None and d[k]["polarisation_before"] >= 0.85]
            r = sum(1 for k in p if d[k]["recovery_s"] is not None and d[k]["recovery_s"] <= 30)
            return "%d of %d" % (r, len(p))

        di = [b[k].get("direct") for k in ks if b[k].get("direct") is not None]
        print("| %s | %d | %d, %d | %d, %d | %d, %d | %d, %d | %s, %s | %s | %s, %s |" % (
            g, len(ks), cnt(a, "flash"), cnt(b, "flash"), cnt(a, "flash_strict"), cnt(b, "flash_strict"), cnt(a, "split"), cnt(b, "split"), cnt(a, "wave"),
            cnt(b, "wave"), med(a), med(b), "%d" % statistics.median(di) if di else "-", rec(a), rec(b)))


if __name__ == "__main__":
    main()
