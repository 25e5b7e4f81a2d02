"""The words around a site: whether a position starts a word, the context before a word, and
the word after it.
"""
from engine.core.jit import inline
from engine.models.bigram.kernels.layout import END, WORD_AT, WORD_ENDING


@inline
def is_start(state, a):
    """Whether symbol a starts its utterance.

    Parameters
    ----------
    state : BigramState
    a : int

    Returns
    -------
    bool
    """
    return a == 0 or state.final[a - 1]


@inline
def left_context(state, a):
    """The id of the word before the one starting at a (`$` at an utterance's start).

    Parameters
    ----------
    state : BigramState
    a : int

    Returns
    -------
    int64
    """
    return END if is_start(state, a) else state.occ[WORD_ENDING, a - 1]


@inline
def follower(state, e):
    """(id, customer) of what follows a word ending at e − 1: the next word, or the `$` that
    ends the utterance.

    Parameters
    ----------
    state : BigramState
    e : int

    Returns
    -------
    (int64, int64)
    """
    if state.final[e - 1]:
        return END, state.chars.shape[0] + e - 1
    return state.occ[WORD_AT, e], e
