"""Sweeps over forests (Peng & Gildea 2014, Algorithms 1 and 2), written once against the model
interface's FOREST functions: in each sentence, from the root of its forest down its current
tree, breadth first, each node's incoming edge is resampled (when it has a choice) and then its
cut — alone, by TOKEN's move (``moves.token_step``), or with every site of its type, by TYPE's
(``moves.sample_block``). The nodes visited are those of the tree as the edges drawn on the way
make it; every tree of a forest has as many nodes, so a sweep always makes as many moves, and
the k-th node visited depends only on the edges drawn before it: each step is a Gibbs update of
the posterior however the tree changes.
"""
from engine.core.jit import kernel
from engine.kernels.interface import (edge_step, n_edges, n_sentences, sentence_root,
                                      site_of_node, tree_children)
from engine.kernels.moves import sample_block, token_step


@kernel
def forest_sweep(rng, state, inv_temp, typed, greedy, skip, visited, w, queue, bufs_int,
                 bufs_float, chosen, totals):
    """One sweep: at every node of every sentence's tree its edge (eq. 9), then its cut — by
    TOKEN (eq. 8) or by a TYPE move with the node as pivot (eqs. 10–11).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state implementing the FOREST functions (and TYPE's, when ``typed``), mutated
    inv_temp : float64
        Inverse temperature of the posterior's part of every conditional.
    typed, greedy, skip : bool
        TYPE moves for the cuts; TYPE-greedy; the skip approximation (a site already in a
        block this sweep is no pivot).
    visited : uint8[n_sites]
        Work for ``skip``: zeroed here.
    w : float64[≥ the largest deg(n), ≥ 2]
        Work.
    queue : int64[≥ the most nodes of one tree]
        Work.
    bufs_int, bufs_float, chosen
        TYPE's buffers (``moves.type_move``); unused by TOKEN (any small arrays).
    totals : int64[4]
        Output: cuts changed, edges changed, TYPE moves made, their sites.
    """
    totals[:] = 0
    if skip:
        visited[:] = 0
    for u in range(n_sentences(state)):
        queue[0] = sentence_root(state, u)
        head, tail = 0, 1
        while head < tail:
            n = queue[head]
            head += 1
            if n_edges(state, n) > 1:
                totals[1] += edge_step(rng, state, n, inv_temp, w)
            s = site_of_node(state, n)
            if s >= 0 and typed:
                if not (skip and visited[s]):
                    size, _, changed, _, _ = sample_block(rng, state, s, 1, inv_temp, greedy,
                                                          bufs_int, bufs_float, chosen)
                    totals[0] += changed
                    totals[2] += 1
                    totals[3] += size
                    if skip:
                        for i in range(size):
                            visited[bufs_int[1, i]] = 1
            elif s >= 0:
                totals[0] += token_step(rng, state, s, inv_temp, w, 2)
            tail += tree_children(state, n, queue[tail:])
