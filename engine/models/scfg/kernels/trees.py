"""Building the trees from the values: a node attached to its parent or detached, the nodes below
one, and every count and index rebuilt from ``edge`` and ``cut`` (``recount``, ``install``).
"""
from engine.core import hash_table
from engine.core.jit import kernel
from engine.models.scfg.kernels.layout import GATHERING, META, NODES, STACK, TABLES, exact
from engine.models.scfg.kernels.counts import file_rule, unfile_rule
from engine.models.scfg.kernels.tables import seat_first


@kernel
def attach(state, n, parent):
    """Put node n, under ``parent``, and the subtree its chosen edges trace below it on the
    tree (``up``).

    Parameters
    ----------
    state : ScfgState, mutated
    n, parent : int
    """
    stack = state.work_i[STACK]
    stack[0] = n
    top = 1
    state.up[n] = parent
    while top > 0:
        top -= 1
        v = stack[top]
        e = state.edge_start[v] + state.edge[v]
        for i in range(state.tail_start[e], state.tail_start[e + 1]):
            t = state.tails[i]
            state.up[t] = v
            stack[top] = t
            top += 1


@kernel
def detach(state, n):
    """Take the nodes strictly below n on the tree off it (``up`` = −1).

    Parameters
    ----------
    state : ScfgState, mutated
    n : int
    """
    stack = state.work_i[STACK]
    top = 0
    e = state.edge_start[n] + state.edge[n]
    for i in range(state.tail_start[e], state.tail_start[e + 1]):
        stack[top] = state.tails[i]
        top += 1
    while top > 0:
        top -= 1
        v = stack[top]
        state.up[v] = -1
        e = state.edge_start[v] + state.edge[v]
        for i in range(state.tail_start[e], state.tail_start[e + 1]):
            stack[top] = state.tails[i]
            top += 1


@kernel
def below(state, n, out):
    """The nodes strictly below n on the tree its chosen edges trace, breadth first, each
    node's children in source order.

    Parameters
    ----------
    state : ScfgState
    n : int
    out : int64[Z]
        Output.

    Returns
    -------
    int
        How many.
    """
    count, i = 0, -1
    v = n
    while True:
        e = state.edge_start[v] + state.edge[v]
        for j in range(state.tail_start[e], state.tail_start[e + 1]):
            out[count] = state.tails[j]
            count += 1
        i += 1
        if i >= count:
            break
        v = out[i]
    return count


@kernel
def recount(state):
    """Rebuild the trees (``up``) and the index from the edges and cuts.

    Parameters
    ----------
    state : ScfgState, mutated
    """
    state.up[:] = -1
    state.slot_key[:] = hash_table.EMPTY
    state.slot_size[:] = 0
    state.n_rules[0] = 0
    state.cls_n[:] = 0
    state.cls_t[:] = 0.0
    state.u[:] = 0
    state.work_i[TABLES, :] = 0
    state.work_i[META, 0] = 0
    state.work_i[META, GATHERING] = 0
    for p in range(state.pair_root.shape[0]):
        root = state.pair_root[p]
        state.cut[root] = 1
        attach(state, root, -1)
    for p in range(state.pair_root.shape[0]):
        file_tree(state, state.pair_root[p], True)
    if exact(state):
        seat_first(state)


@kernel
def file_tree(state, root, filing):
    """File the rule at every cut node of the tree under ``root`` (its nodes already on it), or
    take them out of the index when not ``filing`` (the tree stays).

    Parameters
    ----------
    state : ScfgState, mutated
    root : int
    filing : bool
    """
    k = below(state, root, state.work_i[NODES])
    for i in range(-1, k):
        v = root if i < 0 else state.work_i[NODES, i]
        if i < 0 or state.cut[v]:
            if filing:
                file_rule(state, v)
            else:
                unfile_rule(state, v)


@kernel
def install(state, start, edge, cut):
    """Give whole pairs' nodes, start … start + len(edge) − 1, these edges and cuts (off the
    trees too: a later edge move brings stale values back), their trees and rules refiled. A
    pair whose values are all unchanged is left as it is. The parallel sampler (§4.2) installs
    the other shards' analyses so: the counts are then those of the merged analysis.

    Parameters
    ----------
    state : ScfgState, mutated
    start : int
        The first node of a pair.
    edge : int64[M]
    cut : uint8[M]
        The values of the M nodes of whole pairs from ``start`` on.

    Returns
    -------
    int
        How many pairs changed.
    """
    changed = 0
    n = start
    while n < start + edge.shape[0]:
        root = state.pair_root[state.node_pair[n]]
        same = True
        for v in range(n, root + 1):
            if state.edge[v] != edge[v - start] or state.cut[v] != cut[v - start]:
                same = False
                break
        if not same:
            file_tree(state, root, False)
            detach(state, root)
            for v in range(n, root + 1):
                state.edge[v], state.cut[v] = edge[v - start], cut[v - start]
            state.cut[root] = 1
            attach(state, root, -1)
            file_tree(state, root, True)
            changed += 1
        n = root + 1
    return changed
