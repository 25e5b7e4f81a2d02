"""TYPE's side of the interface (§4.2): the order pivots are visited in, the sites a pivot
conflicts with (a token beside one of its own type), its block from the type index, and the
block's change in counts.
"""
import numpy as np

from engine.core import hash_table
from engine.core.jit import kernel
from engine.core.sort import sort_prefix
from engine.kernels import interface
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT, implements
from engine.models.hmm.kernels.neighbours import build_type_index, next_state, prev_state, site_type


@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: False, a fresh random order each sweep.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    bool
    """
    return False


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: a token shares a transition with each neighbour in its sentence.

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    bool
    """
    if state.removed[s]:
        return True
    if not state.first[s] and state.removed[s - 1]:
        return True
    return not state.last[s] and state.removed[s + 1] != 0


@kernel
def beside_same_word(state, s):
    """Whether token s has a neighbour in its sentence with the same word (as in "very very").

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    bool
    """
    w = state.words[s]
    return ((not state.first[s] and state.words[s - 1] == w)
            or (not state.last[s] and state.words[s + 1] == w))


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates, sorted. A token next to the same word is left out (the pivot
    excepted): when its neighbour is in the block and changes state, its own type (p, n, word)
    can become the pivot's, so it would join TB(z′, s0) and push that neighbour out — the block
    would not be stable (§4.4, criterion B) and TYPE would not leave the posterior invariant
    (the exact test on "a a a b / a a" fails without this). Only tokens of the pivot's word can
    become its type, so no other token's candidacy can change.

    Parameters
    ----------
    state : HmmState
    s0 : int
    out : int64[N]
        Output.

    Returns
    -------
    int
    """
    if not state.typed[0]:
        build_type_index(state)
    slot = hash_table.find(state.slot_key, site_type(state, s0))
    k = 0
    x = state.slot_head[slot]
    while x >= 0:
        if x == s0 or not beside_same_word(state, x):
            out[k] = x
            k += 1
        x = state.site_next[x]
    sort_prefix(out, k)
    return k


# kinds of count a block site adds to (eq. 9 terms): cells are +, row totals −
TRANS_CELL, TRANS_ROW, EMIT_CELL, EMIT_ROW = 0, 1, 2, 3


KEY_BASE = 100_003  # > K + 1 and > V: (kind, row, col) packs into one key, exact in a float64


@kernel
def add_term(keys, d0, d1, n_terms, kind, row, col, value_is_v1):
    """Count one increment of (kind, row, col) for a site of value v0 or v1, merging equal
    keys (a row shared by a transition in and a transition out is one restaurant).

    Parameters
    ----------
    keys : float64[≥ n_terms + 1]
        The terms' packed keys (integers below 2⁵³, so exact); mutated.
    d0, d1 : float64[≥ n_terms + 1]
        The terms' increments per site of value v0, v1; mutated.
    n_terms : int
    kind, row, col : int
    value_is_v1 : bool

    Returns
    -------
    int
        The number of terms now.
    """
    key = float((kind * KEY_BASE + row) * KEY_BASE + col)
    for j in range(n_terms):
        if keys[j] == key:
            if value_is_v1:
                d1[j] += 1
            else:
                d0[j] += 1
            return n_terms
    keys[n_terms] = key
    d0[n_terms] = 0 if value_is_v1 else 1
    d1[n_terms] = 1 if value_is_v1 else 0
    return n_terms + 1


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: every block site has s0's type (p, n, word): a site in state k adds
    p → k, k → n and k emits word; the rows p and k gain one transition each and row k one
    emission.

    Parameters
    ----------
    state : HmmState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 12]
        Output (base holds the packed keys of ``add_term`` until the bases are written).

    Returns
    -------
    int
    """
    p, n, word = prev_state(state, s0), next_state(state, s0), state.words[s0]
    keys = base  # holds each term's packed key until its base is written below
    n_terms = 0
    for value_is_v1 in (False, True):
        k = (v1 if value_is_v1 else v0) + 1
        n_terms = add_term(keys, d0, d1, n_terms, TRANS_CELL, p, k, value_is_v1)
        n_terms = add_term(keys, d0, d1, n_terms, TRANS_CELL, k, n, value_is_v1)
        n_terms = add_term(keys, d0, d1, n_terms, TRANS_ROW, p, 0, value_is_v1)
        n_terms = add_term(keys, d0, d1, n_terms, TRANS_ROW, k, 0, value_is_v1)
        n_terms = add_term(keys, d0, d1, n_terms, EMIT_CELL, k, word, value_is_v1)
        n_terms = add_term(keys, d0, d1, n_terms, EMIT_ROW, k, 0, value_is_v1)
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    k1, v_size = state.trans.shape[0], state.emit.shape[1]
    for j in range(n_terms):
        key = np.int64(keys[j])
        col = key % KEY_BASE
        row = (key // KEY_BASE) % KEY_BASE
        kind = key // (KEY_BASE * KEY_BASE)
        if kind == TRANS_CELL:
            base[j], sign[j] = alpha + state.trans[row, col], 1.0
        elif kind == TRANS_ROW:
            base[j], sign[j] = k1 * alpha + state.trans_total[row], -1.0
        elif kind == EMIT_CELL:
            base[j], sign[j] = alpha_emit + state.emit[row, col], 1.0
        else:
            base[j], sign[j] = v_size * alpha_emit + state.emit_total[row], -1.0
    return n_terms
