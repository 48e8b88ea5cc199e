#!/usr/bin/env python3
"""The twenty-first round's table (docs/murmuration/rounds.md, "Twenty-first round"), from the tuning lines and the
profiles in docs/murmuration/data/model23_tuning.txt: per configuration, N = 500 / 2000 / 8000 where run, the
nearest neighbour by depth q1..q5 in full (tools/spacing_profile.sh) and q5/q1.

    tools/model23_table.py [FILE]
"""
import re
import sys

f = sys.argv[1] if len(sys.argv) > 1 else "docs/murmuration/data/model23_tuning.txt"
line, prof, order = {}, {}, []
for s in open(f):
    m = re.match(r"(\S+)\s+N=(\d+)\s+m/t", s)
    if m:
        name, n = m.group(1), int(m.group(2))
        line[(name, n)] = dict(re.findall(r"([a-z/>0-9-]+(?:10)?)\s+(-?[\d.]+)", s[m.end() - 3:]))
        if name not in order:
            order.append(name)
        continue
    m = re.match(r"(\S+)\s+N=(\d+)\s+NN q1..q5 \(m\): ([\d. ]+) q5/q1 ([\d.]+)", s)
    if m:
        prof[(m.group(1), int(m.group(2)))] = (" ".join(m.group(3).split()), m.group(4))

NS = (500, 2000, 8000)


def col(name, key):
    return " / ".join(line[(name, n)][key] if (name, n) in line else "-" for n in NS)


def pcol(name, i):
    return " / ".join(prof[(name, n)][i] if (name, n) in prof else "-" for n in NS)


print("| change | missed | border ratio | NN q1 q2 q3 q4 q5 (m) | q5/q1 | mid/thin | polarisation | speed (m/s) | speed CV | NN (m) | γ(1) | biggest group |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in order:
    print("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, col(name, "miss"), col(name, "bord"), pcol(name, 0), pcol(name, 1), col(name, "m/t"), col(name, "pol"),
        col(name, "sp"), col(name, "cv"), col(name, "nn"), col(name, "hg1"), col(name, "grp")))
