"""murmur from Python: step a flock, change its parameters, read its state as numpy arrays.

    import murmur
    f = murmur.Flock("starling", boids=2000, seed=7)
    f.step(500)
    f.set(view_angle=270, perch=True)        # the library's parameter table: names, ranges, errors
    x = f.positions                          # (boids, 3) float32, read-only, no copy
    m = f.metrics()                          # {'tick': 500, 'centre_x': ..., 'groups': 1, ...}
    f.save("state.csv"); g = murmur.load("state.csv", "starling")

The arrays are views of the flock's own memory: after a step they show the new state (keep a tick with
.copy()). While one is alive the boid and predator counts cannot change (BufferError), and close()
frees the flock only after the last one is gone, so no array ever points at freed memory.
See docs/python.md.
"""

import math
import numbers
import os

import numpy as np

from . import _murmur

__all__ = ["Flock", "load", "parameters", "presets", "preset_parameters", "label_groups", "__version__"]
__version__ = _murmur.VERSION

_TABLE = {row["name"]: row for row in _murmur.parameters()}


def _range_text(row):
    kind = row["type"]
    if kind == "switch":
        return "True/False (on|off)"
    if kind == "enum":
        return "one of " + ", ".join(repr(c) for c in row["choices"].split("|"))
    if kind == "seed":
        return "a whole number in [0, 2^64)"
    lo = ("(" if row["min_open"] else "[") + "%g" % row["min"]
    text = "%s, %g]" % (lo, row["max"])
    if kind == "int":
        return "a whole number in " + text
    if kind == "vec3":
        return "three finite numbers (x, y, z)"
    return "a number in " + text


def _text(name, value):
    """A Python value as the library's text for parameter name (it checks the range itself)."""
    row = _TABLE.get(name) if isinstance(name, str) else None
    if row is None:
        if not isinstance(name, str):
            raise TypeError("murmur: a parameter name must be a str, not %s" % type(name).__name__)
        raise ValueError("unknown parameter '%s' (murmur.parameters() lists them)" % name)
    kind = row["type"]

    def bad(why=None):
        return ValueError("%s: %r is not allowed (%s)%s" % (name, value, _range_text(row),
                                                            "; " + why if why else ""))

    if isinstance(value, str):
        return value
    if kind == "switch":
        if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral) and value in (0, 1)):
            return "on" if value else "off"
        raise bad()
    if kind == "vec3":
        try:
            parts = [float(v) for v in value]
        except (TypeError, ValueError):
            raise bad() from None
        if len(parts) != 3:
            raise bad("three values")
        if not all(math.isfinite(v) for v in parts):
            raise bad("not finite")
        return ",".join(repr(v) for v in parts)
    if isinstance(value, (bool, np.bool_)):
        raise bad()
    if kind in ("int", "seed"):
        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, numbers.Real) and float(value).is_integer():
            return str(int(value))
        raise bad()
    if kind == "float":
        if isinstance(value, numbers.Real):
            return repr(float(value))
        raise bad()
    raise bad()


def _value(name, text):
    """The library's text for parameter name as a Python value."""
    kind = _TABLE[name]["type"]
    if kind == "switch":
        return text == "on"
    if kind in ("int", "seed"):
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "vec3":
        return tuple(float(v) for v in text.split(","))
    return text


def _pairs(params):
    return [(name, _text(name, value)) for name, value in params.items()]


def _whole(value, what, lo, hi):
    """value as an int in [lo, hi], else TypeError (not a whole number) or ValueError (out of range)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError("murmur: %s must be a whole number, not %s" % (what, type(value).__name__))
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError("murmur: %s %d out of range (allowed: %d..%d)" % (what, v, lo, hi))
    return v


def _vec3(value, what):
    try:
        parts = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise TypeError("murmur: %s must be three numbers (x, y, z)" % what) from None
    if len(parts) != 3:
        raise ValueError("murmur: %s must be three numbers (x, y, z), not %d" % (what, len(parts)))
    if not all(abs(v) <= 3.4e38 for v in parts):  # also NaN: the library's floats must stay finite
        raise ValueError("murmur: %s %r: each must be finite, at most 3.4e38 in size" % (what, parts))
    return parts


_I32 = 2**31 - 1


def _path(path):
    p = os.fspath(path)
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if p == "-":
        raise ValueError("murmur: path '-' (standard input) is for the murmur program; give a file")
    return p


def parameters():
    """The library's parameter table: {name: {type, min, max, unit, choices, meaning, live, default}}."""
    return {name: dict(row) for name, row in _TABLE.items()}


def presets():
    """{name: summary} of the library's presets."""
    return {name: summary for name, summary, _ in _murmur.presets()}


def preset_parameters(preset=None, **params):
    """Every parameter's value for preset (None: the classic defaults) with params on top (checked)."""
    texts = _murmur.preset_def(preset, _pairs(params))
    return {name: _value(name, text) for name, text in texts.items()}


def label_groups(points, link):
    """Groups of a point cloud (the library's mur_label_groups, the one behind the `groups` metric):
    points (n, 3) closer than link (wu) are linked; returns (groups, labels), labels[i] the smallest
    index in point i's group (int32)."""
    pts = np.ascontiguousarray(points, dtype=np.float32)
    if pts.ndim != 2 or pts.shape[1] != 3:
        raise ValueError("murmur: points must have shape (n, 3), not %s" % (pts.shape,))
    labels = np.empty(len(pts), dtype=np.int32)
    groups = _murmur.label_groups(pts, float(link), labels)
    return groups, labels


class Flock:
    """A flock of the murmur library.

    Flock(preset=None, *, threads=0, **params): preset "starling", "classic" (None: the library's
    defaults, the classic rules) or "vision-report"; params are parameter names (murmur.parameters())
    with Python values (bool for switches, a 3-sequence for vectors); threads 0 = all cores.
    """

    def __init__(self, preset=None, *, threads=0, **params):
        threads = _whole(threads, "threads", 0, 64)
        self._f = _murmur.create(preset, _pairs(params))
        self._preset = preset
        if threads:
            self._f.set_threads(threads)

    @classmethod
    def _wrap(cls, core, preset):
        self = cls.__new__(cls)
        self._f = core
        self._preset = preset
        return self

    # --- life
    def close(self):
        """Free the flock (at once, or when the last array view of it is gone). Idempotent."""
        self._f.close()

    @property
    def closed(self):
        return self._f.closed()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self.closed:
            return "<murmur.Flock closed>"
        i = self._f.info()
        return "<murmur.Flock preset=%s boids=%d tick=%d>" % (self._preset or "classic", i["boids"], i["tick"])

    # --- stepping
    def step(self, n=1):
        """Advance n ticks (Ctrl-C stops between ticks). Other Python threads run meanwhile."""
        self._f.step(_whole(n, "step count", 0, 2**62))

    @property
    def tick(self):
        return self._f.tick()

    @property
    def time_s(self):
        """Simulated time: tick * dt (dt as it is now)."""
        return self.tick * self.get("dt")

    # --- parameters
    def set(self, name=None, value=None, **params):
        """set("view_angle", 270) or set(view_angle=270, perch=True): live parameters, checked by the
        library (ValueError naming the parameter and its range)."""
        if name is not None:
            params = {name: value, **params}
        elif value is not None:
            raise TypeError("murmur: set(name, value) or set(name=value)")
        for k, v in params.items():
            self._f.set(k, _text(k, v))

    def get(self, name):
        """The value of parameter name in force now."""
        if not isinstance(name, str):
            raise TypeError("murmur: a parameter name must be a str, not %s" % type(name).__name__)
        text = self._f.get(name)
        return _value(name, text)

    def parameters(self):
        """{name: value} of every parameter in force."""
        return {name: self.get(name) for name in _TABLE}

    def apply_preset(self, preset, boids=0):
        """Switch the live flock to a preset (the viewer's N); boids > 0 keeps that count."""
        self._f.apply_preset(preset, _whole(boids, "boids", 0, _I32))
        self._preset = preset

    @property
    def threads(self):
        return self._f.info()["threads"]

    @threads.setter
    def threads(self, n):
        self._f.set_threads(_whole(n, "threads", 0, 64))

    @property
    def predators_on(self):
        return self._f.info()["predators_on"]

    @predators_on.setter
    def predators_on(self, on):
        self._f.set_predators_on(bool(on))

    def set_boid(self, i, pos, vel, perch=0):
        """Place boid i: position, velocity (finite), remaining perch ticks."""
        self._f.set_boid(_whole(i, "boid index", 0, _I32), _vec3(pos, "pos"), _vec3(vel, "vel"),
                         _whole(perch, "perch", 0, _I32))

    # --- state (zero-copy, read-only views)
    def _rows(self, which):
        return np.asarray(self._f.rows(which))

    @property
    def positions(self):
        """(boids, 3) float32 x, y, z (wu): a read-only view of the flock's memory."""
        return self._rows("pos")

    @property
    def velocities(self):
        """(boids, 3) float32 vx, vy, vz (wu/s): a read-only view."""
        return self._rows("vel")

    @property
    def perch(self):
        """(boids,) int32 remaining perch ticks (0 = flying): a read-only view."""
        return self._rows("perch")

    @property
    def roll(self):
        """(boids,) float32 bank angle in radians (0 without banked turns): a read-only view."""
        return self._rows("roll")

    @property
    def escape(self):
        """(boids,) uint8 escape state with the falcon on (bits 0-2: 0 calm, 1..4 escaping, 5 refractory;
        bit 3 the manoeuvre's side; docs/falcon.md), empty without it: a read-only view."""
        return self._rows("escape")

    @property
    def predator_positions(self):
        return self._rows("pred_pos")

    @property
    def predator_velocities(self):
        return self._rows("pred_vel")

    @property
    def boids(self):
        return self._f.info()["boids"]

    # --- measurements
    def metrics(self, group=False):
        """The metrics of the current state, as the metrics CSV's columns: {'tick': .., 'diameter': .., ...}.
        group=True adds the biggest group's shape (linked within view_radius): group_size,
        group_centre_x/y/z, group_thin/mid/long (extents 2 sqrt(3 lambda), wu) and their axes
        (group_thin_axis_x, ...), group_thin_angle (deg from vertical), group_polarisation."""
        return self._f.measure(bool(group))

    def metrics_row(self, group=False):
        """metrics() as a one-row pandas DataFrame (pandas needed), to pd.concat over a run."""
        import pandas as pd
        return pd.DataFrame([self.metrics(group)])

    @property
    def hash(self):
        """The library's 64-bit state hash (the number `murmur --steps` prints)."""
        return self._f.hash()

    def info(self):
        """tick, boids, predators, predators_on, step_ms (last step), threads, memory (bytes), hash."""
        return self._f.info()

    # --- files
    def save(self, path):
        """Write the state CSV (kind,x,y,z,vx,vy,vz,perch) that murmur --init and murmur.load read."""
        self._f.save(_path(path))


def load(path, preset=None, **params):
    """A flock whose boids come from a state CSV (murmur --export, Flock.save), with the parameters of
    preset and params (boid and predator counts from the file)."""
    return Flock._wrap(_murmur.load(_path(path), preset, _pairs(params)), preset)
