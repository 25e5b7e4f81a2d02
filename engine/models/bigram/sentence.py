"""SENTENCE for the HDP bigram segmentation model: an utterance's words, and their customers'
tables, in one Metropolis-Hastings move.

The proposal q holds the other utterances' counts fixed, so a word's probability depends on the
word before it only: q(w | w′) = (n⟨w′,w⟩ + α₁P₁(w)) / (n_w′ + α₁). The forward algorithm runs over
(end of the word, start of the word) pairs: α[j][i] sums q over the segmentations of the first j
symbols whose last word is chars[i:j]. For a word w′ with no tokens in the rest, q(w | w′) =
P₁(w) whatever w′ is, and for a word w with no tokens q(w | w′) = α₁P₁(w) / (n_w′ + α₁): so only
pairs of words the rest knows need a lookup, and the sum over the previous word's start is
one log-sum-exp per start i, shared by every j (``Forward``'s C_i).

The move proposes the words from q and their customers' tables from the restaurants'
sequential rule, and accepts against the exact joint of words and tables. The tables' proposal
cancels against their probability, leaving in the ratio each word's predictive probability
given the tables drawn before it: what sentence_remove and sentence_add return. A rejected
move is undone exactly (sentence_restore), tables included.
"""
import math

import numpy as np

from engine.core.draw import draw_log_weights
from engine.core.jit import kernel
from engine.core import seating as seats
from engine.kernels import interface
from engine.core.jit import inline
from engine.models.bigram.kernels.customers import (customer_arrives, customer_leaves,
                                                    customer_returns, customer_unarrives,
                                                    predictive)
from engine.models.bigram.kernels.layout import (ALL_TABLES, ALPHA0, ALPHA1, BASE, CUSTOMERS, END,
                                                 LOG_BASE, TABLES, WORD_AT, implements, seating_of)
from engine.models.bigram.kernels.lexicon import add_token, remove_token, word_id
from engine.models.bigram.kernels.neighbours import left_context
from engine.models.segmentation.sites import word_end, word_start

# rows of BigramState.journal
LEFT_SIZE, LEFT_TABLE, GOT_SIZE = range(3)


@implements(interface.sentence_remove)
def _sentence_remove(rng, state, u):
    """interface.sentence_remove: customers last to first (the end's `$`, then each word's), so
    the terms are the chain rule's in corpus order; the journal keeps, by position, what each
    left.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    u : int

    Returns
    -------
    float
    """
    first, stop = state.utt_start[u], state.utt_start[u + 1]
    t = state.chars.shape[0]
    m = count_words(state, first, stop)
    last = state.occ[WORD_AT, word_start(state.bound, stop - 1)]
    log_p = leave(rng, state, last, END, t + stop - 1, 0, m)
    e, i = stop, m - 1
    while e > first:
        x = word_start(state.bound, e - 1)
        log_p += leave(rng, state, left_context(state, x), state.occ[WORD_AT, x], x, e - x, i)
        e, i = x, i - 1
    remove_tokens(state, first, stop)
    return log_p


@inline
def leave(rng, state, r, w, c, length, i):
    """Customer c (i-th of its utterance) leaves, its table and size journalled.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    r, w, c, length, i : int

    Returns
    -------
    float64
        The log of its predictive probability given the customers left before it.
    """
    state.journal[LEFT_TABLE, i] = seats.table_of(seating_of(state), c)
    state.journal[LEFT_SIZE, i] = customer_leaves(rng, state, r, w, c)
    return predictive(state, r, w, length)


@kernel
def count_words(state, first, stop):
    """The words of the utterance's span [first, stop).

    Parameters
    ----------
    state : BigramState
    first, stop : int

    Returns
    -------
    int
    """
    m = 0
    for x in range(first, stop):
        m += state.bound[x]
    return m


@kernel
def remove_tokens(state, first, stop):
    """Uncount the word tokens of [first, stop).

    Parameters
    ----------
    state : BigramState
        Mutated.
    first, stop : int
    """
    x = first
    while x < stop:
        e = word_end(state.bound, x)
        remove_token(state, x, e)
        x = e


@kernel
def add_tokens(state, first, stop):
    """Count the word tokens of [first, stop) (their customers are the caller's).

    Parameters
    ----------
    state : BigramState
        Mutated.
    first, stop : int
    """
    x = first
    while x < stop:
        e = word_end(state.bound, x)
        add_token(state, x, e)
        x = e


@inline
def set_bounds(state, first, stop, values):
    """bound of the utterance's sites = values.

    Parameters
    ----------
    state : BigramState
        Mutated.
    first, stop : int
    values : int64[≥ stop − first − 1]
    """
    for i in range(stop - 1 - first):
        state.bound[first + i] = values[i]


@implements(interface.sentence_add)
def _sentence_add(rng, state, u, values):
    """interface.sentence_add: the tokens counted, then each customer seated in order by the
    restaurant's rule, the sizes it got journalled.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    u : int
    values : int64[≥ the utterance's sites]

    Returns
    -------
    float
    """
    first, stop = state.utt_start[u], state.utt_start[u + 1]
    t = state.chars.shape[0]
    set_bounds(state, first, stop, values)
    add_tokens(state, first, stop)
    log_p, x, i = 0.0, first, 0
    while x < stop:
        e = word_end(state.bound, x)
        r, w = left_context(state, x), state.occ[WORD_AT, x]
        log_p += predictive(state, r, w, e - x)
        state.journal[GOT_SIZE, i] = customer_arrives(rng, state, r, w, x, -1)
        if e == stop:
            log_p += predictive(state, w, END, 0)
            state.journal[GOT_SIZE, i + 1] = customer_arrives(rng, state, w, END, t + e - 1, -1)
        x, i = e, i + 1
    return log_p


@implements(interface.sentence_restore)
def _sentence_restore(rng, state, u, values):
    """interface.sentence_restore: the proposal's customers away, last first, each from the
    table it got; then the old analysis back, first customer first, each to the table it left.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    u : int
    values : int64[≥ the utterance's sites]
    """
    first, stop = state.utt_start[u], state.utt_start[u + 1]
    t = state.chars.shape[0]
    # the proposal's customers away, last first, each from the table it got
    m = count_words(state, first, stop)
    last = state.occ[WORD_AT, word_start(state.bound, stop - 1)]
    customer_unarrives(state, last, END, t + stop - 1, state.journal[GOT_SIZE, m])
    e, i = stop, m - 1
    while e > first:
        x = word_start(state.bound, e - 1)
        customer_unarrives(state, left_context(state, x), state.occ[WORD_AT, x], x,
                           state.journal[GOT_SIZE, i])
        e, i = x, i - 1
    remove_tokens(state, first, stop)
    # the old analysis back, first customer first, each to the table it left
    set_bounds(state, first, stop, values)
    add_tokens(state, first, stop)
    x, i = first, 0
    while x < stop:
        e = word_end(state.bound, x)
        w = state.occ[WORD_AT, x]
        customer_returns(state, left_context(state, x), w, x, state.journal[LEFT_SIZE, i],
                         state.journal[LEFT_TABLE, i])
        if e == stop:
            customer_returns(state, w, END, t + e - 1, state.journal[LEFT_SIZE, i + 1],
                             state.journal[LEFT_TABLE, i + 1])
        x, i = e, i + 1


# --- the proposal ---------------------------------------------------------------------------------
@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    """interface.sentence_work_size: 2 (L + 1)² + 2 (L + 1), L the longest utterance.

    Parameters
    ----------
    state : BigramState

    Returns
    -------
    int
    """
    longest = 0
    for u in range(state.utt_start.shape[0] - 1):
        longest = max(longest, state.utt_start[u + 1] - state.utt_start[u])
    return 2 * (longest + 1) ** 2 + 2 * (longest + 1)


@inline
def log_p1(state, w, length):
    """log P₁(w).

    Parameters
    ----------
    state : BigramState
    w : int
        Id, −1 for a word with no tokens.
    length : int

    Returns
    -------
    float64
    """
    tables = state.word[w, TABLES] if w >= 0 else 0
    log_den = math.log(state.counts[ALL_TABLES] + state.params[ALPHA0])
    if tables == 0:
        return state.base[LOG_BASE, length] - log_den
    return math.log(tables + state.base[BASE, length]) - log_den


@inline
def log_q(state, r, w, length):
    """log q(w | r) with the counts as they are.

    Parameters
    ----------
    state : BigramState
    r, w : int
        Ids, −1 for words with no tokens.
    length : int

    Returns
    -------
    float64
    """
    if r < 0:
        return log_p1(state, w, length)
    return predictive(state, r, w, length)


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    """interface.sentence_proposal: the forward algorithm over (end, start) pairs, then backward
    sampling. The work is ids[(L+1)²] | alpha[(L+1)²] (alpha[j·side + i]) | C_i[L + 1] |
    weights[L + 1].

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
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
    side = length + 1
    ids = work[:side * side]  # ids[i·side + j]: the id of chars[first+i : first+j], or −1
    alpha = work[side * side:2 * side * side]  # alpha[j·side + i]
    shared = work[2 * side * side:2 * side * side + side]  # C_i
    weights = work[2 * side * side + side:2 * side * side + 2 * side]
    for i in range(length):
        for j in range(i + 1, side):
            ids[i * side + j] = word_id(state, first + i, first + j)
    for j in range(1, side):
        if j > 1:
            shared[j - 1] = shared_sum(state, alpha, ids, side, j - 1, inv_temp, weights)
        for i in range(j):
            w = np.int64(ids[i * side + j])
            if i == 0:
                alpha[j * side] = inv_temp * predictive(state, END, w, j)
            elif w < 0:
                alpha[j * side + i] = inv_temp * log_p1(state, w, j - i) + shared[i]
            else:
                alpha[j * side + i] = known_word_sum(state, alpha, ids, side, i, j, w,
                                                     inv_temp, weights)
    # the end: Z = Σ_i α[L][i] q(`$` | chars[i:L])
    for i in range(length):
        weights[i] = alpha[length * side + i] + inv_temp * log_q(
            state, np.int64(ids[i * side + length]), END, 0)
    log_z = log_sum(weights, length)
    # backward: the last word's start, then the start of the word before each
    new[:length - 1] = 0
    i = draw_log_weights(rng, weights, length)
    j = length
    while i > 0:
        new[i - 1] = 1
        w = np.int64(ids[i * side + j])
        for k in range(i):
            weights[k] = alpha[i * side + k] + inv_temp * log_q(
                state, np.int64(ids[k * side + i]), w, j - i)
        i, j = draw_log_weights(rng, weights, i), i
    return (segmentation_log_q(state, ids, side, length, inv_temp, new) - log_z,
            segmentation_log_q(state, ids, side, length, inv_temp, old) - log_z)


@inline
def shared_sum(state, alpha, ids, side, i, inv_temp, weights):
    """C_i = log Σ_k exp(α[i][k]) (α₁ / (n_w′ + α₁))^β over the words w′ = chars[k:i] (n_w′ =
    0 for a word with no tokens): then α[j][i] = β log P₁(w) + C_i for any word w = chars[i:j]
    with no tokens.

    Parameters
    ----------
    state : BigramState
    alpha : float64[≥ (L + 1)²]
    ids : float64[≥ (L + 1)²]
        ids[i·side + j]: the id of chars[first+i : first+j], or −1.
    side : int
        L + 1.
    i : int
    inv_temp : float64
    weights : float64[≥ i]
        Work.

    Returns
    -------
    float64
    """
    alpha1 = state.params[ALPHA1]
    for k in range(i):
        r = np.int64(ids[k * side + i])
        weights[k] = alpha[i * side + k]
        if r >= 0:
            weights[k] += inv_temp * math.log(alpha1 / (state.word[r, CUSTOMERS] + alpha1))
    return log_sum(weights, i)


@inline
def known_word_sum(state, alpha, ids, side, i, j, w, inv_temp, weights):
    """α[j][i] for a word w = chars[i:j] with tokens: log Σ_k exp(α[i][k]) q(w | chars[k:i])^β.

    Parameters
    ----------
    state : BigramState
    alpha : float64[≥ (L + 1)²]
    ids : float64[≥ (L + 1)²]
        ids[i·side + j]: the id of chars[first+i : first+j], or −1.
    side : int
        L + 1.
    i, j, w : int
    inv_temp : float64
    weights : float64[≥ i]
        Work.

    Returns
    -------
    float64
    """
    for k in range(i):
        weights[k] = alpha[i * side + k] + inv_temp * log_q(state, np.int64(ids[k * side + i]),
                                                            w, j - i)
    return log_sum(weights, i)


@inline
def log_sum(x, n):
    """log Σ exp(x[:n]).

    Parameters
    ----------
    x : float64[≥ n]
    n : int

    Returns
    -------
    float64
    """
    top = -np.inf
    for k in range(n):
        top = max(top, x[k])
    total = 0.0
    for k in range(n):
        total += math.exp(x[k] - top)
    return top + math.log(total)


@inline
def segmentation_log_q(state, ids, side, length, inv_temp, values):
    """β log q of the segmentation ``values`` of the utterance (counts fixed).

    Parameters
    ----------
    state : BigramState
    ids : float64[≥ (L + 1)²]
        ids[i·side + j]: the id of chars[first+i : first+j], or −1.
    side : int
        L + 1.
    length : int
    inv_temp : float64
    values : int64[≥ length − 1]

    Returns
    -------
    float64
    """
    total, previous, x = 0.0, np.int64(END), 0
    for i in range(length):
        if i == length - 1 or values[i]:
            w = np.int64(ids[x * side + i + 1])
            total += log_q(state, previous, w, i + 1 - x)
            previous, x = w, i + 1
    return inv_temp * (total + log_q(state, previous, END, 0))
