#!/bin/bash
# murmur beside its peers on one thread, in murmur-bench's uniform scenario (about 30 neighbours):
#   tools/peers.sh [BUILD_DIR] [OUT_JSONL]
# BUILD_DIR: a release build of murmur (default build/); OUT_JSONL: default docs/perf_data/peers.jsonl.
# The peers are not part of murmur and never enter the repository:
#  - numpy + scipy cKDTree: tools/peers/numpy_boids.py, our own vectorised step, run by Debian's
#    Python with Debian's python3-numpy and python3-scipy (install them first);
#  - @thi.ng/boids: installed from the npm registry into MURMUR_PEERS_DIR (default
#    ~/.cache/murmur-peers), driven by tools/peers/thing_boids.mjs through its public API with a
#    HashGrid3 from @thi.ng/geom-accel. @thi.ng/vectors is pinned to 8.6.38: from 8.7.0 its hash3
#    takes one vector, and geom-accel 4.1.91 still calls hash3(x, y, z), which then hashes every
#    boid to one cell and makes the step quadratic.
#  - OpenSteer is in neither Debian nor the npm registry, so it is not run here.
# Each run is a line of OUT_JSONL with the 1-minute load average before it (load0) and the repeat;
# the table of docs/performance.md is printed at the end.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$root/docs/perf_data/peers.jsonl}
dir=${MURMUR_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/murmur-peers}
bench=$build/tests/bench/murmur-bench
py=/usr/bin/python3
[ -x "$bench" ] || { echo "tools/peers.sh: no murmur-bench in $build (build murmur first)" >&2; exit 2; }
"$py" -c 'import numpy, scipy' 2>/dev/null ||
    { echo "tools/peers.sh: needs Debian's python3-numpy and python3-scipy (sudo apt-get install -y python3-numpy python3-scipy)" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "tools/peers.sh: needs node and npm for @thi.ng/boids" >&2; exit 2; }
if [ ! -f "$dir/node_modules/@thi.ng/boids/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
        npm install --no-audit --no-fund --loglevel=error @thi.ng/boids@1.1.34 @thi.ng/geom-accel@4.1.91 @thi.ng/vectors@8.6.38 >/dev/null)
fi
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
tag() { # rep: prefix each JSON line with the repeat and the load average before the run
    local l0; l0=$(cut -d' ' -f1 /proc/loadavg)
    sed "s/^{/{\"rep\":$1,\"load0\":$l0,/"
}
for rep in 1 2; do
    for n in 10000 100000; do
        echo "peers: repeat $rep, $n boids" >&2
        OMP_NUM_THREADS=1 "$bench" --scenario uniform --n "$n" --threads 1 --repeats 1 --json |
            sed 's/^{/{"peer":"murmur",/' | tag "$rep" >> "$tmp"
        "$py" "$root/tools/peers/numpy_boids.py" "$n" $(( n > 10000 ? 5 : 20 )) | tag "$rep" >> "$tmp"
        node "$root/tools/peers/thing_boids.mjs" "$dir/node_modules" "$n" $(( n > 10000 ? 3 : 10 )) | tag "$rep" >> "$tmp"
    done
done
mv "$tmp" "$out"
trap - EXIT
"$py" - "$out" <<'PY'
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
ms = collections.defaultdict(list)
ver, loads = {}, [r["load0"] for r in rows]
for r in rows:
    ms[(r["peer"], r["n"])].append(r["ms_per_tick"])
    ver.setdefault(r["peer"], r.get("version", "this build"))
peers = ["murmur", "numpy+cKDTree", "@thi.ng/boids"]
print("| 1 thread, uniform, ms per tick | 10k | 100k | 10k: x murmur | 100k: x murmur |")
print("|---|---:|---:|---:|---:|")
for p in peers:
    cells = []
    for n in (10000, 100000):
        v = ms.get((p, n), [])
        f = lambda x: "%.3g" % x if x < 1000 else "%.0f" % x
        cells.append("%s-%s" % (f(min(v)), f(max(v))) if v else "-")
    for n in (10000, 100000):
        v, m = ms.get((p, n), []), ms.get(("murmur", n), [])
        cells.append("%.0fx" % (min(v) / min(m)) if v and m else "-")
    print("| %s | %s |" % (p, " | ".join(cells)))
print()
for p in peers[1:]:
    print("- %s: %s" % (p, ver[p]))
print("- load average before the runs: %.2f-%.2f" % (min(loads), max(loads)))
PY
