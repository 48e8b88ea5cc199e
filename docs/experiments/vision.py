"""The vision-distance report reproduced in murmur's plane mode: runs, event detection and summaries.

Used by run.py (which writes the tables and plots) and by tests/experiments_test.py (which also tests
the detectors on constructed series). Standard library only.
"""
import csv
import math
import os
import random
import subprocess
import tempfile

import reference

DT = 0.05            # the report's times are multiples of 0.05 s
SAMPLE = 10          # ticks between the states the flock analysis reads (0.5 s)
LINK = 10.0          # wu: boids closer than this are in one flock (the smaller vision distance)
JOIN, LEAVE = 0.9, 0.7   # main-flock fraction that makes a merge / a split (hysteresis band)
HOLD = 2.0           # s: a merge or split counts only if the new state lasts this long
SETTLE = 40.0        # s: polarisation and the centre's travel are measured after this time
MIN_PROMINENCE = 5.0  # wu: a diameter minimum must lie this far below the maxima on both sides
SMOOTH = 0.5         # s: half width of the moving average applied before the minimum search

# The report's events (its text; its figures are not available).
REPORT = {
    "unlimited": {"form": [26.55], "minima": [], "merges": [], "splits": []},
    "dvis10": {"form": [], "minima": [21.8, 42.4, 78.75, 165.55], "merges": [], "splits": []},
    "dvis25": {"form": [], "minima": [], "merges": [33.3], "splits": [81.8]},
}

# name, label, Dvis (None = infinite), Salign
CONFIGS = [
    ("unlimited", "Dvis = infinity", None, 0.04),
    ("dvis10", "Dvis = 10", 10.0, 0.04),
    ("dvis25", "Dvis = 25, Salign = 0.06", 25.0, 0.06),
]
TABLE1 = {"n": 100, "box": 200.0, "dsep": 1.0, "ssep": 4.0, "scoh": 0.075, "vmax": 10.0}
MARGIN, VCORR = 10.0, 1.0  # boundPosition: not given by the report (wu, wu/s per tick)


def murmur_args(dvis, salign, box=200.0, per_tick=True):
    """Table 1 as murmur parameters. per_tick: the strengths are added to the velocity once per tick
    (the report's Algorithm 2.1), so murmur's per-second weight is S/dt; otherwise murmur's weight is S."""
    k = 1.0 / DT if per_tick else 1.0
    t = TABLE1
    # from the classic preset (the library's defaults), whatever murmur's default preset is
    return ["--preset", "classic", "--set", "dt=%g" % DT, "--set", "plane=on", "--set", "view_angle=360", "--set", "steer_unit=on",
            "--set", "view_radius=%g" % (dvis if dvis else 1e6),
            "--set", "cohesion=%g" % (t["scoh"] * k), "--set", "alignment=%g" % (salign * k),
            "--set", "separation=%g" % (t["ssep"] * k), "--set", "separation_radius=%g" % t["dsep"],
            "--set", "min_speed=0", "--set", "max_speed=%g" % t["vmax"], "--set", "bounds=soft",
            "--set", "world_min=0,-1,0", "--set", "world_max=%g,1,%g" % (box, box),
            "--set", "bounds_margin=%g" % MARGIN, "--set", "bounds_turn=%g" % (VCORR / DT)]


def initial_state(seed, n, box, vmax):
    """Flat start shared by murmur and the reference: uniform positions, uniform directions, speeds
    uniform in [0, vmax]. Lists x, z, vx, vz."""
    r = random.Random(seed)
    x = [r.uniform(0.0, box) for _ in range(n)]
    z = [r.uniform(0.0, box) for _ in range(n)]
    a = [r.uniform(0.0, 2.0 * math.pi) for _ in range(n)]
    s = [r.uniform(0.0, vmax) for _ in range(n)]
    return [x, z, [si * math.cos(ai) for si, ai in zip(s, a)], [si * math.sin(ai) for si, ai in zip(s, a)]]


def write_state(path, st):
    with open(path, "w") as fp:
        fp.write("kind,x,y,z,vx,vy,vz,perch\n")
        for x, z, vx, vz in zip(*st):
            fp.write("boid,%.9g,0,%.9g,%.9g,0,%.9g,0\n" % (x, z, vx, vz))


def read_state(path):
    pts = []
    with open(path) as fp:
        for row in csv.DictReader(l for l in fp if not l.startswith("#")):
            if row["kind"] == "boid":
                pts.append((float(row["x"]), float(row["z"]), float(row["vx"]), float(row["vz"])))
    return pts


# ------------------------------------------------------------------------------------------- analysis

def components(pts, link=LINK):
    """Sizes of the connected components of 'closer than link' (2D points), largest first."""
    n = len(pts)
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    cells = {}
    for i, p in enumerate(pts):
        cells.setdefault((int(p[0] // link), int(p[1] // link)), []).append(i)
    l2 = link * link
    for (cx, cz), members in cells.items():
        for ox in (-1, 0, 1):
            for oz in (-1, 0, 1):
                other = cells.get((cx + ox, cz + oz))
                if not other:
                    continue
                for i in members:
                    xi, zi = pts[i][0], pts[i][1]
                    for j in other:
                        if j <= i:
                            continue
                        dx, dz = pts[j][0] - xi, pts[j][1] - zi
                        if dx * dx + dz * dz < l2:
                            a, b = find(i), find(j)
                            if a != b:
                                parent[a] = b
    sizes = {}
    for i in range(n):
        r = find(i)
        sizes[r] = sizes.get(r, 0) + 1
    return sorted(sizes.values(), reverse=True)


def polarisation(pts):
    sx = sz = 0.0
    k = 0
    for p in pts:
        s = math.hypot(p[2], p[3])
        if s > 0.0:
            sx += p[2] / s
            sz += p[3] / s
            k += 1
    return math.hypot(sx, sz) / k if k else 0.0


def diameter(pts):
    """The report's D: mean distance of the boids to their mean position."""
    n = len(pts)
    cx = sum(p[0] for p in pts) / n
    cz = sum(p[1] for p in pts) / n
    return sum(math.hypot(p[0] - cx, p[1] - cz) for p in pts) / n


def diameter_minima(t, d, smooth=SMOOTH, prominence=MIN_PROMINENCE):
    """Times of the clear local minima of the series d(t): after a moving average over +-smooth s, a
    sample lower than every other within +-smooth s whose series rises by at least `prominence` on BOTH
    sides before it falls below the minimum again (topographic prominence; an end of the series counts
    as the end of a side). Minima at the first or last sample are not counted."""
    n = len(d)
    if n < 3:
        return []
    step = t[1] - t[0]
    w = max(1, int(round(smooth / step)))
    sm = []
    for i in range(n):
        seg = d[max(0, i - w):min(n, i + w + 1)]
        sm.append(sum(seg) / len(seg))
    found = []
    for i in range(1, n - 1):
        lo, hi = max(0, i - w), min(n, i + w + 1)
        if sm[i] > min(sm[lo:hi]) or (i > 0 and sm[i - 1] == sm[i]):
            continue
        left = sm[i]
        for j in range(i - 1, -1, -1):
            if sm[j] < sm[i]:
                break
            left = max(left, sm[j])
        right = sm[i]
        for j in range(i + 1, n):
            if sm[j] < sm[i]:
                break
            right = max(right, sm[j])
        if min(left, right) - sm[i] >= prominence:
            found.append(t[i])
    return found


def flock_events(t, frac, join=JOIN, leave=LEAVE, hold=HOLD):
    """Merges and splits of the main flock from the series frac(t) = largest flock / all boids.
    The flock is 'one' from the first sample of a stretch with frac >= join lasting >= hold seconds,
    'apart' from the first sample of a stretch with frac < leave lasting >= hold seconds; values between
    the two thresholds keep the current state (hysteresis). A merge is apart -> one, a split one -> apart.
    The series starts 'apart' unless its first stretch is already 'one'. Returns (merges, splits)."""
    step = t[1] - t[0] if len(t) > 1 else 1.0
    need = max(1, int(round(hold / step)))
    state, merges, splits = "apart", [], []
    i, n = 0, len(frac)
    while i < n:
        want = "one" if frac[i] >= join else ("apart" if frac[i] < leave else None)
        if want is None or want == state:
            i += 1
            continue
        j = i
        while j < n and ((frac[j] >= join) if want == "one" else (frac[j] < leave)):
            j += 1
        if j - i >= need:
            (merges if want == "one" else splits).append(t[i])
            state = want
        i = j
    return merges, splits


def centre_travel(t, cx, cz, after=SETTLE):
    """Path length of the centre, sampled once a second, after `after` seconds; and the largest
    distance of the centre from where it was at `after`."""
    pts = [(a, b) for ti, a, b in zip(t, cx, cz) if ti >= after and abs(ti / 1.0 - round(ti / 1.0)) < 1e-6]
    if len(pts) < 2:
        return 0.0, 0.0
    path = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    reach = max(math.dist(pts[0], p) for p in pts)
    return path, reach


def analyse(series):
    """series: dict of lists t, d, pol, groups (per sample), frac, cx, cz. The per-run summary."""
    t = series["t"]
    tail = [i for i, ti in enumerate(t) if ti >= 0.8 * t[-1]]
    late = [i for i, ti in enumerate(t) if ti >= SETTLE]
    merges, splits = flock_events(t, series["frac"])
    path, reach = centre_travel(t, series["cx"], series["cz"])
    span = t[-1] - SETTLE
    return {
        "initial_diameter": series["d"][0],
        "final_diameter": sum(series["d"][i] for i in tail) / len(tail),
        "min_diameter": min(series["d"]),
        "polarisation": sum(series["pol"][i] for i in late) / len(late),
        "final_groups": sum(series["groups"][i] for i in tail) / len(tail),
        "final_flocks": sum(series["flocks"][i] for i in tail) / len(tail),
        "main_fraction": sum(series["frac"][i] for i in late) / len(late),
        "one_flock_fraction": sum(1 for i in late if series["frac"][i] >= JOIN) / len(late),
        "form": merges[:1],
        "merges": merges,
        "splits": splits,
        "minima": diameter_minima(t, series["d"]),
        "centre_path": path,
        "centre_speed": path / span if span > 0 else 0.0,
        "centre_reach": reach,
    }


def sample_of(tick, pts, groups):
    sizes = components(pts)
    n = len(pts)
    return {"t": tick * DT, "d": diameter(pts), "pol": polarisation(pts), "groups": groups,
            "frac": sizes[0] / n, "flocks": len(sizes),
            "cx": sum(p[0] for p in pts) / n, "cz": sum(p[1] for p in pts) / n}


def collect(samples):
    return {k: [s[k] for s in samples] for k in samples[0]}


def groups_at(pts, dvis):
    return len(components(pts, dvis)) if dvis else 1


# ------------------------------------------------------------------------------------------- runs

def run_murmur(murmur, seed, dvis, salign, ticks, box=200.0, n=100, per_tick=True):
    """murmur in batch mode from the flat initial state, chained every SAMPLE ticks (--init/--export,
    bit-identical to one run) so the states can be analysed. Returns the per-sample series."""
    tmp = tempfile.mkdtemp()
    state = os.path.join(tmp, "s.csv")
    write_state(state, initial_state(seed, n, box, TABLE1["vmax"]))
    args = murmur_args(dvis, salign, box, per_tick)
    samples = []
    pts = read_state(state)
    samples.append(sample_of(0, pts, groups_at(pts, dvis)))
    for k in range(ticks // SAMPLE):
        r = subprocess.run([murmur, *args, "--init", state, "--steps", str(SAMPLE), "--export", state],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("murmur failed: %s" % r.stderr.strip())
        pts = read_state(state)
        samples.append(sample_of((k + 1) * SAMPLE, pts, groups_at(pts, dvis)))
    os.remove(state)
    os.rmdir(tmp)
    return collect(samples)


def run_reference(seed, dvis, salign, ticks, order, box=200.0, n=100):
    st = initial_state(seed, n, box, TABLE1["vmax"])
    p = {"dvis": dvis if dvis else 1e9, "dsep": TABLE1["dsep"], "ssep": TABLE1["ssep"], "salign": salign,
         "scoh": TABLE1["scoh"], "vmax": TABLE1["vmax"], "dt": DT, "box": box, "margin": MARGIN,
         "vcorr": VCORR}
    samples = []

    def grab(tick, s):
        pts = list(zip(*s))
        samples.append(sample_of(tick, pts, groups_at(pts, dvis)))

    reference.simulate(st, p, ticks, order, SAMPLE, grab)
    return collect(samples)


def job(spec):
    """One run, for a process pool: spec = (kind, key, seed, dvis, salign, ticks, extra)."""
    kind, key, seed, dvis, salign, ticks, extra = spec
    if kind == "murmur":
        s = run_murmur(extra["murmur"], seed, dvis, salign, ticks, extra.get("box", 200.0), extra.get("n", 100),
                       extra.get("per_tick", True))
    else:
        s = run_reference(seed, dvis, salign, ticks, extra["order"])
    return key, seed, s
