#!/usr/bin/env bash
# The Python module installs the way Python users expect: a copy of this tree (tracked and untracked,
# not ignored) into a temporary folder, a fresh virtual environment, `pip install --no-build-isolation
# --no-index .` (offline: Debian's python3-mesonpy builds it; numpy from the system through
# --system-site-packages), then the module's API tests against the installed package, from outside
# the tree. Exit 0 when all of that works. The meson test python_pip (suite python-install) runs it.
#
#   tools/python_pip_check.sh [KEEP_DIR]     # KEEP_DIR: work there and keep it (default: a temp dir)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import mesonpy, numpy, pytest, venv' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "python_pip_check: no python3 with mesonpy, numpy, pytest and venv (tools/deps.sh)"; exit 1; }
if [ $# -ge 1 ]; then work=$1; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/src"
(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion 2>/dev/null) | tar -xf - -C "$work/src"
"$py" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-build-isolation --no-index "$work/src"
cd "$work"  # away from the source: import murmur must find the installed package
"$work/venv/bin/python" - <<'PY'
import murmur, sys, os
assert os.path.realpath(murmur.__file__).startswith(os.path.realpath(sys.prefix)), murmur.__file__
f = murmur.Flock("starling", boids=300, seed=3, threads=1)
f.step(5)
print("installed:", murmur.__file__, "version", murmur.__version__, "hash %016x" % f.hash)
PY
env -u PYTHONPATH "$work/venv/bin/python" -m pytest -q -p no:cacheprovider -o addopts= "$src/python/tests/test_api.py"
echo "pip install into a venv: ok"
