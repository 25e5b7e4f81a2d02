"""TYPE (§4.4): a pivot's type (M, U, L) and its block, found through the lists of L and M,
the sites it conflicts with, the order pivots are visited in, and the block's change in
counts.
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.prefetch import prefetch
from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.ptsg.kernels.layout import L_KEY, M_KEY, TINY_LOG, U_KEY, implements
from engine.models.ptsg.kernels.keys import fragment_root
from engine.models.ptsg.kernels.counts import count_of


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: whether a fragment that depends on b_s was taken out — the site
    itself, a removed site on the way up to its fragment's root, or a removed site elsewhere in
    the fragment above it (its root is gone) or, when s is cut, in the fragment it roots.

    Parameters
    ----------
    state : PtsgState
    s : int

    Returns
    -------
    bool
    """
    n = state.site_node[s]
    # gone[n] counts s itself when removed and, n being cut, the removed sites of the fragment
    # n roots (a node not cut roots none); a removed site on the way up, or at the fragment's
    # root, took that fragment out, which its root's gone counts: the way up reads only parent
    # and cut, and no array indexed by site is read (one line of memory less a candidate)
    return state.gone[n] > 0 or state.gone[fragment_root(state, n)] > 0


@inline
def path_from(state, root, n):
    """Write into ``stack`` the way down from ``root`` to its descendant n, one entry per step
    (1: to the left child, 0: to the right); return its length.

    Parameters
    ----------
    state : PtsgState or CandidateView
        stack written.
    root, n : int

    Returns
    -------
    int
    """
    k = 0
    c = n
    while c != root:
        k += 1
        c = state.parent[c]
    c = n
    for i in range(k - 1, -1, -1):
        p = state.parent[c]
        state.stack[i] = state.left[p] == c
        c = p
    return k


@inline
def follow(state, root, k):
    """The node reached from ``root`` by the way in stack[:k].

    Parameters
    ----------
    state : PtsgState or CandidateView
    root, k : int

    Returns
    -------
    int64
    """
    n = root
    for i in range(k):
        n = n + 1 if state.stack[i] else state.right[n]  # preorder: the left child is next
    return n


@inline
def climb(state, n, k):
    """The node from which the way in stack[:k] leads down to n, or −1 when n is not where
    that way ends (it is on the other side of some step, or too near its tree's root).

    Parameters
    ----------
    state : PtsgState or CandidateView
    n, k : int

    Returns
    -------
    int64
    """
    for i in range(k - 1, -1, -1):
        p = state.parent[n]
        if p < 0 or (p + 1 == n) != state.stack[i]:  # preorder: a left child follows its parent
            return -1
        n = p
    return n


# what block_candidates reads and writes: handed to its kernel instead of the whole state
CandidateView = namedtuple("CandidateView", (
    "parent", "left", "right", "node_site", "site_node", "cut", "h_in", "slot_key", "slot_head",
    "slot_size", "item_next", "gone", "type_key", "type_root", "gathering", "stack"))


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates (``find_candidates``), inlined into the moves: it hands its
    kernel the 16 arrays it needs (~110 machine words), not the whole state (~210), once a
    block.

    Parameters
    ----------
    state : PtsgState
    s0, out
        As find_candidates'.

    Returns
    -------
    int
    """
    view = CandidateView(state.parent, state.left, state.right, state.node_site,
                         state.site_node, state.cut, state.h_in, state.slot_key,
                         state.slot_head, state.slot_size, state.item_next, state.gone,
                         state.type_key, state.type_root, state.gathering, state.stack)
    return find_candidates(view, s0, out)


@kernel
def find_candidates(state, s0, out):
    """The sites of the removed pivot's type (M, U, L). A site of the type sits where the pivot
    sits in its fragment: the same way down from the fragment's root (keys identify fragments
    up to their shape, so an occurrence of M, or of U with L at the end of that way, has the
    site there, and no other: cutting one fragment at two different nodes gives two different
    uppers). The cut ones are found through the shorter of the lists of L and of U (a common
    lower part, a determiner's word, under a rare upper part is found from the upper's few
    occurrences), the others through the list of M; the pivot, set aside with its fragments in
    the index, is among them. Nothing is written for them but ``out`` (a row per candidate cost
    a third of a TYPE sweep on GUM: one more line of memory each, far apart): remove_site knows
    them by ``gathering``.

    Parameters
    ----------
    state : CandidateView
        stack used as work; gathering set.
    s0 : int
        The pivot, removed.
    out : int64[S]
        Output: the sites.

    Returns
    -------
    int
        How many.
    """
    key_m, key_u, key_l = state.type_key[M_KEY], state.type_key[U_KEY], state.type_key[L_KEY]
    state.gathering[0] = 1
    slot_l, slot_u, slot_m = hash_table.find_three(state.slot_key, key_l, key_u, key_m)
    k = path_from(state, state.type_root[0], state.site_node[s0])
    found = 0
    # Each list is walked one occurrence ahead (``ask_ahead``): the next occurrence's lines
    # are asked for before this one's are read, so the walk waits on memory about once an
    # occurrence instead of at each of its reads.
    if slot_l >= 0 and slot_u >= 0 and state.slot_size[slot_u] < state.slot_size[slot_l]:
        r = state.slot_head[slot_u]
        while r >= 0:
            after = ask_ahead(state, r)
            q = follow(state, r, k)
            if state.h_in[q] == key_l:
                out[found] = candidate(state, q, r)
                found += 1
            r = after
    elif slot_l >= 0 and slot_u >= 0:
        q = state.slot_head[slot_l]
        while q >= 0:
            after = ask_ahead(state, q)
            r = climb(state, q, k)
            if r >= 0 and state.cut[r] and state.h_in[r] == key_u:
                out[found] = candidate(state, q, r)
                found += 1
            q = after
    r = state.slot_head[slot_m] if slot_m >= 0 else -1
    while r >= 0:
        after = ask_ahead(state, r)
        q = follow(state, r, k)
        out[found] = candidate(state, q, r)
        found += 1
        r = after
    return found


@inline
def ask_ahead(state, n):
    """The occurrence after n in its list, with the lines a walk reads of it asked for now
    (``prefetch``): its link, its links down and up, its key and its mark — following a way
    down from it or climbing one from it starts there.

    Parameters
    ----------
    state : PtsgState or CandidateView
    n : int
        An occurrence in a list of the index.

    Returns
    -------
    int64
        The next occurrence, −1 at the list's end.
    """
    after = np.int64(state.item_next[n])
    if after >= 0:
        prefetch(state.item_next, after)
        prefetch(state.right, after)
        prefetch(state.parent, after)
        prefetch(state.h_in, after)
        prefetch(state.cut, after)
    return after


@inline
def candidate(state, q, r):
    """The site at node q, a candidate of the block gathered (r: the root of its fragment
    above), with the lines its move will read asked for now (``prefetch``): conflicts,
    remove_site and add_site read its node's marks and links and its fragment root's ``gone``,
    in a treebank-wide scatter that would otherwise wait on memory site by site.

    Parameters
    ----------
    state : PtsgState or CandidateView
    q, r : int

    Returns
    -------
    int64
    """
    s = state.node_site[q]
    prefetch(state.site_node, s)
    prefetch(state.gone, q)
    prefetch(state.gone, r)
    prefetch(state.cut, q)
    return np.int64(s)


@inline
def base_term(state, log_mu, n):
    """block_delta's base for a fragment's term n_f + α μ_f: its value or, when no customer
    has it and α μ_f is below e^TINY_LOG, its log (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : PtsgState
    log_mu : float64
    n : int

    Returns
    -------
    float64
    """
    log_alpha_mu = state.params[1] + log_mu
    if n == 0 and log_alpha_mu < TINY_LOG:
        value = log_alpha_mu
    else:
        value = n + np.exp(log_alpha_mu)
    return value


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 9's terms for the pivot's type — value 0 draws M from θ_R,
    value 1 draws U from θ_R and L from θ_X (one term when L = U, one denominator when
    X = R).

    Parameters
    ----------
    state : PtsgState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 5]
        Output: the terms.

    Returns
    -------
    int
        The number of terms (4 or 5).
    """
    key_m, key_u, key_l = state.type_key[M_KEY], state.type_key[U_KEY], state.type_key[L_KEY]
    x, root_label = state.label[state.site_node[s0]], state.label[state.type_root[0]]
    # the sites set aside still hold their fragments: joined ones an M each, cut ones a U and
    # an L (the same fragment twice when U = L), all rooted at R but the L's, rooted at X
    joined, cut = state.aside[0], state.aside[1]
    base[0] = base_term(state, state.type_mu[M_KEY], count_of(state, key_m) - joined)
    d0[0], d1[0], sign[0] = 1 - v0, 1 - v1, 1.0
    if key_u == key_l:
        base[1] = base_term(state, state.type_mu[U_KEY], count_of(state, key_u) - 2 * cut)
        d0[1], d1[1], sign[1] = 2 * v0, 2 * v1, 1.0
        j = 2
    else:
        base[1] = base_term(state, state.type_mu[U_KEY], count_of(state, key_u) - cut)
        d0[1], d1[1], sign[1] = v0, v1, 1.0
        base[2] = base_term(state, state.type_mu[L_KEY], count_of(state, key_l) - cut)
        d0[2], d1[2], sign[2] = v0, v1, 1.0
        j = 3
    n_r = state.n_root[root_label] - joined - cut
    if x == root_label:
        base[j] = state.params[0] + n_r - cut
        d0[j], d1[j], sign[j] = 1 + v0, 1 + v1, -1.0
        j += 1
    else:
        base[j] = state.params[0] + n_r
        d0[j], d1[j], sign[j] = 1, 1, -1.0
        base[j + 1] = state.params[0] + state.n_root[x] - cut
        d0[j + 1], d1[j + 1], sign[j + 1] = v0, v1, -1.0
        j += 2
    return j
