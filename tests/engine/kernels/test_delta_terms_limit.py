"""A model whose block_delta returns more terms of eq. 9 than the move buffers hold is refused
with a message instead of writing past its buffer row."""
import numpy as np
import pytest

from engine.kernels import block_weight
from tests.kernel_states import TooManyTermsState

def _log_g(n_terms):
    state = TooManyTermsState(np.array([n_terms], np.int64))
    width = 2 * block_weight.MAX_DELTA_TERMS
    floats = np.zeros((6, width))
    block_weight.block_log_g(state, 0, 0, 1, 1, floats[0], floats[2], floats[3], floats[4],
                             floats[5])
    return floats[0]


def test_the_limit_itself_is_accepted():
    assert _log_g(block_weight.MAX_DELTA_TERMS)[1] == 0.0  # zero terms of change: g(1) = g(0)


def test_one_term_past_the_limit_is_refused():
    with pytest.raises(ValueError, match="MAX_DELTA_TERMS"):
        _log_g(block_weight.MAX_DELTA_TERMS + 1)
