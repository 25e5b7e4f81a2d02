"""The law of engine.core.dirichlet's Gamma variates (drawn as their logs) against scipy's: for
shapes on both sides of 1 (the boost below it) and far above it, a Kolmogorov-Smirnov test of
20,000 draws against scipy.stats.gamma's CDF. (The Dirichlet draws built on them, both with the
ziggurat for counts of 0 and shifted for tiny priors, are tested in
test_hmm_estimators_exact.py.)

A correct engine passes at these fixed seeds with p > 0.001; the boost dropped (Gamma(a + 1)
for a < 1) fails three of them, a squeeze that accepts too much (0.01 for 0.0331) one.
"""
import numpy as np
import pytest
from numba import njit
from scipy import stats

from engine.core.dirichlet import log_gamma_variate
from engine.core.rng import make_rng

N_DRAWS = 20_000
P_MIN = 0.001


@njit
def log_gamma_draws(rng, a, out):
    for i in range(out.shape[0]):
        out[i] = log_gamma_variate(rng, a)


@pytest.mark.parametrize("shape", [0.1, 0.5, 0.999, 1.0, 1.7, 4.1, 60.1])
def test_gamma_variates_follow_the_gamma_law(shape):
    out = np.empty(N_DRAWS)
    log_gamma_draws(make_rng(11), shape, out)
    assert np.isfinite(out).all()
    p = stats.kstest(out, lambda y: stats.gamma(shape).cdf(np.exp(y))).pvalue
    assert p > P_MIN, f"Gamma({shape}): KS p = {p:.2g}"

