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
)
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${PKGS[@]}"
