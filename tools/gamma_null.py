#!/usr/bin/python3
"""How far from 1/3 does gamma(7-10) land for an ISOTROPIC flock, given how many samples it is averaged over?
(issue 24, round s15 `model15`.)

    tools/gamma_null.py [--samples 3,9,15,100] [--trials 50000] [--seed 1]

In an isotropic neighbourhood M_k's smallest-eigenvalue eigenvector W_k points anywhere, so each sample
of gamma_k = (W_k . V)^2 is the square of one coordinate of a uniform unit vector: Beta(1/2, 1), mean 1/3,
standard deviation 0.298. The tuning line (tools/murmuration_tune.py's hg7-10dev) averages gamma(k) over n
samples (seeds x snapshots) and takes the largest |mean - 1/3| over k = 7..10. This prints, per n, the
standard deviation of the mean, the chance that one k lands within 0.1 of 1/3, the chance that all four
do (k taken as independent, the most pessimistic case; fully correlated k gives the one-k figure), and
the median of the largest deviation, and the chance that one k's mean is at most --low (how rare a mean
as low as the preset's would be for an isotropic flock). Independent samples are the best case: snapshots of one seed are
correlated, so the effective n is smaller than seeds x snapshots. numpy only.
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", default="3,9,15,100")
    ap.add_argument("--trials", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--low", type=float, default=0.1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    print("n samples | sd of mean | P(|mean - 1/3| <= 0.1) one k | all four k (independent) | median max dev | P(mean <= %g)" % a.low)
    for n in [int(x) for x in a.samples.split(",")]:
        w = rng.normal(size=(a.trials, 4, n, 3))
        w /= np.linalg.norm(w, axis=-1, keepdims=True)
        g = (w[..., 0] ** 2).mean(-1)
        dev = np.abs(g - 1.0 / 3.0)
        print("%9d | %10.3f | %28.3f | %24.3f | %14.3f | %.4f" % (
            n, g[:, 0].std(), (dev[:, 0] <= 0.1).mean(), (dev.max(1) <= 0.1).mean(), np.median(dev.max(1)),
            (g[:, 0] <= a.low).mean()))


if __name__ == "__main__":
    main()
