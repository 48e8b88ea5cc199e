#!/usr/bin/env bash
# The adversarial round (issue 21, item 10) against a release and a sanitizer build of murmur.
#
#   tools/adversarial.sh [--quick] [--table FILE] [--jobs N] [--filter REGEX] [BUILD_DIR...]
#
# Each BUILD_DIR is a meson build folder: it is compiled (configured first when missing, with the
# options of tools/test.sh: release with -Werror, or, for a name ending in -san, ASan + UBSan) and
# its src/app/murmur runs every case of tools/adversarial.py. Without BUILD_DIR: $MURMUR_BUILD
# (default build-test) and $MURMUR_BUILD-san, the folders tools/test.sh uses. Ends with the line
# "N cases: P passed, C crashes, H hangs, L losses, S wrong statuses, U unclear"; exit status 1 when
# any case failed. --table docs/reliability.md regenerates the round's section of that file.
set -uo pipefail
cd "$(dirname "$0")/.."
opts=() builds=()
while [ $# -gt 0 ]; do
  case $1 in
    --table|--jobs|--filter|--json) opts+=("$1" "$2"); shift 2 ;;
    --*) opts+=("$1"); shift ;;
    *) builds+=("$1"); shift ;;
  esac
done
B=${MURMUR_BUILD:-build-test}
[ ${#builds[@]} -gt 0 ] || builds=("$B" "$B-san")

exes=()
for dir in "${builds[@]}"; do
  if [ ! -f "$dir/build.ninja" ]; then
    case $dir in
      *-san) meson setup "$dir" --werror -Dwarning_level=3 -Dbuildtype=debugoptimized \
               -Db_sanitize=address,undefined -Dc_args=-fno-sanitize-recover=all >/dev/null || exit 1 ;;
      *) meson setup "$dir" --werror -Dwarning_level=3 -Dbuildtype=release >/dev/null || exit 1 ;;
    esac
  fi
  meson compile -C "$dir" >/dev/null || { echo "adversarial.sh: $dir does not build" >&2; exit 1; }
  exes+=("$dir/src/app/murmur")
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
exec python3 tools/adversarial.py "${opts[@]}" "${exes[@]}"
