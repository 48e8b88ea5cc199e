#!/usr/bin/env python3
"""Why a flock splits (issue 24, thirteenth round): one run of the starling preset (with --set pairs),
exported every EVERY ticks with --resume (bit-identical to a run never stopped), and for each export:

- the whole flock's polarisation (all birds), the groups by a link of 10 m (src/sim/shape.c's rule)
  with 2% of the birds or more, and the biggest one's share;
- in the biggest group, by its principal axes (thin axis made to point up): the extents (m, sqrt of
  the eigenvalues), the thin axis' angle to the vertical; the upper and lower half (by the sign of the
  thin coordinate): the angle between their mean horizontal headings (deg), their mean speeds and
  vertical velocities (m/s);
- the border by the page's rule (the outer 20% by the normalised radius; caps |n_thin| >= 0.5, the
  rest the rim): each part's velocity relative to the group's mean, its component toward the group's
  centre vertically (caps) and horizontally (rim, interior), and each part's mean heading deviation
  from the group's mean (deg).

After the run, the split: the first export where the biggest group holds less than SPLIT of the birds
after one that held more; the birds outside it then (the leavers) are traced back LOOK exports
(where were they: top cap, bottom cap, rim front / back / side, interior, upper or lower half) and
their share of each part is compared with the share of all birds.

    /usr/bin/python3 tools/split_probe.py --boids 2000 --seed 1001 --set separation_up=1 --set skin=20

numpy and scipy.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from border_parts import border_frame, read  # noqa: E402  (the state reader, the page's border rule)


def groups(p, link=10.0):
    tree = cKDTree(p)
    _, lab = connected_components(tree.sparse_distance_matrix(tree, link, output_type="coo_matrix"), directed=False)
    return lab


def heading(v):
    return np.degrees(np.arctan2(v[..., 2], v[..., 0]))


def dang(a, b):
    return (a - b + 180.0) % 360.0 - 180.0


def classify(p, v, frac=0.2):
    """Parts of one group: 0 interior, 1 top cap, 2 bottom cap, 3 rim front, 4 rim back, 5 rim side;
    and the upper half (thin coordinate > 0). Returns (part, upper, frame)."""
    c, lam, vec, x, border, cap = border_frame(p, frac, up=True)
    mv = v.mean(0)
    fwd = mv / np.linalg.norm(mv)
    along = (p - c) @ fwd
    rim = border & ~cap
    # rim front / back when its direction is mostly along the flight, else side
    d = p - c
    dh = d - np.outer(d @ vec[:, 0], vec[:, 0])
    cosf = np.abs(dh @ fwd) / np.maximum(np.linalg.norm(dh, axis=1), 1e-9)
    part = np.zeros(len(p), int)
    part[cap & (x[:, 0] > 0)] = 1
    part[cap & (x[:, 0] <= 0)] = 2
    part[rim & (cosf >= 0.7) & (along > 0)] = 3
    part[rim & (cosf >= 0.7) & (along <= 0)] = 4
    part[rim & (cosf < 0.7)] = 5
    return part, x[:, 0] > 0, (c, lam, vec, mv)


PARTS = ["interior", "top cap", "bottom cap", "rim front", "rim back", "rim side"]


def measure(p, v):
    n = len(p)
    u = v / np.linalg.norm(v, axis=1)[:, None]
    pol_all = float(np.linalg.norm(u.mean(0)))
    lab = groups(p)
    cnt = np.bincount(lab)
    big = lab == cnt.argmax()
    ng = int((cnt >= 0.02 * n).sum())
    pg, vg = p[big], v[big]
    part, upper, (c, lam, vec, mv) = classify(pg, vg)
    ext = np.sqrt(lam)
    tilt = float(np.degrees(np.arccos(min(1.0, abs(vec[1, 0])))))
    hu, hl = heading(vg[upper].mean(0)), heading(vg[~upper].mean(0))
    su, sl = np.linalg.norm(vg[upper], axis=1).mean(), np.linalg.norm(vg[~upper], axis=1).mean()
    rel = vg - mv
    d = pg - c
    dh = d.copy()
    dh[:, 1] = 0.0
    rh = dh / np.maximum(np.linalg.norm(dh, axis=1), 1e-9)[:, None]
    out_h = (rel * rh).sum(1)  # horizontal velocity away from the group's vertical axis (m/s)
    toward_y = -np.sign(d[:, 1]) * rel[:, 1]  # vertical velocity toward the group's centre height
    hdev = np.abs(dang(heading(vg), heading(mv)))
    # the coupling between the halves: the share of each bird's 7 nearest neighbours in the other half
    nbr = cKDTree(pg).query(pg, k=min(8, len(pg)))[1][:, 1:]
    cross = float((upper[nbr] != upper[:, None]).mean())
    per = {}
    for k, name in enumerate(PARTS):
        m = part == k
        per[name] = (m.sum(), out_h[m].mean() if m.any() else np.nan, toward_y[m].mean() if m.any() else np.nan,
                     hdev[m].mean() if m.any() else np.nan)
    return dict(pol_all=pol_all, big=big.sum() / n, ng=ng, ext=ext, tilt=tilt, dhead=float(dang(hu, hl)), cross=cross,
                su=su, sl=sl, vyu=vg[upper, 1].mean(), vyl=vg[~upper, 1].mean(), per=per, lab=lab, bigmask=big,
                part=part, upper=upper)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build-test", "src", "app", "murmur"))
    ap.add_argument("--boids", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--set", dest="sets", action="append", default=[])
    ap.add_argument("--later", action="append", default=[],
                    help="NAME=VALUE set from the first export on (the vertical pull switched on in a settled flock)")
    ap.add_argument("--start", type=int, default=500)
    ap.add_argument("--end", type=int, default=2500)
    ap.add_argument("--every", type=int, default=50)
    ap.add_argument("--split", type=float, default=0.9)
    ap.add_argument("--look", type=int, default=4, help="exports before the split to trace the leavers back")
    ap.add_argument("--quiet", action="store_true", help="a short line per export")
    a = ap.parse_args()
    extra = ["--preset", "starling"] + [x for s in a.sets for x in ("--set", s)]
    tmp = tempfile.mkdtemp(prefix="split-")
    st = os.path.join(tmp, "s.csv")
    subprocess.run([a.murmur, "--boids", str(a.boids), "--seed", str(a.seed), "--steps", str(a.start), "--export",
                    st, "--threads", "1"] + extra, check=True, capture_output=True)
    snaps = []
    t = a.start
    while True:
        p, v = read(st)
        m = measure(p, v)
        m["tick"] = t
        m["p"], m["v"] = p, v
        # the vertical mixing: the share of the birds in the biggest group now and at the last export whose
        # half (upper / lower) changed
        m["swap"] = np.nan
        if snaps:
            o = snaps[-1]
            both = m["bigmask"] & o["bigmask"]
            uo = np.zeros(len(p), bool)
            uo[o["bigmask"]] = o["upper"]
            un = np.zeros(len(p), bool)
            un[m["bigmask"]] = m["upper"]
            m["swap"] = float((uo[both] != un[both]).mean()) if both.any() else np.nan
        snaps.append(m)
        if a.quiet:
            print("tick %5d pol_all %.3f big %.2f groups %d ext %5.1f %5.1f %5.1f tilt %4.1f | halves: heading %6.1f "
                  "cross %.3f swap %.3f | out_h interior %+.2f caps toward-centre vy %+.2f %+.2f"
                  % (t, m["pol_all"], m["big"], m["ng"], m["ext"][0], m["ext"][1], m["ext"][2], m["tilt"], m["dhead"],
                     m["cross"], m["swap"], m["per"]["interior"][1], m["per"]["top cap"][2],
                     m["per"]["bottom cap"][2]))
            sys.stdout.flush()
        else:
            per = m["per"]
            print("tick %5d pol_all %.3f big %.2f groups %d ext %5.1f %5.1f %5.1f tilt %4.1f | upper-lower: heading %6.1f "
                  "speed %5.2f %5.2f vy %+.2f %+.2f | caps toward-centre vy %+.2f %+.2f | out_h interior %+.2f "
                  "rim front %+.2f back %+.2f side %+.2f caps %+.2f %+.2f | hdev int %4.1f caps %4.1f %4.1f side %4.1f"
                  % (t, m["pol_all"], m["big"], m["ng"], m["ext"][0], m["ext"][1], m["ext"][2], m["tilt"], m["dhead"],
                     m["su"], m["sl"], m["vyu"], m["vyl"], per["top cap"][2], per["bottom cap"][2], per["interior"][1],
                     per["rim front"][1], per["rim back"][1], per["rim side"][1], per["top cap"][1],
                     per["bottom cap"][1], per["interior"][3], per["top cap"][3], per["bottom cap"][3],
                     per["rim side"][3]))
            sys.stdout.flush()
        if t >= a.end:
            break
        nxt = st + ".n.csv"
        subprocess.run([a.murmur, "--resume", st, "--steps", str(a.every), "--export", nxt, "--threads", "1"]
                       + [x for s in a.sets + a.later for x in ("--set", s)], check=True, capture_output=True)
        os.replace(nxt, st)
        t += a.every
    # the split: the first export below SPLIT after one at or above it
    k = next((i for i in range(1, len(snaps)) if snaps[i]["big"] < a.split <= snaps[i - 1]["big"]), None)
    pol = np.mean([s["pol_all"] for s in snaps])
    dh = np.mean([abs(s["dhead"]) for s in snaps])
    print("SUMMARY N=%d seed=%d %s: mean pol_all %.3f, mean big %.2f, mean |heading upper-lower| %.1f deg, "
          "mean cross %.3f, mean swap %.3f, mean thickness %.1f m; final pol_all %.3f big %.2f; split at %s"
          % (a.boids, a.seed, " ".join(a.sets + ["later " + x for x in a.later]) or "preset", pol, np.mean([s["big"] for s in snaps]), dh,
             np.mean([s["cross"] for s in snaps]), np.nanmean([s["swap"] for s in snaps]),
             np.mean([s["ext"][0] for s in snaps]), snaps[-1]["pol_all"], snaps[-1]["big"],
             snaps[k]["tick"] if k is not None else "none"))
    if k is None:
        return
    s = snaps[k]
    leavers = ~s["bigmask"]
    for back in range(0, a.look + 1, max(1, a.look // 2)):
        j = k - back
        if j < 0:
            break
        b = snaps[j]
        inb = b["bigmask"]
        # the parts are of the biggest group at export j; leavers that were already outside it are "out"
        part = np.full(len(leavers), -1)
        part[inb] = b["part"]
        upper = np.zeros(len(leavers), bool)
        upper[inb] = b["upper"]
        lv = leavers & inb
        share = ["%s %.2f (all %.2f)" % (PARTS[q], (part[lv] == q).mean() if lv.any() else np.nan,
                                         (part[inb] == q).mean()) for q in range(len(PARTS))]
        u = b["v"] / np.linalg.norm(b["v"], axis=1)[:, None]
        mv = b["v"][inb].mean(0)
        hd = dang(heading(b["v"][lv]), heading(mv)) if lv.any() else np.array([np.nan])
        print("LEAVERS %d (%.2f of the birds) at tick %d, %d ticks before (tick %d): in the biggest group then %d; "
              "upper half %.2f (all %.2f); %s; heading from the group's mean %+.1f deg (|.| %.1f), speed %.2f "
              "(group %.2f)" % (leavers.sum(), leavers.mean(), s["tick"], s["tick"] - b["tick"], b["tick"], lv.sum(),
                                upper[lv].mean() if lv.any() else np.nan, upper[inb].mean(), ", ".join(share),
                                np.mean(hd), np.mean(np.abs(hd)),
                                np.linalg.norm(b["v"][lv], axis=1).mean() if lv.any() else np.nan,
                                np.linalg.norm(b["v"][inb], axis=1).mean()))
        del u


if __name__ == "__main__":
    main()
