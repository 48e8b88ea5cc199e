#!/usr/bin/env bash
# The uniform metric step, an old and a new build alternated (old, new, old, new), with the load
# average beside each run (docs/performance/rounds.md, "The uniform step at 100k: where the time goes").
#
#   tools/uniform_step.sh OLD_BUILD NEW_BUILD [--n N] [--rounds R] [--reach2] [--callgrind] [--out FILE]
#
# OLD_BUILD and NEW_BUILD are meson build folders with tests/bench/murmur-bench built (release).
# Each round runs `murmur-bench --scenario uniform --n N --threads 1,2 --json` with the old build,
# then the new one (default 100k, 3 rounds); --reach2 adds the same with MURMUR_CELL_REACH=2 (cells
# of half the view radius, opt-in). Every JSON row gets "build", "reach" and "load" (the 1-minute load
# average before the run) and goes to --out (default docs/perf_data/uniform_step.jsonl, appended).
# --callgrind also counts instructions (valgrind's callgrind, 1 thread, 1 warm-up + 3 ticks, the same
# count on every run whatever the load) and prints the functions above 1% for each build.
# Ends with the median ms per tick (and, from murmur-bench's cpu_ms_per_tick, the median CPU ms per tick
# of the process, every thread) of each build, reach and thread count.
set -uo pipefail
old=$1 new=$2; shift 2
n=100k rounds=3 reach2=0 cg=0 out=docs/perf_data/uniform_step.jsonl
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reach2) reach2=1; shift ;;
    --callgrind) cg=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for b in "$old" "$new"; do
  [ -x "$b/tests/bench/murmur-bench" ] || { echo "no $b/tests/bench/murmur-bench" >&2; exit 2; }
done
mkdir -p "$(dirname "$out")"
load() { cut -d' ' -f1 /proc/loadavg; }
run() { # label build reach
  local l
  l=$(load)
  MURMUR_CELL_REACH=$3 "$2/tests/bench/murmur-bench" --scenario uniform --n "$n" --threads 1,2 --json |
    sed "s/^{/{\"build\":\"$1\",\"reach\":$3,\"load\":$l,/" >>"$out"
}
start=0
[ -f "$out" ] && start=$(wc -l <"$out")
for r in $(seq "$rounds"); do
  for reach in 1 $([ $reach2 = 1 ] && echo 2); do
    run old "$old" "$reach"
    run new "$new" "$reach"
  done
done
if [ $cg = 1 ]; then
  for lbl in old new; do
    b=$old; [ $lbl = new ] && b=$new
    f=$(mktemp /tmp/uniform_cg.XXXXXX)
    OMP_WAIT_POLICY=PASSIVE valgrind --tool=callgrind --callgrind-out-file="$f" "$b/tests/bench/murmur-bench" \
      --scenario uniform --n "$n" --threads 1 --ticks 3 --warmup 1 --repeats 1 >/dev/null 2>&1
    echo "== callgrind $lbl ($b), 1 thread, 4 ticks"
    callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {print; next}
      match($0, /\( *[0-9.]+%\)/) {p = substr($0, RSTART + 1, RLENGTH - 3); if (p + 0 >= 1.0) print}' | head -12
    rm -f "$f"
  done
fi
# medians of the rows this run added
tail -n +"$((start + 1))" "$out" | /usr/bin/python3 -c '
import json, sys, statistics
rows = [json.loads(l) for l in sys.stdin if l.strip()]
keys = sorted({(r["reach"], r["threads"], r["build"]) for r in rows})
print("reach threads build   median ms/tick  cpu ms/tick  (runs)  cand/boid  loads")
for k in keys:
    g = [r for r in rows if (r["reach"], r["threads"], r["build"]) == k]
    ms = statistics.median(r["ms_per_tick"] for r in g)
    cpu = [r["cpu_ms_per_tick"] for r in g if "cpu_ms_per_tick" in r]  # murmur-bench since round 7
    print("%5d %7d %-5s %15.2f  %11s  (%d)  %9.1f  %s" % (k[0], k[1], k[2], ms,
          "%.2f" % statistics.median(cpu) if cpu else "-", len(g), g[0]["candidates_per_boid"],
          " ".join("%.1f" % r["load"] for r in g)))
'
