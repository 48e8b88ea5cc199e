#!/usr/bin/env python3
"""The figures of docs/falcon.md from docs/falcon/run.py's results (issue 26).

    /usr/bin/python3 docs/falcon/figures.py            # all four PNGs into docs/falcon/
    /usr/bin/python3 docs/falcon/figures.py --no-alarm # the three from the json only
    ... --results FILE                                 # from another run's json (default
                                                       # results_reporting_wave7.json, this round's)

wave_vs_n.png       wave speed against N (each attack, the median), the field's range beside it
wave_vs_flock.png   wave speed against the flock's speed (each attack), lines at 1x and 1.3x
patterns.png        the share of attacks with a flash expansion, a split and a wave, and the median
                    share of the flock the falcon alarmed itself, by attack type,
                    with the control (birds blind to the falcon) and the field's direction (Storms
                    et al. 2019) written beside
alarm.png           alarm time against distance from the first bird alarmed for one attack
                    (N = 2000, the first reporting seed, the defaults), from the library through the Python
                    module (build/python): each bird's first escape state in the attack; the
                    front's speed in distance bands into alarm.json

Needs matplotlib and numpy (Debian's /usr/bin/python3) and, for alarm.png, the Python module built
in build/ (meson compile -C build).
"""
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIELD = (3.7, 13.4, 25.0)  # Procaccini et al. 2011: range and mean, m/s


def load():
    """--results FILE (default: this round's reporting run, results_reporting_wave7.json)"""
    path = os.path.join(HERE, "results_reporting_wave7.json")
    if "--results" in sys.argv:
        path = sys.argv[sys.argv.index("--results") + 1]
    with open(path) as fp:
        return json.load(fp)


def wave_vs_n(res):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    sizes = [500, 2000, 8000]
    for k, n in enumerate(sizes):
        ws = [r["wave_speed"] for r in res["rows"] if r["group"] == "N = %d" % n and r["wave_speed"]]
        ax.scatter([k + 0.08 * (j - len(ws) / 2) for j in range(len(ws))], ws, color="C0", s=18)
        if ws:
            m = statistics.median(ws)
            ax.plot([k - 0.25, k + 0.25], [m, m], color="C0", lw=2)
            ax.annotate("%.1f" % m, (k + 0.27, m), va="center", fontsize=8)
    ax.axhspan(FIELD[0], FIELD[2], color="0.85", zorder=0, label="field 3.7-25 m/s")
    ax.axhline(FIELD[1], color="0.5", ls="--", lw=1, label="field mean 13.4 m/s")
    ax.set_xticks(range(len(sizes)), ["N = %d" % n for n in sizes])
    ax.set_ylabel("wave speed, m/s")
    ax.set_ylim(0, max(30, ax.get_ylim()[1]))
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title("wave speed against flock size (each attack; bar: median)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "wave_vs_n.png"), dpi=110)


def wave_vs_flock(res):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    rows = [r for r in res["rows"] if r["wave_speed"] and r["flock_speed"] and not r["group"].startswith("control")]
    fs = [r["flock_speed"] for r in rows]
    ws = [r["wave_speed"] for r in rows]
    ax.scatter(fs, ws, s=14, color="C0", label="attacks (all runs)")
    x = np.linspace(0, max(fs + [15]) * 1.1, 10)
    ax.plot(x, x, color="k", lw=1, label="wave = flock speed")
    ax.plot(x, 1.3 * x, color="C3", lw=1, ls="--", label="1.3 x flock speed")
    ax.axhspan(FIELD[0], FIELD[2], color="0.85", zorder=0, label="field 3.7-25 m/s")
    ax.set_xlabel("flock's mean speed at the attack, m/s")
    ax.set_ylabel("wave speed, m/s")
    ax.set_xlim(0, x[-1])
    ax.set_ylim(0, max(30, max(ws + [0]) * 1.05))
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("wave speed against the flock's speed", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "wave_vs_flock.png"), dpi=110)


def patterns(res):
    s = res["summary"]
    names = [n for n in s if "m/s" in n] + [n for n in s if n.startswith("control")]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    # the flash expansion read along the falcon's path where the run has it (branch wave7), else the
    # whole flock's NN jump
    local = all(s[n].get("flash_local_share") is not None and any(r.get("flash_local") is not None for r in res["rows"])
                for n in names)
    flash = ("flash_local_share", "flash expansion along the falcon's path (its birds' NN >= 1.25x)") if local else \
        ("flash_share", "flash expansion (NN jump >= 1.25)")
    keys = [flash, ("split_share", "split (more groups)"),
            ("wave_share", "wave (a fitted front, >= 20% alarmed by copying a manoeuvre)")]
    w = 0.2
    for k, (key, label) in enumerate(keys):
        ax.bar([i + (k - 1.5) * w for i in range(len(names))], [s[n][key] or 0 for n in names], w, label=label)
    # the direct reaction: the birds the falcon alarmed itself (saw it or fled its path), median share
    direct = []
    for n in names:
        d = [r["direct"] / r["n"] for r in res["rows"] if r["group"] == n and r.get("direct") is not None]
        direct.append(statistics.median(d) if d else 0)
    ax.bar([i + 1.5 * w for i in range(len(names))], direct, w, color="0.3",
           label="birds alarmed by the falcon itself (median share of the flock)")
    ax.set_xticks(range(len(names)), [n.replace("control: birds blind to the falcon, N = 2000", "control")
                                      .replace(", ", "\n") for n in names], fontsize=7)
    ax.set_ylabel("share of attacks")
    ax.set_ylim(0, 1.45)
    ax.legend(fontsize=7, loc="upper left", ncol=2)
    ax.text(0.99, 0.86, "field (Storms et al. 2019): flash expansion more likely in fast attacks\n"
            "from above; waves most likely at medium attack speed; ~78% no split*",
            transform=ax.transAxes, ha="right", va="top", fontsize=7)
    ax.set_title("patterns by attack type, N = 2000 (3 attacks each)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "patterns.png"), dpi=110)


def alarm(res):
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))
    import murmur
    settle = res["settle"]
    seed = res["seeds"][0]
    f = murmur.Flock("starling", boids=2000, seed=seed)
    f.step(settle)
    f.set(falcon="on", falcon_wait=60)
    first = np.full(2000, -1)
    where = np.zeros((2000, 3))
    for t in range(1, 400):
        f.step(1)
        e = np.asarray(f.escape) & 7
        pos = np.asarray(f.positions)
        new = (first < 0) & (e >= 1) & (e <= 4)
        first[new] = t
        where[new] = pos[new] - pos.mean(axis=0)  # the flock's frame
        if f.metrics()["falcon_state"] >= 3 and t > 50 and not new.any() and (first >= 0).any():
            if t > first.max() + 50:
                break
    f.close()
    al = first >= 0
    t0 = first[al].min()
    i0 = int(np.flatnonzero(first == t0)[0])
    d = np.linalg.norm(where[al] - where[i0], axis=1)
    tt = (first[al] - t0) * 0.02
    # the front's local speed: least squares t = t0 + d / v over the birds in distance bands
    bands = {}
    for lo, hi in [(0, 10), (10, 20), (20, 30), (30, 40)]:
        m = (d >= lo) & (d < hi)
        if m.sum() >= 3 and np.var(d[m]) > 0:
            slope = np.polyfit(d[m], tt[m], 1)[0]
            bands["%d-%d m" % (lo, hi)] = {"birds": int(m.sum()), "speed": float(1.0 / slope) if slope > 0 else None}
    with open(os.path.join(HERE, "alarm.json"), "w") as fp:
        json.dump({"alarmed": int(al.sum()), "within_0.1s": int((tt <= 0.1).sum()), "bands": bands}, fp, indent=1)
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.scatter(d, tt, s=3, color="C0", alpha=0.5, label="birds (%d of 2000 alarmed)" % al.sum())
    rep = [r["wave_speed"] for r in res["rows"] if r["group"] == "N = 2000" and r["seed"] == seed and r["wave_speed"]]
    x = np.linspace(0, d.max(), 10)
    ax.plot(x, x / FIELD[1], color="0.4", ls="--", lw=1, label="13.4 m/s (field mean)")
    if rep:
        ax.plot(x, x / rep[0], color="C3", lw=1, label="%.1f m/s (this attack's fit, per front)" % rep[0])
    ax.set_xlabel("distance from the first bird alarmed (flock's frame), m")
    ax.set_ylabel("time of alarm after the first, s")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("one attack: alarm time against distance (N = 2000, seed %d)" % seed, fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "alarm.png"), dpi=110)


def main():
    res = load()
    wave_vs_n(res)
    wave_vs_flock(res)
    patterns(res)
    if "--no-alarm" not in sys.argv:
        alarm(res)


if __name__ == "__main__":
    main()
