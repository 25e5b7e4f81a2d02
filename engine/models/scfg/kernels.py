"""SCFG rules sampled from phrase decomposition forests (Peng & Gildea 2014, §2.2–3) behind the
model interface.

Every pair's forest (``forest.py``) is packed into flat arrays, pair after pair, each pair's
nodes bottom-up with its root last. The chain's state is, at every node n of every forest, an
incoming edge ``edge[n]`` (its index among n's edges) and a cut ``cut[n]``: from each root the
chosen edges trace a tree, and the cut nodes of the tree split it into fragments, each one
composed SCFG rule. Nodes off the tree keep their values (stale: the chain state of the paper,
which is why eq. 9 weighs an edge by ∏ deg(v)). A *site* is a node that is not a root; only
sites on the tree are sampled.

A rule is named by a 63-bit key from its flattened strings (the paper abstracts a rule's inner
structure away): the source words of its root's span with each frontier node's span replaced by
a nonterminal, the same on the target side with each nonterminal numbered by its source order.
Each rule is a draw from G ~ DP(α, P₀), P₀(r) = V_f^−|r_f| V_e^−|r_e| (eq. 2), |r| counting a
side's words and nonterminals. The rules in use are filed by key in ``engine.core.keyed_lists``
(key → the nodes rooting an occurrence); a list's size is the rule's count N(r).

Under the Pitman-Yor prior (eqs. 5–7) each rule length l = |r_f| + |r_e| has its own restaurant
with a Poisson(λ) length prior, and tables are not tracked: T_r = N(r)^d and T_l = Σ T_r over
the rules of length l (Huang & Renals' approximation, which the paper uses). A key then carries
its rule's length in its top bits (``CLASS_SHIFT``), so that every count the samplers read knows
its restaurant; the Dirichlet process is the one-restaurant case (class 0, d = 0, no Poisson).

With exact seating (the option ``exact_seating``, small corpora) the state also keeps each
rule's tables, as u[v] = 1 at the occurrences that opened one (t_r = Σ u over r's occurrences,
a uniformly random subset of them: the chain is on (z, t)), and every move is exact against
that seating (``seating.py``): TOKEN's cut is a Gibbs step with the tables of the site's three
rules summed out and then drawn again, TYPE's g(m) sums out its type's three rules' tables, and
the edge step's eq. 9 (approximate tables) is a proposal that Metropolis-Hastings accepts
against the exact weights. A rule whose tables a move summed out without drawing them again
(TYPE's, which draws nothing after add_site) is *pending*: every later weight sums its tables
out too, until the next move with a random stream draws them.
"""
import math
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.draw import draw_log_weights
from engine.core.jit import inline, kernel
from engine.core.keyed_lists import file_item, unfile_item
from engine.core.word_hash import HASH_BASE
from engine.kernels import block_weight, interface
from engine.kernels.interface import for_state
from engine.models.scfg import seating

KEY_BITS = np.uint64(0x7FFFFFFFFFFFFFFF)  # keys are non-negative int64 (keyed_lists)
MIX_TARGET = np.uint64(0x9E3779B97F4A7C15)
MIX_A = np.uint64(0xBF58476D1CE4E5B9)
MIX_B = np.uint64(0x94D049BB133111EB)
# a word w enters a side's polynomial as w + WORD_CODE, the k-th nonterminal as k + 1
WORD_CODE = 1 << 24
TINY_LOG = -30.0  # log α P₀ below this counts as tiny next to any count (see log_count)
# Pitman-Yor keys: bits 53–62 hold the rule's length (lengths past LONGEST share the last class)
CLASS_SHIFT = 53
LONGEST = (1 << (63 - CLASS_SHIFT)) - 1
ALPHA, LOG_ALPHA, LOG_VF, LOG_VE, DEG_ON, DISCOUNT, EXACT = 0, 1, 2, 3, 4, 5, 6  # params
# rows of work_i and work_f (ScfgState)
(FRONTIER, ORDER, STACK, NODES, REGION, BS_KEY, BS_COUNT, OV_KEY, OV_COUNT, OV_CLS, OV_DN,
 RULE_KEYS, TABLES, META, PEND, EX_KEY, EX_CLS, EX_N, EX_T, EX_DN, EX_C) = range(21)
WORLD = 21  # four rows
GATHERING = 1  # the META row's entry naming the pivot whose block is being gathered
WORK_ROWS = 25
# work_f's last rows, after exact seating's W convolution rows
WORLD_T, WORLD_P0, SCRATCH, EX_P0, RULE_P0, OV_DT = -6, -5, -4, -3, -2, -1
FLOAT_ROWS = 6

CORPUS_FIELDS = ("pair_root", "node_pair", "span", "edge_start", "tail_start", "tails",
                 "f_start", "e_start", "f_prefix", "e_prefix", "power", "site_node",
                 "node_site", "params", "log_pois", "log_stirling")

ScfgState = namedtuple("ScfgState", CORPUS_FIELDS + ("shard",) + (
    "edge", "cut", "up", "key", "logp0", "slot_key", "slot_head", "slot_size", "item_next",
    "item_prev", "n_rules", "cls_n", "cls_t", "removed", "gone", "type_key", "type_logp0",
    "type_root", "sym", "seen", "clock", "u", "work_i", "work_f"))
ScfgState.__doc__ = """State of the SCFG rule sampler: the forests (shared by copies), a tree in
each and its cuts.

P pairs, N nodes, E edges, S sites, C index slots (a power of two ≥ 2N), Z the most nodes of one
forest.

pair_root : int64[P]        each pair's root (its last node)
node_pair : int64[N]        each node's pair
span : int64[N, 4]          (f_lo, f_hi, e_lo, e_hi) of the words a node's rules span, in its
                            pair's positions: its tight spans, the whole pair at a root
edge_start : int64[N + 1]   node n's incoming edges: edge_start[n] … edge_start[n+1] − 1
tail_start : int64[E + 1]   edge e's tails: tails[tail_start[e] : tail_start[e+1]]
tails : int64[Σ]            tail nodes, in source order
f_start, e_start : int64[P] where each pair's prefix hashes start in f_prefix, e_prefix
f_prefix, e_prefix : uint64[Σ (length + 1)]   prefix hashes of each pair's word codes
power : uint64[longest sentence + 1]          HASH_BASE^i
site_node : int64[S]        the site's node; node_site : int64[N] the node's site, −1 at a root
params : float64[7]         α, log α, log V_f, log V_e, 1.0 (0.0: eq. 9 without ∏ deg(v)), d,
                            1.0 with exact seating (0.0: the paper's approximate tables)
log_pois : float64[L]       log Poisson(l; λ) of each rule length l (L = LONGEST + 1) under the
                            Pitman-Yor prior; [0.0] under the DP (L = 1: one restaurant)
log_stirling : float64[M + 1, M + 1]   log S_d(n, t), n ≤ M = N, with exact seating
                            (``seating.log_stirling_table``); [[0.0]] else
edge : int64[N]             the chosen incoming edge, 0 … deg − 1 (kept off the tree too)
cut : uint8[N]              1: the node roots a rule (always at a root; kept off the tree too)
up : int64[N]               the node's parent in the current tree; −1 at a root and off the tree
key : int64[N]              the key of the rule a cut node on the tree roots
logp0 : float64[N]          its log P₀
slot_key, slot_head, slot_size : int64[C]   the rule index: key → the nodes rooting it
item_next, item_prev : int64[N]             the index's links
n_rules : int64[1]          rules in use, n
cls_n : int64[L]            rules in use of each length, N_L(l) (the DP: cls_n[0] = n)
cls_t : float64[L]          T_l = Σ N(r)^d over the rules of length l (eq. 7; zeros under the DP)
removed : uint8[S]          1 while a site is removed (its rules out of the index: remove_site)
gone : int64[N]             how many removed sites took out the rule rooted at the node
type_key : int64[S, 3]      a removed site's type (r₁, r₂, r₃): the merged rule, the one above
                            it and the one below it when it is cut
type_logp0 : float64[S, 3]  their log P₀
type_root : int64[S]        a removed site's rule root (where r₁ and r₂ are rooted)
sym : int64[N, 2]           work: the symbols of the rule an inner node would root
                            (``inner_symbols``)
seen : int64[N], clock : int64[1]   work: nodes stamped with a clock value — those redrawn in
                            one ``refresh_off_tree``, the frontiers of r₂ (``mark_frontiers``)
shard : int64[2]            (lo, hi): the pairs the samplers sweep, lo … hi − 1 (0, P: all). A
                            shard of the parallel sampler (§4.2, ``parallel.py``) holds the
                            whole corpus's trees and index but samples only its own pairs, and
                            TYPE's blocks hold only their sites (its local bookkeeping)
u : uint8[N]                exact seating: 1 at a rule occurrence that opened a table (all 0
                            without it)
work_i : int64[WORK_ROWS, I]        rows of I ≥ 2 Z + 1 entries (I ≥ W, L with exact seating):
    FRONTIER, ORDER, STACK  work: a rule's frontier nodes, their target order, a walk
    NODES                   work: the nodes below one (``below``)
    REGION                  work: the nodes of a site's merged rule (``block_candidates``)
    BS_KEY, BS_COUNT        work: an edge step's current rules, as negative counts
    OV_KEY, OV_COUNT        work: rules added on top of the index while eq. 9 scores an edge
                            (N^{i−1})
    OV_CLS, OV_DN           work: what those rules add to their restaurants' N_L (and T_l,
                            OV_DT)
    RULE_KEYS               work: the rules of an edge's region (RULE_P0: their log P₀)
    TABLES                  exact seating: T_l = Σ u over the restaurant's occurrences, l < L
    META                    [0] exact seating: how many rules are pending; [GATHERING] 1 + the
                            pivot whose block is being gathered (block_candidates to the next
                            add_site; 0: none)
    PEND                    exact seating: the pending rules (their tables summed out until drawn)
    EX_KEY, EX_CLS, EX_N, EX_T, EX_DN, EX_C   exact seating, work: a move's rules (its *world*,
                            W = N + 2 Z + 8 at most) in restaurant order: key, restaurant, count
                            and tables now, the count an option adds, the count under the option
                            (the tables drawn)
    WORLD … WORLD + 3       work: a TYPE block's three rules under the Pitman-Yor prior
                            (keys, restaurants, counts, N_L; WORLD_T, WORLD_P0: T_l, log P₀)
work_f : float64[W + FLOAT_ROWS, F]  rows of F ≥ 2 Z + 1 entries (F ≥ W, N + Z + 2 with exact
                            seating): W convolution rows (exact seating's work, ``seating``),
                            then WORLD_T, WORLD_P0, SCRATCH, EX_P0 (the world's log P₀),
                            RULE_P0 and OV_DT
The work arrays are two 2-D arrays, not a field each: every kernel call passes the state, and
each array field costs it (measured: fifteen more fields made TOKEN's KFTT sweep 1.6 × slower).
"""

implements = for_state(ScfgState)


# --- rules: keys and base probabilities ---------------------------------------------------------
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


# --- counts -------------------------------------------------------------------------------------
@inline
def count_of(state, key):
    """N(r): the rule's occurrences in the index.

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    slot = hash_table.find(state.slot_key, key)
    return state.slot_size[slot] if slot >= 0 else 0


@inline
def rule_class(state, key):
    """The restaurant of a rule: its length under the Pitman-Yor prior, 0 under the DP.

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    return key >> CLASS_SHIFT if state.log_pois.shape[0] > 1 else 0


@inline
def tables(state, n):
    """T_r = N(r)^d (eq. 6), 0 for a rule not in use (0^0 would be 1).

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    float64
    """
    d = state.params[DISCOUNT]
    return n ** d if n > 0 and d > 0.0 else 0.0


@inline
def log_count(state, n, log_p0, t_cls):
    """log(N(r) − d T_r + (d T_l + α) P₀(r)), the numerator of eq. 5 (eq. 4's N(r) + α P₀(r)
    when d = 0), exact also where the base term underflows a float.

    Parameters
    ----------
    state : ScfgState
    n : int
        N(r).
    log_p0 : float64
    t_cls : float64
        T_l of the rule's length.

    Returns
    -------
    float64
    """
    d = state.params[DISCOUNT]
    if d > 0.0:
        log_base = np.log(d * t_cls + state.params[ALPHA]) + log_p0
        a = n - d * tables(state, n)
    else:
        log_base = state.params[LOG_ALPHA] + log_p0
        a = float(n)
    if n == 0:
        return log_base
    return np.log(a) + np.log1p(np.exp(log_base - np.log(a)))


@inline
def log_predictive(state, key, n, log_p0, dn, dt):
    """log P(r | N): eq. 4 under the DP, eq. 5 under the Pitman-Yor prior (its Poisson length
    prior included), with the rule's restaurant changed by dn rules and dt tables.

    Parameters
    ----------
    state : ScfgState
    key : int64
    n : int
        N(r).
    log_p0 : float64
    dn : int
        Rules added to (negative: taken from) N_L(l), n under the DP.
    dt : float64
        Tables added to T_l.

    Returns
    -------
    float64
    """
    c = rule_class(state, key)
    return (log_count(state, n, log_p0, state.cls_t[c] + dt) + state.log_pois[c]
            - np.log(state.cls_n[c] + dn + state.params[ALPHA]))


@inline
def count_rule(state, key, sign):
    """n, N_L(l) and T_l when one occurrence of ``key`` is filed (sign 1) or taken out (−1),
    before the index changes its count.

    Parameters
    ----------
    state : ScfgState, mutated
    key : int64
    sign : int
    """
    c = rule_class(state, key)
    state.n_rules[0] += sign
    state.cls_n[c] += sign
    if state.params[DISCOUNT] > 0.0:  # tables only under the Pitman-Yor prior: no lookup else
        n = count_of(state, key)
        state.cls_t[c] += tables(state, n + sign) - tables(state, n)


@kernel
def file_rule(state, r):
    """Name the rule rooted at r (cut, on the tree) and file it in the index.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    """
    key, log_p0 = rule_key(state, r)
    file_known(state, r, key, log_p0)


@kernel
def unfile_rule(state, r):
    """Take the rule rooted at r out of the index.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    """
    count_rule(state, state.key[r], -1)
    if state.u[r]:  # exact seating: its table goes with it
        state.work_i[TABLES, rule_class(state, state.key[r])] -= 1
        state.u[r] = 0
    unfile_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                state.item_prev, state.key[r], r)


@inline
def rule_root(state, n):
    """The root of the rule n is inside or at the frontier of: its nearest cut ancestor.

    Parameters
    ----------
    state : ScfgState
    n : int
        A node on the tree, not a root.

    Returns
    -------
    int
    """
    r = state.up[n]
    while not state.cut[r]:
        r = state.up[r]
    return r


# --- building the trees from the values ---------------------------------------------------------
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


# --- TOKEN's cut (eq. 8) ------------------------------------------------------------------------
@kernel
def type_of(state, n):
    """The type of node n (on the tree, not a root): the keys and log P₀ of r₁, the rule its
    rule root r would root with n inside it, r₂, the one r would root with n cut, and r₃, the
    one n would root when cut; and r.

    Parameters
    ----------
    state : ScfgState (``cut`` as it was on return)
    n : int

    Returns
    -------
    (int64, float64, int64, float64, int64, float64, int)
    """
    r = rule_root(state, n)
    old = state.cut[n]
    state.cut[n] = 0
    k1, p1 = rule_key(state, r)
    state.cut[n] = 1
    k2, p2 = rule_key(state, r)
    k3, p3 = rule_key(state, n)
    state.cut[n] = old
    return k1, p1, k2, p2, k3, p3, r


@inline
def weigh(state, w, k1, p1, k2, p2, k3, p3, cut):
    """eq. 8 in linear form into w[0], w[1]: P(r₁ | N) against P(r₂ | N) P(r₃ | N′), N′ = N + r₂
    (under the Pitman-Yor prior r₂ also adds to its length's N_L and T_l), N the index less the
    site's own rules — r₂ and r₃ when ``cut`` is 1, r₁ when 0, none when −1 (a removed site) —
    held as negative counts on the overlays (their restaurants' counts and tables too).

    Parameters
    ----------
    state : ScfgState (its overlays used as work)
    w : float64[≥ 2]
        Output.
    k1, k2, k3 : int64
    p1, p2, p3 : float64
    cut : int
    """
    m, mc = 0, 0
    if cut == 1:
        m, mc = overlay_add(state, m, mc, k2, -1)
        m, mc = overlay_add(state, m, mc, k3, -1)
    elif cut == 0:
        m, mc = overlay_add(state, m, mc, k1, -1)
    w0 = overlay_predictive(state, m, mc, k1, p1)
    w1 = overlay_predictive(state, m, mc, k2, p2)
    m, mc = overlay_add(state, m, mc, k2, 1)
    w1 += overlay_predictive(state, m, mc, k3, p3)
    top = max(w0, w1)
    w[0], w[1] = np.exp(w0 - top), np.exp(w1 - top)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: eq. 8 with the site's own rules discounted (r₂ and r₃ when it
    is cut, r₁ when not).

    Parameters
    ----------
    rng : numpy.random.Generator
        Unused: the weights draw nothing.
    state : ScfgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    n = state.site_node[s]
    if exact(state):
        exact_cut_weights(state, n, w)
        return
    k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
    weigh(state, w, k1, p1, k2, p2, k3, p3, state.cut[n])


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: z = v at the site's node, its rules unfiled and the new ones
    filed (nothing when z = v already); with exact seating the tables of the site's three
    rules (and the pending ones) drawn again, whatever z was.

    Parameters
    ----------
    rng : numpy.random.Generator
        Exact seating's draws.
    state : ScfgState, mutated
    s, v : int
    """
    n = state.site_node[s]
    if v != state.cut[n]:
        r = rule_root(state, n)
        unfile_rule(state, r)
        if state.cut[n]:
            unfile_rule(state, n)
        state.cut[n] = v
        file_rule(state, r)
        if v:
            file_rule(state, n)
    if exact(state):
        k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
        m = world_put(state, 0, k1, p1, 0)
        m = world_put(state, m, k2, p2, 0)
        m = world_put(state, m, k3, p3, 0)
        world_seat(rng, state, world_open(state, m))


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: the cut at the site's node.

    Parameters
    ----------
    state : ScfgState
    s : int

    Returns
    -------
    int64
    """
    return np.int64(state.cut[state.site_node[s]])


@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: the nodes that are no pair's root.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    int
    """
    return state.site_node.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: a cut is 0 or 1.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    int
    """
    return 2


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: with exact seating (the site's rules' tables are drawn after every
    cut draw); without it rules carry no seats.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    bool
    """
    return exact(state)


# --- the edge (eq. 9) ---------------------------------------------------------------------------
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


# --- the forest's structure (interface FOREST functions) ----------------------------------------
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


# --- TYPE (§3: eqs. 10–11, Algorithm 2) ---------------------------------------------------------
T1, T2, T3 = 0, 1, 2  # columns of type_key and type_logp0: r₁, r₂, r₃


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site: the site's type remembered (``type_key``), its rules (r₁, or r₂
    and r₃) taken out of the index and their roots marked gone (``conflicts``).

    Parameters
    ----------
    state : ScfgState, mutated
    s : int
    """
    n = state.site_node[s]
    pivot = state.work_i[META, GATHERING] - 1
    if pivot >= 0:  # a site of the pivot's block: block_candidates found its type the pivot's
        r = rule_root(state, n)
        for j in range(3):
            state.type_key[s, j], state.type_logp0[s, j] = (state.type_key[pivot, j],
                                                            state.type_logp0[pivot, j])
    else:
        k1, p1, k2, p2, k3, p3, r = type_of(state, n)
        state.type_key[s, T1], state.type_key[s, T2], state.type_key[s, T3] = k1, k2, k3
        state.type_logp0[s, T1], state.type_logp0[s, T2], state.type_logp0[s, T3] = p1, p2, p3
    state.type_root[s] = r
    unfile_rule(state, r)
    if state.cut[n]:
        unfile_rule(state, n)
    state.gone[r] += 1
    state.gone[n] += 1
    state.removed[s] = 1


@inline
def file_known(state, r, key, log_p0):
    """File the rule rooted at r whose key is known.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    key : int64
    log_p0 : float64
    """
    count_rule(state, key, 1)
    state.key[r], state.logp0[r] = key, log_p0
    file_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
              state.item_prev, key, r)


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: z = v and the rules of that value, known from the site's type,
    filed again.

    Parameters
    ----------
    state : ScfgState, mutated
    s, v : int
    """
    n = state.site_node[s]
    r = state.type_root[s]
    state.work_i[META, GATHERING] = 0  # the block is gathered
    state.cut[n] = v
    if v:
        file_known(state, r, state.type_key[s, T2], state.type_logp0[s, T2])
        file_known(state, n, state.type_key[s, T3], state.type_logp0[s, T3])
    else:
        file_known(state, r, state.type_key[s, T1], state.type_logp0[s, T1])
    state.gone[r] -= 1
    state.gone[n] -= 1
    state.removed[s] = 0
    if exact(state):  # no random stream here: the type's tables stay summed out for now
        for j in range(3):
            pend_add(state, state.type_key[s, j])


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights: eq. 8 for a removed site from the type it had in place, the
    index's counts being N.

    Parameters
    ----------
    state : ScfgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    weigh(state, w, state.type_key[s, T1], state.type_logp0[s, T1], state.type_key[s, T2],
          state.type_logp0[s, T2], state.type_key[s, T3], state.type_logp0[s, T3], -1)


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: whether a rule the site's value touches — the one rooted at its
    rule root, and the one it roots when cut — was taken out by a removed site (the paper's
    nodes(r₁) ∩ nodes(r₁′) ≠ ∅ between the two sites' merged rules).

    Parameters
    ----------
    state : ScfgState
    s : int

    Returns
    -------
    bool
    """
    n = state.site_node[s]
    return (state.removed[s] != 0 or state.gone[rule_root(state, n)] > 0
            or (state.cut[n] != 0 and state.gone[n] > 0))


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


@inline
def base_term(state, log_p0, n):
    """block_delta's base N(r) + α P₀(r): its value or, when no rule is counted and α P₀ is
    below e^TINY_LOG, its log (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : ScfgState
    log_p0 : float64
    n : int

    Returns
    -------
    float64
    """
    log_base = state.params[LOG_ALPHA] + log_p0
    if n == 0 and log_base < TINY_LOG:
        value = log_base
    else:
        value = n + np.exp(log_base)
    return value


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 10's terms for the DP — value 0 draws r₁, value 1 draws r₂
    then r₃ (one term when they are one rule), each from n + α.

    Parameters
    ----------
    state : ScfgState, its block removed
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 4]
        Output.

    Returns
    -------
    int
        3 or 4 terms.
    """
    k1, k2, k3 = state.type_key[s0, T1], state.type_key[s0, T2], state.type_key[s0, T3]
    base[0] = base_term(state, state.type_logp0[s0, T1], count_of(state, k1))
    d0[0], d1[0], sign[0] = 1 - v0, 1 - v1, 1.0
    j = 1
    if k2 == k3:
        base[1] = base_term(state, state.type_logp0[s0, T2], count_of(state, k2))
        d0[1], d1[1], sign[1] = 2 * v0, 2 * v1, 1.0
        j = 2
    else:
        base[1] = base_term(state, state.type_logp0[s0, T2], count_of(state, k2))
        d0[1], d1[1], sign[1] = v0, v1, 1.0
        base[2] = base_term(state, state.type_logp0[s0, T3], count_of(state, k3))
        d0[2], d1[2], sign[2] = v0, v1, 1.0
        j = 3
    base[j] = state.params[ALPHA] + state.n_rules[0]
    d0[j], d1[j], sign[j] = 1 + v0, 1 + v1, -1.0
    return j + 1


@inline
def world_add(state, i, kk, cc, cnt, cn, ct, times):
    """Add ``times`` draws of the type's rule i (0: r₁, 1: r₂, 2: r₃) to the small world of the
    type's three rules: their counts (cnt) and their restaurants' N_L (cn) and T_l (ct).

    Parameters
    ----------
    state : ScfgState
    i, times : int
    kk, cc : int64[3]
        The rules' keys and restaurants.
    cnt, cn : int64[3]
        Mutated.
    ct : float64[3]
        Mutated.
    """
    before = cnt[i]
    for j in range(3):
        if cc[j] == cc[i]:
            cn[j] += times
            ct[j] += tables(state, before + times) - tables(state, before)
    for j in range(3):
        if kk[j] == kk[i]:
            cnt[j] += times


@inline
def world_log_p(state, i, kk, cc, cnt, cn, ct, log_p0):
    """log P(r_i | the small world): eq. 5.

    Parameters
    ----------
    state : ScfgState
    i : int
    kk, cc, cnt, cn : int64[3]
    ct, log_p0 : float64[3]

    Returns
    -------
    float64
    """
    return (log_count(state, cnt[i], log_p0[i], ct[i]) + state.log_pois[cc[i]]
            - np.log(cn[i] + state.params[ALPHA]))


@inline
def world_reset(state, s0):
    """The small world of the type of removed site s0 as the index has it: its three rules'
    keys, restaurants and counts, and their restaurants' N_L and T_l (work_i's WORLD rows,
    work_f's WORLD_T and WORLD_P0).

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    s0 : int
    """
    kk, cc, cnt, cn = (state.work_i[WORLD], state.work_i[WORLD + 1], state.work_i[WORLD + 2],
                       state.work_i[WORLD + 3])
    ct, log_p0 = state.work_f[WORLD_T], state.work_f[WORLD_P0]
    for j in range(3):
        kk[j], log_p0[j] = state.type_key[s0, j], state.type_logp0[s0, j]
        cc[j] = rule_class(state, kk[j])
        cnt[j], cn[j], ct[j] = count_of(state, kk[j]), state.cls_n[cc[j]], state.cls_t[cc[j]]


@kernel
def sequential_log_g(state, s0, size, log_g, prefix):
    """log g(m) − log g(0) of eq. 10 drawn in the paper's order (the size − m uncut sites' r₁,
    then r₂ and r₃ of each of the m cut sites), each from eq. 5 given the draws before it: the
    block weight under the Pitman-Yor prior, whose tables (T = N^d) make g no product of rising
    factorials. O(size) when r₁'s length is neither r₂'s nor r₃'s (the cut sites' draws do not
    depend on how many r₁ came before), else O(size²).

    Parameters
    ----------
    state : ScfgState, the block removed (its world used as work)
    s0, size : int
    log_g : float64[≥ size + 1]
        Output, m = the cut sites.
    prefix : float64[≥ size + 1]
        Work: Σ of the first k draws of r₁.
    """
    kk, cc, cnt, cn = (state.work_i[WORLD], state.work_i[WORLD + 1], state.work_i[WORLD + 2],
                       state.work_i[WORLD + 3])
    ct, log_p0 = state.work_f[WORLD_T], state.work_f[WORLD_P0]
    world_reset(state, s0)
    prefix[0] = 0.0
    for k in range(size):
        prefix[k + 1] = prefix[k] + world_log_p(state, T1, kk, cc, cnt, cn, ct, log_p0)
        world_add(state, T1, kk, cc, cnt, cn, ct, 1)
    apart = cc[T1] != cc[T2] and cc[T1] != cc[T3]
    world_reset(state, s0)
    cut_part = 0.0
    for m in range(size + 1):
        if not apart:  # the m cut sites' draws after the size − m draws of r₁
            world_reset(state, s0)
            world_add(state, T1, kk, cc, cnt, cn, ct, size - m)
            cut_part = 0.0
            for _ in range(m):
                cut_part += cut_draws(state, kk, cc, cnt, cn, ct, log_p0)
        elif m > 0:
            cut_part += cut_draws(state, kk, cc, cnt, cn, ct, log_p0)
        log_g[m] = prefix[size - m] + cut_part
    top = log_g[0]
    for m in range(size + 1):
        log_g[m] -= top


@inline
def cut_draws(state, kk, cc, cnt, cn, ct, log_p0):
    """log P(r₂ | ·) + log P(r₃ | · + r₂): one cut site's draws, added to the small world.

    Parameters
    ----------
    state : ScfgState
    kk, cc, cnt, cn : int64[3]
    ct, log_p0 : float64[3]

    Returns
    -------
    float64
    """
    total = world_log_p(state, T2, kk, cc, cnt, cn, ct, log_p0)
    world_add(state, T2, kk, cc, cnt, cn, ct, 1)
    total += world_log_p(state, T3, kk, cc, cnt, cn, ct, log_p0)
    world_add(state, T3, kk, cc, cnt, cn, ct, 1)
    return total


rising_block_weights = inline(block_weight.rising_block_weights)  # the DP's, compiled here


@implements(interface.block_weights)
def _block_weights(state, s0, v0, v1, size, linear, out, work):
    """interface.block_weights: the DP's rising factorials (``block_delta``), or under the
    Pitman-Yor prior eq. 10's draws in turn (``sequential_log_g``, log form) or, with exact
    seating, the exact g(m) with the type's tables summed out (``exact_log_g``).

    Parameters
    ----------
    state : ScfgState, the block removed
    s0, v0, v1, size : int
    linear : bool
    out : float64[2, ≥ size + 1]
        Output.
    work : float64[4, ≥ max(size + 1, block_weight.MAX_DELTA_TERMS)]

    Returns
    -------
    bool
    """
    if state.log_pois.shape[0] == 1:
        return rising_block_weights(state, s0, v0, v1, size, linear, out, work)
    if exact(state):
        exact_log_g(state, s0, size, work[1])
    else:
        sequential_log_g(state, s0, size, work[1], work[0])
    for m in range(size + 1):  # m sites set to v1: m cut when v1 = 1
        out[0, m] = work[1, m] if v1 == 1 else work[1, size - m] - work[1, size]
    return False


@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: the forest sweep takes its pivots as it walks the trees.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    bool
    """
    return True


# --- exact seating under the Pitman-Yor prior (option exact_seating; seating.py) ---------------
@inline
def exact(state):
    """Whether the state keeps exact seating.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    bool
    """
    return state.params[EXACT] > 0.0


@inline
def rule_tables(state, key):
    """t_r: the tables of the rule (Σ u over its occurrences in the index).

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    t = 0
    slot = hash_table.find(state.slot_key, key)
    if slot >= 0:
        v = state.slot_head[slot]
        while v >= 0:
            t += state.u[v]
            v = state.item_next[v]
    return t


@kernel
def seat_first(state):
    """A table for each rule in use, opened by its list's first occurrence: a valid seating to
    start a chain from (the moves draw every rule's tables again as they touch it).

    Parameters
    ----------
    state : ScfgState, mutated (u, work_i's TABLES)
    """
    for slot in range(state.slot_key.shape[0]):
        if state.slot_key[slot] != hash_table.EMPTY:
            state.u[state.slot_head[slot]] = 1
            state.work_i[TABLES, rule_class(state, state.slot_key[slot])] += 1


@inline
def world_put(state, w, key, log_p0, dn):
    """Add dn to what the option adds to rule ``key`` in the world (the EX_ rows, [:w]),
    entering it with its log P₀ if new; returns the world's new size.

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    w : int
    key : int64
    log_p0 : float64
    dn : int

    Returns
    -------
    int
    """
    i = 0
    while i < w and state.work_i[EX_KEY, i] != key:
        i += 1
    if i == w:
        state.work_i[EX_KEY, w], state.work_f[EX_P0, w], state.work_i[EX_DN, w] = key, log_p0, 0
        w += 1
    state.work_i[EX_DN, i] += dn
    return w


@kernel
def world_open(state, w):
    """Complete a move's world: the pending rules in use join it, its entries are put in
    restaurant order, and each rule's count and tables are read. Returns its size.

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    w : int

    Returns
    -------
    int
    """
    for j in range(state.work_i[META, 0]):
        slot = hash_table.find(state.slot_key, state.work_i[PEND, j])
        if slot >= 0:
            w = world_put(state, w, state.work_i[PEND, j], state.logp0[state.slot_head[slot]], 0)
    for i in range(w):
        state.work_i[EX_CLS, i] = rule_class(state, state.work_i[EX_KEY, i])
    for i in range(1, w):  # insertion sort by restaurant: a world holds a few rules
        j = i
        while j > 0 and state.work_i[EX_CLS, j - 1] > state.work_i[EX_CLS, j]:
            for row in (EX_KEY, EX_CLS, EX_DN):
                state.work_i[row, j - 1], state.work_i[row, j] = (state.work_i[row, j],
                                                                  state.work_i[row, j - 1])
            p0 = state.work_f[EX_P0]
            p0[j - 1], p0[j] = p0[j], p0[j - 1]
            j -= 1
    for i in range(w):
        state.work_i[EX_N, i] = count_of(state, state.work_i[EX_KEY, i])
        state.work_i[EX_T, i] = rule_tables(state, state.work_i[EX_KEY, i])
    return w


@inline
def restaurant_end(state, w, i):
    """The end of the world's entries of entry i's restaurant (they start at i).

    Parameters
    ----------
    state : ScfgState
    w, i : int

    Returns
    -------
    int
    """
    j = i
    while j < w and state.work_i[EX_CLS, j] == state.work_i[EX_CLS, i]:
        j += 1
    return j


@kernel
def world_log_weight(state, w):
    """log p of the option the world's EX_DN row describes, up to a factor common to every
    option of the move: per restaurant of the world, N_l log Poisson(l) − log α^(N_l) plus
    its rules' tables summed out given the restaurant's other tables
    (``seating.log_tables_summed``).

    Parameters
    ----------
    state : ScfgState (its world's EX_C and convolution rows used as work)
    w : int

    Returns
    -------
    float64
    """
    alpha, d = state.params[ALPHA], state.params[DISCOUNT]
    total = 0.0
    i = 0
    while i < w:
        j = restaurant_end(state, w, i)
        c = state.work_i[EX_CLS, i]
        n_add, t_in = 0, 0
        for q in range(i, j):
            state.work_i[EX_C, q] = state.work_i[EX_N, q] + state.work_i[EX_DN, q]
            n_add += state.work_i[EX_DN, q]
            t_in += state.work_i[EX_T, q]
        big_n = state.cls_n[c] + n_add
        total += big_n * state.log_pois[c] - (math.lgamma(alpha + big_n) - math.lgamma(alpha))
        total += seating.log_tables_summed(
            state.work_i[EX_C, i:j], state.work_f[EX_P0, i:j], state.log_stirling,
            state.work_i[TABLES, c] - t_in, alpha, d, state.work_f[i:j])
        i = j
    return total


@kernel
def seat_rule(rng, state, key, t):
    """Give rule ``key`` t tables: u = 1 at a uniformly random t of its occurrences (given
    t_r, which of them opened a table is uniform: the chain's seating is (z, t)).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated (u, work_i's TABLES)
    key : int64
    t : int
    """
    slot = hash_table.find(state.slot_key, key)
    if slot < 0:
        return
    c = rule_class(state, key)
    need, left = t, state.slot_size[slot]
    v = state.slot_head[slot]
    while v >= 0:
        take = 1 if rng.random() * left < need else 0
        state.work_i[TABLES, c] += take - state.u[v]
        state.u[v] = take
        need -= take
        left -= 1
        v = state.item_next[v]


@kernel
def world_seat(rng, state, w):
    """Draw the tables of the world's rules (after the move: their counts read again) from
    their exact conditional, restaurant by restaurant (``seating.draw_tables``); the pending
    rules, all in the world, are pending no more.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated
    w : int
        A world from ``world_open`` (its rules' order and restaurants).
    """
    alpha, d = state.params[ALPHA], state.params[DISCOUNT]
    scratch = state.work_f[SCRATCH]
    for i in range(w):
        state.work_i[EX_N, i] = count_of(state, state.work_i[EX_KEY, i])
        state.work_i[EX_T, i] = rule_tables(state, state.work_i[EX_KEY, i])
    i = 0
    while i < w:
        j = restaurant_end(state, w, i)
        t_in = 0
        for q in range(i, j):
            t_in += state.work_i[EX_T, q]
        seating.draw_tables(
            rng, state.work_i[EX_N, i:j], state.work_f[EX_P0, i:j], state.log_stirling,
            state.work_i[TABLES, state.work_i[EX_CLS, i]] - t_in, alpha, d, state.work_f[i:j],
            scratch, state.work_i[EX_C, i:j])
        for q in range(i, j):
            seat_rule(rng, state, state.work_i[EX_KEY, q], state.work_i[EX_C, q])
        i = j
    state.work_i[META, 0] = 0


@kernel
def pend_add(state, key):
    """Make rule ``key`` pending (its tables summed out until a move draws them). When the
    list is full, the pending rules no longer in use leave it (they have no tables).

    Parameters
    ----------
    state : ScfgState, mutated (work_i's PEND and META rows)
    key : int64
    """
    k = state.work_i[META, 0]
    for j in range(k):
        if state.work_i[PEND, j] == key:
            return
    if k == state.work_i[PEND].shape[0]:
        kept = 0
        for j in range(k):
            if count_of(state, state.work_i[PEND, j]) > 0:
                state.work_i[PEND, kept] = state.work_i[PEND, j]
                kept += 1
        k = kept
    state.work_i[PEND, k] = key
    state.work_i[META, 0] = k + 1


@kernel
def exact_cut_weights(state, n, w):
    """TOKEN's cut at node n with exact seating: w[0] ∝ p(uncut), w[1] ∝ p(cut), the tables of
    r₁, r₂, r₃ (and of the pending rules) summed out given the others' — the site's own
    occurrences taken away first.

    Parameters
    ----------
    state : ScfgState (its world used as work)
    n : int
    w : float64[≥ 2]
        Output.
    """
    k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
    cut = np.int64(state.cut[n])
    m = world_put(state, 0, k1, p1, cut - 1)
    m = world_put(state, m, k2, p2, -cut)
    m = world_put(state, m, k3, p3, -cut)
    m = world_open(state, m)
    world_put(state, m, k1, p1, 1)
    w0 = world_log_weight(state, m)
    world_put(state, m, k1, p1, -1)
    world_put(state, m, k2, p2, 1)
    world_put(state, m, k3, p3, 1)
    w1 = world_log_weight(state, m)
    top = max(w0, w1)
    w[0], w[1] = np.exp(w0 - top), np.exp(w1 - top)


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


@kernel
def exact_log_g(state, s0, size, log_g):
    """TYPE's g(m) − g(0) in logs with exact seating: the block's type's three rules (and
    the pending ones) with their tables summed out, for m = 0 … size cut sites.

    Parameters
    ----------
    state : ScfgState, the block removed (its world used as work)
    s0, size : int
    log_g : float64[≥ size + 1]
        Output.
    """
    m = 0
    for j in range(3):
        m = world_put(state, m, state.type_key[s0, j], state.type_logp0[s0, j], 0)
    m = world_open(state, m)
    k1, p1 = state.type_key[s0, T1], state.type_logp0[s0, T1]
    k2, p2 = state.type_key[s0, T2], state.type_logp0[s0, T2]
    k3, p3 = state.type_key[s0, T3], state.type_logp0[s0, T3]
    world_put(state, m, k1, p1, size)
    for cuts in range(size + 1):
        log_g[cuts] = world_log_weight(state, m)
        world_put(state, m, k1, p1, -1)
        world_put(state, m, k2, p2, 1)
        world_put(state, m, k3, p3, 1)
    top = log_g[0]
    for cuts in range(size + 1):
        log_g[cuts] -= top
