"""Sweeps over forests (Peng & Gildea 2014, Algorithm 1), written once against the model
interface's FOREST functions: in each sentence, from the root of its forest down its current
tree, breadth first, each node's incoming edge is resampled (when it has a choice) and then its
cut, by TOKEN's move (``moves.token_step``). The nodes visited are those of the tree as the
edges drawn on the way make it; every tree of a forest has as many nodes, so a sweep always
makes as many moves, and the k-th node visited depends only on the edges drawn before it —
each step is a Gibbs update of the posterior however the tree changes.
"""
from engine.core.jit import kernel
from engine.kernels.interface import (edge_step, n_edges, n_sentences, sentence_root,
                                      site_of_node, tree_children)
from engine.kernels.moves import token_step


@kernel
def forest_sweep(rng, state, inv_temp, w, queue):
    """TOKEN over every sentence's tree: each node's edge (eq. 9), then its cut (eq. 8).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state implementing the FOREST functions, mutated
    inv_temp : float64
        Inverse temperature of the posterior's part of every conditional.
    w : float64[≥ the largest deg(n), ≥ 2]
        Work.
    queue : int64[≥ the most nodes of one tree]
        Work.

    Returns
    -------
    (int, int)
        How many cuts and how many edges changed.
    """
    cuts, edges = 0, 0
    for u in range(n_sentences(state)):
        queue[0] = sentence_root(state, u)
        head, tail = 0, 1
        while head < tail:
            n = queue[head]
            head += 1
            if n_edges(state, n) > 1:
                edges += edge_step(rng, state, n, inv_temp, w)
            s = site_of_node(state, n)
            if s >= 0:
                cuts += token_step(rng, state, s, inv_temp, w, 2)
            tail += tree_children(state, n, queue[tail:])
    return cuts, edges
