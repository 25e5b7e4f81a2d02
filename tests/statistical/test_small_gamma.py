"""engine.core.small_gamma's ziggurat against the Gamma law, with its rare paths in view.

Each shape's 1,000,000 draws are binned by the exact law's quantiles, finest in the two tails,
and compared by a chi-square test; beyond each side's last box (the draws of the tails' own
rejection samplers, a few in ten thousand or fewer) the draws that fall there out of 12,000,000 are
compared with the law's conditional tail by Kolmogorov-Smirnov. A correct engine passes at
these fixed seeds with p > 0.001. Planted bugs fail: a wedge that keeps every point (six
shapes), a left tail drawn at 1.5 times its rate, the sides chosen by their masses instead of
their boxes' areas (the constants' test).
"""
import math

import numpy as np
import pytest
from scipy import stats

from engine.core import small_gamma
from engine.core.jit import kernel
from engine.core.rng import make_rng

N_DRAWS = 1_000_000
TAIL_DRAWS = 12_000_000
P_MIN = 0.001
QUANTILES = (1e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97,
             0.99, 0.997, 0.999, 0.9999)
SHAPES = (0.05, 0.1, 0.3, 0.5, 0.9, 0.999)


@kernel
def log_draws(rng, table, out):
    for i in range(out.shape[0]):
        out[i] = small_gamma.draw_log(rng, table)


@pytest.mark.parametrize("shape", SHAPES)
def test_draws_follow_the_gamma_law_in_its_tails_too(shape):
    out = np.empty(N_DRAWS)
    log_draws(make_rng(23), small_gamma.table(shape), out)
    assert np.isfinite(out).all()
    law = stats.gamma(shape)
    edges = np.log(law.ppf(QUANTILES))
    observed = np.bincount(np.searchsorted(edges, out), minlength=len(edges) + 1)
    expected = N_DRAWS * np.diff([0.0, *QUANTILES, 1.0])
    p = stats.chisquare(observed, expected).pvalue
    assert p > P_MIN, f"Gamma({shape}): chi-square p = {p:.2g}, counts {observed.tolist()}"


@pytest.mark.parametrize("shape", [0.05, 0.3, 0.9])
def test_each_tail_has_the_laws_tail(shape):
    table = small_gamma.table(shape)
    out = np.empty(TAIL_DRAWS)
    log_draws(make_rng(29), table, out)
    law = stats.gamma(shape)
    constants = table[small_gamma.CONSTANTS]
    y_left, y_right = constants[small_gamma.Y_TAIL], math.log(constants[small_gamma.X_TAIL])
    left, right = out[out < y_left], out[out > y_right]
    assert len(left) > 100 and len(right) > 100, (len(left), len(right))
    p_left = stats.kstest(left, lambda y: law.cdf(np.exp(y)) / law.cdf(math.exp(y_left))).pvalue
    p_right = stats.kstest(right, lambda y: 1.0 - law.sf(np.exp(y)) / law.sf(math.exp(y_right))
                           ).pvalue
    assert min(p_left, p_right) > P_MIN, (p_left, p_right)


@pytest.mark.parametrize("shape", SHAPES)
def test_every_box_has_the_same_area_and_the_last_reaches_the_top(shape):
    table = small_gamma.table(shape)
    for x_row, f_row in ((small_gamma.X_LEFT, small_gamma.F_LEFT),
                         (small_gamma.X_RIGHT, small_gamma.F_RIGHT)):
        x, f = table[x_row], table[f_row]
        area = x[1:-1] * (f[2:] - f[1:-1])  # boxes 1 … LAYERS − 1
        base = x[0] * f[1]  # box 0: the rectangle below f(r) and the tail, as one width
        assert f[-1] == 1.0 and x[-1] == 0.0
        assert np.all(np.diff(x[1:]) < 0) and np.all(np.diff(f[1:]) > 0)
        np.testing.assert_allclose(area, base, rtol=1e-9)


def test_the_sides_are_chosen_by_their_boxes_areas():
    """The left side's share of the boxes is its v over both sides' v (not its mass: a
    rejected point starts again from the choice of side)."""
    table = small_gamma.table(0.3)
    v_left = table[small_gamma.X_LEFT, 0] * table[small_gamma.F_LEFT, 1]
    v_right = table[small_gamma.X_RIGHT, 0] * table[small_gamma.F_RIGHT, 1]
    constants = table[small_gamma.CONSTANTS]
    assert constants[small_gamma.P_LEFT] == pytest.approx(v_left / (v_left + v_right))
    assert constants[small_gamma.MODE] == pytest.approx(math.log(0.3))


@pytest.mark.parametrize("shape", [0.0, 0.01, 1.0, 2.5, float("nan")])
def test_a_shape_outside_its_range_is_refused(shape):
    assert not small_gamma.usable(shape)
    with pytest.raises(ValueError, match="small-shape Gamma table needs"):
        small_gamma.table(shape)
