"""TYPE draws m from the block weight g(m) its model gives (interface.block_weights), in either of
its forms, instead of assuming Dirichlet-process terms: a model whose g(m) is no product of
rising factorials gets eq. 7's exact p(m) ∝ C(|S|, m) g(m)^β."""
from collections import namedtuple

import numpy as np
import pytest
from scipy import stats
from scipy.special import gammaln

from engine.core.draw import scale_steps
from engine.core.rng import make_rng
from engine.kernels import block_weight, interface, moves

# Every site has one type and none conflicts with another (as on the toy), so each move's block
# is every site and its m an exact draw from eq. 7, whatever the state it started from.
FixedWeightState = namedtuple("FixedWeightState", ["z", "removed", "log_g", "linear_form"])
LOG_G = np.array([0.0, -3.0, 1.0, -1.0, 2.5, -4.0, 0.5])  # log g(m) for m = 0 … 6
N = LOG_G.shape[0] - 1
implements = interface.for_state(FixedWeightState)


@implements(interface.n_values)
def _n_values(state):
    return 2


@implements(interface.get_value)
def _get_value(state, s):
    return np.int64(state.z[s])


@implements(interface.remove_site)
def _remove_site(state, s):
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    state.z[s] = v
    state.removed[s] = 0


@implements(interface.conflicts)
def _conflicts(state, s):
    return state.removed[s] != 0


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    for s in range(state.z.shape[0]):
        out[s] = s
    return state.z.shape[0]


@implements(interface.site_weights)
def _site_weights(state, s, w):
    w[0], w[1] = 1.0, 1.0  # a block of one site never occurs here (every block has N sites)


@implements(interface.block_weights)
def _block_weights(state, s0, v0, v1, size, linear, out, work):
    # g(m) from the table, in the linear form (when allowed and chosen) or the log form
    if linear and state.linear_form[0]:
        block_weight.binomial_steps(size, out[1], out[0])
        for m in range(size):
            out[1, m + 1] *= np.exp(state.log_g[m + 1] - state.log_g[m])
        done = scale_steps(size, out[1], out[0])
    else:
        for m in range(size + 1):
            out[0, m] = state.log_g[m] - state.log_g[0]
        done = False
    return done


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
