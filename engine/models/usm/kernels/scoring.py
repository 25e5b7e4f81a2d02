"""Building a state's counts from its boundaries, and its log-likelihood (eq. 3) from scratch.
"""
from engine.core import hash_table
from engine.core.jit import kernel
from engine.core.special import log_rising
from engine.models.segmentation.sites import word_end
from engine.models.usm.kernels.layout import ALPHA0, ENDS, PARAMS, RHO, WORDS
from engine.models.usm.kernels.indexes import add_word, file_boundary, lexicon
from engine.models.usm.kernels.word_probability import log_rising_word


@kernel
def count_all_words(state):
    """Fill the empty lexicon and boundary index from the segmentation ``bound``, in corpus
    order.

    Parameters
    ----------
    state : UsmState
        Mutated.
    """
    start = 0
    for i in range(state.chars.shape[0]):
        if state.bound[i]:
            add_word(state, start, i + 1)
            start = i + 1
            if state.final[i] == 0:
                file_boundary(state, i)


@kernel
def log_likelihood(state):
    """log p(z) of eq. 3 from the lexicon's counts: Σ_w log (α₀P₀(w))^(n_w) − log α₀^(N)
    + log (ρ/2)^(E) + log (ρ/2)^(N−E) − log ρ^(N).

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    float64
    """
    alpha0, rho = state.base[PARAMS, ALPHA0], state.base[PARAMS, RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    keys, heads, sizes = lexicon(state)
    total = 0.0
    for slot in range(keys.shape[0]):
        if keys[slot] != hash_table.EMPTY:
            head = heads[slot]
            total += log_rising_word(state, word_end(state.bound, head) - head, sizes[slot])
    return (total - log_rising(alpha0, n) + log_rising(0.5 * rho, ends)
            + log_rising(0.5 * rho, n - ends) - log_rising(rho, n))
