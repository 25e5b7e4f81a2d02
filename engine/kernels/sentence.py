"""SENTENCE: blocked Metropolis-Hastings over one sentence at a time, written once against the
model interface.

The model draws a whole new analysis of the sentence by dynamic programming from a proposal q
that holds the other sentences' counts fixed (the sentence's own words or tags do not update
them, which is what makes the dynamic program possible), and the move is accepted with
probability min(1, p(new)^β q(old) / (p(old)^β q(new))) against the exact probability p, in
which the sentence's own choices do update the counts (Gao & Johnson 2008, eq. 7 and §3;
Goldwater et al. 2009 for segmentation). β is the inverse temperature.
"""
import numpy as np

from engine.core.jit import kernel
from engine.kernels.interface import (get_value, n_sentences, sentence_add, sentence_proposal,
                                      sentence_remove, sentence_restore, sentence_sites,
                                      sentence_work_size)


@kernel
def sentence_move(rng, state, u, inv_temp, old, new, work):
    """One SENTENCE move on sentence u; return whether the proposal was accepted.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated in place
    u : int
        The sentence.
    inv_temp : float64
    old, new : int64[longest sentence's sites]
        Output: the sentence's values before the move and the proposal.
    work : float64[sentence_work_size(state)]
        The model's dynamic-programming buffer.
    """
    start, stop = sentence_sites(state, u)
    for i in range(stop - start):
        old[i] = get_value(state, start + i)
    log_p_old = sentence_remove(rng, state, u)
    log_q_new, log_q_old = sentence_proposal(rng, state, u, inv_temp, old, new, work)
    log_p_new = sentence_add(rng, state, u, new)
    log_ratio = inv_temp * (log_p_new - log_p_old) + log_q_old - log_q_new
    if log_ratio >= 0.0 or np.log(rng.random()) < log_ratio:
        return True
    sentence_restore(rng, state, u, old)
    return False


@kernel
def propose(rng, state, u, old, new, work):
    """Sentence u's proposal without the move, for looking at q: (log p(old), log q(new),
    log q(old)), the state left as it was (its analysis re-added).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state (a model that reseats may seat the sentence's customers afresh)
    u : int
    old, new : int64[longest sentence's sites]
        Output, as ``sentence_move``'s.
    work : float64[sentence_work_size(state)]
    """
    start, stop = sentence_sites(state, u)
    for i in range(stop - start):
        old[i] = get_value(state, start + i)
    log_p_old = sentence_remove(rng, state, u)
    log_q_new, log_q_old = sentence_proposal(rng, state, u, 1.0, old, new, work)
    sentence_add(rng, state, u, old)
    return log_p_old, log_q_new, log_q_old


@kernel
def restore_by_readding(rng, state, u, values):
    """sentence_restore for a model whose choices follow from its values (it draws nothing):
    take the proposal away and add ``values`` back.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    u : int
        The sentence.
    values : int64[≥ its sites]
        Its analysis before the move.
    """
    sentence_remove(rng, state, u)
    sentence_add(rng, state, u, values)


@kernel
def sentence_sweep(rng, state, start, stop, inv_temp, old, new, work, totals):
    """SENTENCE over sentences start … stop − 1 in order.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    start, stop : int
    inv_temp : float64
    old, new, work
        As ``sentence_move``'s; ``old`` and ``new`` keep the last move's values.
    totals : int64[2]
        Output: moves accepted and sites changed.
    """
    totals[:] = 0
    for u in range(start, stop):
        if sentence_move(rng, state, u, inv_temp, old, new, work):
            totals[0] += 1
            first, last = sentence_sites(state, u)
            for i in range(last - first):
                totals[1] += old[i] != new[i]


@kernel
def count_sentences(state):
    """The model's number of sentences, for Python callers.

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return n_sentences(state)


@kernel
def sites_of(state, u):
    """(start, stop) of sentence u's sites, for Python callers.

    Parameters
    ----------
    state : model state
    u : int

    Returns
    -------
    (int, int)
    """
    return sentence_sites(state, u)


@kernel
def work_size(state):
    """The length of the work buffer sentence_move needs.

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return sentence_work_size(state)
