"""A rule's key and base probability (eq. 2) from the flattened strings of its two sides: the
words of its root's span with each frontier node's span replaced by a numbered nonterminal.
"""
import numpy as np

from engine.core.jit import inline, kernel
from engine.core.word_hash import HASH_BASE
from engine.models.scfg.kernels.layout import (CLASS_SHIFT, FRONTIER, KEY_BITS, LOG_VE, LOG_VF,
    LONGEST, MIX_A, MIX_B, MIX_TARGET, ORDER, STACK)


@inline
def segment(prefix, power, start, x, y):
    """The polynomial hash of a pair's word codes x … y − 1 (prefix hashes from ``start``).

    Parameters
    ----------
    prefix : uint64[Σ]
    power : uint64[≥ y − x + 1]
    start, x, y : int

    Returns
    -------
    uint64
    """
    return prefix[start + y] - prefix[start + x] * power[y - x]


@kernel
def collect_frontier(state, r):
    """The frontier of the rule rooted at r (the cut nodes below r reached through the chosen
    edges, stale ones included), in source order, into work_i's FRONTIER row (STACK: work).

    Parameters
    ----------
    state : ScfgState (its FRONTIER and STACK rows written)
    r : int

    Returns
    -------
    int
        k, the rule's nonterminals.
    """
    frontier, stack = state.work_i[FRONTIER], state.work_i[STACK]
    k = 0
    stack[0] = r
    top = 1
    while top > 0:
        top -= 1
        v = stack[top]
        if v < 0:  # a frontier node, kept on the stack so that it comes out in source order
            frontier[k] = -1 - v
            k += 1
            continue
        e = state.edge_start[v] + state.edge[v]
        for i in range(state.tail_start[e + 1] - 1, state.tail_start[e] - 1, -1):
            t = state.tails[i]
            stack[top] = -1 - t if state.cut[t] else t
            top += 1
    return k


@kernel
def rule_key(state, r):
    """(key, log P₀) of the rule rooted at r as the current edges and cuts make it.

    Parameters
    ----------
    state : ScfgState (work_i's FRONTIER, ORDER and STACK rows used as work)
    r : int

    Returns
    -------
    (int64, float64)
    """
    k = collect_frontier(state, r)
    frontier, order, stack = state.work_i[FRONTIER], state.work_i[ORDER], state.work_i[STACK]
    p = state.node_pair[r]
    f_hash, f_len = side_hash(state, state.f_prefix, state.f_start[p], r, 0, frontier, order,
                              k)
    # the target side: the same nonterminals, in target order, numbered by source order
    for i in range(k):
        order[i] = i
    for i in range(1, k):
        j = i
        while j > 0 and state.span[frontier[order[j - 1]], 2] > state.span[frontier[order[j]], 2]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    for i in range(k):
        stack[i] = frontier[order[i]]
    e_hash, e_len = side_hash(state, state.e_prefix, state.e_start[p], r, 2, stack, order,
                              k)
    x = f_hash * MIX_A + e_hash * MIX_TARGET + np.uint64(f_len) * MIX_B + np.uint64(e_len)
    x = (x ^ (x >> np.uint64(30))) * MIX_A
    x = (x ^ (x >> np.uint64(27))) * MIX_B
    x = x ^ (x >> np.uint64(31))
    log_p0 = -f_len * state.params[LOG_VF] - e_len * state.params[LOG_VE]
    if state.log_pois.shape[0] > 1:  # Pitman-Yor: the key names its length's restaurant
        length = np.uint64(min(f_len + e_len, LONGEST))
        x = (x >> np.uint64(64 - CLASS_SHIFT)) | (length << np.uint64(CLASS_SHIFT))
    return np.int64(x & KEY_BITS), log_p0


@inline
def side_hash(state, prefix, start, r, side, nodes, ranks, k):
    """(hash, symbols) of one side of the rule rooted at r: its span's words with the spans of
    nodes[:k] (in this side's order) replaced by nonterminals, the i-th numbered by its source
    rank (i on the source side, ranks[i] on the target side).

    Parameters
    ----------
    state : ScfgState
    prefix : uint64[Σ]
    start, r : int
    side : int
        0 for the source (span columns 0, 1), 2 for the target (columns 2, 3).
    nodes, ranks : int64[≥ k]
    k : int

    Returns
    -------
    (uint64, int)
    """
    h = np.uint64(0)
    pos = state.span[r, side]
    symbols = 0
    for i in range(k):
        lo = state.span[nodes[i], side]
        h = h * state.power[lo - pos] + segment(prefix, state.power, start, pos, lo)
        rank = i if side == 0 else ranks[i]
        h = h * HASH_BASE + np.uint64(rank + 1)
        symbols += lo - pos + 1
        pos = state.span[nodes[i], side + 1]
    end = state.span[r, side + 1]
    h = h * state.power[end - pos] + segment(prefix, state.power, start, pos, end)
    symbols += end - pos
    return h, symbols
