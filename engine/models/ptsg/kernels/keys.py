"""Fragment keys: a node's key mixed from its rule and its children's keys (FRONTIER for a cut
child), the key and log μ of the fragment rooted at a node, its fragment's root, and the keys
above a node refreshed after a cut changes.
"""
import numpy as np

from engine.core.jit import inline, kernel
from engine.models.ptsg.kernels.layout import (FRONTIER, KEY_BITS, MIX_LEFT, MIX_RIGHT, MIX_RULE,
    NO_CHILD)


@inline
def node_key(rule, key_left, key_right):
    """The key of a fragment whose root has ``rule`` and whose children contribute the keys
    key_left and key_right (FRONTIER for a cut child, NO_CHILD under a preterminal).

    Parameters
    ----------
    rule, key_left, key_right : int64

    Returns
    -------
    int64
        Non-negative.
    """
    x = (np.uint64(rule) * MIX_RULE + np.uint64(key_left) * MIX_LEFT
         + np.uint64(key_right) * MIX_RIGHT)
    x = (x ^ (x >> np.uint64(30))) * MIX_LEFT
    x = (x ^ (x >> np.uint64(27))) * MIX_RIGHT
    x = x ^ (x >> np.uint64(31))
    return np.int64(x & KEY_BITS)


@inline
def child_key(state, c):
    """What child c contributes to its parent's fragment: (key, log μ) — FRONTIER and log s
    for a cut child, its own key and log(1 − s) + its log μ for an expanded one.

    Parameters
    ----------
    state : PtsgState
    c : int

    Returns
    -------
    (int64, float64)
    """
    if state.cut[c]:
        key, mu = FRONTIER, state.log_stop[state.label[c]]
    else:
        key, mu = state.h_in[c], state.log_go[state.label[c]] + state.mu_in[c]
    return key, mu


@inline
def joined(state, n, key_left, mu_left, key_right, mu_right):
    """(key, log μ) of the fragment rooted at n whose children contribute those parts.

    Parameters
    ----------
    state : PtsgState
    n : int
    key_left, key_right : int64
    mu_left, mu_right : float64

    Returns
    -------
    (int64, float64)
    """
    return (node_key(state.rule[n], key_left, key_right),
            state.log_rule[n] + mu_left + mu_right)


@inline
def own_key(state, n):
    """(key, log μ) of the fragment rooted at n as the cuts below it stand.

    Parameters
    ----------
    state : PtsgState
    n : int

    Returns
    -------
    (int64, float64)
    """
    if state.left[n] < 0:
        key, mu = node_key(state.rule[n], NO_CHILD, NO_CHILD), state.log_rule[n]
    else:
        key_l, mu_l = child_key(state, state.left[n])
        key_r, mu_r = child_key(state, state.right[n])
        key, mu = joined(state, n, key_l, mu_l, key_r, mu_r)
    return key, mu


@kernel
def fill_keys(state):
    """h_in and mu_in of every node from the cuts (children after parents in preorder, so
    the nodes are visited backwards).

    Parameters
    ----------
    state : PtsgState
        h_in and mu_in written.
    """
    for n in range(state.parent.shape[0] - 1, -1, -1):
        state.h_in[n], state.mu_in[n] = own_key(state, n)


@inline
def fragment_root(state, n):
    """The root of the fragment above node n: the nearest cut proper ancestor.

    Parameters
    ----------
    state : PtsgState, or a view of it with parent and cut
    n : int
        Not a tree's root.

    Returns
    -------
    int64
    """
    p = state.parent[n]
    while not state.cut[p]:
        p = state.parent[p]
    return p


@inline
def key_above(state, n, n_cut):
    """(key, log μ) of the fragment above node n were b_n = n_cut, the cuts elsewhere as
    they stand: the upper U (n_cut = 1) or the merged M (n_cut = 0). One walk up to the
    fragment's root, recomputing each ancestor's key with the one child that differs; nothing
    is written.

    Parameters
    ----------
    state : PtsgState
    n : int
        A site.
    n_cut : int

    Returns
    -------
    (int64, float64)
    """
    if n_cut:
        key, mu = FRONTIER, state.log_stop[state.label[n]]
    else:
        key, mu = state.h_in[n], state.log_go[state.label[n]] + state.mu_in[n]
    c = n
    p = state.parent[n]
    while True:
        if state.left[p] == c:
            key_r, mu_r = child_key(state, state.right[p])
            key, mu = joined(state, p, key, mu, key_r, mu_r)
        else:
            key_l, mu_l = child_key(state, state.left[p])
            key, mu = joined(state, p, key_l, mu_l, key, mu)
        if state.cut[p]:
            break
        mu += state.log_go[state.label[p]]
        c = p
        p = state.parent[p]
    return key, mu


@inline
def refresh_above(state, n):
    """After b_n changed: h_in and mu_in of n's ancestors up to the root of its fragment.

    Parameters
    ----------
    state : PtsgState
        h_in and mu_in written.
    n : int
    """
    p = state.parent[n]
    while True:
        state.h_in[p], state.mu_in[p] = own_key(state, p)
        if state.cut[p]:
            break
        p = state.parent[p]
