#!/usr/bin/env python3
"""The twentieth round's tables (docs/murmuration/rounds.md, "Twentieth round"), from the tuning lines and the
profiles in docs/murmuration/data/model22_tuning.txt: per configuration, N = 500 / 2000 / 8000 where run.

    tools/model22_table.py [FILE]
"""
import re
import sys

f = sys.argv[1] if len(sys.argv) > 1 else "docs/murmuration/data/model22_tuning.txt"
line, prof, order = {}, {}, []
for s in open(f):
    m = re.match(r"(\S+)\s+N=(\d+)\s+m/t", s)
    if m:
        name, n = m.group(1), int(m.group(2))
        v = dict(re.findall(r"([a-z/>0-9-]+(?:10)?)\s+(-?[\d.]+)", s[m.end() - 3:]))
        line[(name, n)] = v
        if name not in order:
            order.append(name)
        continue
    m = re.match(r"(\S+)\s+N=(\d+)\s+NN q1..q5 \(m\): ([\d. ]+) q5/q1 ([\d.]+)", s)
    if m:
        q = m.group(3).split()
        prof[(m.group(1), int(m.group(2)))] = (q[0], q[4], m.group(4))


def col(name, key, fmt=str):
    return " / ".join(fmt(line[(name, n)][key]) if (name, n) in line else "-" for n in (500, 2000, 8000))


def pcol(name):
    return " / ".join("%s → %s" % prof[(name, n)][:2] if (name, n) in prof else "-" for n in (500, 2000, 8000))


def qcol(name):
    return " / ".join(prof[(name, n)][2] if (name, n) in prof else "-" for n in (500, 2000, 8000))


print("| change | missed | border ratio | NN q1 → q5 (m) | q5/q1 | mid/thin | polarisation | speed (m/s) | speed CV | NN (m) | γ(1) | biggest group |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in order:
    print("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, col(name, "miss"), col(name, "bord"), pcol(name), qcol(name), col(name, "m/t"), col(name, "pol"),
        col(name, "sp"), col(name, "cv"), col(name, "nn"), col(name, "hg1"), col(name, "grp")))
