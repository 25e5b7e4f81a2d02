"""The Bayesian HMM of Liang et al. §3 / Gao & Johnson §2 behind the model interface.

States 1 … K tag the tokens; state 0 is the boundary that starts and ends every sentence and
emits nothing. Every state's transitions (over the K + 1 outcomes 0 … K) have a symmetric
Dirichlet(α) prior; states 1 … K emit word types under a symmetric Dirichlet(α′). Collapsed,
p(z, w) is eq. 3 with one restaurant per transition row and per emission row.

Sites are tokens; a site's value v = 0 … K − 1 is state v + 1. A site's type is (previous
state, next state, word) (§4.2); the type → sites index is a hash table of doubly-linked lists
(engine.core.keyed_lists) updated in O(1) when a state changes: only the two neighbours'
types depend on it.
"""
from collections import namedtuple

import numpy as np

from engine.core import keyed_lists
from engine.core.jit import kernel
from engine.core.sort import sort_prefix
from engine.core.special import log_rising
from engine.kernels import interface
from engine.kernels.interface import for_state

HmmState = namedtuple("HmmState", [
    "words", "tag", "first", "last", "sent_start", "params", "trans", "trans_total", "emit", "emit_total",
    "removed", "slot_key", "slot_head", "slot_size", "site_next", "site_prev"])
HmmState.__doc__ = """State of the HMM (N tokens, K states, V word types, a type table of C slots).

words : int64[N]          word type of each token, sentences concatenated
tag : int64[N]            its state, 1 … K
first, last : uint8[N]    1 on each sentence's first / last token
sent_start : int64[S + 1] where each of the S sentences starts (and N at the end)
params : float64[2]       α (transitions), α′ (emissions)
trans : int64[K+1, K+1]   transition counts, row = from (0 = boundary), column = to
trans_total : int64[K+1]  their row sums
emit : int64[K+1, V]      emission counts (row 0 unused)
emit_total : int64[K+1]   their row sums
removed : uint8[N]        1 while a token's choices are removed (inside a move)
slot_key, slot_head, slot_size : int64[C]   the type → tokens table (keyed_lists)
site_next, site_prev : int64[N]             its lists
"""

ALPHA, ALPHA_EMIT = 0, 1

implements = for_state(HmmState)


# --- neighbours and types ------------------------------------------------------------------------
@kernel
def prev_state(state, s):
    return 0 if state.first[s] else state.tag[s - 1]


@kernel
def next_state(state, s):
    return 0 if state.last[s] else state.tag[s + 1]


@kernel
def site_type(state, s):
    """The key of t(z, s) = (previous state, next state, word) — exact, not a hash."""
    k1 = state.trans.shape[0]
    return (prev_state(state, s) * k1 + next_state(state, s)) * state.emit.shape[1] + state.words[s]


@kernel
def file_site(state, s):
    keyed_lists.file_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                          state.site_prev, site_type(state, s), s)


@kernel
def unfile_site(state, s):
    keyed_lists.unfile_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                            state.site_prev, site_type(state, s), s)


@kernel
def set_tag(state, s, k):
    """tag[s] = k, moving the neighbours — whose types name tag[s] — to their new lists."""
    if state.tag[s] == k:
        return
    if not state.first[s]:
        unfile_site(state, s - 1)
    if not state.last[s]:
        unfile_site(state, s + 1)
    state.tag[s] = k
    if not state.first[s]:
        file_site(state, s - 1)
    if not state.last[s]:
        file_site(state, s + 1)


@kernel
def count_site(state, s, sign):
    """Add (sign = 1) or take away (−1) token s's transitions in and out and its emission
    (a site's choices; in the full counts each transition is shared by two neighbours)."""
    k, p, n = state.tag[s], prev_state(state, s), next_state(state, s)
    state.trans[p, k] += sign
    state.trans_total[p] += sign
    state.trans[k, n] += sign
    state.trans_total[k] += sign
    state.emit[k, state.words[s]] += sign
    state.emit_total[k] += sign


# --- the model interface -------------------------------------------------------------------------
@implements(interface.n_sites)
def _n_sites(state):
    return state.words.shape[0]


@implements(interface.n_values)
def _n_values(state):
    return state.trans.shape[0] - 1


@implements(interface.get_value)
def _get_value(state, s):
    return state.tag[s] - 1


@implements(interface.remove_site)
def _remove_site(state, s):
    count_site(state, s, -1)
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    set_tag(state, s, v + 1)
    count_site(state, s, 1)
    state.removed[s] = 0


@kernel
def state_weights(state, p, n, word, own, w):
    """w[k − 1] ∝ p(z_s = k | rest), k = 1 … K, for a token between states p and n emitting
    ``word`` (Gao & Johnson Fig. 1). ``own`` is the token's state when its counts are still in
    the state (TOKEN), 0 when they have been removed; the counts n below are without it:

      p(z_s = k) ∝ (n_{k,word} + α′) / (n_k + Vα′) · (n_{p,k} + α)
                   · (n_{k,n} + [p = k = n] + α) / (n_{k·} + [p = k] + (K+1)α)

    The indicators count the token's own transition p → k when k → n is in the same row (the
    corrections the exact-enumeration test checks). The first transition's denominator
    n_{p·} + (K+1)α is the same for every k and is left out.
    """
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    k1 = state.trans.shape[0]
    v_size = state.emit.shape[1]
    for k in range(1, k1):
        mine = 1 if k == own else 0
        emit = ((state.emit[k, word] - mine + alpha_emit)
                / (state.emit_total[k] - mine + v_size * alpha_emit))
        into = trans_without(state, p, k, p, own, n) + alpha
        out = ((trans_without(state, k, n, p, own, n) + (1 if p == k == n else 0) + alpha)
               / (total_without(state, k, p, own) + (1 if p == k else 0) + k1 * alpha))
        w[k - 1] = emit * into * out


@kernel
def trans_without(state, a, b, p, own, n):
    """n_{a,b} without the token in state ``own`` between p and n (own = 0: nothing to take)."""
    count = state.trans[a, b]
    if own != 0:
        count -= (1 if (a == p and b == own) else 0) + (1 if (a == own and b == n) else 0)
    return count


@kernel
def total_without(state, a, p, own):
    """n_{a·} without that token's two transitions (out of p and out of own)."""
    count = state.trans_total[a]
    if own != 0:
        count -= (1 if a == p else 0) + (1 if a == own else 0)
    return count


@implements(interface.site_weights)
def _site_weights(state, s, w):
    state_weights(state, prev_state(state, s), next_state(state, s), state.words[s], 0, w)


@implements(interface.token_weights)
def _token_weights(state, s, w):
    state_weights(state, prev_state(state, s), next_state(state, s), state.words[s],
                  state.tag[s], w)


@implements(interface.set_value)
def _set_value(state, s, v):
    if v + 1 != state.tag[s]:
        count_site(state, s, -1)
        set_tag(state, s, v + 1)
        count_site(state, s, 1)


@implements(interface.conflicts)
def _conflicts(state, s):
    # a token shares a transition with each neighbour in its sentence
    if state.removed[s]:
        return True
    if not state.first[s] and state.removed[s - 1]:
        return True
    return not state.last[s] and state.removed[s + 1] != 0


@kernel
def beside_same_word(state, s):
    """Whether token s has a neighbour in its sentence with the same word (as in "very very")."""
    w = state.words[s]
    return ((not state.first[s] and state.words[s - 1] == w)
            or (not state.last[s] and state.words[s + 1] == w))


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    # A token next to the same word is left out (the pivot excepted): when its neighbour is in
    # the block and changes state, its own type (p, n, word) can become the pivot's, so it would
    # join TB(z′, s0) and push that neighbour out — the block would not be stable (§4.4,
    # criterion B) and TYPE would not leave the posterior invariant (the exact test on
    # "a a a b / a a" fails without this). Only tokens of the pivot's word can become its type,
    # so no other token's candidacy can change.
    slot = keyed_lists.find(state.slot_key, site_type(state, s0))
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
    keys : float64[...]   the terms' packed keys (integers below 2⁵³, so exact)."""
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
    # every block site has s0's type (p, n, word): a site in state k adds p → k, k → n and
    # k emits word; the rows p and k gain one transition each and row k one emission
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


# --- building a state and scoring it -------------------------------------------------------------
@kernel
def count_all(state):
    """Fill the counts and the type index from the tags (empty counts and table)."""
    # each transition once: into every token, and out of each sentence's last one
    for s in range(state.words.shape[0]):
        k = state.tag[s]
        p = prev_state(state, s)
        state.trans[p, k] += 1
        state.trans_total[p] += 1
        if state.last[s]:
            state.trans[k, 0] += 1
            state.trans_total[k] += 1
        state.emit[k, state.words[s]] += 1
        state.emit_total[k] += 1
        file_site(state, s)


@kernel
def log_likelihood(state):
    """log p(z, w) (eq. 3): every transition row and emission row is a Dirichlet-multinomial."""
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    k1, v_size = state.trans.shape[0], state.emit.shape[1]
    total = 0.0
    for r in range(k1):
        for c in range(k1):
            total += log_rising(alpha, state.trans[r, c])
        total -= log_rising(k1 * alpha, state.trans_total[r])
    for k in range(1, k1):
        for x in range(v_size):
            total += log_rising(alpha_emit, state.emit[k, x])
        total -= log_rising(v_size * alpha_emit, state.emit_total[k])
    return total
