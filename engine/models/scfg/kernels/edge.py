"""The edge step (eq. 9): a node's incoming edge redrawn with its region's rules, each edge
weighed by the rules it would make and ∏ deg(v) of the nodes coming onto the tree; with exact
seating a Metropolis-Hastings proposal accepted against the exact weights.
"""
import numpy as np

from engine.core.draw import draw_log_weights
from engine.core.jit import inline, kernel
from engine.models.scfg.kernels.layout import (BS_COUNT, BS_KEY, DEG_ON, DISCOUNT, EX_DN, NODES,
    OV_CLS, OV_COUNT, OV_DN, OV_DT, OV_KEY, RULE_KEYS, RULE_P0, STACK, exact)
from engine.models.scfg.kernels.rules import rule_key
from engine.models.scfg.kernels.counts import (count_of, file_rule, log_predictive, rule_class,
    rule_root, tables, unfile_rule)
from engine.models.scfg.kernels.tables import world_log_weight, world_open, world_put, world_seat
from engine.models.scfg.kernels.trees import attach, below, detach


@kernel
def region_out(state, n, r):
    """Take out of the index the rules eq. 9 redraws at node n: the one rooted at r (n's rule
    root, or n itself when cut) and those rooted at cut nodes below n.

    Parameters
    ----------
    state : ScfgState, mutated
    n, r : int
    """
    unfile_rule(state, r)
    k = below(state, n, state.work_i[NODES])
    for i in range(k):
        v = state.work_i[NODES, i]
        if state.cut[v]:
            unfile_rule(state, v)


@inline
def overlay_add(state, m, mc, key, dn):
    """Add dn occurrences of ``key`` on top of the index (work_i's OV_KEY, OV_COUNT rows, [:m])
    and what they add to its restaurant's N_L and T_l (OV_CLS, OV_DN, work_f's OV_DT, [:mc]);
    returns the overlays' new lengths.

    Parameters
    ----------
    state : ScfgState, mutated (its overlays)
    m, mc : int
    key : int64
    dn : int

    Returns
    -------
    (int, int)
    """
    i = 0
    while i < m and state.work_i[OV_KEY, i] != key:
        i += 1
    if i == m:
        state.work_i[OV_KEY, m], state.work_i[OV_COUNT, m] = key, 0
        m += 1
    # its tables change only under the Pitman-Yor prior (no lookup under the DP)
    n = count_of(state, key) + state.work_i[OV_COUNT, i] if state.params[DISCOUNT] > 0.0 else 0
    state.work_i[OV_COUNT, i] += dn
    c = rule_class(state, key)
    j = 0
    while j < mc and state.work_i[OV_CLS, j] != c:
        j += 1
    if j == mc:
        state.work_i[OV_CLS, mc], state.work_i[OV_DN, mc], state.work_f[OV_DT, mc] = c, 0, 0.0
        mc += 1
    state.work_i[OV_DN, j] += dn
    state.work_f[OV_DT, j] += tables(state, n + dn) - tables(state, n)
    return m, mc


@inline
def overlay_predictive(state, m, mc, key, log_p0):
    """log P(r | N^{i−1}) with N^{i−1} the index plus the overlays.

    Parameters
    ----------
    state : ScfgState
    m, mc : int
    key : int64
    log_p0 : float64

    Returns
    -------
    float64
    """
    n = count_of(state, key)
    for i in range(m):
        if state.work_i[OV_KEY, i] == key:
            n += state.work_i[OV_COUNT, i]
            break
    c = rule_class(state, key)
    for j in range(mc):
        if state.work_i[OV_CLS, j] == c:
            return log_predictive(state, key, n, log_p0, state.work_i[OV_DN, j],
                                  state.work_f[OV_DT, j])
    return log_predictive(state, key, n, log_p0, 0, 0.0)


@kernel
def region_rules(state, n, r):
    """The rules the region would have with n's current edge, in eq. 9's order (rooted at r,
    then at the cut nodes below n breadth first) into the RULE_KEYS and RULE_P0 rows; and
    Σ log deg(v)
    over every node strictly below n. A cut node below n on the current tree keeps its rule
    whatever n's edge (its rule lies below it): its key is read, not recomputed; only r's rule
    and those of nodes coming onto the tree are named anew. Returns (rules, Σ log deg).

    Parameters
    ----------
    state : ScfgState (work_i's RULE_KEYS and work_f's RULE_P0 rows written)
    n, r : int

    Returns
    -------
    (int, float64)
    """
    nodes, keys, log_p0s = state.work_i[NODES], state.work_i[RULE_KEYS], state.work_f[RULE_P0]
    k = below(state, n, nodes)
    keys[0], log_p0s[0] = rule_key(state, r)
    j = 1
    log_deg = 0.0
    for i in range(k):
        v = nodes[i]
        log_deg += np.log(state.edge_start[v + 1] - state.edge_start[v])
        if state.cut[v]:
            if state.up[v] >= 0:
                keys[j], log_p0s[j] = state.key[v], state.logp0[v]
            else:
                keys[j], log_p0s[j] = rule_key(state, v)
            j += 1
    return j, log_deg


@kernel
def region_log_weight(state, n, r, base_m):
    """The two parts of eq. 9 for n's current edge: Σ_i log P(r_i | N^{i−1}), the rules the
    region would have (``region_rules``) drawn in turn given N, the index less the region's
    current rules (held as negative counts in bs_key, bs_count[:base_m]); and Σ log deg(v)
    over every node strictly below n.

    Parameters
    ----------
    state : ScfgState (its overlays and region rules used as work)
    n, r : int
    base_m : int

    Returns
    -------
    (float64, float64)
    """
    m, mc = 0, 0
    for i in range(base_m):
        m, mc = overlay_add(state, m, mc, state.work_i[BS_KEY, i], state.work_i[BS_COUNT, i])
    j, log_deg = region_rules(state, n, r)
    total = 0.0
    for i in range(j):
        total += overlay_predictive(state, m, mc, state.work_i[RULE_KEYS, i],
                                    state.work_f[RULE_P0, i])
        m, mc = overlay_add(state, m, mc, state.work_i[RULE_KEYS, i], 1)
    return total, log_deg


@inline
def region_held(state, n, r):
    """The region's current rules (rooted at r and at the cut nodes below n) as negative
    counts in bs_key, bs_count; returns their distinct keys.

    Parameters
    ----------
    state : ScfgState (bs_key, bs_count written)
    n, r : int

    Returns
    -------
    int
    """
    state.work_i[BS_KEY, 0], state.work_i[BS_COUNT, 0] = state.key[r], -1
    m = 1
    k = below(state, n, state.work_i[NODES])
    for i in range(k):
        v = state.work_i[NODES, i]
        if state.cut[v]:
            j = 0
            while j < m and state.work_i[BS_KEY, j] != state.key[v]:
                j += 1
            if j == m:
                state.work_i[BS_KEY, m], state.work_i[BS_COUNT, m] = state.key[v], 0
                m += 1
            state.work_i[BS_COUNT, j] -= 1
    return m


@kernel
def refresh_off_tree(rng, state, n):
    """Redraw the stale edge and cut of every node off the tree that one of n's other edges
    would switch on, from their conditional: uniform and independent (the target spreads
    π(tree, cuts) evenly over the values off the tree, eq. 9's ∏ deg(v) being what that
    costs). Without it an edge compares trees under cuts left from when their nodes were last
    on the tree — the paper's chain, exact too, but a tree merged into one rule then keeps the
    other trees out for as long as their stale nodes stay cut (measured: two identical
    three-word pairs off by 0.1 in a mode's probability after 300,000 sweeps).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated (values off the tree); ``up`` must mark the tree
    n : int
        A node on the tree.
    """
    stack = state.work_i[STACK]
    top = 0
    state.clock[0] += 1  # a node is redrawn once: several edges may reach it
    for e in range(state.edge_start[n], state.edge_start[n + 1]):
        if e - state.edge_start[n] == state.edge[n]:
            continue
        for i in range(state.tail_start[e], state.tail_start[e + 1]):
            stack[top] = state.tails[i]
            top += 1
    while top > 0:
        top -= 1
        v = stack[top]
        if state.up[v] >= 0 or state.node_site[v] < 0 or state.seen[v] == state.clock[0]:
            continue  # on the tree (its values are the chain's), or redrawn already
        state.seen[v] = state.clock[0]
        deg = state.edge_start[v + 1] - state.edge_start[v]
        state.edge[v] = min(deg - 1, int(rng.random() * deg))
        state.cut[v] = 1 if rng.random() < 0.5 else 0
        e = state.edge_start[v] + state.edge[v]
        for i in range(state.tail_start[e], state.tail_start[e + 1]):
            stack[top] = state.tails[i]
            top += 1


@inline
def deg_of(state, n):
    """deg(n): node n's incoming edges.

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    int64
    """
    return state.edge_start[n + 1] - state.edge_start[n]


@kernel
def edge_log_weights(state, n, rules, degs):
    """eq. 9's parts for each incoming edge of node n (on the tree) with the values off the
    tree as they stand: Σ log P(r_i | N^{i−1}) of the rules it would make into rules[e], Σ log
    deg(v) over the nodes below n it would bring onto the tree into degs[e]. Returns deg(n).

    Parameters
    ----------
    state : ScfgState (n's edge restored on return)
    n : int
    rules, degs : float64[≥ deg(n)]
        Output.

    Returns
    -------
    int
    """
    r = n if state.cut[n] else rule_root(state, n)
    base_m = region_held(state, n, r)
    old = state.edge[n]
    deg = deg_of(state, n)
    for e in range(deg):
        state.edge[n] = e
        rules[e], degs[e] = region_log_weight(state, n, r, base_m)
    state.edge[n] = old
    return deg


@kernel
def sample_edge(rng, state, n, inv_temp, w):
    """Gibbs-sample node n's incoming edge from eq. 9 (n on the tree, more than one edge):
    each edge weighed by the rules it would make and the deg(v) of the subtree it switches on.
    Returns whether the edge changed.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated
    n : int
    inv_temp : float64
    w : float64[≥ 2 deg(n)]
        Output: the edges' log weights (the second deg(n) entries: work).

    Returns
    -------
    bool
    """
    refresh_off_tree(rng, state, n)
    r = n if state.cut[n] else rule_root(state, n)
    deg = edge_log_weights(state, n, w, w[deg_of(state, n):])
    for e in range(deg):  # β tempers the rules, not ∏ deg(v): it counts states
        w[e] = inv_temp * w[e] + state.params[DEG_ON] * w[deg + e]
    new = draw_log_weights(rng, w, deg)
    old = state.edge[n]
    m = 0
    if exact(state):
        new, m = exact_edge(rng, state, n, r, new, inv_temp, w, deg)
    if new != old:  # most draws keep the edge: then nothing is written
        region_out(state, n, r)
        detach(state, n)
        state.edge[n] = new
        attach(state, n, state.up[n])
        file_rule(state, r)
        k = below(state, n, state.work_i[NODES])
        for i in range(k):
            if state.cut[state.work_i[NODES, i]]:
                file_rule(state, state.work_i[NODES, i])
    if exact(state):
        world_seat(rng, state, m)
    return new != old


@kernel
def exact_edge(rng, state, n, r, new, inv_temp, w, deg):
    """Metropolis-Hastings on the edge eq. 9 proposed: the proposal's rules are weighed with
    the approximate tables, the target with exact seating (the region's rules' tables, old and
    new, and the pending ones summed out); ∏ deg(v) is in both and cancels. Returns the edge
    to keep and the move's world (to seat after it).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState (its world written; n's edge restored)
    n, r : int
    new : int
        The proposed edge.
    inv_temp : float64
    w : float64[≥ 2 deg]
        eq. 9's tempered log weights of each edge, then each edge's Σ log deg(v).
    deg : int

    Returns
    -------
    (int, int)
    """
    old = state.edge[n]
    k, _ = region_rules(state, n, r)
    m = 0
    for i in range(k):
        m = world_put(state, m, state.work_i[RULE_KEYS, i], state.work_f[RULE_P0, i], -1)
    if new != old:
        state.edge[n] = new
        k, _ = region_rules(state, n, r)
        state.edge[n] = old
        for i in range(k):
            m = world_put(state, m, state.work_i[RULE_KEYS, i], state.work_f[RULE_P0, i], 1)
    m = world_open(state, m)
    if new == old:
        return old, m
    log_new = world_log_weight(state, m)
    for i in range(m):
        state.work_i[EX_DN, i] = 0
    log_old = world_log_weight(state, m)
    log_ratio = (inv_temp * (log_new - log_old)
                 + state.params[DEG_ON] * (w[deg + new] - w[deg + old]) - (w[new] - w[old]))
    if log_ratio >= 0.0 or rng.random() < np.exp(log_ratio):
        return new, m
    return old, m
