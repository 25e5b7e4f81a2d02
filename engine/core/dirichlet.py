"""Draws from a Dirichlet posterior Dir(n + a): the explicit Gibbs samplers' parameter step
(Gao & Johnson eq. 5), as normalised Gamma draws.

The Gamma variates are Marsaglia & Tsang's (2000): for a shape a ≥ 1 a cubed normal variate,
accepted by a squeeze (or, rarely, a log test), and for a < 1 their boost
Gamma(a) = Gamma(a + 1) U^(1/a), with U^(1/a) = e^(−E/a) for E = −log U ~ Exp(1). Numba's own
``Generator.gamma`` takes Ahrens & Dieter's loop for a < 1, a power and an exponential variate
per try: on an HMM's emissions (93k draws a sweep, three quarters of them a count of 0) this
draws them in 55 % of its time. The cells with a count of 0 (94 % of an HMM's emissions on EWT dev,
all of one shape below 1) are drawn from a ziggurat of that shape instead
(engine.core.small_gamma): one random number and one exponential function for most.
"""
import math

import numpy as np

from engine.core import small_gamma
from engine.core.jit import inline, kernel

# Below this prior a Gamma(a) draw for a count of 0 underflows to 0 too often (for a = 1e-4 it
# is below 1e-300 most of the time): such rows are drawn in log space.
SMALL_SHAPE = small_gamma.LOWEST_SHAPE


def zero_count_table(prior):
    """draw_dirichlet's table for ``prior``: small_gamma's ziggurat of Gamma(prior) when it
    has one, else zeros (the cells with a count of 0 then take the general method).

    Returns
    -------
    float64[5, small_gamma.LAYERS + 1]
    """
    if small_gamma.usable(prior):
        return small_gamma.table(prior)
    return np.zeros((5, small_gamma.LAYERS + 1))


@kernel
def draw_dirichlet(rng, counts, prior, table, out):
    """out ~ Dir(counts + prior), drawn as Gamma(counts[i] + prior) normalised.

    Parameters
    ----------
    rng : numpy.random.Generator
    counts : int64[n]   the counts (any stride: a column of a count table will do)
    prior : float64     the symmetric Dirichlet's parameter, > 0
    table : float64[5, small_gamma.LAYERS + 1]
        ``zero_count_table(prior)``: the cells with a count of 0 are drawn from it when it is
        Gamma(prior)'s (its shape is checked, so a table of another shape is never used)
    out : float64[n]    output (any stride); sums to 1
    """
    n = out.shape[0]
    if prior >= SMALL_SHAPE:
        zig = table[small_gamma.CONSTANTS, small_gamma.SHAPE] == prior
        total = 0.0
        for i in range(n):
            if zig and counts[i] == 0:
                out[i] = small_gamma.draw(rng, table)
            else:
                out[i] = gamma_variate(rng, counts[i] + prior)
            total += out[i]
        inv = 1.0 / total
        for i in range(n):
            out[i] *= inv
        return
    # log Gamma(a) = log Gamma(a + 1) − E / a for a < 1 (the boost, in logs)
    top = -np.inf
    for i in range(n):
        a = counts[i] + prior
        if a < 1.0:
            out[i] = math.log(gamma_at_least_one(rng, a + 1.0)) - rng.standard_exponential() / a
        else:
            out[i] = math.log(gamma_at_least_one(rng, a))
        top = max(top, out[i])
    total = 0.0
    for i in range(n):
        out[i] = math.exp(out[i] - top)
        total += out[i]
    inv = 1.0 / total
    for i in range(n):
        out[i] *= inv


@inline
def gamma_variate(rng, a):
    """A Gamma(a, 1) variate, a > 0 (boosted below 1: the module's notes).

    Parameters
    ----------
    rng : numpy.random.Generator
    a : float64

    Returns
    -------
    float64
    """
    if a >= 1.0:
        return gamma_at_least_one(rng, a)
    return gamma_at_least_one(rng, a + 1.0) * math.exp(-rng.standard_exponential() / a)


@inline
def gamma_at_least_one(rng, a):
    """A Gamma(a, 1) variate for a ≥ 1 (Marsaglia & Tsang 2000): with d = a − 1/3, d V for
    V = (1 + x / √(9d))³, x standard normal, kept when log U < x²/2 + d (1 − V + log V); the
    squeeze U < 1 − 0.0331 x⁴ keeps most without a log.

    Parameters
    ----------
    rng : numpy.random.Generator
    a : float64

    Returns
    -------
    float64
    """
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = rng.standard_normal()
        v = 1.0 + c * x
        if v > 0.0:
            v = v * v * v
            u = rng.random()
            x2 = x * x
            if u < 1.0 - 0.0331 * x2 * x2 or math.log(u) < 0.5 * x2 + d * (1.0 - v + math.log(v)):
                return d * v
