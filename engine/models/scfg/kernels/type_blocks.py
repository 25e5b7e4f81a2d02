"""TYPE's block of a pivot (§3, Algorithm 2): the sites of the pivot's type, found from the
index of r₂ (the rule above the cut) and of the merged rule r₁, within the chain's shard.
"""
from engine.core import hash_table
from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.scfg.kernels.layout import (FRONTIER, GATHERING, META, NODES, REGION, T1, T2, T3,
    implements)
from engine.models.scfg.kernels.rules import collect_frontier, rule_key
from engine.models.scfg.kernels.counts import rule_root


@inline
def same_type(state, n, s0):
    """Whether node n (on the tree, not a root) has the type of removed site s0.

    Parameters
    ----------
    state : ScfgState (``cut`` as it was on return)
    n, s0 : int

    Returns
    -------
    bool
    """
    # type_of's three keys, lazily: r₃ (the smallest rule) first, as most nodes differ there
    old = state.cut[n]
    state.cut[n] = 1
    same = rule_key(state, n)[0] == state.type_key[s0, T3]
    if same:
        r = rule_root(state, n)
        same = rule_key(state, r)[0] == state.type_key[s0, T2]
        if same:
            state.cut[n] = 0
            same = rule_key(state, r)[0] == state.type_key[s0, T1]
    state.cut[n] = old
    return same


@kernel
def merged_region(state, x, region):
    """The nodes of the rule x's rule root would root with x inside it — its root, inner
    nodes and frontier — with x's value as it is; x is left out. Returns how many.

    Parameters
    ----------
    state : ScfgState
    x : int
    region : int64[Z]
        Output.

    Returns
    -------
    int
    """
    r = rule_root(state, x)
    old = state.cut[x]
    state.cut[x] = 0
    region[0] = r
    count, i = 1, 0
    while i < count:
        v = region[i]
        i += 1
        if v != r and state.cut[v]:
            continue  # a frontier node: the region ends there
        e = state.edge_start[v] + state.edge[v]
        for j in range(state.tail_start[e], state.tail_start[e + 1]):
            region[count] = state.tails[j]
            count += 1
    state.cut[x] = old
    kept = 0
    for i in range(count):
        if region[i] != x:
            region[kept] = region[i]
            kept += 1
    return kept


@kernel
def crowded(state, x, s0):
    """Whether candidate x shares its merged rule with a node that has, or for some value of x
    could have, the pivot's type. Such a candidate is left out of the block: the move could
    make that node a site of the type conflicting with x, and the block gathered again after
    the move would then differ (criterion B). Each node of x's merged rule is tested under both
    of x's values on what the move cannot change: an inner node on its whole type (all inside
    the rule); the rule's root on its r₃, the rule it roots (inside); a frontier node w on its
    r₂ (inside) and on its r₃ as it is now — a block site below w could change that only if it
    is not the pivot's r₃ under either of that site's values, or that site would be crowded by
    w, the root of its own merged rule.

    Parameters
    ----------
    state : ScfgState (x's cut as it was on return)
    x, s0 : int

    Returns
    -------
    bool
    """
    k = merged_region(state, x, state.work_i[REGION])
    r = state.work_i[REGION, 0]
    old = state.cut[x]
    hit = False
    for value in range(2):
        state.cut[x] = value
        for i in range(k):
            w = state.work_i[REGION, i]
            if hit or state.node_site[w] < 0:
                continue  # found already, or a pair's root: no site
            if w == r:
                hit = (filed_key(state, w) if value == old else key_of(state, w)) == \
                    state.type_key[s0, T3]
            elif state.cut[w]:  # the rule w roots does not hold x: the same for both values
                hit = (filed_key(state, w) == state.type_key[s0, T3]
                       and key_of(state, rule_root(state, w)) == state.type_key[s0, T2])
            else:
                hit = same_type(state, w, s0)
    state.cut[x] = old
    return hit


@inline
def filed_key(state, r):
    """The key of the rule rooted at r as the edges and cuts make it now, from the index when
    the rule is filed there (no removed site took it out) — only a TYPE move's pivot is removed
    while its block is gathered, and the index keeps every other rule's key current.

    Parameters
    ----------
    state : ScfgState
    r : int
        A cut node on the tree.

    Returns
    -------
    int64
    """
    return state.key[r] if state.gone[r] == 0 else key_of(state, r)


@inline
def key_of(state, r):
    """The key of the rule rooted at r as the edges and cuts make it now.

    Parameters
    ----------
    state : ScfgState
    r : int

    Returns
    -------
    int64
    """
    return rule_key(state, r)[0]


@kernel
def rule_symbols(state, r):
    """(|r_f|, |r_e|): the symbols on each side of the rule rooted at r.

    Parameters
    ----------
    state : ScfgState
    r : int

    Returns
    -------
    (int, int)
    """
    k = collect_frontier(state, r)
    f = state.span[r, 1] - state.span[r, 0] + k
    e = state.span[r, 3] - state.span[r, 2] + k
    for i in range(k):
        t = state.work_i[FRONTIER, i]
        f -= state.span[t, 1] - state.span[t, 0]
        e -= state.span[t, 3] - state.span[t, 2]
    return f, e


@kernel
def inner_symbols(state, k, inner, sym):
    """For each of the k inner nodes of a rule (``merged_inner``'s order: parents before
    children), the symbols of the rule it would root if cut, into sym[node, 0 | 1]: its words
    outside its children, one nonterminal per cut child, an inner child's own symbols.

    Parameters
    ----------
    state : ScfgState
    k : int
    inner : int64[≥ k]
    sym : int64[N, 2]
        Output, for the nodes inner[:k].
    """
    for i in range(k - 1, -1, -1):
        x = inner[i]
        f = state.span[x, 1] - state.span[x, 0]
        e = state.span[x, 3] - state.span[x, 2]
        edge = state.edge_start[x] + state.edge[x]
        for j in range(state.tail_start[edge], state.tail_start[edge + 1]):
            t = state.tails[j]
            f -= state.span[t, 1] - state.span[t, 0]
            e -= state.span[t, 3] - state.span[t, 2]
            if state.cut[t]:
                f += 1
                e += 1
            else:
                f += sym[t, 0]
                e += sym[t, 1]
        sym[x, 0], sym[x, 1] = f, e


@inline
def take_candidate(state, x, s0, out, found):
    """Add node x to ``out`` when it is of the pivot's type and not crowded; return how many
    are in out.

    Parameters
    ----------
    state : ScfgState
    x, s0 : int
    out : int64[S]
    found : int

    Returns
    -------
    int
    """
    if state.node_site[x] >= 0 and same_type(state, x, s0) and not crowded(state, x, s0):
        out[found] = state.node_site[x]
        found += 1
    return found


@inline
def in_shard(state, n):
    """Whether node n is of a pair the state's shard samples.

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    bool
    """
    p = state.node_pair[n]
    return state.shard[0] <= p and p < state.shard[1]


@inline
def list_head(state, slot):
    """The first node of an index slot's list, −1 for no slot (``hash_table.find`` found none).

    Parameters
    ----------
    state : ScfgState
    slot : int

    Returns
    -------
    int64
    """
    return state.slot_head[slot] if slot >= 0 else -1


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates (Algorithm 2): the inner nodes of every occurrence of r₁ in
    the index and the roots of every occurrence of r₃, those of the pivot's type (r₁, r₂, r₃),
    less the crowded ones (``crowded``). A crowded pivot makes its block alone: the pivot is
    never left out, and the argument that keeps the block stable needs every site in it
    uncrowded. Cheap tests first: a pivot with no other occurrence of r₁ or r₃ is alone; an r₃
    root's rule above must be filed as r₂ (``under_r2``); an inner node's rule, were it cut,
    must have r₃'s symbol counts. Only the shard's pairs are searched: the
    other pairs' rules count in the index but their sites are another shard's to move.

    Parameters
    ----------
    state : ScfgState
    s0 : int
        The pivot, removed.
    out : int64[S]
        Output: the sites.

    Returns
    -------
    int
        How many.
    """
    found = 0
    n0 = state.site_node[s0]
    state.work_i[META, GATHERING] = s0 + 1
    slot1 = hash_table.find(state.slot_key, state.type_key[s0, T1])
    slot3 = hash_table.find(state.slot_key, state.type_key[s0, T3])
    # a rare type's pivot, with no other occurrence of r₁ or r₃, is alone whether or not crowded
    if (slot1 < 0 and slot3 < 0) or crowded(state, n0, s0):
        return found
    old = state.cut[n0]
    state.cut[n0] = 1
    f3, e3 = rule_symbols(state, n0)
    state.cut[n0] = old
    q = list_head(state, slot1)
    while q >= 0:
        if not in_shard(state, q):  # a rule's inner nodes are all of its root's pair
            q = state.item_next[q]
            continue
        k = merged_inner(state, q, state.work_i[NODES])
        inner_symbols(state, k, state.work_i[NODES], state.sym)
        for i in range(k):
            x = state.work_i[NODES, i]
            if state.sym[x, 0] == f3 and state.sym[x, 1] == e3:
                found = take_candidate(state, x, s0, out, found)
        q = state.item_next[q]
    return under_r2(state, s0, slot3, out, found)


@kernel
def mark_frontiers(state, slot):
    """Stamp the frontier nodes of every rule of the shard in an index slot's list: seen[v] =
    a new clock value, returned.

    Parameters
    ----------
    state : ScfgState (seen, clock and work_i's FRONTIER and STACK rows written)
    slot : int
        An index slot, ≥ 0.

    Returns
    -------
    int64
        The stamp.
    """
    state.clock[0] += 1
    stamp = state.clock[0]
    r = state.slot_head[slot]
    while r >= 0:
        if state.gone[r] == 0 and in_shard(state, r):
            for i in range(collect_frontier(state, r)):
                state.seen[state.work_i[FRONTIER, i]] = stamp
        r = state.item_next[r]
    return stamp


@inline
def under_r2(state, s0, slot3, out, found):
    """block_candidates' second search: the roots of the occurrences of r₃ (its index slot
    slot3) whose rule above is filed as r₂, of the pivot's type and not crowded, added to
    out. When r₂'s list is the shorter, the frontier nodes of its rules are stamped first and
    an r₃ root is tested by its stamp, not by walking up to its rule root (r₃ is mostly a small
    common rule, under many other rules).

    Parameters
    ----------
    state : ScfgState
    s0 : int
        The pivot, removed.
    slot3 : int
        r₃'s slot in the index, −1 when no rule is filed as r₃.
    out : int64[S]
        Output.
    found : int
        How many are in out.

    Returns
    -------
    int
        How many are in out.
    """
    slot2 = hash_table.find(state.slot_key, state.type_key[s0, T2])
    if slot3 < 0 or slot2 < 0:
        return found  # no rule is filed as r₃, or none as r₂
    q = state.slot_head[slot3]
    if state.slot_size[slot2] < state.slot_size[slot3]:
        stamp = mark_frontiers(state, slot2)
        while q >= 0:
            if state.seen[q] == stamp:
                found = take_candidate(state, q, s0, out, found)
            q = state.item_next[q]
        return found
    while q >= 0:
        if state.node_site[q] >= 0 and in_shard(state, q):
            r = rule_root(state, q)
            if state.gone[r] == 0 and state.key[r] == state.type_key[s0, T2]:
                found = take_candidate(state, q, s0, out, found)
        q = state.item_next[q]
    return found


@kernel
def merged_inner(state, q, out):
    """The inner nodes of the rule rooted at q (below q, above its frontier).

    Parameters
    ----------
    state : ScfgState
    q : int
    out : int64[Z]
        Output.

    Returns
    -------
    int
    """
    count, i, v = 0, -1, q
    while True:
        e = state.edge_start[v] + state.edge[v]
        for j in range(state.tail_start[e], state.tail_start[e + 1]):
            t = state.tails[j]
            if not state.cut[t]:
                out[count] = t
                count += 1
        i += 1
        if i >= count:
            break
        v = out[i]
    return count
