# Shared by tools/starling_perf.sh and tools/starling_profile.sh (sourced, not run): their perf loop's
# steps. perf_tmp is a temporary folder, removed at exit.
#   perf_sample K COMMAND...  perf record (cpu-clock) of COMMAND (its stdout passed on, its stderr
#                             dropped) into sample set K, then its samples per symbol into
#                             $perf_tmp/K.txt (perf report --no-children -n --sort sym: percent,
#                             samples, ..., symbol), for the caller's grouping
#   perf_symbols K INDENT     every symbol of set K over 0.5%, one a line: INDENT, percent, symbol
perf_tmp=$(mktemp -d)
trap 'rm -rf "$perf_tmp"' EXIT

perf_sample() {
  local k=$1
  shift
  perf record -q -o "$perf_tmp/$k.data" "$@" 2>/dev/null
  perf report -i "$perf_tmp/$k.data" --no-children --stdio -n --sort sym 2>/dev/null | grep -E '^ +[0-9]' > "$perf_tmp/$k.txt"
}

perf_symbols() {
  awk -v ind="$2" '{ p = $1; sub(/%/, "", p); if (p + 0 >= 0.5) print ind $1 " " $NF }' "$perf_tmp/$1.txt"
}
