"""The restaurants' counts: a transition or an emission added or taken away, and the sites filed
under their types in the type → sites index (once TYPE has built it).
"""
from engine.core.jit import kernel
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT


# The updates below leave inv_den alone: callers refresh the rows whose totals they changed once
# they are done (``refresh_den``), each row once, as a division costs as much as a dozen adds.
@kernel
def set_trans(state, j, k, count):
    """n_{jk} = count, and its float copy.

    Parameters
    ----------
    state : HmmState
        Mutated.
    j, k, count : int
    """
    state.trans[j, k] = count
    state.trans_num_t[k, j] = count + state.params[ALPHA]


@kernel
def set_emit(state, k, word, count):
    """n_{k,word} = count, and its float copy.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k, word, count : int
    """
    state.emit[k, word] = count
    state.emit_num_t[word, k] = count + state.params[ALPHA_EMIT]


@kernel
def add_trans(state, j, k, delta):
    """n_{jk} += delta; the row total n_{j·} is the caller's (a row shared by two transitions
    changes once).

    Parameters
    ----------
    state : HmmState
        Mutated.
    j, k, delta : int
    """
    set_trans(state, j, k, state.trans[j, k] + delta)


@kernel
def add_emission(state, k, word, delta):
    """n_{k,word} and n_k += delta.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k, word, delta : int
    """
    set_emit(state, k, word, state.emit[k, word] + delta)
    state.emit_total[k] += delta


@kernel
def refresh_den(state, k):
    """inv_den[k] from the totals now in the state.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k : int
    """
    state.inv_den[k] = 1.0 / (
        (state.emit_total[k] + state.emit.shape[1] * state.params[ALPHA_EMIT])
        * (state.trans_total[k] + state.trans.shape[0] * state.params[ALPHA]))
