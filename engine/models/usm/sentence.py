"""SENTENCE for the unigram segmentation model: an utterance's words in one move.

The proposal q scores a word with the other utterances' counts held fixed,
    q(w) = (n_w + α₀P₀(w)) · K,   K = (c + ρ/2) / ((N + α₀)(N + ρ)),
c = E for the utterance's last word and N − E for the others, so a segmentation's q is a product
over its words and the forward algorithm sums over all 2^(L−1) segmentations of an utterance of
L symbols in O(L²) lookups. The exact probability uses the same predictive terms but updates
the counts after each word of the utterance.

Arithmetic. K takes two values per utterance and is worked out once. An utterance of at most
counts[LINEAR] symbols (every one in the standard corpora) runs the forward algorithm linearly:
each of its words has n_w + α₀P₀(w) ≥ LINEAR_MIN, so every forward sum lies between
LINEAR_MIN · K and 2^L, and a pair (i, j) costs one lookup and a multiply-add, no logs. A longer
utterance, or a tempered proposal, runs it in logs (``usm.log_word_weight``).
"""
import numpy as np

from engine.core.draw import draw_log_weights, draw_weights
from engine.core.jit import kernel
from engine.core.special import log_sum_exp
from engine.kernels import interface, sentence
from engine.core.jit import inline
from engine.models.usm.kernels.indexes import (add_word, count_of, file_boundary, is_boundary,
                                               remove_word, unfile_boundary)
from engine.models.usm.kernels.layout import (ALPHA0, BASE, ENDS, LINEAR, LOG_BASE, PARAMS, RHO,
                                              WORDS, implements)
from engine.models.usm.kernels.word_probability import log_word_weight
from engine.models.segmentation.sites import word_start

# the chain rule's running product is folded into its log once it falls below this: one word's
# probability is ≥ ~1e-150 on the linear path, so the product stays a normal number
FOLD_BELOW = 1e-100


@inline
def end_factors(state):
    """(K for a word inside the utterance, K for its last word) from the counts now in the
    state: (c + ρ/2) / ((N + α₀)(N + ρ)) with c = N − E, E.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    (float64, float64)
    """
    alpha0, rho = state.base[PARAMS, ALPHA0], state.base[PARAMS, RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    shared = 1.0 / ((n + alpha0) * (n + rho))
    return (n - ends + 0.5 * rho) * shared, (ends + 0.5 * rho) * shared


@inline
def times_predictive(state, x, e, k_word, prod, log_total):
    """The running (prod, log_total) of a chain of predictive probabilities times
    q(chars[x:e]) = (n_w + α₀P₀(w)) · k_word, with n_w from the state.

    Parameters
    ----------
    state : UsmState
    x, e : int
    k_word, prod, log_total : float64

    Returns
    -------
    (float64, float64)
    """
    length = e - x
    n_w = count_of(state, x, e)
    if n_w == 0 and length > state.counts[LINEAR]:
        log_total += state.base[LOG_BASE, length]
    else:
        k_word *= n_w + state.base[BASE, length]
    prod *= k_word
    if prod < FOLD_BELOW:
        log_total += np.log(prod)
        prod = 1.0
    return prod, log_total


@implements(interface.sentence_remove)
def _sentence_remove(rng, state, u):
    """interface.sentence_remove: words are removed last to first, so the terms are the chain
    rule's in corpus order.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Mutated.
    u : int

    Returns
    -------
    float
    """
    first, e = state.utt_start[u], state.utt_start[u + 1]
    prod, log_total = 1.0, 0.0
    while e > first:
        x = word_start(state.bound, e - 1)
        remove_word(state, x, e)
        k_word, k_last = end_factors(state)
        prod, log_total = times_predictive(state, x, e, k_last if state.final[e - 1] else k_word,
                                           prod, log_total)
        e = x
    return log_total + np.log(prod)


@implements(interface.sentence_restore)
def _sentence_restore(rng, state, u, values):
    """interface.sentence_restore by re-adding (sentence.restore_by_readding).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Mutated.
    u : int
    values : int64[≥ the utterance's sites]
    """
    sentence.restore_by_readding(rng, state, u, values)


@implements(interface.sentence_add)
def _sentence_add(rng, state, u, values):
    """interface.sentence_add: the boundaries set, then the words counted left to right.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Mutated.
    u : int
    values : int64[≥ the utterance's sites]

    Returns
    -------
    float
    """
    first, last = state.utt_start[u], state.utt_start[u + 1] - 1
    set_utterance_bounds(state, first, last, values)
    prod, log_total = 1.0, 0.0
    x = first
    for p in range(first, last + 1):
        if state.bound[p]:
            k_word, k_last = end_factors(state)
            prod, log_total = times_predictive(state, x, p + 1, k_last if p == last else k_word,
                                               prod, log_total)
            add_word(state, x, p + 1)
            x = p + 1
    return log_total + np.log(prod)


@kernel
def set_utterance_bounds(state, first, last, values):
    """bound[first + i] = values[i] for the utterance's sites first … last − 1, moving its
    boundaries in the boundary index (when anything changes: a proposal often keeps them).

    Parameters
    ----------
    state : UsmState
        Mutated.
    first, last : int
    values : int64[≥ last − first]
    """
    same = True
    for i in range(last - first):
        same = same and state.bound[first + i] == values[i]
    if same:
        return
    for q in range(first, last):
        if is_boundary(state, q):
            unfile_boundary(state, q)
    for i in range(last - first):
        state.bound[first + i] = values[i]
    for q in range(first, last):
        if is_boundary(state, q):
            file_boundary(state, q)


@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    """interface.sentence_work_size: 2 (L + 1), L the longest utterance.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    int
    """
    longest = 0
    for u in range(state.utt_start.shape[0] - 1):
        longest = max(longest, state.utt_start[u + 1] - state.utt_start[u])
    return 2 * (longest + 1)


@inline
def segmentation_log_q(state, first, length, inv_temp, values):
    """inv_temp · log q of the segmentation ``values`` of the utterance at first (a boundary
    after symbol first + i when values[i] = 1), the counts held fixed.

    Parameters
    ----------
    state : UsmState
    first, length : int
    inv_temp : float64
    values : int64[≥ length − 1]

    Returns
    -------
    float64
    """
    k_word, k_last = end_factors(state)
    prod, log_total = 1.0, 0.0
    x = 0
    for i in range(length):
        if i == length - 1 or values[i]:
            prod, log_total = times_predictive(state, first + x, first + i + 1,
                                               k_last if i == length - 1 else k_word,
                                               prod, log_total)
            x = i + 1
    return inv_temp * (log_total + np.log(prod))


@inline
def word_weights(state, first, j, linear, inv_temp, k, forward, weights):
    """weights[i] for i < j: the forward algorithm's terms for a word chars[first+i : first+j]
    ending at j, forward[i] · (n_w + α₀P₀(w)) (linear), or forward[i] + inv_temp · log of it
    (log space).

    Parameters
    ----------
    state : UsmState
    first, j : int
    linear : bool
    inv_temp : float64
    k : float64
        The words' shared factor K, or its inv_temp · log.
    forward : float64[≥ j]
    weights : float64[≥ j]
        Output.
    """
    for i in range(j):
        n_w = count_of(state, first + i, first + j)
        if linear:
            weights[i] = forward[i] * (n_w + state.base[BASE, j - i])
        else:
            weights[i] = forward[i] + k + inv_temp * log_word_weight(state, n_w, j - i)


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    """interface.sentence_proposal: the forward algorithm over the utterance's segmentations,
    then backward sampling; the work is forward[L + 1] | weights[L + 1].

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
    u : int
    inv_temp : float64
    old : int64[≥ L − 1]
    new : int64[≥ L − 1]
        Output.
    work : float64[sentence_work_size(state)]

    Returns
    -------
    (float, float)
        log q(new), log q(old).
    """
    first = state.utt_start[u]
    length = state.utt_start[u + 1] - first
    forward, weights = work[:length + 1], work[length + 1:]
    linear = inv_temp == 1.0 and length <= state.counts[LINEAR]
    k_word, k_last = end_factors(state)
    if not linear:
        k_word, k_last = inv_temp * np.log(k_word), inv_temp * np.log(k_last)
    # forward[j]: Σ over segmentations of the first j symbols of Π q(word)^inv_temp (or its log)
    forward[0] = 1.0 if linear else 0.0
    for j in range(1, length + 1):
        k = k_last if j == length else k_word
        word_weights(state, first, j, linear, inv_temp, k, forward, weights)
        if linear:
            total = 0.0
            for i in range(j):
                total += weights[i]
            forward[j] = total * k
        else:
            forward[j] = log_sum_exp(weights[:j])
    # backward: the last word's start given its end, then the word before it, …
    new[:length - 1] = 0
    j = length
    while j > 0:  # (the words ending at j share their K: any of the two draws the same)
        word_weights(state, first, j, linear, inv_temp, k_word, forward, weights)
        i = draw_weights(rng, weights, j) if linear else draw_log_weights(rng, weights, j)
        if i > 0:
            new[i - 1] = 1
        j = i
    log_z = np.log(forward[length]) if linear else forward[length]
    return (segmentation_log_q(state, first, length, inv_temp, new) - log_z,
            segmentation_log_q(state, first, length, inv_temp, old) - log_z)
