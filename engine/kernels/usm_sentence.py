"""SENTENCE for the unigram segmentation model: an utterance's words in one move.

The proposal q scores a word with the other utterances' counts held fixed,
    q(w) = (n_w + α₀P₀(w)) / (N + α₀) · (c + ρ/2) / (N + ρ),
c = E for the utterance's last word and N − E for the others, so a segmentation's q is a product
over its words and the forward algorithm sums over all 2^(L−1) segmentations of an utterance of
L symbols in O(L²) lookups. The exact probability uses the same predictive terms but updates
the counts after each word of the utterance.
"""
import numpy as np

from engine.core.draw import draw_log_weights
from engine.core.jit import kernel
from engine.core.special import log_sum_exp
from engine.kernels import interface
from engine.kernels.usm import (ALPHA0, ENDS, RHO, WORDS, add_word, count_in, implements,
                                lex_find, remove_word)


@kernel
def log_predictive(state, x, e):
    """log p(next word = chars[x:e] with its end flag | the counts now in the state)."""
    alpha0, rho = state.params[ALPHA0], state.params[RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    n_w = count_in(state.lex_count, lex_find(state, x, e))
    c = ends if state.final[e - 1] else n - ends
    return (np.log(n_w + state.base[e - x]) - np.log(n + alpha0)
            + np.log(c + 0.5 * rho) - np.log(n + rho))


@implements(interface.n_sentences)
def _n_sentences(state):
    return state.utt_start.shape[0] - 1


@implements(interface.sentence_sites)
def _sentence_sites(state, u):
    # every utterance before u has one symbol (its last) without a site
    return state.utt_start[u] - u, state.utt_start[u + 1] - 1 - u


@implements(interface.sentence_remove)
def _sentence_remove(state, u):
    # words are removed last to first, so the terms are the chain rule's in corpus order
    first, e = state.utt_start[u], state.utt_start[u + 1]
    total = 0.0
    while e > first:
        x = e - 1
        while x > first and state.bound[x - 1] == 0:
            x -= 1
        remove_word(state, x, e)
        total += log_predictive(state, x, e)
        e = x
    return total


@implements(interface.sentence_add)
def _sentence_add(state, u, values):
    first, last = state.utt_start[u], state.utt_start[u + 1] - 1
    for i in range(last - first):
        state.bound[first + i] = values[i]
    total = 0.0
    x = first
    for p in range(first, last + 1):
        if state.bound[p]:
            total += log_predictive(state, x, p + 1)
            add_word(state, x, p + 1)
            x = p + 1
    return total


@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    longest = 0
    for u in range(state.utt_start.shape[0] - 1):
        longest = max(longest, state.utt_start[u + 1] - state.utt_start[u])
    return 2 * (longest + 1)


@kernel
def segmentation_log_q(state, first, length, inv_temp, values):
    """Σ over the words of ``values`` (boundary after symbol first + i when values[i] = 1) of
    inv_temp · log q(word)."""
    total = 0.0
    x = 0
    for i in range(length):
        if i == length - 1 or values[i]:
            total += inv_temp * log_predictive(state, first + x, first + i + 1)
            x = i + 1
    return total


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    first = state.utt_start[u]
    length = state.utt_start[u + 1] - first
    forward, weights = work[:length + 1], work[length + 1:]
    # forward[j]: log Σ over segmentations of the first j symbols of Π q(word)^inv_temp
    forward[0] = 0.0
    for j in range(1, length + 1):
        for i in range(j):
            weights[i] = forward[i] + inv_temp * log_predictive(state, first + i, first + j)
        forward[j] = log_sum_exp(weights[:j])
    # backward: the last word's start given its end, then the word before it, …
    new[:length - 1] = 0
    j = length
    while j > 0:
        for i in range(j):
            weights[i] = forward[i] + inv_temp * log_predictive(state, first + i, first + j)
        i = draw_log_weights(rng, weights, j)
        if i > 0:
            new[i - 1] = 1
        j = i
    log_z = forward[length]
    return (segmentation_log_q(state, first, length, inv_temp, new) - log_z,
            segmentation_log_q(state, first, length, inv_temp, old) - log_z)
