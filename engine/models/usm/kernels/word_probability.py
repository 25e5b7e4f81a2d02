"""Word probabilities of any length: α₀P₀(w) in linear arithmetic for words of at most
counts[LINEAR] symbols and in logs beyond, the predictive terms n_w + α₀P₀(w), and the split
weights of a site (its two words against the one they would join into).
"""
import numpy as np

from engine.core.jit import inline, kernel
from engine.core.special import log_rising
from engine.models.segmentation.sites import site_span
from engine.models.usm.kernels.layout import ALPHA0, BASE, BLOCK_LEN1, LINEAR, LOG_BASE, PARAMS, RHO
from engine.models.usm.kernels.indexes import add_word, count_word, flip, remove_word


@inline
def log_word_weight(state, n_w, length):
    """log (n_w + α₀P₀(w)) for a word of ``length`` symbols, exact where α₀P₀ underflows (next
    to a count ≥ 1 it vanishes; alone it is its log).

    Parameters
    ----------
    state : UsmState
    n_w, length : int

    Returns
    -------
    float64
    """
    tiny = n_w == 0 and length > state.counts[LINEAR]
    return state.base[LOG_BASE, length] if tiny else np.log(n_w + state.base[BASE, length])


@inline
def word_term(state, n_w, length):
    """base[j] of block_delta for a word's term n_w + α₀P₀(w): its value, or — too small for
    linear arithmetic — its log, a negative number (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : UsmState
    n_w, length : int

    Returns
    -------
    float64
    """
    tiny = n_w == 0 and length > state.counts[LINEAR]
    return state.base[LOG_BASE, length] if tiny else n_w + state.base[BASE, length]


@inline
def log_rising_word(state, length, n_w):
    """log (α₀P₀(w))^(n_w) for a word of ``length`` symbols.

    Parameters
    ----------
    state : UsmState
    length, n_w : int

    Returns
    -------
    float64
    """
    if length <= state.counts[LINEAR]:
        total = log_rising(state.base[BASE, length], n_w)
    else:  # b (b + 1) … (b + n_w − 1) with b < LINEAR_MIN: b next to 1 … n_w − 1 vanishes
        total = state.base[LOG_BASE, length] + log_rising(1.0, n_w - 1)
    return total


@inline
def split_weights(state, len1, len2, last_is_final, same, n_join, n_left, n_right, n, ends, w):
    """w[0], w[1] ∝ p(b_s = 0 / 1 | rest) for a site between words w1 and w2 of len1 and len2
    symbols (w = w1w2 when b_s = 0), given the counts without the site's own words.

    eq. 4 with the shared factor 1 / ((N + α₀)(N + ρ)) cancelled:
      b = 0 adds w:        (n_w + α₀P₀(w)) (c + ρ/2) (N + 1 + α₀) (N + 1 + ρ)
      b = 1 adds w1, w2:   (n_1 + α₀P₀(w1)) (n_2 + [w1 = w2] + α₀P₀(w2)) (N − E + ρ/2) (c' + ρ/2)
    where c, c' count the end flags like the last word's (E if it ends the utterance, else the
    words that do not, w1's included for c'). Linear — no logs — unless w is too long for it.

    Parameters
    ----------
    state : UsmState
    len1, len2 : int
    last_is_final : uint8
        Whether w2 ends its utterance.
    same : int
        1 when w1 = w2.
    n_join, n_left, n_right : int
        The counts of w, w1, w2.
    n, ends : int
        N and E.
    w : float64[≥ 2]
        Output.
    """
    alpha0, half_rho = state.base[PARAMS, ALPHA0], 0.5 * state.base[PARAMS, RHO]
    c_join = ends if last_is_final else n - ends
    c_split = ends if last_is_final else n - ends + 1
    length = len1 + len2
    if length <= state.counts[LINEAR]:  # so are w1 and w2: α₀P₀ falls with the length
        w[0] = ((n_join + state.base[BASE, length]) * (c_join + half_rho)
                * ((n + 1 + alpha0) * (n + 1 + 2.0 * half_rho)))
        w[1] = ((n_left + state.base[BASE, len1]) * (n_right + same + state.base[BASE, len2])
                * ((n - ends + half_rho) * (c_split + half_rho)))
    else:
        split_log_weights(state, len1, len2, c_join, c_split, n_join, n_left, n_right + same,
                          n, ends, w)


@kernel
def split_log_weights(state, len1, len2, c_join, c_split, n_join, n_left, n_right, n, ends, w):
    """split_weights' terms in logs, for a word w too long for linear arithmetic.

    Parameters
    ----------
    state : UsmState
    len1, len2, c_join, c_split, n_join, n_left, n_right, n, ends : int
        As split_weights' (n_right includes [w1 = w2]; c_join, c_split its c and c').
    w : float64[≥ 2]
        Output, scaled so that the larger is 1.
    """
    alpha0, half_rho = state.base[PARAMS, ALPHA0], 0.5 * state.base[PARAMS, RHO]
    join = (log_word_weight(state, n_join, len1 + len2) + np.log(c_join + half_rho)
            + np.log(n + 1 + alpha0) + np.log(n + 1 + 2.0 * half_rho))
    split = (log_word_weight(state, n_left, len1) + log_word_weight(state, n_right, len2)
             + np.log(n - ends + half_rho) + np.log(c_split + half_rho))
    top = max(join, split)
    w[0] = np.exp(join - top)
    w[1] = np.exp(split - top)


@inline
def count_words(state, a, p, e, delta):
    """Count the current words of the site spanning chars[a:e] in (delta = 1) or out (−1),
    leaving them on their lists.

    Parameters
    ----------
    state : UsmState
        Mutated.
    a, p, e, delta : int
    """
    if state.bound[p]:
        count_word(state, a, p + 1, delta)
        count_word(state, p + 1, e, delta)
    else:
        count_word(state, a, e, delta)


@kernel  # not inlined: only a changed site calls it, and inlined it doubled the compile time
def replace_words(state, s, v):
    """Set b_s = v ≠ b_s: the site's words leave the lexicon and those of v join it.

    Parameters
    ----------
    state : UsmState
        Mutated.
    s, v : int
    """
    a, p, e = site_span(state, s)
    state.counts[BLOCK_LEN1] = 0  # the lexicon's entries may move: the block's slots are stale
    if v:
        remove_word(state, a, e)
    else:
        remove_word(state, a, p + 1)
        remove_word(state, p + 1, e)
    flip(state, p, v)
    if v:
        add_word(state, a, p + 1)
        add_word(state, p + 1, e)
    else:
        add_word(state, a, e)
