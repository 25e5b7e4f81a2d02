"""TYPE's side of the interface (§4.4): a pivot's block — the sites of its type, found from the
lexicon (b = 0) and the boundary index (b = 1) — the sites it conflicts with, the order pivots
are visited in, and the block's change in counts.
"""
import numpy as np

from engine.core.prefetch import prefetch
from engine.core.jit import inline
from engine.kernels import interface
from engine.models.segmentation.sites import same_halves, site_span
from engine.models.usm.kernels.layout import (ALPHA0, BLOCK_JOIN, BLOCK_LEFT, BLOCK_RIGHT, ENDS,
    HEAD, LEXICON, OCC_NEXT, PAIRS, PAIR_NEXT, PARAMS, RHO, WORDS, implements)
from engine.models.usm.kernels.indexes import find_pair
from engine.models.usm.kernels.word_probability import word_term
from engine.models.usm.kernels.site_moves import block_words, word_count


@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: True: a sweep's pivots in site order (Fig. 4's loop over the
    sites), which reads the corpus's arrays in order as TOKEN does. On br-phono a TYPE sweep
    took 33 ms against 40 in a random order (the medians of five fresh processes each, taken
    in turn; Intel Xeon, 2026-11-29), and a sweep took the chain as far or further (the mean
    log p of eight chains after 10, 50, 100 and 200 sweeps from η = 0.1, 0.5 and 0.9 was higher
    at each; after 50, by less than the chains' spread). TYPE-greedy then draws nothing: from
    one start its chains agree.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    bool
    """
    return True


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: a removed word covers p or p + 1 exactly when s depends on it.

    Parameters
    ----------
    state : UsmState
    s : int

    Returns
    -------
    bool
    """
    p = state.site_pos[s]
    return state.removed[p] != 0 or state.removed[p + 1] != 0


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates: t(z, s) = (w1, w2, whether w2 ends its utterance), where
    w = w1w2 is the word when b_s = 0: the split point |w1| inside each occurrence of the word
    w with the end flag, and the list of the type in the boundary index. In list order, not
    sorted: moves.gather_block sorts them in the rare case where the order matters (a
    conflict), and sorting the large blocks of frequent types cost a tenth of a TYPE sweep.

    Parameters
    ----------
    state : UsmState
    s0 : int
    out : int64[n_sites]
        Output.

    Returns
    -------
    int
    """
    a, p, e = site_span(state, s0)
    len1, length = p + 1 - a, e - a
    final = state.final[e - 1]
    k = 0
    slot = block_words(state, a, p, e)
    if slot >= 0:
        x = state.tables[LEXICON + HEAD, slot]
        while x >= 0:
            if state.final[x + length - 1] == final:
                out[k] = candidate(state, x + len1 - 1)
                k += 1
            x = state.links[OCC_NEXT, x]
    slot = find_pair(state, a, p, e)
    if slot >= 0:
        q = state.tables[PAIRS + HEAD, slot]
        while q >= 0:
            out[k] = candidate(state, q)
            k += 1
            q = state.links[PAIR_NEXT, q]
    return k


@inline
def candidate(state, q):
    """The site after symbol q, a candidate of the block gathered, with the lines its move will
    read asked for now (``prefetch``): conflicts, remove_site and add_site read its symbol and
    the marks around it, in a corpus-wide scatter that would otherwise wait on memory site by
    site.

    Parameters
    ----------
    state : UsmState
    q : int

    Returns
    -------
    int64
    """
    s = state.site_of[q]
    prefetch(state.site_pos, s)
    prefetch(state.bound, q)
    prefetch(state.removed, q)
    return np.int64(s)


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 9 for the block: words w (joined, v = 0), w1 and w2 (split,
    v = 1); the words' denominator; the end flags of the last word and of w1 (never final);
    their denominator.

    Parameters
    ----------
    state : UsmState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 8]
        Output.

    Returns
    -------
    int
        The number of terms.
    """
    a, p, e = site_span(state, s0)
    alpha0, rho = state.base[PARAMS, ALPHA0], state.base[PARAMS, RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    len1, len2 = p + 1 - a, e - p - 1
    n_left = word_count(state, BLOCK_LEFT, a, p + 1)  # the block's slots (block_candidates)
    j = 0
    base[j], d0[j], d1[j], sign[j] = (word_term(state, word_count(state, BLOCK_JOIN, a, e), e - a),
                                      1, 0, 1.0)
    j += 1
    if same_halves(state, a, p, e):
        base[j], d0[j], d1[j], sign[j] = word_term(state, n_left, len1), 0, 2, 1.0
        j += 1
    else:
        base[j], d0[j], d1[j], sign[j] = word_term(state, n_left, len1), 0, 1, 1.0
        base[j + 1], d0[j + 1], d1[j + 1], sign[j + 1] = (
            word_term(state, word_count(state, BLOCK_RIGHT, p + 1, e), len2), 0, 1, 1.0)
        j += 2
    base[j], d0[j], d1[j], sign[j] = alpha0 + n, 1, 2, -1.0
    j += 1
    if state.final[e - 1]:
        base[j], d0[j], d1[j], sign[j] = 0.5 * rho + ends, 1, 1, 1.0
        base[j + 1], d0[j + 1], d1[j + 1], sign[j + 1] = 0.5 * rho + n - ends, 0, 1, 1.0
        j += 2
    else:
        base[j], d0[j], d1[j], sign[j] = 0.5 * rho + n - ends, 1, 2, 1.0
        j += 1
    base[j], d0[j], d1[j], sign[j] = rho + n, 1, 2, -1.0
    return j + 1
