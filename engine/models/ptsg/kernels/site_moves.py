"""A site's value behind the interface: the sites, getting and setting b_s, and a site taken out
of the index (remove_site) and put back cut or uncut (add_site).
"""
from collections import namedtuple

import numpy as np

from engine.core.jit import inline, kernel
from engine.kernels import interface, moves
from engine.models.ptsg.kernels.layout import L_KEY, M_KEY, U_KEY, implements
from engine.models.ptsg.kernels.keys import fragment_root, refresh_above
from engine.models.ptsg.kernels.counts import file_fragment
from engine.models.ptsg.kernels.weights import type_of


@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: the nodes that are not a tree's root.

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    int
    """
    return state.site_node.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: 2 (0 = inside the fragment above, 1 = a fragment's root).

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    int
    """
    return 2


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: b_s.

    Parameters
    ----------
    state : PtsgState
    s : int

    Returns
    -------
    int64
    """
    return np.int64(state.cut[state.site_node[s]])


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site, by setting the site aside: the roots of the fragments that
    depend on b_s (M, or U and L) marked gone (``conflicts``), and the site tallied in
    ``aside`` by its value. Its fragments stay in the index: the counts less a removed site's
    are the index's less the tally (site_weights, block_delta), and most sites go back as they
    were, so only a site whose value changes is uncounted and counted again (add_site). The
    sites removed together are always of one type: a TOKEN site alone, or a TYPE block. A
    site removed alone or as a pivot keeps its type for site_weights, block_candidates and
    block_delta; a block's other sites (``gathering``) need none.

    Parameters
    ----------
    state : PtsgState
        Mutated.
    s : int
    """
    n = state.site_node[s]
    if state.gathering[0]:
        r = fragment_root(state, n)
    else:
        key_m, key_u, key_l, mu_m, mu_u, mu_l, r = type_of(state, n)
        state.type_key[M_KEY], state.type_key[U_KEY], state.type_key[L_KEY] = \
            key_m, key_u, key_l
        state.type_mu[M_KEY], state.type_mu[U_KEY], state.type_mu[L_KEY] = mu_m, mu_u, mu_l
        state.type_root[0] = r
    state.aside[state.cut[n]] += 1
    state.gone[r] += 1
    state.gone[n] += 1


@inline
def uncount(state, n, r):
    """Uncount the fragments that depend on b at node n: the one rooted at r (M or U) and,
    when n is cut, its own (L).

    Parameters
    ----------
    state : PtsgState
        Index and n_root mutated.
    n, r : int
    """
    file_fragment(state, r, -1)
    if state.cut[n]:
        file_fragment(state, n, -1)


# what add_site reads and writes for every site (``put_back``)
PutBackView = namedtuple("PutBackView", ("parent", "cut", "gone", "aside", "gathering"))


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: b_s = v and unmarked (``put_back``); when that changes b_s, its old
    fragments uncounted, the keys above s refreshed and its new fragments counted (``flip``).

    TYPE puts every site of a block back and most keep their value, so this is inlined into
    the moves and only calls kernels: put_back with the five arrays it needs (~35 machine
    words), flip with the whole state (~210) only for a site that changes. Called with the
    whole state, add_site's arguments were a sixth of a TYPE sweep on GUM (docs/benchmarks.md).
    It has no loop of its own: inlined into an inlined overload, a helper's loop variables
    were mis-scoped by Numba's inliner (NumbaIRAssumptionWarning).

    Parameters
    ----------
    state : PtsgState
        Mutated.
    s, v : int
    """
    n = state.site_node[s]
    r = put_back(PutBackView(state.parent, state.cut, state.gone, state.aside, state.gathering),
                 n)
    if state.cut[n] != v:  # most sites go back as they were: nothing to recount
        flip(state, n, r, v)


@kernel
def put_back(view, n):
    """add_site's part for every site: unmark node n and the root r of its fragment above, end
    the gathering and untally n; return r.

    Parameters
    ----------
    view : PutBackView
        gone mutated at n and r, aside at n's value; gathering set to 0 (the block is
        gathered).
    n : int

    Returns
    -------
    int64
        r, where it was: a site on the way to it (or the root itself) conflicts with n, so
        none of n's block has moved it.
    """
    r = fragment_root(view, n)
    view.gathering[0] = 0
    view.aside[view.cut[n]] -= 1
    view.gone[r] -= 1
    view.gone[n] -= 1
    return r


@kernel
def flip(state, n, r, v):
    """b = v at node n, which is not v: its old fragments (rooted at r and, when cut, at n)
    uncounted, the keys above n refreshed, its new fragments counted.

    Parameters
    ----------
    state : PtsgState
        Mutated.
    n, r, v : int
    """
    uncount(state, n, r)
    state.cut[n] = v
    refresh_above(state, n)
    file_fragment(state, r, 1)
    if v:
        file_fragment(state, n, 1)


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value by removal (moves.set_by_removal): only a flip writes.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        Mutated.
    s, v : int
    """
    moves.set_by_removal(rng, state, s, v)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False, the PTSG seats no one (its DPs are collapsed).

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    bool
    """
    return False

@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: True: a sweep's pivots in site order (a tree's
    nodes in preorder), which reads the trees' arrays in order; measured on GUM's training
    trees when this was chosen, a TYPE sweep took 154 ms so against 190 in random order (TOKEN:
    23 ms).

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    bool
    """
    return True
