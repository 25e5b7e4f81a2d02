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
from engine.kernels.interface import (edge_step, get_value, n_edges, n_sentences,
                                      sentence_root, site_of_node, tree_children)
from engine.kernels.moves import block_move, token_step

SENTENCE, HEAD, TAIL = 0, 1, 2  # the cursor: where a walk stands
# totals: what a call did, and its last move
MOVES, CUTS, EDGES, SITES, LAST_SITE, LAST_BEFORE, CANDIDATES, LAST_SIZE = range(8)
N_TOTALS = 8


@kernel
def forest_walk(rng, state, cursor, how, typed, w, queue, buffers):
    """At most ``how.max_moves`` moves of a sweep from where ``cursor`` stands: at each node of
    a sentence's tree its edge (eq. 9), then its cut — by TOKEN (eq. 8) or by a TYPE move with
    the node as pivot (eqs. 10–11).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state implementing the FOREST functions (and TYPE's, when ``typed``), mutated
    cursor : int64[3]
        The sentence, and the head and tail of its queue in ``queue`` (all 0 at a sweep's
        start); mutated. A sweep is done when cursor[SENTENCE] = n_sentences.
    how : moves.Pass
        The moves' limit, inverse temperature, TYPE-greedy, how a block is drawn
        (``moves.block_move``: TYPE's eq. 7, or one-stage) and the skip approximation (a site
        already in a block this sweep is no pivot, ``buffers.visited``).
    typed : bool
        Block moves for the cuts.
    w : float64[≥ the largest deg(n), ≥ 2]
        Work; after a TOKEN move, the cut's weights.
    queue : int64[≥ the most nodes of one tree]
        The walk's queue, kept between calls.
    buffers : moves.BlockBuffers
        TYPE's (the last block stays in them; unused by TOKEN); ``visited`` zeroed by the
        caller at a sweep's start; ``totals`` (int64[N_TOTALS]) the output: moves (nodes
        visited), cuts changed, edges changed, sites in TYPE blocks, the last move's site (−1:
        a root) and its value before, its candidates, and the size of the last TYPE block
        (whose draw the buffers keep).

    Returns
    -------
    bool
        Whether TYPE's last log p(m) is in scaled form (``draw.scaled_to_log``), over
        totals[LAST_SIZE] + 1 values.
    """
    visited, bufs_int, totals = buffers.visited, buffers.ints, buffers.totals
    totals[:] = 0
    totals[LAST_SITE] = -1
    scaled = False
    u, head, tail = cursor[SENTENCE], cursor[HEAD], cursor[TAIL]
    if tail > 0:
        tail = resumed_queue(state, u, head, queue)
    while u < n_sentences(state) and totals[MOVES] < how.max_moves:
        if tail == 0:
            queue[0] = sentence_root(state, u)
            tail = 1
        n = queue[head]
        head += 1
        if n_edges(state, n) > 1:
            totals[EDGES] += edge_step(rng, state, n, how.inv_temp, w)
        s = site_of_node(state, n)
        totals[LAST_SITE] = s
        if s >= 0:
            totals[LAST_BEFORE] = get_value(state, s)
            if not typed:
                totals[CUTS] += token_step(rng, state, s, how.inv_temp, w, 2)
            elif not (how.skip and visited[s]):
                size, _, changed, n_cand, scaled = block_move(
                    rng, state, s, 1, how.inv_temp, how.greedy, how.stages, bufs_int,
                    buffers.floats, buffers.chosen)
                totals[CUTS] += changed
                totals[SITES] += size
                totals[LAST_SIZE] = size
                totals[CANDIDATES] = n_cand
                if how.skip:
                    for i in range(size):
                        visited[bufs_int[1, i]] = 1
        tail += tree_children(state, n, queue[tail:])
        totals[MOVES] += 1
        if head == tail:
            u, head, tail = u + 1, 0, 0
    cursor[SENTENCE], cursor[HEAD], cursor[TAIL] = u, head, tail
    return scaled


@kernel
def resumed_queue(state, u, head, queue):
    """The queue of sentence u's walk after its first ``head`` nodes, rebuilt from the tree as
    it stands; returns its tail. Between two calls of a walk another sampler may have moved the
    tree (the pages and the conformance suite interleave samplers' moves), so the queue kept
    from the last call may hold nodes no longer on it (and overrun its buffer). Rebuilt from
    the first ``head`` places of the tree's breadth-first order as it stands, the walk goes on
    at place ``head``; which node stands there depends only on the edges of the nodes before
    it, so the step there is still a Gibbs update. Without such moves it is the queue kept.

    Parameters
    ----------
    state : model state implementing the FOREST functions
    u : int
    head : int
        The nodes of the sentence visited so far (≥ 1).
    queue : int64[≥ the most nodes of one tree]
        Output.

    Returns
    -------
    int
    """
    queue[0] = sentence_root(state, u)
    tail = 1
    for i in range(head):
        tail += tree_children(state, queue[i], queue[tail:])
    return tail


@kernel
def tree_nodes(state, queue):
    """The nodes of every sentence's current tree: the moves of one sweep (every tree of a
    forest has as many).

    Parameters
    ----------
    state : model state implementing the FOREST functions
    queue : int64[≥ the most nodes of one tree]
        Work.

    Returns
    -------
    int
    """
    total = 0
    for u in range(n_sentences(state)):
        queue[0] = sentence_root(state, u)
        head, tail = 0, 1
        while head < tail:
            tail += tree_children(state, queue[head], queue[tail:])
            head += 1
        total += tail
    return total


@kernel
def count_sentences(state):
    """The number of sentences (forests), for Python callers.

    Parameters
    ----------
    state : model state implementing the FOREST functions

    Returns
    -------
    int
    """
    return n_sentences(state)
