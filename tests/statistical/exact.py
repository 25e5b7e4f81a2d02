"""Exact enumeration of the toy posterior and a chi-square goodness-of-fit helper.

Everything here is computed independently of the engine: g(m) from eq. 1 with scipy's gammaln.
"""
import itertools

import numpy as np
from scipy import stats
from scipy.special import gammaln, logsumexp


def toy_log_g(n, m):
    """log g(m) = log 1^(m) 1^(m) 1^(n−m) / 3^(n+m), with a^(k) = Γ(a+k)/Γ(a) (eq. 1)."""
    m = np.asarray(m, dtype=float)
    return 2 * gammaln(1 + m) + gammaln(1 + n - m) - (gammaln(3 + n + m) - gammaln(3))


def toy_assignments(n):
    """All 2^n assignments z as rows of an int array, row i = the bits of i (site 0 = lowest bit)."""
    return np.array(list(itertools.product([0, 1], repeat=n)))[:, ::-1]


def toy_exact_p(n, power=1.0):
    """p(z | x)^power normalised over all 2^n assignments, indexed like ``z_index``."""
    z = toy_assignments(n)
    log_p = power * toy_log_g(n, z.sum(axis=1))
    return np.exp(log_p - logsumexp(log_p))


def z_index(z):
    """The row of ``toy_assignments`` equal to z (sites as bits, site 0 lowest)."""
    return int(np.dot(np.asarray(z, dtype=np.int64), 1 << np.arange(len(z))))


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
