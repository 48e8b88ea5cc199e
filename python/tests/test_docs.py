"""docs/python.md true to the module: its code blocks run, and its worked example's listing is
docs/python/extents.py, which runs on small flocks and writes its table and plot."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "python.md")
LISTING = os.path.join(ROOT, "docs", "python", "extents.py")


def blocks():
    text = open(DOC).read()
    out = []
    for m in re.finditer(r"(<!-- listing: (\S+) -->\n)?```python\n(.*?)```", text, re.S):
        out.append((m.group(2), m.group(3)))
    return out


def test_listing_is_the_script():
    listed = [code for name, code in blocks() if name == "docs/python/extents.py"]
    assert listed == [open(LISTING).read()], "docs/python.md's listing differs from docs/python/extents.py"


@pytest.mark.parametrize("index", range(len([b for b in blocks() if not b[0]])))
def test_code_blocks_run(index, tmp_path, monkeypatch):
    code = [c for name, c in blocks() if not name][index]
    if "pandas" in code:
        pytest.importorskip("pandas")
    monkeypatch.chdir(tmp_path)  # the tour writes state.csv
    exec(compile(code, "docs/python.md block %d" % index, "exec"), {"__name__": "docs"})


def test_worked_example_runs(tmp_path):
    out = subprocess.run([sys.executable, LISTING, "--sizes", "150,300", "--seeds", "1", "--settle", "200",
                          "--snaps", "2", "--every", "10", "--jobs", "2", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "N =   150: mid/thin" in out.stdout and "N =   300: mid/thin" in out.stdout
    rows = open(tmp_path / "extents.csv").read().splitlines()
    assert rows[0] == "n,seed,tick,mid_thin,long_thin" and len(rows) == 1 + 2 * 2
    for row in rows[1:]:
        n, seed, tick, mid_thin, long_thin = (float(x) for x in row.split(","))
        assert 1 <= mid_thin <= long_thin < 100 and tick in (200, 210)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (tmp_path / "extents.png").stat().st_size > 1000
