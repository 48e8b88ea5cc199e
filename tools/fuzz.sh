#!/usr/bin/env bash
# Fuzz murmur's readers with libFuzzer (clang-14) under AddressSanitizer + UndefinedBehaviorSanitizer.
#
#   tools/fuzz.sh [SECONDS] [HARNESS...]      default: 60 s for each of csv, params, setpair
#
# Builds tests/fuzz/fuzz_<harness>.c with the library sources into $MURMUR_FUZZ_DIR (default
# /tmp/murmur-fuzz), seeds a working corpus from tests/fuzz/corpus/<harness>/ (the checked-in corpus
# is never written to), runs each harness for SECONDS and prints its executions and coverage (cov:
# edges, ft: features). A crash, leak or UB report stops that harness: the input is saved as
# $MURMUR_FUZZ_DIR/<harness>/crash-*; fix the bug, then copy the input into
# tests/fuzz/corpus/<harness>/ as a regression input (the fuzz suite of meson test replays it).
# Exits 1 when any harness failed, 0 otherwise; exits 0 with a message when clang-14 is absent.
set -uo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -eq 0 ] && HARNESSES=(csv params setpair)
OUT=${MURMUR_FUZZ_DIR:-/tmp/murmur-fuzz}
CC=${FUZZ_CC:-clang-14}
case "$SECS" in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$SECS'" >&2; exit 2;; esac

if ! command -v "$CC" >/dev/null 2>&1; then
  echo "fuzz.sh: $CC not found; fuzzing skipped (apt-get install clang-14 libclang-rt-14-dev)"
  exit 0
fi

# The library source tree to fuzz (default: this checkout); must hold include/ and src/sim/.
SRC=${MURMUR_FUZZ_SRC:-.}
mkdir -p "$OUT/obj"
COMMON=(-std=c11 -g -O1 -ffp-contract=off -fno-math-errno -D_POSIX_C_SOURCE=200809L -I"$SRC/include"
        -fno-sanitize-recover=all)
# the library: instrumented for coverage and sanitizers, built once for every harness
objs=()
for c in "$SRC"/src/sim/*.c; do
  o=$OUT/obj/$(basename "$c" .c).o
  if ! "$CC" "${COMMON[@]}" -fopenmp-simd -w -fsanitize=fuzzer-no-link,address,undefined -c "$c" -o "$o" \
       2>"$OUT/obj/build.err"; then
    # a file clang cannot build (gcc-only extensions): link gcc's plain build of it, so the parsers can
    # still be fuzzed; that file then has no coverage feedback and no sanitizer checks of its own
    if command -v gcc >/dev/null 2>&1 && gcc "${COMMON[@]}" -O2 -fopenmp-simd -w -c "$c" -o "$o"; then
      echo "fuzz.sh: WARNING: $CC cannot build $c ($(grep -m1 error: "$OUT/obj/build.err" | cut -c1-100));" \
           "using gcc's uninstrumented build of it" >&2
    else
      cat "$OUT/obj/build.err" >&2
      echo "fuzz.sh: cannot build $c" >&2
      exit 1
    fi
  fi
  objs+=("$o")
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fail=0
for h in "${HARNESSES[@]}"; do
  src=tests/fuzz/fuzz_$h.c
  [ -f "$src" ] || { echo "fuzz.sh: no harness $src" >&2; exit 2; }
  bin=$OUT/fuzz_$h
  if ! "$CC" "${COMMON[@]}" -Wall -Wextra -Wpedantic -Werror -fsanitize=fuzzer,address,undefined \
       -o "$bin" "$src" "${objs[@]}" -lm -lpthread; then
    echo "fuzz.sh: building $h failed" >&2
    exit 1
  fi
  work=$OUT/$h
  mkdir -p "$work/corpus"
  cp -n tests/fuzz/corpus/$h/* "$work/corpus/" 2>/dev/null
  log=$OUT/$h.log
  echo "== $h: fuzzing for $SECS s (log $log)"
  (cd "$work" && "$bin" -max_total_time="$SECS" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 -artifact_prefix="$work/" corpus) >"$log" 2>&1
  rc=$?
  # the last status line has the totals: "#N DONE cov: C ft: F corp: ..."
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
  printf '%s: %s executions (time limit %s s), cov: %s ft: %s, corpus %s, exit %d\n' \
    "$h" "${execs:-?}" "$SECS" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$rc"
  if [ $rc -ne 0 ]; then
    fail=1
    echo "fuzz.sh: $h FAILED; the report:" >&2
    grep -E 'ERROR|runtime error|SUMMARY|fuzz check failed|Test unit written' "$log" | head -20 >&2
  fi
done
if [ $fail -ne 0 ]; then
  echo "fuzz.sh: crashes found (inputs under $OUT/<harness>/crash-*)"
  exit 1
fi
echo "fuzz.sh: no crashes"
