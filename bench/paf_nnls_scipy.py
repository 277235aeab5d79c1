#!/usr/bin/env python3
"""The independent NNLS baseline of the Ernest-fit benchmark: scipy.optimize.nnls on the same
ten samples as bench/src/paf.rs (`ernest_samples`), building the 10x4 feature matrix and
solving, as a caller of scipy would. Prints the coefficients (compare them with fairsched's) and
the median time per fit over 7 rounds.

Run: python3 bench/paf_nnls_scipy.py   (needs numpy and scipy: pip install numpy scipy)
"""
import math
import statistics
import time

import numpy as np
from scipy.optimize import nnls

SLOTS = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48]
NOISE = [0.01, -0.02, 0.015, 0.0, -0.01, 0.02, -0.015, 0.005, -0.005, 0.01]
RUNTIMES = [(0.2 + 0.001 * x + 3.0 / x + 0.05 * math.log(x)) * (1.0 + e) for x, e in zip(SLOTS, NOISE)]


def fit(slots, runtimes):
    a = np.array([[1.0, x, 1.0 / x, math.log(x)] for x in slots])
    return nnls(a, np.array(runtimes))[0]


def main():
    print("scipy", fit(SLOTS, RUNTIMES))
    rounds = []
    for _ in range(7):
        n = 20000
        start = time.perf_counter()
        for _ in range(n):
            fit(SLOTS, RUNTIMES)
        rounds.append((time.perf_counter() - start) / n)
    print(f"scipy.optimize.nnls with the feature matrix: median {statistics.median(rounds) * 1e6:.2f} us per fit")


if __name__ == "__main__":
    main()
