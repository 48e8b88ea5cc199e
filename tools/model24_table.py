#!/usr/bin/env python3
"""The twenty-second round's table (docs/murmuration/rounds.md, "Twenty-second round"), from the tuning lines, the
profiles and the rim_tail blocks in docs/murmuration/data/model24_tuning.txt (tools/model24_batch.sh's output): per
configuration, N = 500 / 2000 / 8000 where run, the misses (and the change against the preset's), q5's share of
birds whose nearest neighbour is 2 m or more away, q5/q1, the border ratio (the tuning line's, and rim_tail
--ratios' by means on the last snapshot), NN, gamma(1) (Hanisch), polarisation, mid/thin and the biggest group.

    tools/model24_table.py [FILE]
    tools/model24_table.py --cells [FILE]   (instead: which of the twelve cells each line misses, by
                                            tools/murmuration_tune.py's bounds on the line's printed figures)
"""
import re
import sys

cells = "--cells" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != "--cells"]
f = args[0] if args else "docs/murmuration/data/model24_tuning.txt"
line, prof, tail, ratio, order = {}, {}, {}, {}, []
block = None
for s in open(f):
    if s.startswith("# rim_tail --ratios"):
        block = "ratios"
        continue
    if s.startswith("# rim_tail"):
        block = "tail"
        continue
    if s.startswith("## batch"):
        block = None
    m = re.match(r"(\S+)\s+N=(\d+)\s+m/t", s)
    if m:
        name, n = m.group(1), int(m.group(2))
        line[(name, n)] = dict(re.findall(r"([a-z/>0-9-]+(?:10)?)\s+(-?[\d.]+)", s[m.end() - 3:]))
        if name not in order:
            order.append(name)
        continue
    m = re.match(r"(\S+)\s+N=(\d+)\s+NN q1..q5 \(m\): ([\d. ]+) q5/q1 ([\d.]+)", s)
    if m:
        prof[(m.group(1), int(m.group(2)))] = m.group(4)
        continue
    m = re.match(r"(\S+)\s+(\d+)\s+([\d.]+) ([\d.]+) \| ([\d.]+) ([\d.]+) \| ([\d.]+) \|", s)
    if m and block == "tail":
        tail[(m.group(1), int(m.group(2)))] = m.group(7)
        continue
    m = re.match(r"(\S+)\s+(\d+)\s+([\d.]+) \| ([\d.]+) \| ([\d.]+)", s)
    if m and block == "ratios":
        ratio[(m.group(1), int(m.group(2)))] = m.group(3)

NS = (500, 2000, 8000)


def col(name, key):
    return " / ".join(line[(name, n)][key] if (name, n) in line else "-" for n in NS)


def dcol(d, name):
    return " / ".join(d[(name, n)] if (name, n) in d else "-" for n in NS)


def vs(name):
    out = []
    for n in NS:
        if (name, n) not in line or ("preset", n) not in line:
            out.append("-")
            continue
        x = int(line[(name, n)]["miss"]) - int(line[("preset", n)]["miss"])
        out.append("%+d" % x if x else "0")
    return " / ".join(out)


if not cells:
    print("| change | missed | against the preset | q5 share ≥ 2 m | q5/q1 | border ratio (line) | border ratio (last) "
          "| NN (m) | γ(1) | polarisation | mid/thin | biggest group |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in order:
        print("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, col(name, "miss"), vs(name), dcol(tail, name), dcol(prof, name), col(name, "bord"), dcol(ratio, name),
            col(name, "nn"), col(name, "hg1"), col(name, "pol"), col(name, "m/t"), col(name, "grp")))


def missed(v):
    x = {k: float(v[k]) for k in v}
    ok = {"m/t": 2.0 <= x["m/t"] <= 3.6, "l/t": 3.6 <= x["l/t"] <= 7.6, "pol": x["pol"] >= 0.9,
          "nn": 0.68 <= x["nn"] <= 1.51, "sp": 9 <= x["sp"] <= 13, "cv": 0.03 <= x["cv"] <= 0.2, "lim": x["lim"] < 0.01,
          "bord": x["bord"] < 1.0, "hg1": x["hg1"] >= 0.6, "hg7-10dev": x["hg7-10dev"] <= 0.1, "ang": x["ang"] <= 25,
          "tilt>10": x["tilt>10"] >= 0.1}
    return [k for k in ok if not ok[k]]


if cells:
    print("| change | N = 500 | N = 2000 | N = 8000 |")
    print("|---|---|---|---|")
    for name in order:
        print("| `%s` | %s |" % (name, " | ".join(
            ", ".join(missed(line[(name, n)])) if (name, n) in line else "-" for n in NS)))
