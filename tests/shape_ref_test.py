#!/usr/bin/env python3
"""shape.c (through shape_tool) and the pure-Python reference docs/murmuration/shape_ref.py give the
same row on one exported murmur state; then run.py --quick runs end to end.
usage: shape_ref_test.py MURMUR SHAPE_TOOL RUN_PY"""
import csv
import os
import subprocess
import sys
import tempfile

murmur, tool, run_py = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(run_py)))
import shape_ref  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    state = os.path.join(tmp, "s.csv")
    # a compact flock: 400 boids started in a small box; after 1000 ticks most are one group
    subprocess.run([murmur, "--boids", "400", "--seed", "3", "--steps", "1000", "--export", state,
                    "--set", "world_min=-15,-5,-15", "--set", "world_max=15,25,15"],
                   check=True, capture_output=True)
    out = subprocess.run([tool, state, "6", "6", "12"], check=True, capture_output=True, text=True).stdout
    c_row = {k: float(v) for k, v in next(csv.DictReader(out.splitlines())).items()}
    pos, vel = shape_ref.read_state(state)
    p_row = shape_ref.measure(pos, vel, 6.0, 6.0, 12.0, pair_limit=shape_ref.PAIR_LIMIT)
    assert p_row is not None, "group too small"
    assert list(c_row) == shape_ref.COLUMNS, (list(c_row), shape_ref.COLUMNS)
    bad = []
    for k in shape_ref.COLUMNS:
        a, b = c_row[k], float(p_row[k])
        if abs(a - b) > 1e-5 * max(1.0, abs(b)):
            bad.append("%s: C %r Python %r" % (k, a, b))
    assert not bad, "\n".join(bad)
    assert c_row["group_size"] > 100, c_row["group_size"]
    print("C and Python agree on %d columns (group of %d)" % (len(c_row), c_row["group_size"]))
    r = subprocess.run([sys.executable, run_py, "--quick", "--murmur", murmur, "--tool", tool,
                        "--engine", "python", "--out", os.path.join(tmp, "out")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "| polarisation |" in r.stdout
    with open(os.path.join(tmp, "out", "data", "rows.csv")) as f:
        assert len(list(csv.DictReader(f))) >= 1
print("ok")
