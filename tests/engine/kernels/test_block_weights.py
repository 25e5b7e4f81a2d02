"""TYPE draws m from the block weight g(m) its model gives (interface.block_weights), in either of
its forms, instead of assuming Dirichlet-process terms: a model whose g(m) is no product of
rising factorials gets eq. 7's exact p(m) ∝ C(|S|, m) g(m)^β."""
import numpy as np
import pytest
from scipy import stats
from scipy.special import gammaln

from engine.core.rng import make_rng
from engine.kernels import block_weight, moves
from tests.kernel_states import LOG_G, N, FixedWeightState

def _moves(linear_form, inv_temp, greedy, count):
    """m of ``count`` successive TYPE moves, and the last move's normalised log p(m)."""
    state = FixedWeightState(np.zeros(N, np.int8), np.zeros(N, np.uint8), LOG_G.copy(),
                             np.array([linear_form], np.uint8))
    rng = make_rng(11)
    ints = np.zeros((3, N), np.int64)
    floats = np.zeros((6, max(N + 1, block_weight.MAX_DELTA_TERMS)))
    chosen = np.zeros(N, np.uint8)
    drawn = np.empty(count, np.int64)
    for i in range(count):
        size, drawn[i], _, _ = moves.type_move(rng, state, i % N, 1, inv_temp, greedy, ints,
                                               floats, chosen)
        assert size == N
        assert state.z.sum() == drawn[i]
    log_p = floats[1, :N + 1]
    return drawn, log_p - np.logaddexp.reduce(log_p)


def _eq_7(inv_temp):
    m = np.arange(N + 1)
    log_p = gammaln(N + 1) - gammaln(m + 1) - gammaln(N - m + 1) + inv_temp * LOG_G
    return log_p - np.logaddexp.reduce(log_p)


@pytest.mark.parametrize("linear_form, inv_temp", [(False, 1.0), (True, 1.0), (True, 0.5)])
def test_m_is_drawn_from_the_models_g(linear_form, inv_temp):
    drawn, log_p = _moves(linear_form, inv_temp, False, 20_000)
    expected = np.exp(_eq_7(inv_temp))
    np.testing.assert_allclose(log_p, _eq_7(inv_temp), atol=1e-9)
    observed = np.bincount(drawn, minlength=N + 1)
    assert stats.chisquare(observed, expected * len(drawn)).pvalue > 1e-3


def test_greedy_takes_the_end_the_models_g_prefers():
    # g(N) > g(0) although C(N, m) g(m) peaks at m = 4
    drawn, _ = _moves(True, 1.0, True, 20)
    assert (drawn == N).all()
