"""Draws from Dirichlet posteriors Dir(n + a): the explicit Gibbs samplers' parameter step
(Gao & Johnson eq. 5), as normalised Gamma draws, a whole count table at a time.

The Gamma variates are Marsaglia & Tsang's (2000): for a shape a ≥ 1 a cubed normal variate,
accepted by a squeeze (or, rarely, a log test), and for a < 1 their boost
Gamma(a) = Gamma(a + 1) U^(1/a), with U^(1/a) = e^(−E/a) for E = −log U ~ Exp(1). Numba's own
``Generator.gamma`` takes Ahrens & Dieter's loop for a < 1, a power and an exponential variate
per try: on an HMM's emissions (93k draws a sweep, three quarters of them a count of 0) this
draws them in 55 % of its time. The cells with a count of 0 (94 % of an HMM's emissions on EWT dev,
all of one shape below 1) are drawn from a ziggurat of that shape instead
(engine.core.small_gamma): one random number for most.

Every variate is drawn as its logarithm, and the table is exponentiated in one vectorised pass
(engine.core.vector_exp): an exponential function per cell called from the drawing loop took a
quarter of the draw. Working in logs also keeps tiny priors exact: below SMALL_SHAPE most
Gamma(a) variates underflow (for a = 1e-4 below 1e-300), so each distribution's logs are first
shifted to put its largest at 0.
"""
import math

import numpy as np

from engine.core import small_gamma
from engine.core.jit import inline, kernel
from engine.core.vector_exp import exp_in_place

# below this prior the draws are shifted before they are exponentiated (above)
SMALL_SHAPE = small_gamma.LOWEST_SHAPE


def zero_count_table(prior):
    """draw_dirichlets' table for ``prior``: small_gamma's ziggurat of Gamma(prior) when it
    has one, else zeros (the cells with a count of 0 then take the general method).

    Returns
    -------
    float64[5, small_gamma.LAYERS + 1]
    """
    if small_gamma.usable(prior):
        return small_gamma.table(prior)
    return np.zeros((5, small_gamma.LAYERS + 1))


@kernel
def draw_dirichlets(rng, counts, prior, table, first, out, totals):
    """out[:, r] ~ Dir(counts[r] + prior) for r = first … R − 1, drawn as Gamma(counts[r, i] +
    prior) normalised, the distributions one after another; out[:, r] = 0 for r < first.

    Parameters
    ----------
    rng : numpy.random.Generator
    counts : int64[R, n]   the counts, a distribution a row
    prior : float64     the symmetric Dirichlet's parameter, > 0
    table : float64[5, small_gamma.LAYERS + 1]
        ``zero_count_table(prior)``: the cells with a count of 0 are drawn from it when it is
        Gamma(prior)'s (its shape is checked, so a table of another shape is never used)
    first : int         the first row drawn (an HMM's boundary, row 0, emits nothing)
    out : float64[n, R], C-contiguous
        Output: the distributions as columns (the layout the HMM's token weights read).
    totals : float64[R]  work
    """
    zig = table[small_gamma.CONSTANTS, small_gamma.SHAPE] == prior
    for r in range(first):
        for i in range(out.shape[0]):
            out[i, r] = -np.inf
    for r in range(first, counts.shape[0]):
        row = counts[r]
        top = -np.inf
        for i in range(row.shape[0]):
            if zig and row[i] == 0:
                y = small_gamma.draw_log(rng, table)
            else:
                y = log_gamma_variate(rng, row[i] + prior)
            out[i, r] = y
            top = max(top, y)
        if prior < SMALL_SHAPE:
            for i in range(row.shape[0]):
                out[i, r] -= top
    exp_in_place(out.reshape(out.size))
    normalise_columns(out, first, totals)


@inline
def normalise_columns(out, first, totals):
    """Each column r ≥ first of out divided by its sum (each sum in the order of its rows).

    Parameters
    ----------
    out : float64[n, R]   input and output
    first : int
    totals : float64[R]   work
    """
    totals[:] = 0.0
    for i in range(out.shape[0]):
        for r in range(first, out.shape[1]):
            totals[r] += out[i, r]
    for r in range(first, out.shape[1]):
        totals[r] = 1.0 / totals[r]
    for i in range(out.shape[0]):
        for r in range(first, out.shape[1]):
            out[i, r] *= totals[r]


@inline
def log_gamma_variate(rng, a):
    """The log of a Gamma(a, 1) variate, a > 0 (boosted below 1: the module's notes).

    Parameters
    ----------
    rng : numpy.random.Generator
    a : float64

    Returns
    -------
    float64
    """
    if a >= 1.0:
        return math.log(gamma_at_least_one(rng, a))
    return math.log(gamma_at_least_one(rng, a + 1.0)) - rng.standard_exponential() / a


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
