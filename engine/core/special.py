"""Special functions in log space, usable from Python and from njit code.

The collapsed likelihood of every model (Liang et al. eq. 3) is a product of ascending
factorials a^(k) = a (a+1) ... (a+k-1), so everything here works with their logarithms.
"""
import math

import numpy as np

from engine.core.jit import kernel

# Below this many factors the ascending factorial is summed as logs directly: it avoids the
# cancellation of lgamma(a + k) - lgamma(a) when a is large and k small.
_DIRECT_TERMS = 8


@kernel
def log_rising(a, k):
    """log a^(k) = log Γ(a + k) − log Γ(a), the log ascending factorial.

    Parameters
    ----------
    a : float64
        Base, a > 0.
    k : int or float64
        Number of factors, k >= 0.

    Returns
    -------
    float64
    """
    if k <= 0:
        return 0.0
    if k <= _DIRECT_TERMS:
        prod = 1.0
        for i in range(int(k)):
            prod *= a + i
        return math.log(prod)
    return math.lgamma(a + k) - math.lgamma(a)


@kernel
def log_binom(n, k):
    """log of the binomial coefficient C(n, k) for 0 <= k <= n (−inf outside)."""
    if k < 0 or k > n:
        return -np.inf
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@kernel
def log_sum_exp(x):
    """log Σ exp(x_i) by max-subtraction.

    Parameters
    ----------
    x : float64[n]
        Log-weights; entries may be −inf.

    Returns
    -------
    float64
        −inf when every entry is −inf (or n = 0).
    """
    top = -np.inf
    for v in x:
        if v > top:
            top = v
    if top == -np.inf:
        return -np.inf
    total = 0.0
    for v in x:
        total += math.exp(v - top)
    return top + math.log(total)
