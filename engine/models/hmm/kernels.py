"""The Bayesian HMM of Liang et al. §3 / Gao & Johnson §2 behind the model interface.

States 1 … K tag the tokens; state 0 is the boundary that starts and ends every sentence and
emits nothing. Every state's transitions (over the K + 1 outcomes 0 … K) have a symmetric
Dirichlet(α) prior; states 1 … K emit word types under a symmetric Dirichlet(α′). Collapsed,
p(z, w) is eq. 3 with one restaurant per transition row and per emission row.

Sites are tokens; a site's value v = 0 … K − 1 is state v + 1. A site's type is (previous
state, next state, word) (§4.2); the type → sites index is a hash table of doubly-linked lists
(engine.core.keyed_lists) updated in O(1) when a state changes: only the two neighbours'
types depend on it (once TYPE has built it: ``typed``).
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table, keyed_lists
from engine.core.jit import inline, kernel
from engine.core.sort import sort_prefix
from engine.core.special import log_rising
from engine.kernels import block_weight, interface
from engine.kernels.interface import for_state

HmmState = namedtuple("HmmState", [
    "words", "tag", "first", "last", "sent_start", "params", "gammas", "trans", "trans_total", "emit",
    "emit_total", "trans_num_t", "emit_num_t", "inv_den",
    "removed", "slot_key", "slot_head", "slot_size", "site_next", "site_prev", "typed"])
HmmState.__doc__ = """State of the HMM (N tokens, K states, V word types, a type table of C slots).

words : int64[N]          word type of each token, sentences concatenated
tag : int64[N]            its state, 1 … K
first, last : uint8[N]    1 on each sentence's first / last token
sent_start : int64[S + 1] where each of the S sentences starts (and N at the end)
params : float64[3]       α (transitions), α′ (emissions), the decoding (POSTERIOR, VITERBI)
gammas : float64[2, 5, G] the explicit samplers' tables for the cells with a count of 0, of α
                          and of α′ (engine.core.dirichlet.zero_count_table)
trans : int64[K+1, K+1]   transition counts n_{jk}, row = from (0 = boundary), column = to
trans_total : int64[K+1]  their row sums n_{j·}
emit : int64[K+1, V]      emission counts n_{kw} (row 0 unused)
emit_total : int64[K+1]   their row sums n_k (0 for the boundary)

Parts of the predictive probabilities that TOKEN's loop over k reads as contiguous rows, kept in
step with the counts (each entry is written from the integer counts, never accumulated, so it
always equals a recount):
trans_num_t : float64[K+1, K+1]  n_{jk} + α, transposed: row n holds n_{k,n} + α over k
emit_num_t : float64[V, K+1]     n_{kw} + α′, row = word (column 0 unused)
inv_den : float64[K+1]           1 / ((n_k + Vα′)(n_{k·} + (K+1)α)), the two denominators of a
                                 token's weight for state k

removed : uint8[N]        1 while a token's choices are removed (inside a move)
slot_key, slot_head, slot_size : int64[C]   the type → tokens table (keyed_lists)
site_next, site_prev : int64[N]             its lists
typed : uint8[1]          1 while the type index is kept: the first TYPE move builds it
                          (``build_type_index``), and from then on every change of state refiles
                          the neighbours. TOKEN alone never reads it: keeping it cost a quarter
                          of a TOKEN sweep (four hash-table updates per change).
"""

ALPHA, ALPHA_EMIT, DECODE = 0, 1, 2  # the entries of params
POSTERIOR, VITERBI = 0.0, 1.0  # params[DECODE]: how EM and VB turn parameters into a tagging
DECODINGS = {"posterior": POSTERIOR, "viterbi": VITERBI}

implements = for_state(HmmState)


# --- counts --------------------------------------------------------------------------------------
# The updates below leave inv_den alone: callers refresh the rows whose totals they changed once
# they are done (``refresh_den``), each row once, as a division costs as much as a dozen adds.
@kernel
def set_trans(state, j, k, count):
    """n_{jk} = count, and its float copy.

    Parameters
    ----------
    state : HmmState
        Mutated.
    j, k, count : int
    """
    state.trans[j, k] = count
    state.trans_num_t[k, j] = count + state.params[ALPHA]


@kernel
def set_emit(state, k, word, count):
    """n_{k,word} = count, and its float copy.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k, word, count : int
    """
    state.emit[k, word] = count
    state.emit_num_t[word, k] = count + state.params[ALPHA_EMIT]


@kernel
def add_trans(state, j, k, delta):
    """n_{jk} += delta; the row total n_{j·} is the caller's (a row shared by two transitions
    changes once).

    Parameters
    ----------
    state : HmmState
        Mutated.
    j, k, delta : int
    """
    set_trans(state, j, k, state.trans[j, k] + delta)


@kernel
def add_emission(state, k, word, delta):
    """n_{k,word} and n_k += delta.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k, word, delta : int
    """
    set_emit(state, k, word, state.emit[k, word] + delta)
    state.emit_total[k] += delta


@kernel
def refresh_den(state, k):
    """inv_den[k] from the totals now in the state.

    Parameters
    ----------
    state : HmmState
        Mutated.
    k : int
    """
    state.inv_den[k] = 1.0 / (
        (state.emit_total[k] + state.emit.shape[1] * state.params[ALPHA_EMIT])
        * (state.trans_total[k] + state.trans.shape[0] * state.params[ALPHA]))


# --- neighbours and types ------------------------------------------------------------------------
@kernel
def prev_state(state, s):
    """The state before token s (0, the boundary, at a sentence's start).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return 0 if state.first[s] else state.tag[s - 1]


@kernel
def next_state(state, s):
    """The state after token s (0, the boundary, at a sentence's end).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return 0 if state.last[s] else state.tag[s + 1]


@kernel
def type_key(state, p, n, word):
    """The key of the type (previous state p, next state n, word) — exact, not a hash.

    Parameters
    ----------
    state : HmmState
    p, n, word : int

    Returns
    -------
    int64
    """
    return (p * state.trans.shape[0] + n) * state.emit.shape[1] + word


@kernel
def site_type(state, s):
    """The key of t(z, s).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return type_key(state, prev_state(state, s), next_state(state, s), state.words[s])


@kernel
def file_site(state, s):
    """Put token s on the list of its type.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    file_under(state, s, site_type(state, s))


@kernel
def file_under(state, s, key):
    """Put token s on the list of the type ``key``.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, key : int
    """
    keyed_lists.file_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                          state.site_prev, key, s)


@kernel
def unfile_site(state, s):
    """Take token s off the list of its type.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    keyed_lists.unfile_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                            state.site_prev, site_type(state, s), s)


@inline
def set_tag(state, s, k):
    """tag[s] = k, a new state, moving the neighbours — whose types name tag[s] — to their new
    lists when the type index is kept.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, k : int
    """
    if state.typed[0]:
        refile_neighbours(state, s, k)
    else:
        state.tag[s] = k


@kernel  # a call takes the whole state: only TYPE's index needs it
def refile_neighbours(state, s, k):
    """set_tag with the type index kept: the neighbours taken off their lists, tag[s] = k, and
    the neighbours filed under their new types.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, k : int
    """
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
def build_type_index(state):
    """File every token under its type, in order, into an emptied index, and keep it from now
    on (``typed``).

    Parameters
    ----------
    state : HmmState
        The index written.
    """
    state.slot_key[:] = -1
    state.slot_head[:] = -1
    state.slot_size[:] = 0
    for s in range(state.words.shape[0]):
        file_site(state, s)
    state.typed[0] = 1


@kernel
def count_site(state, s, sign):
    """Add (sign = 1) or take away (−1) token s's transitions in and out and its emission (a
    site's choices; in the full counts each transition is shared by two neighbours).

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, sign : int
    """
    k, p, n = state.tag[s], prev_state(state, s), next_state(state, s)
    add_trans(state, p, k, sign)
    add_trans(state, k, n, sign)
    state.trans_total[p] += sign
    state.trans_total[k] += sign
    add_emission(state, k, state.words[s], sign)
    refresh_den(state, p)
    refresh_den(state, k)


# --- the model interface -------------------------------------------------------------------------
@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: the tokens.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    return state.words.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: K.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    return state.trans.shape[0] - 1


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: the token's state − 1.

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return state.tag[s] - 1


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    count_site(state, s, -1)
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: state v + 1, the neighbours refiled when it changes.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, v : int
    """
    if state.tag[s] != v + 1:
        set_tag(state, s, v + 1)
    count_site(state, s, 1)
    state.removed[s] = 0


@kernel
def full_count_weights(into, out, emit, inv_den, alpha, w):
    """w[k − 1] ∝ p(z_s = k | rest), k = 1 … K, for a token between states p and n emitting
    ``word``, from the counts as they are, with no correction for the token itself (Gao &
    Johnson Fig. 1 without its indicators):

      (n_{k,word} + α′) / (n_k + Vα′) · (n_{p,k} + α) · (n_{k,n} + α) / (n_{k·} + (K+1)α)

    The first transition's denominator n_{p·} + (K+1)α is the same for every k and is left out.
    Every factor is a contiguous row and the loop has no branch, so it vectorises; callers
    correct the few entries the token's own counts change.

    Parameters
    ----------
    into : int64[K+1]         n_{p,k} over k (trans[p])
    out : float64[K+1]        n_{k,n} + α over k (trans_num_t[n])
    emit : float64[K+1]       n_{k,word} + α′ over k (emit_num_t[word])
    inv_den : float64[K+1]
    alpha : float64           α
    w : float64[K]            output
    """
    for k in range(1, into.shape[0]):
        w[k - 1] = emit[k] * (into[k] + alpha) * out[k] * inv_den[k]


# The two weights functions only pick out rows and scalars for an array-level kernel: small
# enough for LLVM to inline into TOKEN's loop, so the call per site passes a few arrays, not the
# whole state (every array of a state passed to a function that is not inlined costs ~7 words).
@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights (``removed_site_weights``).

    Parameters
    ----------
    state : HmmState
    s : int
    w : float64[K]
        Output.
    """
    p, n, word = prev_state(state, s), next_state(state, s), state.words[s]
    p_denominator = ((state.emit_total[p] + state.emit.shape[1] * state.params[ALPHA_EMIT])
                     * (state.trans_total[p] + 1 + state.trans.shape[0] * state.params[ALPHA]))
    removed_site_weights(state.trans[p], state.trans_num_t[n], state.emit_num_t[word],
                         state.inv_den, state.params[ALPHA], p, n, p_denominator, w)


@kernel
def removed_site_weights(into, out, emit, inv_den, alpha, p, n, p_denominator, w):
    """site_weights for a removed token between p and n: the counts are n^{-s}, so only Fig. 1's
    indicators are left. When k = p the transition p → k is in the row of k → n, adding 1 to
    n_{k·} and, when also k = n, to n_{k,n}.

    Parameters
    ----------
    into, out, emit, inv_den, alpha
        As ``full_count_weights``'s.
    p, n : int
    p_denominator : float64
        (n_p + Vα′)(n_{p·} + 1 + (K+1)α).
    w : float64[K]
        Output.
    """
    full_count_weights(into, out, emit, inv_den, alpha, w)
    if p != 0:
        w[p - 1] = (emit[p] * (into[p] + alpha) * (out[p] + (1 if p == n else 0))
                    / p_denominator)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights (``own_token_weights``).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
    s : int
    w : float64[K]
        Output.
    """
    p, n, word, c = prev_state(state, s), next_state(state, s), state.words[s], state.tag[s]
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    own_denominator = ((state.emit_total[c] - 1 + state.emit.shape[1] * alpha_emit)
                       * (state.trans_total[c] - 1 + state.trans.shape[0] * alpha))
    own_token_weights(state.trans[p], state.trans_num_t[n], state.emit_num_t[word],
                      state.inv_den, alpha, p, n, c, own_denominator, w)


@kernel
def own_token_weights(into, out, emit, inv_den, alpha, p, n, c, own_denominator, w):
    """token_weights for a token in state c between p and n whose choices are in the counts.

    Taking away its choices p → c, c → n and c emitting word, and adding Fig. 1's indicators,
    changes the weight of k only through n_{k,word}, n_k, n_{k·} (all at k = c: the indicator
    [p = k] cancels the removed p → c in n_{k·}), n_{p,k} (at k = c, and at k = n when p = c),
    n_{k,n} (at k = c, and at k = p when n = c) and [p = k = n]. So after the full-count
    weights only k ∈ {c, p, n} are rewritten.

    Parameters
    ----------
    into, out, emit, inv_den, alpha
        As ``full_count_weights``'s.
    p, n, c : int
    own_denominator : float64
        (n_c − 1 + Vα′)(n_{c·} − 1 + (K+1)α).
    w : float64[K]
        Output.
    """
    full_count_weights(into, out, emit, inv_den, alpha, w)
    if n != 0 and n != c:  # also covers k = p = n
        w[n - 1] = (emit[n] * (into[n] + alpha - (1 if p == c else 0))
                    * (out[n] + (1 if p == n else 0)) * inv_den[n])
    if p != 0 and p != c and p != n:
        w[p - 1] = emit[p] * (into[p] + alpha) * (out[p] - (1 if n == c else 0)) * inv_den[p]
    w[c - 1] = ((emit[c] - 1) * (into[c] + alpha - 1 - (1 if p == c == n else 0)) * (out[c] - 1)
                / own_denominator)


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: p → c, c → n become p → k, k → n (row p keeps its total), and the
    emission moves from c to k.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
        Mutated.
    s, v : int
    """
    c, k = state.tag[s], v + 1
    if k == c:
        return
    p, n, word = prev_state(state, s), next_state(state, s), state.words[s]
    # p → c, c → n become p → k, k → n: row p keeps its total
    add_trans(state, p, c, -1)
    add_trans(state, c, n, -1)
    add_trans(state, p, k, 1)
    add_trans(state, k, n, 1)
    state.trans_total[c] -= 1
    state.trans_total[k] += 1
    add_emission(state, c, word, -1)
    add_emission(state, k, word, 1)
    refresh_den(state, c)
    refresh_den(state, k)
    set_tag(state, s, k)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    bool
    """
    return False

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


implements(interface.block_weights)(block_weight.rising_block_weights)


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


# --- building a state and scoring it -------------------------------------------------------------
@kernel
def count_all(state):
    """Fill the counts and their float copies from the tags (the counts empty): each transition
    once, into every token and out of each sentence's last one. The type index is left to the
    first TYPE move.

    Parameters
    ----------
    state : HmmState
        Mutated.
    """
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
    for j in range(state.trans.shape[0]):
        for k in range(state.trans.shape[0]):
            set_trans(state, j, k, state.trans[j, k])
        refresh_den(state, j)
    # word by word: each word's row of emit_num_t is written at once, while the counts are read
    # in K streams, each in order (k by k, the writes went down a column: 0.122 → 0.097 ms a
    # recount on EWT dev, K = 17)
    for word in range(state.emit.shape[1]):
        for k in range(1, state.emit.shape[0]):
            set_emit(state, k, word, state.emit[k, word])


@implements(interface.put_value)
def _put_value(state, s, v):
    """interface.put_value: the tag alone.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, v : int
    """
    state.tag[s] = v + 1


@implements(interface.recount)
def _recount(state):
    """interface.recount: every count rebuilt from the tags, the type index dropped (the next
    TYPE move rebuilds it).

    Parameters
    ----------
    state : HmmState
        Mutated.
    """
    state.trans[:] = 0
    state.trans_total[:] = 0
    state.emit[:] = 0
    state.emit_total[:] = 0
    state.typed[0] = 0
    count_all(state)


@kernel
def log_likelihood(state):
    """log p(z, w) (eq. 3): every transition row and emission row is a Dirichlet-multinomial.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    float64
    """
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
