#!/usr/bin/env bash
# Build murmur and run every test suite twice: a release build with warnings as errors, and an
# AddressSanitizer + UndefinedBehaviorSanitizer build. Ends with one line "N passed, N failed".
# Needs the packages of tools/deps.sh. Render tests start their own Xvfb; no display is needed.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${MURMUR_BUILD:-build-test}
rc=0

setup() { # dir, options...
  local dir=$1; shift
  if [ -d "$dir" ]; then meson setup --reconfigure "$dir" "$@"; else meson setup "$dir" "$@"; fi
}

setup "$B" --werror -Dwarning_level=3 -Dbuildtype=release >/dev/null || exit 1
meson compile -C "$B" || exit 1
meson test -C "$B" --print-errorlogs --num-processes 1 || rc=1

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
setup "$B-san" --werror -Dwarning_level=3 -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
  -Dc_args=-fno-sanitize-recover=all >/dev/null || exit 1
meson compile -C "$B-san" || exit 1
meson test -C "$B-san" --print-errorlogs --num-processes 1 --timeout-multiplier 4 || rc=1

python3 tools/count_tests.py "$B/meson-logs/testlog.json" "$B-san/meson-logs/testlog.json" || rc=1
exit $rc
