#!/usr/bin/env bash
# Install murmur's build and test dependencies from Debian 12 packages (uses sudo unless root).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
PKGS=(
  gcc meson ninja-build pkg-config python3          # build
  libglfw3-dev libcglm-dev python3-glad libstb-dev  # viewer: window, math, GL loader, HUD text
  libpng-dev libegl-dev libgl-dev                   # screenshots, headless EGL
  g++ libimgui-dev                                  # the viewer's parameter panel (Dear ImGui)
  libgl1-mesa-dri libegl-mesa0 libglx-mesa0         # Mesa (llvmpipe on machines without a GPU)
  libcmocka-dev xvfb xauth                          # tests
  ffmpeg gnuplot-nox                                # recording, plots
  clang-14 libclang-rt-14-dev valgrind              # fuzzing (tools/fuzz.sh), memcheck setup
  python3-dev python3-numpy python3-pytest          # import murmur and its tests (docs/python.md)
  python3-pandas python3-matplotlib                 # its pandas rows, the worked example's plot
  python3-mesonpy python3-venv                      # pip install . offline (tools/python_pip_check.sh)
)
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${PKGS[@]}"
