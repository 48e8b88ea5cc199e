"""import murmur: the API against the library (meson test --suite python; docs/python.md)."""
import gc
import os
import subprocess
import threading

import numpy as np
import pytest

import murmur


def small(**kw):
    kw.setdefault("boids", 300)
    kw.setdefault("seed", 3)
    return murmur.Flock("starling", threads=1, **kw)


def test_table_is_the_librarys():
    p = murmur.parameters()
    assert p["view_angle"]["max"] == 360 and p["view_angle"]["unit"] == "deg"
    assert p["bounds"]["choices"] == "soft|wrap|bounce|none"
    assert set(murmur.presets()) >= {"classic", "starling", "vision-report"}
    d = murmur.preset_parameters("starling", boids=500)
    assert d["boids"] == 500 and d["neighbours"] == "topological"
    assert murmur.preset_parameters()["perch"] is False


def test_views_are_zero_copy_read_only_and_live():
    f = small()
    x, v = f.positions, f.velocities
    assert x.shape == (300, 3) and x.dtype == np.float32 and v.shape == (300, 3)
    assert not x.flags.writeable and not x.flags.owndata
    with pytest.raises(ValueError):
        x[0, 0] = 1
    with pytest.raises(ValueError):
        x.flags.writeable = True
    # the same memory on every access: no copy
    assert f.positions.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    before = x.copy()
    f.step(3)
    # a view taken before a step shows the state after it (the flock's own memory)
    assert np.array_equal(x, f.positions) and not np.array_equal(x, before)
    assert f.perch.shape == (300,) and f.perch.dtype == np.int32
    assert f.roll.shape == (300,)
    assert f.predator_positions.shape == (0, 3)
    # the falcon's escape states (docs/falcon.md): empty without the falcon, one byte a bird with it
    assert f.escape.shape == (0,)
    f.set(falcon="on", falcon_setup=20)
    f.step(60)
    e = f.escape
    assert e.shape == (300,) and e.dtype == np.uint8 and not e.flags.writeable
    assert ((e & 7) <= 5).all()


def test_same_bits_as_a_second_flock_and_hash():
    a, b = small(), small()
    a.step(20)
    for _ in range(20):
        b.step()
    assert a.hash == b.hash and a.tick == 20
    assert np.array_equal(a.positions, b.positions)
    c = small(seed=4)
    c.step(20)
    assert c.hash != a.hash


def test_hash_matches_the_program():
    exe = os.environ.get("MURMUR_EXE")
    if not exe:
        pytest.skip("MURMUR_EXE not set (meson test sets it)")
    out = subprocess.run([exe, "--preset", "starling", "--boids", "300", "--seed", "3", "--steps", "25",
                          "--set", "view_angle=270", "--quiet"], capture_output=True, text=True, check=True)
    f = small(view_angle=270)
    f.step(25)
    assert ("%016x" % f.hash) in out.stdout + out.stderr, out.stdout + out.stderr


def test_set_get_toggles_and_errors():
    f = small()
    f.set(perch=True, view_angle=270, wind_vel=(1, 0, 0.5))
    f.set("scatter", True)
    assert f.get("perch") is True and f.get("view_angle") == 270.0
    assert f.get("wind_vel") == (1.0, 0.0, 0.5)
    f.set(hard_radius=0, cohesion_far=0, separation_nearest=0, centrality=0, bank_align=0, neighbours="metric")
    assert f.get("neighbours") == "metric"
    for name, value in [("view_angle", 400), ("view_angle", float("nan")), ("dt", -1), ("bounds", "sideways"),
                        ("topo_k", 0.5), ("perch", 3), ("wind_vel", (1, 2)), ("wind_vel", (1, 2, float("inf"))),
                        ("boids", -5), ("boids", 2.5)]:
        with pytest.raises(ValueError) as e:
            f.set(name, value)
        assert name in str(e.value), str(e.value)
    with pytest.raises(ValueError, match="view_angle.*360"):
        f.set(view_angle=1000)
    with pytest.raises(ValueError, match="unknown parameter"):
        f.set(wings=2)
    with pytest.raises(ValueError, match="seed"):
        f.set(seed=5)  # not live
    with pytest.raises(ValueError, match="min_speed|max_speed"):
        murmur.Flock(min_speed=20, max_speed=10)
    with pytest.raises(ValueError, match="preset"):
        murmur.Flock("sparrows")
    f.predators_on = False
    assert f.predators_on is False


def test_count_change_refused_while_a_view_lives():
    f = small()
    x = f.positions
    with pytest.raises(BufferError):
        f.set(boids=5000)
    with pytest.raises(BufferError):
        f.apply_preset("classic")
    assert f.boids == 300
    x[0]  # still readable
    del x
    gc.collect()
    f.set(boids=5000)
    assert f.positions.shape == (5000, 3)
    f.apply_preset("classic", boids=100)
    assert f.boids == 100 and f.get("neighbours") == "metric"


def test_close_with_live_view_frees_later():
    f = small()
    x = f.positions
    f.close()
    f.close()
    assert f.closed
    assert x.shape == (300, 3) and np.isfinite(x).all()  # memory still held by the view
    with pytest.raises(ValueError, match="closed"):
        f.step()
    with pytest.raises(ValueError, match="closed"):
        f.positions
    del x
    with small() as g:
        g.step()
    assert g.closed


def test_metrics_dict_and_pandas_row():
    f = small()
    f.step(5)
    m = f.metrics()
    assert m["tick"] == 5 and isinstance(m["groups"], int) and 0 <= m["polarisation"] <= 1
    assert list(m)[:2] == ["tick", "centre_x"]
    pd = pytest.importorskip("pandas")
    rows = []
    for _ in range(3):
        f.step()
        rows.append(f.metrics_row())
    t = pd.concat(rows, ignore_index=True)
    assert list(t["tick"]) == [6, 7, 8]


def test_save_and_load(tmp_path):
    f = small()
    f.step(10)
    p = tmp_path / "state.csv"
    f.save(p)
    g = murmur.load(p, "starling", seed=3)
    assert g.boids == 300 and g.tick == 0
    assert np.array_equal(g.positions, f.positions) and np.array_equal(g.velocities, f.velocities)
    # without banked turns (the roll angle is not in the state file) the same state steps to the same bits
    a = murmur.Flock("classic", boids=300, seed=3, threads=1)
    a.step(10)
    a.save(p)
    b = murmur.load(p, "classic", seed=3)
    a.step(5)
    b.step(5)
    assert np.array_equal(a.positions, b.positions)
    with pytest.raises(ValueError):
        murmur.load(tmp_path / "missing.csv")
    with pytest.raises(OSError):
        f.save(tmp_path / "no" / "such" / "dir.csv")


def test_other_threads_run_and_busy_flock_refuses():
    f = murmur.Flock("starling", boids=20000, seed=1, threads=1)
    errors = []
    t = threading.Thread(target=lambda: f.step(40))
    t.start()
    for _ in range(200):
        try:
            f.set(view_angle=300)
        except RuntimeError as e:
            errors.append(str(e))
        x = f.positions  # reading while it steps is allowed (values may be mid-tick)
        assert x.shape == (20000, 3)
        if not t.is_alive():
            break
    t.join()
    assert f.tick == 40
    assert all("another thread" in e for e in errors)


def test_group_shape_is_numpys_pca_and_label_groups():
    f = small(boids=600)
    f.step(300)
    m = f.metrics(group=True)
    groups, labels = murmur.label_groups(f.positions, f.get("view_radius"))
    assert groups == m["groups"] and labels.dtype == np.int32 and labels.shape == (600,)
    ids, counts = np.unique(labels, return_counts=True)
    assert counts.max() == m["group_size"]
    g = f.positions[labels == ids[counts.argmax()]].astype(np.float64)
    ext = 2 * np.sqrt(3 * np.linalg.eigvalsh(np.cov(g.T, bias=True)))
    assert np.allclose(ext, [m["group_thin"], m["group_mid"], m["group_long"]], rtol=1e-6)
    assert np.allclose(g.mean(axis=0), [m["group_centre_x"], m["group_centre_y"], m["group_centre_z"]])
    assert "group_size" not in f.metrics()
    # any points: two clusters 100 wu apart, linked within 1 wu
    pts = np.concatenate([np.zeros((5, 3)), np.full((3, 3), 100.0)])
    n, lab = murmur.label_groups(pts, 1.0)
    assert n == 2 and list(lab) == [0] * 5 + [5] * 3
    for bad in (np.zeros((4, 2)), np.zeros(3)):
        with pytest.raises(ValueError):
            murmur.label_groups(bad, 1.0)
    with pytest.raises(ValueError):
        murmur.label_groups(pts, 0.0)
    with pytest.raises(ValueError):
        murmur.label_groups(np.array([[np.nan, 0, 0]]), 1.0)
