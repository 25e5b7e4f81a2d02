"""Building the counts from the tags (``count_all``, the explicit samplers' put_value and
recount), and log p(z, w) by eq. 3 (``log_likelihood``).
"""
from engine.core.jit import kernel
from engine.core.special import log_rising
from engine.kernels import interface
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT, implements
from engine.models.hmm.kernels.counts import refresh_den, set_emit, set_trans
from engine.models.hmm.kernels.neighbours import prev_state


@kernel
def count_all(state):
    """Fill the counts and their float copies from the tags (the counts empty): each transition
    once, into every token and out of each sentence's last one. The type index is left to the
    first TYPE move.

    Parameters
    ----------
    state : HmmState
        Mutated.
    """
    # each transition once: into every token, and out of each sentence's last one
    for s in range(state.words.shape[0]):
        k = state.tag[s]
        p = prev_state(state, s)
        state.trans[p, k] += 1
        state.trans_total[p] += 1
        if state.last[s]:
            state.trans[k, 0] += 1
            state.trans_total[k] += 1
        state.emit[k, state.words[s]] += 1
        state.emit_total[k] += 1
    for j in range(state.trans.shape[0]):
        for k in range(state.trans.shape[0]):
            set_trans(state, j, k, state.trans[j, k])
        refresh_den(state, j)
    # word by word: each word's row of emit_num_t is written at once, while the counts are read
    # in K streams, each in order (k by k, the writes went down a column: 0.122 → 0.097 ms a
    # recount on EWT dev, K = 17)
    for word in range(state.emit.shape[1]):
        for k in range(1, state.emit.shape[0]):
            set_emit(state, k, word, state.emit[k, word])


@implements(interface.put_value)
def _put_value(state, s, v):
    """interface.put_value: the tag alone.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, v : int
    """
    state.tag[s] = v + 1


@implements(interface.recount)
def _recount(state):
    """interface.recount: every count rebuilt from the tags, the type index dropped (the next
    TYPE move rebuilds it).

    Parameters
    ----------
    state : HmmState
        Mutated.
    """
    state.trans[:] = 0
    state.trans_total[:] = 0
    state.emit[:] = 0
    state.emit_total[:] = 0
    state.typed[0] = 0
    count_all(state)


@kernel
def log_likelihood(state):
    """log p(z, w) (eq. 3): every transition row and emission row is a Dirichlet-multinomial.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    float64
    """
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    k1, v_size = state.trans.shape[0], state.emit.shape[1]
    total = 0.0
    for r in range(k1):
        for c in range(k1):
            total += log_rising(alpha, state.trans[r, c])
        total -= log_rising(k1 * alpha, state.trans_total[r])
    for k in range(1, k1):
        for x in range(v_size):
            total += log_rising(alpha_emit, state.emit[k, x])
        total -= log_rising(v_size * alpha_emit, state.emit_total[k])
    return total
