"""Draws from a Dirichlet posterior Dir(n + a): the explicit Gibbs samplers' parameter step
(Gao & Johnson eq. 5), as normalised Gamma draws."""
import math

import numpy as np

from engine.core.jit import kernel

# Below this prior a Gamma(a) draw for a count of 0 underflows to 0 too often (for a = 1e-4 it
# is below 1e-300 most of the time): such rows are drawn in log space.
SMALL_SHAPE = 0.05


@kernel
def draw_dirichlet(rng, counts, prior, out):
    """out ~ Dir(counts + prior), drawn as Gamma(counts[i] + prior) normalised.

    Parameters
    ----------
    rng : numpy.random.Generator
    counts : int64[n]   the counts (any stride: a column of a count table will do)
    prior : float64     the symmetric Dirichlet's parameter, > 0
    out : float64[n]    output (any stride); sums to 1
    """
    n = out.shape[0]
    if prior >= SMALL_SHAPE:
        total = 0.0
        for i in range(n):
            out[i] = rng.gamma(counts[i] + prior)
            total += out[i]
        inv = 1.0 / total
        for i in range(n):
            out[i] *= inv
        return
    # log Gamma(a) = log Gamma(a + 1) + log(U) / a for a < 1 (Marsaglia & Tsang's boost)
    top = -np.inf
    for i in range(n):
        a = counts[i] + prior
        if a < 1.0:
            out[i] = math.log(rng.gamma(a + 1.0)) + math.log(1.0 - rng.random()) / a
        else:
            out[i] = math.log(rng.gamma(a))
        top = max(top, out[i])
    total = 0.0
    for i in range(n):
        out[i] = math.exp(out[i] - top)
        total += out[i]
    inv = 1.0 / total
    for i in range(n):
        out[i] *= inv
