"""What every exact test shares: enumerating binary analyses, normalising a posterior, and a
chi-square goodness-of-fit test.

Each model's own exact oracle (its probability recomputed from its definition, independently
of the engine) lives beside its conformance case, in tests/conformance/cases/<model>.py.
"""
import itertools

import numpy as np
from scipy import stats
from scipy.special import logsumexp


def binary_assignments(n):
    """All 2^n assignments of n binary sites as rows of an int array, row i = the bits of i
    (site 0 = lowest bit)."""
    return np.array(list(itertools.product([0, 1], repeat=n)))[:, ::-1]


def z_index(z):
    """The row of ``binary_assignments`` equal to z (sites as bits, site 0 lowest)."""
    return int(np.dot(np.asarray(z, dtype=np.int64), 1 << np.arange(len(z))))


def normalised(log_p, power=1.0):
    """exp(power · log_p) normalised to sum to 1: an enumerated posterior raised to ``power``."""
    log_p = power * np.asarray(log_p, dtype=float)
    return np.exp(log_p - logsumexp(log_p))


def chi_square_p(counts, probs, min_expected=5.0):
    """p-value of observed counts against probabilities; cells expected below ``min_expected``
    are pooled into one cell so the chi-square approximation holds."""
    counts = np.asarray(counts, dtype=float)
    expected = np.asarray(probs, dtype=float) * counts.sum()
    small = expected < min_expected
    obs = np.r_[counts[~small], counts[small].sum()]
    exp = np.r_[expected[~small], expected[small].sum()]
    if exp[-1] == 0:  # nothing pooled: drop the empty cell
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp).pvalue
