"""Building the seating from a segmentation (``seat_corpus``), its log-probability in corpus
order (``log_likelihood``), and the Gibbs sweep over the seating alone (``reseat_sweep``).
"""
import math

from engine.core import seating as seats
from engine.core.jit import kernel
from engine.core.special import log_rising
from engine.models.segmentation.sites import word_end, word_start
from engine.models.bigram.kernels.layout import (ALL_TABLES, ALPHA0, ALPHA1, BASE, CUSTOMERS, END,
    LENGTH, LOG_BASE, TABLES, TOKENS, WORD_AT, seating_of)
from engine.models.bigram.kernels.lexicon import add_token
from engine.models.bigram.kernels.customers import customer_arrives, customer_leaves
from engine.models.bigram.kernels.neighbours import left_context


@kernel
def seat_corpus(rng, state):
    """Count every word of the segmentation ``bound`` and seat its customers in corpus order,
    each by the restaurant's rule (sequential seating).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    """
    t = state.chars.shape[0]
    for x in range(t):
        if state.bound[x]:
            add_token(state, word_start(state.bound, x), x + 1)
    x = 0
    while x < t:
        e = word_end(state.bound, x)
        w = state.occ[WORD_AT, x]
        customer_arrives(rng, state, left_context(state, x), w, x, -1)
        if state.final[e - 1]:
            customer_arrives(rng, state, w, END, t + e - 1, -1)
        x = e


@kernel
def log_likelihood(state):
    """log P(segmentation, seating) from the running counts: per restaurant r, n_r customers and
    T_r tables, T_r log α₁ − log α₁^(n_r); per table, log (n_k − 1)!; and the unigram level's
    Pólya urn over the tables' labels, Σ_w log (α₀P₀(w))^(t_w) − log α₀^(t).

    Parameters
    ----------
    state : BigramState

    Returns
    -------
    float64
    """
    alpha0, alpha1 = state.params[ALPHA0], state.params[ALPHA1]
    seating = seating_of(state)
    total = -(math.lgamma(alpha0 + state.counts[ALL_TABLES]) - math.lgamma(alpha0))
    total += state.counts[ALL_TABLES] * math.log(alpha1)
    for w in range(state.word.shape[0]):
        if w == END or state.word[w, TOKENS] > 0:
            n_r = state.word[w, CUSTOMERS]
            total -= math.lgamma(alpha1 + n_r) - math.lgamma(alpha1)
            tables = state.word[w, TABLES]
            if tables:
                base = state.base[BASE, state.word[w, LENGTH]]
                if base > 0.0:
                    total += log_rising(base, tables)
                else:  # α₀P₀ underflows: b (b + 1) … (b + t − 1) → b (t − 1)!
                    total += state.base[LOG_BASE, state.word[w, LENGTH]] + math.lgamma(tables)
    for g in range(state.pair_info.shape[0]):
        if state.seat_group[g, seats.CUSTOMERS] > 0:
            total += seats.log_tables_term(seating, g)
    return total


@kernel
def reseat_sweep(rng, state):
    """Every customer in corpus order leaves and comes back with the segmentation fixed: a
    Gibbs sweep over the seating alone (the note's Fig. 2, circles).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    """
    t = state.chars.shape[0]
    x = 0
    while x < t:
        e = word_end(state.bound, x)
        w = state.occ[WORD_AT, x]
        left = left_context(state, x)
        customer_leaves(rng, state, left, w, x)
        customer_arrives(rng, state, left, w, x, -1)
        if state.final[e - 1]:
            customer_leaves(rng, state, w, END, t + e - 1)
            customer_arrives(rng, state, w, END, t + e - 1, -1)
        x = e
