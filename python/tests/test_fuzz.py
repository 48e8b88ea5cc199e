"""Fuzz import murmur: random calls with good, bad and absurd arguments on open and closed flocks, with
array views held across them. Nothing may crash the interpreter; every failure is one of the module's
documented exceptions; the state stays finite; a view's memory stays valid. MURMUR_FUZZ_OPS sets the
number of calls (default 3000; 600 under MURMUR_TEST_QUICK), MURMUR_FUZZ_SEED the seed."""
import gc
import math
import os
import random

import numpy as np

import murmur

ALLOWED = (ValueError, TypeError, BufferError, RuntimeError, OSError)
NAMES = list(murmur.parameters()) + ["", "wings", "view_angle\0", "boids ", 7, None, b"dt"]
WEIRD = [None, [], {}, (), b"1", "", "\0", "on", "off", "nan", "inf", "-inf", "1e999", "1,2", "1,2,3",
         "1,2,3,4", "-1", "0", "3", "99999999999999999999", "x" * 5000, float("nan"), float("inf"), -0.0,
         1e300, -1e300, 2**64, -(2**64), 2**31, True, False, 0, 1, -1, 0.5, 6.5, 270, (1, 2, 3), (1, 2),
         [float("nan"), 0, 0], np.float32(3), np.int64(5), np.bool_(True), np.array([1.0, 2.0, 3.0]), object()]
ROWS = ["positions", "velocities", "perch", "roll", "predator_positions", "predator_velocities"]


def small_value(rng, name):
    """Mostly sensible values so that the flock lives on; boid counts kept small (no huge allocations)."""
    row = murmur.parameters().get(name) if isinstance(name, str) else None
    if row is None or rng.random() < 0.3:
        v = rng.choice(WEIRD)
        if name in ("boids", "predators") and isinstance(v, (int, float)) and not isinstance(v, bool) \
                and 2000 < abs(v) <= 2**31 and v > 0:
            return 50
        return v
    if name == "boids":
        return rng.randrange(0, 1500)
    if name == "predators":
        return rng.randrange(0, 5)
    kind = row["type"]
    if kind == "switch":
        return rng.random() < 0.5
    if kind == "enum":
        return rng.choice(row["choices"].split("|"))
    if kind == "vec3":
        return tuple(rng.uniform(-50, 50) for _ in range(3))
    lo, hi = row["min"], min(row["max"], 1000.0)
    return rng.uniform(lo, hi) if kind == "float" else rng.randrange(int(lo), int(hi) + 1)


def check(f, views):
    if f.closed:
        return
    for name in ROWS:
        a = getattr(f, name)
        assert not a.flags.writeable
    x, v = f.positions, f.velocities
    assert x.shape == v.shape == (f.boids, 3)
    assert np.isfinite(x).all() and np.isfinite(v).all(), "NaN/Inf entered the state"
    for a in views:  # every held view still reads (valid memory; under ASan a freed row would report)
        if isinstance(a, memoryview):
            bytes(a)
        else:
            float(np.sum(a, dtype=np.float64))


def test_fuzz(tmp_path):
    seed = int(os.environ.get("MURMUR_FUZZ_SEED", random.randrange(2**32)))
    quick = os.environ.get("MURMUR_TEST_QUICK")
    ops = int(os.environ.get("MURMUR_FUZZ_OPS", 600 if quick else 3000))
    rng = random.Random(seed)
    print("MURMUR_FUZZ_SEED=%d" % seed)
    flocks = [murmur.Flock("starling", boids=200, seed=1, threads=1)]
    views = []
    counts = {}
    for i in range(ops):
        f = rng.choice(flocks)
        op = rng.randrange(18)
        # while views are alive the rows must not move, whatever the call (else a view reads freed memory)
        before = f._f.addresses() if not f.closed else None
        try:
            if op == 0:
                f.step(rng.choice([0, 1, 2, 5, -1, 2.5, None, "3", True, 2**70]))
            elif op in (1, 2, 3):
                name = rng.choice(NAMES)
                f.set(name, small_value(rng, name))
            elif op == 4:
                f.set(**{rng.choice([n for n in NAMES if isinstance(n, str) and n.isidentifier()] or ["dt"]):
                         rng.choice(WEIRD)})
            elif op == 5:
                f.get(rng.choice(NAMES))
            elif op == 6:
                views.append(getattr(f, rng.choice(ROWS)))
            elif op == 7:
                if views:
                    views.pop(rng.randrange(len(views)))
            elif op == 8:
                f.metrics()
                f.hash
                f.info()
            elif op == 9:
                f.close()
            elif op == 10:
                if len(flocks) < 4:
                    preset = rng.choice([None, "starling", "classic", "vision-report", "nope", 3])
                    kw = {rng.choice([n for n in NAMES if isinstance(n, str) and n.isidentifier()]): None}
                    kw = {k: small_value(rng, k) for k in kw}
                    kw.setdefault("boids", rng.randrange(0, 800))
                    flocks.append(murmur.Flock(preset, threads=rng.choice([0, 1, 2, -1, 99, "x"]), **kw))
            elif op == 11:
                f.apply_preset(rng.choice(["starling", "classic", "vision-report", "x", "", None]),
                               rng.choice([0, 100, 700, -3, 2**40, 1.5]))
            elif op == 12:
                f.set_boid(rng.choice([0, 1, -1, 10**6, 2**40, "a"]), rng.choice([(0, 1, 2), (0, 0), (1e39, 0, 0)]),
                           rng.choice([(1, 0, 0), (float("nan"), 0, 0), None]), rng.choice([0, 3, -2]))
            elif op == 13:
                p = rng.choice([tmp_path / "s.csv", str(tmp_path / "t.csv"), tmp_path / "nodir" / "x.csv", "-",
                                "", "\0", 5, None])
                f.save(p)
            elif op == 14:
                p = rng.choice([tmp_path / "s.csv", tmp_path / "missing.csv", "-", "", "/dev/null", 5, None,
                                tmp_path])
                if len(flocks) < 4:
                    flocks.append(murmur.load(p, rng.choice([None, "starling", "bad"])))
            elif op == 15:
                f.threads = rng.choice([0, 1, 2, 64, 65, -1, "2", 1.0])
                f.predators_on = rng.choice([True, False, 0, "x"])
            elif op == 16:
                if len(flocks) > 1:
                    flocks.remove(f)
                    f.close()
            elif op == 17:  # the raw buffer through other consumers than numpy
                r = f._f.rows(rng.choice(["pos", "vel", "perch", "roll", "pred_pos", "pred_vel", "x", 3]))
                m = memoryview(r)
                rng.choice([lambda: bytes(r), lambda: m.tolist(), lambda: m.cast("B").nbytes,
                            lambda: np.frombuffer(r, dtype=np.uint8).sum(), lambda: m.cast("B")[:8].tobytes()])()
                if rng.random() < 0.5:
                    views.append(m)
            counts["ok"] = counts.get("ok", 0) + 1
        except ALLOWED as e:
            counts[type(e).__name__] = counts.get(type(e).__name__, 0) + 1
            assert str(e), "an exception without a message"
        if before is not None and before[6] > 0 and not f.closed:
            assert f._f.addresses()[:6] == before[:6], "rows moved while %d views were alive" % before[6]
        if not any(not g.closed for g in flocks):
            flocks.append(murmur.Flock("classic", boids=rng.randrange(0, 300), threads=1))
        check(f, views)
        if i % 100 == 0:
            gc.collect()
    print(counts)
    assert counts.get("ok", 0) > ops // 5 and counts.get("ValueError", 0) > 0
    del views
    gc.collect()
    for f in flocks:
        f.close()
