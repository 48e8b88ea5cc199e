#!/usr/bin/env python3
"""docs/murmuration.md is what docs/murmuration/run.py writes from its template and its committed rows.

    murmuration_page_test.py ROOT

Renders the page from docs/murmuration/template.md, why.md and the raw rows the page was made from
(`run.py --rows docs/murmuration/data/rows.csv`, into a temporary folder: the committed figures and
data are not touched) and compares it with the committed docs/murmuration.md line by line, so text
added to the page alone (or to the template alone) is caught before the next full run drops or
resurrects it. Without gnuplot run.py writes no figure lines; those lines are then left out of the
comparison. Standard library only; under a second.
"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
page = os.path.join(root, "docs", "murmuration.md")
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "murmuration")
    doc = os.path.join(tmp, "murmuration.md")
    r = subprocess.run([sys.executable, os.path.join(root, "docs", "murmuration", "run.py"), "--rows",
                        os.path.join(root, "docs", "murmuration", "data", "rows.csv"), "--out", out, "--doc", doc],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("run.py failed (%d): %s" % (r.returncode, r.stderr.strip()))
    with open(doc, encoding="utf-8") as f:
        new = f.read().split("\n")
with open(page, encoding="utf-8") as f:
    old = f.read().split("\n")
if shutil.which("gnuplot") is None:
    old = [l for l in old if not l.startswith("![")]
    new = [l for l in new if not l.startswith("![")]
diff = list(difflib.unified_diff(old, new, "docs/murmuration.md (committed)", "run.py --rows data/rows.csv", lineterm="", n=1))
if diff:
    print("\n".join(diff[:80]))
    sys.exit("docs/murmuration.md differs from what run.py writes from its template: edit template.md or why.md "
             "(docs/murmuration/rounds.md is a plain page) and render it again")
print("docs/murmuration.md is run.py's rendering of its template (%d lines)" % len(old))
