"""States of the tests' own, implementing a few interface functions to drive the engine's
kernels in ways no model does (a block weight from a table, a block_delta that claims too many
terms).

They live in this importable module, not in a test file, because Numba's cache index of a
kernel (moves.type_move, …) records every state type it was compiled for, by module and name:
a type defined in a test module that pytest imports by its bare name (``test_block_weights``)
made every later process that loaded that index without the test on its path fail
(ModuleNotFoundError), the app's server among them. ``tests.kernel_states`` imports from the
project's folder in every process that runs the engine.
"""
from collections import namedtuple

import numpy as np

from engine.core.draw import scale_steps
from engine.kernels import block_weight, interface

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



TooManyTermsState = namedtuple("TooManyTermsState", ["n_terms"])


@interface.for_state(TooManyTermsState)(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    # writes nothing (the test's buffers are wide enough), only claims n_terms terms
    return state.n_terms[0]


