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
    """log of the binomial coefficient C(n, k) for 0 <= k <= n (−inf outside).

    Parameters
    ----------
    n, k : int or float64

    Returns
    -------
    float64
    """
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


# log Γ and ψ are shifted up by this much before their asymptotic series: from x = 10 on the
# first neglected terms (B₁₂) are below 2e-14
_SHIFT = 10


@kernel
def log_gamma_digamma(x):
    """(log Γ(x), ψ(x)) for x > 0, sharing one shift and one logarithm.

    For x < 10 both move up to y = x + 10 by the recurrences log Γ(x) = log Γ(y) − log P and
    ψ(x) = ψ(y) − P′/P, P = x (x+1) … (x+9), with P′ built alongside P (product rule): one
    division instead of ten. Variational Bayes (Gao & Johnson eq. 4) needs both for every
    emission cell on every iteration, so this is most of its M-step.

    Parameters
    ----------
    x : float64
        x > 0.

    Returns
    -------
    (float64, float64)
        log Γ(x) and ψ(x).
    """
    log_p, shift_psi = 0.0, 0.0
    if x < _SHIFT:
        p, dp = 1.0, 0.0
        for i in range(_SHIFT):
            dp = dp * (x + i) + p
            p *= x + i
        log_p, shift_psi = math.log(p), dp / p
        x += _SHIFT
    inv = 1.0 / x
    inv2 = inv * inv
    log_x = math.log(x)
    # Stirling's series and the digamma asymptotic series (Bernoulli numbers B₂ … B₁₀)
    lg = ((x - 0.5) * log_x - x + 0.9189385332046728  # log √(2π)
          + inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188)))))
    psi = (log_x - 0.5 * inv
           - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132)))))
    return lg - log_p, psi - shift_psi


@kernel
def total(x):
    """The sum of x as four interleaved partial sums: one running sum would be a chain of
    dependent additions, several times slower over a few dozen entries.

    Parameters
    ----------
    x : float64[n]

    Returns
    -------
    float64
    """
    s0 = s1 = s2 = s3 = 0.0
    n4 = x.shape[0] - x.shape[0] % 4
    for i in range(0, n4, 4):
        s0 += x[i]
        s1 += x[i + 1]
        s2 += x[i + 2]
        s3 += x[i + 3]
    for i in range(n4, x.shape[0]):
        s0 += x[i]
    return (s0 + s1) + (s2 + s3)
