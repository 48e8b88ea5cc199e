#!/usr/bin/env python3
"""A state CSV of N boids made of copies of a settled state side by side in x and z, as murmur-bench
makes its larger settled states (tests/bench/state.c: a near-square array of copies, view_radius apart,
centred on the base flock); used by tools/topo_pass_cg.sh and tools/topo_scan_bench.sh:
    tools/topo_state_copies.py BASE.csv N OUT.csv [GAP]
BASE: e.g. murmur-bench's cached ~/.cache/murmur-bench/starling-settled-n20000-*.csv; GAP: the space
between copies in wu (default 10, the starling preset's view radius)."""
import math
import sys


def main():
    base_path, n, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    gap = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    with open(base_path) as fp:
        header = fp.readline()
        rows = [line.rstrip("\n").split(",") for line in fp if line.startswith("boid,")]
    base = len(rows)
    copies = (n + base - 1) // base
    cols = math.ceil(math.sqrt(copies))
    nrows = (copies + cols - 1) // cols
    xs = [float(r[1]) for r in rows]
    zs = [float(r[3]) for r in rows]
    step = (max(xs) - min(xs) + gap, max(zs) - min(zs) + gap)
    with open(out_path, "w") as out:
        out.write(header)
        written = 0
        for q in range(copies):
            dx = (q % cols - 0.5 * (cols - 1)) * step[0]
            dz = (q // cols - 0.5 * (nrows - 1)) * step[1]
            for r in rows:
                if written == n:
                    break
                x = "%.9g" % (float(r[1]) + dx)
                z = "%.9g" % (float(r[3]) + dz)
                out.write(",".join([r[0], x, r[2], z] + r[4:]) + "\n")
                written += 1


if __name__ == "__main__":
    main()
