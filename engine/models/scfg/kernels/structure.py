"""The forest's structure behind the interface's FOREST functions (the generic forest walk of
``engine.kernels.forest``): sentences, roots, sites, edges, a tree's children and the edge step.
"""
from engine.kernels import interface
from engine.models.scfg.kernels.layout import implements
from engine.models.scfg.kernels.edge import sample_edge


@implements(interface.edge_step)
def _edge_step(rng, state, n, inv_temp, w):
    """interface.edge_step: ``sample_edge``.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated
    n : int
    inv_temp : float64
    w : float64[≥ 2 deg(n)]
        Work.

    Returns
    -------
    bool
    """
    return sample_edge(rng, state, n, inv_temp, w)


@implements(interface.n_sentences)
def _n_sentences(state):
    """interface.n_sentences: the sentence pairs of the state's shard.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    int
    """
    return state.shard[1] - state.shard[0]


@implements(interface.sentence_root)
def _sentence_root(state, u):
    """interface.sentence_root: the root node of the shard's u-th pair.

    Parameters
    ----------
    state : ScfgState
    u : int

    Returns
    -------
    int64
    """
    return state.pair_root[state.shard[0] + u]


@implements(interface.site_of_node)
def _site_of_node(state, n):
    """interface.site_of_node: node n's site, −1 at a root.

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    int64
    """
    return state.node_site[n]


@implements(interface.n_edges)
def _n_edges(state, n):
    """interface.n_edges: deg(n).

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    int64
    """
    return state.edge_start[n + 1] - state.edge_start[n]


@implements(interface.tree_children)
def _tree_children(state, n, out):
    """interface.tree_children: the tails of n's chosen edge, in source order.

    Parameters
    ----------
    state : ScfgState
    n : int
    out : int64[≥ the edge's tails]
        Output.

    Returns
    -------
    int64
    """
    e = state.edge_start[n] + state.edge[n]
    start = state.tail_start[e]
    for i in range(state.tail_start[e + 1] - start):
        out[i] = state.tails[start + i]
    return state.tail_start[e + 1] - start
