#!/usr/bin/env python3
"""How far each attack's escape spreads through the flock (issue 26, branch react17), read bird by bird through
the Python module: the attack of docs/falcon/run.py (the starling preset settles --settle ticks, then the falcon
comes, falcon_wait 60 s: one attack), followed tick by tick until the last escape of the attack has ended.

Per attack it prints and writes (--out, json):
- the share of the flying birds alarmed (state 1..4) at some tick of the attack (`ever`) and at once (`peak`);
- the group the attack's first bird alarmed is in (linked at view_radius, as the groups metric, at that bird's
  alarm): its share of the flock (`group`), the share of it alarmed (`g_ever`), its length along its longest axis
  (`g_long`, 2.5-97.5 percentiles, m) and the share of that length the alarms covered (`cover`: the group's
  alarmed birds at their alarms, in the group's frame);
- the front's reach (`reach`): each alarmed bird's distance at its alarm from the first bird alarmed (that bird's
  position moved on at its velocity then, the wave's frame), 95th percentile / largest, m; the farthest flying bird
  from the first bird at its alarm (json: flock_length, flock_p95); the last first alarm, s from the attack's start;
- what stopped it: the birds never alarmed (`never`; `in_g` of them in the first bird's group), split by what they
  met: `nofrnt` (no escaping bird was ever among its 7 nearest), `othgrp` (of those, in a group at the attack's
  end, linked at view_radius, that no alarmed bird is in), `met` (an escaping bird was among its 7 nearest in some
  tick, and it did not copy) and `far` (of those, the ones that met only neighbours farther than escape_copy_speed
  x 15 ticks, 6 m: the longest latency);
- the whole flock's NN distance jump (`jump`, as run.py: the largest in the attack and 2 s after it over the mean
  of the second before), the first bird's group's own (`g_jump`: the mean NN distance of its birds, from the first
  alarm to 2 s after the attack's end, largest over the second before the attack) and the groups before and after
  (run.py's split).

    /usr/bin/python3 docs/falcon/spread.py [--seeds 101 102 103] [--sizes 500 2000 8000] [--set NAME=VALUE ...]

Needs the Python module in build-test/python (or --build DIR) and numpy, scipy (Debian's /usr/bin/python3).
Runs one flock at a time, on one thread.
"""
import argparse
import collections
import json
import os
import statistics
import sys

import numpy as np
from scipy.spatial import cKDTree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DT = 0.02
K = 7  # topo_k 6.5: the 7 nearest (the 7th weighted half)
PRE = 1300  # ticks of metrics kept before the falcon comes: an attack of at most 1200 ticks and 2 s after it
LONGEST = 6.0  # m: escape_copy_speed 20 m/s x 15 ticks of 0.02 s, the longest latency


def value(text):
    try:
        return float(text)
    except ValueError:
        return text


def nearest(f):
    """Each bird's nearest flying neighbour's distance (NaN for a perched bird)."""
    pos = np.asarray(f.positions, dtype=np.float64)
    fl = np.asarray(f.perch) == 0
    out = np.full(len(pos), np.nan)
    out[fl] = cKDTree(pos[fl]).query(pos[fl], k=2)[0][:, 1]
    return out


def one(murmur, n, seed, settle, extra):
    f = murmur.Flock("starling", boids=n, seed=seed, threads=1)
    f.step(settle - PRE)
    # the whole flock's metrics by tick (the flock's tick, after that many steps, as the rows of --metrics), from
    # PRE ticks before the falcon comes: the windows before the attack are as run.py's (branch react20; before it
    # they began when the falcon came, and so held one tick); each bird's nearest neighbour (among the flying
    # birds) tick by tick in the last 50, for the attacked group's own jump
    nn, groups = {}, {}
    nnb = collections.deque(maxlen=50)
    for k in range(PRE):
        m = f.metrics()
        nn[int(m["tick"])], groups[int(m["tick"])] = float(m["nn_distance"]), int(m["groups"])
        if k >= PRE - 50:
            nnb.append(nearest(f))
        f.step(1)
    f.set(falcon="on", falcon_wait=60, **{k: value(v) for k, v in extra})
    g_nn = []
    link = float(f.get("view_radius"))
    first = np.full(n, -1)
    where = np.zeros((n, 3))
    vel0 = np.zeros((n, 3))
    rel = np.zeros((n, 3))  # in the flock's frame (its centroid at the alarm)
    met = np.zeros(n, dtype=np.int32)  # ticks a calm bird had an escaping bird among its 7 nearest
    met_near = np.zeros(n, dtype=bool)  # ... one within LONGEST
    escaping = []
    start = end = None
    flock_length = flock_long = flock_p95 = None
    flying0 = None
    t = 0
    while True:
        m = f.metrics()
        st = int(m["falcon_state"])
        tick = int(m["tick"])
        nn[tick], groups[tick] = float(m["nn_distance"]), int(m["groups"])
        e = np.asarray(f.escape) & 7
        pos = np.asarray(f.positions, dtype=np.float64)
        flying = np.asarray(f.perch) == 0
        esc = (e >= 1) & (e <= 4) & flying
        escaping.append(int(esc.sum()))
        nnb.append(nearest(f))
        if start is None and st in (1, 2):
            start = t
            # the attack_start event's tick (run.py's s): the tick the step that began the attack started from
            s_tick = tick - 1
            nn_before = list(nnb)
            flying0 = flying.copy()
            c = pos[flying] - pos[flying].mean(axis=0)
            along = c @ np.linalg.eigh(np.cov(c.T))[1][:, -1]
            flock_long = float(np.percentile(along, 97.5) - np.percentile(along, 2.5))
        if start is not None:
            new = (first < 0) & esc
            if new.any():
                if not (first >= 0).any():
                    # how far the alarm had to go: the farthest flying bird from the first bird alarmed; the group
                    # (linked at view_radius, as the groups metric) the first bird is in, and its length along its
                    # longest axis (2.5-97.5 percentiles)
                    i0 = int(np.flatnonzero(new)[0])
                    far = np.linalg.norm(pos[flying] - pos[i0], axis=1)
                    flock_length, flock_p95 = float(far.max()), float(np.percentile(far, 95))
                    lab0 = np.full(n, -1)
                    lab0[flying] = murmur.label_groups(pos[flying], link)[1]
                    in_g = lab0 == lab0[i0]
                    cg = pos[in_g] - pos[in_g].mean(axis=0)
                    axis = np.linalg.eigh(np.cov(cg.T))[1][:, -1]
                    along = cg @ axis
                    group_long = float(np.percentile(along, 97.5) - np.percentile(along, 2.5))
                first[new] = t - start
                where[new] = pos[new]
                rel[new] = pos[new] - pos[in_g].mean(axis=0)
                vel0[new] = np.asarray(f.velocities, dtype=np.float64)[new]
            if (first >= 0).any() and (end is None or t <= end + 100):
                g_nn.append(float(np.nanmean(nnb[-1][in_g])))
            if esc.any():
                calm = (e == 0) & flying & (first < 0)
                tree = cKDTree(pos[flying])
                fi = np.flatnonzero(flying)
                ci = np.flatnonzero(calm)
                if len(ci):
                    d, j = tree.query(pos[ci], k=K + 1)
                    j = fi[j[:, 1:]]
                    d = d[:, 1:]
                    hit = esc[j]
                    met[ci] += hit.any(axis=1)
                    met_near[ci] |= (hit & (d <= LONGEST)).any(axis=1)
            if end is None and st >= 3:
                end = t
                e_tick = tick - 1
            if end is not None and t > end + 100 and not esc.any():
                break
            if t - start > 1200:
                break
        f.step(1)
        t += 1
    fly = flying0 & (np.asarray(f.perch) == 0)
    al = first >= 0
    ng, lab = murmur.label_groups(np.asarray(f.positions), link)
    f.close()
    out = {"n": n, "seed": seed, "extra": ["%s=%s" % kv for kv in extra], "flying": int(fly.sum()),
           "flock_long": flock_long, "flock_length": flock_length, "flock_p95": flock_p95}
    out["ever"] = float((al & fly).sum() / fly.sum())
    out["peak"] = float(max(escaping[start:]) / fly.sum())
    if al.any():
        t0 = first[al].min()
        i0 = int(np.flatnonzero(first == t0)[0])
        # the wave's frame: the first bird's position moved on at its velocity then
        origin = where[i0][None, :] + vel0[i0][None, :] * ((first - t0) * DT)[:, None]
        reach = np.linalg.norm(where - origin, axis=1)[al]
        out["reach_max"] = float(reach.max())
        out["reach_p95"] = float(np.percentile(reach, 95))
        out["last_alarm_s"] = float(first[al].max() * DT)
        out["first_alarm_s"] = float(t0 * DT)
    out["end_s"] = float((len(escaping) - 1 - start) * DT)
    # as run.py: the NN distance's largest from the attack's start to 2 s after its end over its mean in the second
    # before; a split: more groups at some tick of that window than at any tick of as long a window before it
    s = s_tick
    e1 = (e_tick if end is not None else s) + 100
    nn0 = statistics.mean(nn[t] for t in range(s - 50, s) if t in nn)
    out["nn_jump"] = max(nn[t] for t in range(s, e1) if t in nn) / nn0
    span = e1 - s
    out["groups_before"] = max(groups[t] for t in range(s - span, s) if t in groups)
    out["groups_max"] = max(groups[t] for t in range(s, e1) if t in groups)
    out["reacted"] = out["nn_jump"] >= 1.25 or out["groups_max"] > out["groups_before"]
    if al.any():
        # the length of the flock the alarms covered: along the flock's longest axis at the attack's start, the
        # alarmed birds' positions at their alarms (2.5-97.5 percentiles), over the flock's (the same)
        # (the first bird's group: the alarmed birds of that group)
        pa = rel[al & in_g] @ axis
        out["group"] = float((in_g & fly).sum() / fly.sum())
        out["group_long"] = group_long
        out["group_ever"] = float((al & in_g & fly).sum() / (in_g & fly).sum())
        out["covered"] = float(np.percentile(pa, 97.5) - np.percentile(pa, 2.5)) / group_long
        out["outside_alarmed"] = int((al & ~in_g & fly).sum())
        # the attacked group's own NN jump: the largest mean NN distance of its birds from its first alarm to 2 s
        # after the attack's end, over their mean in the second before the attack
        g0 = statistics.mean(float(np.nanmean(x[in_g])) for x in nn_before[-50:])
        out["group_jump"] = max(g_nn) / g0
    never = fly & ~al
    out["never"] = int(never.sum())
    out["no_front"] = int((never & (met == 0)).sum())
    alarmed_groups = set(lab[al & fly].tolist())
    other = never & (met == 0) & ~np.isin(lab, list(alarmed_groups))
    out["other_group"] = int(other.sum())
    # the first bird's group's birds never alarmed (the front did not cross its own group)
    out["never_in_group"] = int((never & in_g).sum()) if al.any() else None
    out["met"] = int((never & (met > 0)).sum())
    out["met_far_only"] = int((never & (met > 0) & ~met_near).sum())
    out["met_ticks_median"] = float(np.median(met[never & (met > 0)])) if out["met"] else None
    out["groups_end"] = int(ng)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-test"))
    ap.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103])
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 8000])
    ap.add_argument("--settle", type=int, default=2500)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--strategies", action="store_true",
                    help="at N = 2000: every strategy (above, behind, beside) at 20, 30 and 40 m/s, as run.py --cases strategies")
    ap.add_argument("--out")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.build, "python"))
    import murmur
    extra = [tuple(x.split("=", 1)) for x in a.set]
    rows = []
    print("%5s %4s %6s %6s %6s %6s %6s %6s %8s %6s %6s %6s %6s %6s %5s %5s %6s %6s %6s" % (
        "N", "seed", "ever", "peak", "group", "g_ever", "g_long", "cover", "reach", "last_s", "never", "in_g", "nofrnt",
        "othgrp", "met", "far", "jump", "g_jump", "groups"))
    cases = [(n, []) for n in a.sizes]
    if a.strategies:
        cases = [(2000, [] if (st, v) == ("above", 30) else [("falcon_strategy", st), ("falcon_attack_speed", str(v))])
                 for st in ["above", "behind", "beside"] for v in [20, 30, 40]]
    for n, case in cases:
        for seed in a.seeds:
            r = one(murmur, n, seed, a.settle, case + extra)
            rows.append(r)
            if case:
                print("# %s" % " ".join("%s=%s" % kv for kv in case))
            print("%5d %4d %6.3f %6.3f %6.3f %6.3f %6.1f %6.2f %8s %6.2f %6d %6d %6d %6d %5d %5d %6.3f %6.3f %3d>%-3d" % (
                n, seed, r["ever"], r["peak"], r.get("group", 0), r.get("group_ever", 0), r.get("group_long", 0),
                r.get("covered", 0), "%.0f/%.0f" % (r.get("reach_p95", 0), r.get("reach_max", 0)),
                r.get("last_alarm_s", 0), r["never"], r.get("never_in_group") or 0, r["no_front"], r["other_group"],
                r["met"], r["met_far_only"], r["nn_jump"], r.get("group_jump", 0), r["groups_before"], r["groups_max"]), flush=True)
    if a.out:
        with open(a.out, "w") as fp:
            json.dump({"seeds": a.seeds, "sizes": a.sizes, "settle": a.settle, "set": a.set, "rows": rows}, fp,
                      indent=1)


if __name__ == "__main__":
    main()
