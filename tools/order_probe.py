#!/usr/bin/python3
"""Why are large starling flocks slow and disordered? (issue 24, round s5 `order`.)

    tools/order_probe.py --sizes 2000,8000 --seeds 1001,1002,1003 [--set k=v ...] [--murmur PATH]

Runs the starling preset (batch mode, --steps, --export) on the TUNING seeds and, from each exported
state, rebuilds every bird's steering budget ALONG its own flight direction (the only part that changes
its speed: the pitch projection and the bank act across it): the cruise relaxation (cruise_speed - s) /
speed_tau, the alignment term (alignment * unit(mean neighbour velocity - own velocity)), the
separation term (separation * the closest seen neighbour's -unit(d) (1 - d / separation_radius)) and
the centrality-weighted cohesion ramp, with the neighbours recomputed approximately (the 7 nearest in the
300-degree view cone, the 7th at weight 0.5; no hard-sphere contacts, whose share is the remainder).
Prints, per (N, seed) and by distance from the flock centre (quintiles of the biggest cluster's birds'
distance to its centroid): speed, local polarisation (|mean unit heading| of the 7), and the mean
along-flight acceleration of each term; plus the share of birds beyond the roost radius and the share
turning there (heading outward), the mean |vy| and the share at a speed limit. numpy + scipy.
"""
import argparse
import csv
import os
import subprocess
import tempfile

import numpy as np
from scipy.spatial import cKDTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    rows = [r for r in csv.DictReader(x for x in open(path) if not x.startswith("#")) if r["kind"] != "predator"]
    p = np.array([[float(r["x"]), float(r["y"]), float(r["z"])] for r in rows])
    v = np.array([[float(r["vx"]), float(r["vy"]), float(r["vz"])] for r in rows])
    return p, v


def params(extra):
    """the preset's values the budget needs (defaults of the starling preset, overridden by --set)."""
    q = dict(alignment=12.5, separation=20.0, separation_radius=2.0, cohesion=6.0, cohesion_near=0.5,
             cohesion_far=3.0, centrality=2.0, cruise_speed=10.0, speed_tau=2.0, roost_radius=60.0,
             min_speed=2.0, max_speed=30.0, view_angle=300.0)
    for kv in extra:
        k, _, val = kv.partition("=")
        if k in q:
            q[k] = float(val)
    return q


def seen_neighbours(p, f, q):
    """Each bird's 15 nearest (distances d, indices idx, unit offsets u), which of them lie in its field
    of view (heading f, view_angle), and the topological weights of the first 7 seen: 1 x 6 and 0.5."""
    tree = cKDTree(p)
    d, idx = tree.query(p, k=16)
    d, idx = d[:, 1:], idx[:, 1:]
    off = p[idx] - p[:, None, :]
    u = off / np.maximum(d, 1e-9)[:, :, None]
    seen = np.einsum("nkc,nc->nk", u, f) >= np.cos(np.radians(q["view_angle"] / 2))
    rank = np.cumsum(seen, axis=1) * seen
    w = np.where((rank >= 1) & (rank <= 6), 1.0, np.where(rank == 7, 0.5, 0.0))
    return d, idx, u, seen, w, w.sum(1)


def social_vectors(p, f, q):
    """Each bird's neighbour distances d (as seen_neighbours), centrality C, separation from the closest
    seen neighbour and the C^centrality-weighted cohesion ramp, as vectors (m/s2; tools/density_probe.py,
    tools/layer_probe.py)."""
    m = len(p)
    d, idx, u, seen, w, cnt = seen_neighbours(p, f, q)
    first = np.argmax(seen, axis=1)
    d1 = d[np.arange(m), first]
    u1 = u[np.arange(m), first]
    mm = np.where(d1 < q["separation_radius"], 1 - d1 / q["separation_radius"], 0.0)
    sep = q["separation"] * (-mm[:, None] * u1)
    t = np.clip((d - q["cohesion_near"]) / (q["cohesion_far"] - q["cohesion_near"]), 0, 1)
    r = w * t * t * (3 - 2 * t)
    co = (r[:, :, None] * u).sum(1) / cnt[:, None]
    cen = np.linalg.norm((w[:, :, None] * u).sum(1) / cnt[:, None], axis=1)
    co *= (np.minimum(cen, 1.0) ** q["centrality"])[:, None] * q["cohesion"]
    return d, cen, sep, co


def budget(p, v, q):
    n = len(p)
    s = np.linalg.norm(v, axis=1)
    f = v / s[:, None]
    d, idx, u, seen, w, cnt = seen_neighbours(p, f, q)
    # alignment: unit(mean v - v)
    mv = (w[:, :, None] * v[idx]).sum(1) / cnt[:, None]
    al = mv - v
    al /= np.maximum(np.linalg.norm(al, axis=1), 1e-9)[:, None]
    al_f = q["alignment"] * np.einsum("nc,nc->n", al, f)
    lp = np.linalg.norm((w[:, :, None] * f[idx]).sum(1) / cnt[:, None], axis=1)
    # separation from the closest seen one
    first = np.argmax(seen, axis=1)
    d1 = d[np.arange(n), first]
    u1 = u[np.arange(n), first]
    m = np.where(d1 < q["separation_radius"], 1 - d1 / q["separation_radius"], 0.0)
    se_f = q["separation"] * np.einsum("nc,nc->n", -m[:, None] * u1, f)
    # cohesion ramp x centrality^c
    t = np.clip((d - q["cohesion_near"]) / (q["cohesion_far"] - q["cohesion_near"]), 0, 1)
    r = w * t * t * (3 - 2 * t)
    co = (r[:, :, None] * u).sum(1) / cnt[:, None]
    cen = np.linalg.norm((w[:, :, None] * u).sum(1) / cnt[:, None], axis=1)
    co *= (np.minimum(cen, 1.0) ** q["centrality"])[:, None]
    co_f = q["cohesion"] * np.einsum("nc,nc->n", co, f)
    cr_f = (q["cruise_speed"] - s) / q["speed_tau"]
    return s, f, lp, al_f, se_f, co_f, cr_f


def biggest(p, link=10.0):
    from scipy.sparse.csgraph import connected_components
    tree = cKDTree(p)
    g = tree.sparse_distance_matrix(tree, link, output_type="coo_matrix")
    _, lab = connected_components(g, directed=False)
    return lab == np.bincount(lab).argmax()


def probe_args(description, sizes, states_help):
    """The probes' shared options (order_probe.py, density_probe.py): murmur, sizes, seeds, steps, --set, --states."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--murmur", default=os.path.join(ROOT, "build", "src", "app", "murmur"))
    ap.add_argument("--sizes", default=sizes)
    ap.add_argument("--seeds", default="1001,1002,1003")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--states", help=states_help)
    return ap.parse_args()


def state(a, tmp, n, seed):
    """DIR/N_SEED.csv: the starling preset's state after a.steps ticks, run once (kept in --states)."""
    st = os.path.join(tmp, "%d_%d.csv" % (n, seed))
    if not os.path.exists(st):
        cmd = [a.murmur, "--preset", "starling", "--boids", str(n), "--seed", str(seed),
               "--steps", str(a.steps), "--export", st]
        for kv in a.set:
            cmd += ["--set", kv]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return st


def main():
    a = probe_args(__doc__, "2000,8000", "read DIR/N_SEED.csv written earlier instead of running murmur")
    q = params(a.set)
    tmp = a.states or tempfile.mkdtemp(prefix="order-probe-")
    print("N seed | speed pol_local | along-flight m/s2: cruise align separ cohes (sum) | "
          "beyond roost, turning there | |vy| | at limit")
    for n in [int(x) for x in a.sizes.split(",")]:
        for seed in [int(x) for x in a.seeds.split(",")]:
            p, v = load(state(a, tmp, n, seed))
            s, f, lp, al, se, co, cr = budget(p, v, q)
            g = biggest(p)
            rh = np.hypot(p[:, 0], p[:, 2])
            beyond = rh > q["roost_radius"]
            outward = (p[:, 0] * v[:, 0] + p[:, 2] * v[:, 2]) > 0
            lim = (s <= q["min_speed"] * 1.001) | (s >= q["max_speed"] * 0.999)
            print("%5d %d | %5.2f %5.3f | %+5.2f %+5.2f %+5.2f %+5.2f (%+5.2f) | %.3f %.3f | %.2f | %.4f" % (
                n, seed, s.mean(), lp.mean(), cr.mean(), al.mean(), se.mean(), co.mean(),
                (cr + al + se + co).mean(), beyond.mean(), (beyond & outward).mean(), np.abs(v[:, 1]).mean(),
                lim.mean()))
            fg = f[g]
            pc = p[g] - p[g].mean(0)
            ev = np.linalg.eigh(np.cov(pc.T))[1][:, -1]
            ln = np.ptp(pc @ ev)
            print("        biggest group: %d birds, polarisation %.3f, long axis %.0f m (roost radius %.0f m)" % (
                g.sum(), np.linalg.norm(fg.mean(0)), ln, q["roost_radius"]))
            c = p[g].mean(0)
            rc = np.linalg.norm(p - c, axis=1)
            qs = np.quantile(rc[g], [0.2, 0.4, 0.6, 0.8])
            band = np.digitize(rc, qs)
            for b in range(5):
                k = g & (band == b)
                print("        centre-dist q%d (<= %5.1f m) | %5.2f %5.3f | %+5.2f %+5.2f %+5.2f %+5.2f" % (
                    b + 1, rc[k].max(), s[k].mean(), lp[k].mean(), cr[k].mean(), al[k].mean(), se[k].mean(),
                    co[k].mean()))


if __name__ == "__main__":
    main()
