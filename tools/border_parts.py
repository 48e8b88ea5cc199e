#!/usr/bin/env python3
"""Where the border is sparse (issue 24, eleventh round): the mean nearest-neighbour distance of the
interior and of parts of the border, by the page's border rule (src/sim/shape.c: the biggest group
by a link of 10 m, its principal axes, the normalised radius rho = sqrt(sum x_k^2 / lambda_k); the
outer 20% by rho are the border). A border bird's normalised direction n = (x_k / sqrt(lambda_k)) / rho
puts it on a cap (|n_thin| >= 0.5: above or below the flock, for a flat flock) or on the rim; a rim
bird is in front or behind by the sign of its offset from the centre along the mean velocity.

    tools/border_parts.py STATE.csv [STATE.csv ...]

numpy and scipy. One line per state file and a mean line: nearest neighbour (m) of the interior,
the caps, the rim in front and behind, their ratios to the interior and the share of border birds
on the caps.
"""
import sys

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree


def read(path):
    pos, vel = [], []
    for line in open(path):
        if line.startswith("boid,"):
            v = [float(x) for x in line.split(",")[1:7]]
            pos.append(v[:3])
            vel.append(v[3:])
    return np.array(pos), np.array(vel)


def border_frame(p, frac=0.2, up=False):
    """The page's border rule on one group p: its centre c, principal axes (eigenvalues lam ascending,
    vectors vec: vec[:, 0] the thin axis, made to point up with up), the normalised coordinates x, the
    border (the outer frac by rho) and the caps among it (|n_thin| >= 0.5)."""
    c = p.mean(0)
    lam, vec = np.linalg.eigh(np.cov((p - c).T))  # ascending: vec[:, 0] is the thin axis
    if up and vec[1, 0] < 0:
        vec[:, 0] = -vec[:, 0]
    x = (p - c) @ vec / np.sqrt(lam)
    rho = np.sqrt((x ** 2).sum(1))
    nb = int(np.ceil(frac * len(p) - 1e-9))
    border = np.zeros(len(p), bool)
    border[np.argsort(-rho, kind="stable")[:nb]] = True
    n = x / rho[:, None]
    cap = border & (np.abs(n[:, 0]) >= 0.5)
    return c, lam, vec, x, border, cap


def parts(path, link=10.0, frac=0.2):
    p, v = read(path)
    tree = cKDTree(p)
    _, lab = connected_components(tree.sparse_distance_matrix(tree, link, output_type="coo_matrix"), directed=False)
    g = lab == np.bincount(lab).argmax()
    p, v = p[g], v[g]
    nn = cKDTree(p).query(p, k=2)[0][:, 1]
    c, _, _, _, border, cap = border_frame(p, frac)
    rim = border & ~cap
    mv = v.mean(0)
    ahead = (p - c) @ (mv / np.linalg.norm(mv)) > 0
    out = {"interior": nn[~border].mean(), "caps": nn[cap].mean(), "front": nn[rim & ahead].mean(),
           "back": nn[rim & ~ahead].mean(), "border": nn[border].mean(), "cap_share": cap.sum() / border.sum()}
    return out


def fmt(name, o):
    i = o["interior"]
    return ("%-40s nn interior %.2f caps %.2f (%.2f) rim front %.2f (%.2f) back %.2f (%.2f) border/interior %.2f "
            "caps' share %.2f" % (name, i, o["caps"], o["caps"] / i, o["front"], o["front"] / i, o["back"],
                                  o["back"] / i, o["border"] / i, o["cap_share"]))


def main():
    rows = []
    for path in sys.argv[1:]:
        o = parts(path)
        rows.append(o)
        print(fmt(path[-40:], o))
    if len(rows) > 1:
        m = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
        print(fmt("mean", m))


if __name__ == "__main__":
    main()
