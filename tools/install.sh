#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the dependencies, build murmur, open the viewer.
# Extra arguments go to murmur, e.g.  tools/install.sh --boids 20000
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
if [ -d build ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
meson compile -C build
exec build/src/app/murmur "$@"
