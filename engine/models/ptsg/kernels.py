"""The probabilistic tree-substitution grammar (PTSG) of Liang et al. §3–4 behind the model
interface.

The corpus is a treebank of binarised trees with their nodes in one flat array (each tree's
nodes consecutive, in preorder). A *site* is a node that is not a tree's root; b_s = 1 (``cut``)
roots a fragment at s, b_s = 0 makes s an inner node of the fragment above it. A tree's root is
always cut. Each fragment f rooted at a node labelled X is a draw from θ_X ~ DP(α, μ_X), with
Cohn, Goldwater & Blunsom's base: the PCFG probabilities of the fragment's rules, times the stop
probability s_Y of each non-root nonterminal node on its frontier and 1 − s_Y of each expanded
one. Marginalising θ gives eq. 3.

Fragments are named by a 63-bit hash of their structure. ``h_in[n]`` is the key of the fragment
that would be rooted at n — from n down to the cut nodes below it — mixed from the rule at each
node and its children's keys (FRONTIER for a cut child), and ``mu_in[n]`` its log μ. Both are
kept for every node, cut or not, so the keys of the fragments around a site are one walk up to
the root of its fragment. Two different fragments share a key with probability about 2⁻⁶³ per
pair (the same assumption as ``engine.core.word_hash``'s keys).

The fragments in use are filed by key in ``engine.core.keyed_lists``: key → the nodes rooting an
occurrence of it. A list's size is the count n_f, and any of its nodes gives μ_f (its mu_in)
and the DP (its label). TYPE finds the sites of a pivot's type — (merged M, upper U, lower L) —
through the lists of L and M (§4.4: "a similar strategy" to the USM's word lists).
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.prefetch import prefetch
from engine.core.jit import inline, kernel
from engine.core.keyed_lists import file_item, unfile_item
from engine.kernels import block_weight, interface, moves
from engine.kernels.interface import for_state

# splitmix64's constants: mixing a node's rule with its children's keys
MIX_RULE = np.uint64(0x9E3779B97F4A7C15)
MIX_LEFT = np.uint64(0xBF58476D1CE4E5B9)
MIX_RIGHT = np.uint64(0x94D049BB133111EB)
KEY_BITS = np.uint64(0x7FFFFFFFFFFFFFFF)  # keys are non-negative int64 (keyed_lists)
FRONTIER = np.int64(0x2545F4914F6CDD1D)  # a cut child's part in its parent's key
NO_CHILD = np.int64(0x5851F42D4C957F2D)  # a preterminal's children's part
# a base α μ_f below e⁻³⁰ (with no customer yet) is handed to block_weight as its log: next to
# any count k ≥ 1 it vanishes, and in linear form several of them would underflow
TINY_LOG = -30.0
M_KEY, U_KEY, L_KEY = 0, 1, 2  # entries of type_key and type_mu

CORPUS_FIELDS = ("parent", "left", "right", "label", "rule", "log_rule", "node_site",
                 "site_node", "tree_start", "log_stop", "log_go", "params")

PtsgState = namedtuple("PtsgState", CORPUS_FIELDS + (
    "cut", "h_in", "mu_in", "slot_key", "slot_head", "slot_size", "item_next", "item_prev",
    "n_root", "gone", "type_key", "type_mu", "type_root", "gathering",
    "aside", "stack", "pattern_key", "tree_stack"))
PtsgState.__doc__ = """State of the PTSG: the treebank (shared by copies) and its fragmentation.

N nodes, S sites, L nonterminal labels, C index slots (the power of two above N).

parent : int32[N]        the parent node, −1 at a tree's root
left, right : int32[N]   the children, −1 at a preterminal (its word is in its rule); in
                         preorder left[n] = n + 1 (TYPE's walks rely on it)
label : int64[N]         the node's nonterminal, 0 … L − 1
rule : int64[N]          the PCFG rule at the node (label → children's labels, or → word)
log_rule : float64[N]    its log probability under the treebank's PCFG
node_site : int32[N]     the node's site, −1 at a root
site_node : int32[S]     the site's node
tree_start : int64[T + 1]   tree t's nodes: tree_start[t] … tree_start[t + 1] − 1, in preorder
log_stop, log_go : float64[L]   log s_X and log(1 − s_X) of the base
params : float64[2]      α and log α
cut : uint8[N]           b at each node (1 at every root)
h_in : int64[N]          key of the fragment that n would root (down to the cuts below n)
mu_in : float64[N]       its log μ
slot_key, slot_head, slot_size : int64[C]   the fragment index: key → its occurrences' roots
item_next, item_prev : int32[N]             the index's links (items are root nodes)
n_root : int64[L]        fragments in use per root label (n_X, the DP's customers)
gone : int32[N]          how many removed sites took out the fragment rooted at the node, or
                         are the node's own (so a removed site's node is gone)
type_key : int64[3]      the type (M, U, L) of the site removed last alone or as a TYPE pivot
                         (one at a time: site_weights and the block's kernels read it)
type_mu : float64[3]     their log μ
type_root : int64[1]     its fragment root (of M, or of U)
gathering : uint8[1]     1 from block_candidates to the next add_site: the sites removed meanwhile
                         are of the pivot's type
aside : int64[2]         removed sites, by value (remove_site)
stack : int64[N]         work: the way down a fragment to a pivot
pattern_key : int64[Z · 30]   SENTENCE's work: the keys of each node's patterns (Z: the
                         largest tree's nodes; sentence.py)
tree_stack : int64[3 Z]  SENTENCE's work: its sampling stack

The links between nodes, the maps between sites and nodes, the index's lists and ``gone`` are
32-bit: TYPE reads them all over the treebank, and halving their bytes took 5–10 % off its
sweep each time (docs/benchmarks.md).
"""

implements = for_state(PtsgState, inlined=("add_site", "block_candidates"))


# --- keys ---------------------------------------------------------------------------------------
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


# --- the index and counts -------------------------------------------------------------------------
@inline
def count_of(state, key):
    """n_f of the fragment with ``key`` (0 when none is in use).

    Parameters
    ----------
    state : PtsgState
    key : int64

    Returns
    -------
    int64
    """
    return slot_count(state, hash_table.find(state.slot_key, key))


@inline
def slot_count(state, slot):
    """n_f of the fragment in the index's ``slot`` (0 when −1: none in use).

    Parameters
    ----------
    state : PtsgState
    slot : int

    Returns
    -------
    int64
    """
    return state.slot_size[slot] if slot >= 0 else np.int64(0)


@inline
def file_fragment(state, root, sign):
    """Count (sign = +1) or uncount (−1) the fragment rooted at ``root`` under its key
    h_in[root], filing it in (taking it out of) the index.

    Parameters
    ----------
    state : PtsgState
        Index and n_root mutated.
    root : int
    sign : int
    """
    if sign > 0:
        file_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                  state.item_prev, state.h_in[root], root)
    else:
        unfile_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                    state.item_prev, state.h_in[root], root)
    state.n_root[state.label[root]] += sign


@kernel
def count_all(state):
    """File every fragment of the cuts (an empty index and n_root to start from).

    Parameters
    ----------
    state : PtsgState
        Index and n_root written.
    """
    for n in range(state.parent.shape[0]):
        if state.cut[n]:
            file_fragment(state, n, 1)


# --- eq. 4 --------------------------------------------------------------------------------------
@inline
def log_term(log_alpha_mu, n):
    """log(n + α μ), from log α μ (which may be far below any float).

    Parameters
    ----------
    log_alpha_mu : float64
    n : int

    Returns
    -------
    float64
    """
    if n == 0:
        value = log_alpha_mu
    else:
        value = np.log(n + np.exp(log_alpha_mu))
    return value


@inline
def weigh(state, w, mu_m, mu_u, mu_l, n_m, n_u, n_l, same, n_x):
    """w[0], w[1] ∝ p(b_s = 0 / 1 | rest) (eq. 4) from the counts without the site's own
    fragments, the shared 1 / (α + n_R) cancelled:

      b = 0 draws M from θ_R:               α μ_M + n_M
      b = 1 draws U from θ_R, then L from θ_X:
            (α μ_U + n_U) (α μ_L + n_L + [L = U]) / (α + n_X + [X = R])

    Parameters
    ----------
    state : PtsgState
    w : float64[≥ 2]
        Output.
    mu_m, mu_u, mu_l : float64
        log μ of M, U, L.
    n_m, n_u, n_l : int
        Their counts.
    same : bool
        L = U (the same fragment: drawn twice).
    n_x : int
        n_X + [X = R]: the draws from θ_X before L's.
    """
    log_alpha = state.params[1]
    log_w0 = log_term(log_alpha + mu_m, n_m)
    log_w1 = (log_term(log_alpha + mu_u, n_u) + log_term(log_alpha + mu_l, n_l + same)
              - np.log(state.params[0] + n_x))
    top = max(log_w0, log_w1)
    w[0] = np.exp(log_w0 - top)
    w[1] = np.exp(log_w1 - top)


@inline
def type_of(state, n):
    """The type of site node n in place: keys and log μ of M, U and L, and its fragment root.

    Parameters
    ----------
    state : PtsgState
    n : int

    Returns
    -------
    (int64, int64, int64, float64, float64, float64, int64)
        M, U, L, log μ_M, log μ_U, log μ_L, the root of M (or U).
    """
    r = fragment_root(state, n)
    key_l, mu_l = state.h_in[n], state.mu_in[n]
    if state.cut[n]:
        key_u, mu_u = state.h_in[r], state.mu_in[r]
        key_m, mu_m = key_above(state, n, 0)
    else:
        key_m, mu_m = state.h_in[r], state.mu_in[r]
        key_u, mu_u = key_above(state, n, 1)
    return key_m, key_u, key_l, mu_m, mu_u, mu_l, r


@inline
def weigh_in_place(state, w, key_m, key_u, key_l, mu_m, mu_u, mu_l, x, joined, cut):
    """eq. 4 (``weigh``) for one site of type (M, U, L) at a node labelled x whose fragments are
    still in the index: its own are discounted — M when joined (joined = 1), U and L when cut
    (cut = 1).

    Parameters
    ----------
    state : PtsgState
    w : float64[≥ 2]
        Output.
    key_m, key_u, key_l : int64
    mu_m, mu_u, mu_l : float64
    x : int
        The site's label.
    joined, cut : int
        1 − b_s and b_s.
    """
    same = key_u == key_l
    slot_m, slot_u, slot_l = hash_table.find_three(state.slot_key, key_m, key_u, key_l)
    n_m = slot_count(state, slot_m) - joined
    n_u = slot_count(state, slot_u) - cut - (cut if same else 0)
    n_l = n_u if same else slot_count(state, slot_l) - cut
    # n_X less the site's own draws from θ_X (L, and U or M when X = R), plus U's when X = R:
    # n_X − b in every case
    weigh(state, w, mu_m, mu_u, mu_l, n_m, n_u, n_l, same, state.n_root[x] - cut)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: eq. 4 from the index's counts, less the site's own fragments
    (U and L when cut, M when not); nothing is written.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    n = state.site_node[s]
    key_m, key_u, key_l, mu_m, mu_u, mu_l, _ = type_of(state, n)
    b = np.int64(state.cut[n])
    weigh_in_place(state, w, key_m, key_u, key_l, mu_m, mu_u, mu_l, state.label[n], 1 - b, b)


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights: eq. 4 for a removed site, the only one set aside, from the type
    it had in place.

    Parameters
    ----------
    state : PtsgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    weigh_in_place(state, w, state.type_key[M_KEY], state.type_key[U_KEY],
                   state.type_key[L_KEY], state.type_mu[M_KEY], state.type_mu[U_KEY],
                   state.type_mu[L_KEY], state.label[state.site_node[s]], state.aside[0],
                   state.aside[1])


# --- the site's values -------------------------------------------------------------------------
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


# --- TYPE -----------------------------------------------------------------------------------------
@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: whether a fragment that depends on b_s was taken out — the site
    itself, a removed site on the way up to its fragment's root, or a removed site elsewhere in
    the fragment above it (its root is gone) or, when s is cut, in the fragment it roots.

    Parameters
    ----------
    state : PtsgState
    s : int

    Returns
    -------
    bool
    """
    n = state.site_node[s]
    # gone[n] counts s itself when removed and, n being cut, the removed sites of the fragment
    # n roots (a node not cut roots none); a removed site on the way up, or at the fragment's
    # root, took that fragment out, which its root's gone counts: the way up reads only parent
    # and cut, and no array indexed by site is read (one line of memory less a candidate)
    return state.gone[n] > 0 or state.gone[fragment_root(state, n)] > 0


@inline
def path_from(state, root, n):
    """Write into ``stack`` the way down from ``root`` to its descendant n, one entry per step
    (1: to the left child, 0: to the right); return its length.

    Parameters
    ----------
    state : PtsgState or CandidateView
        stack written.
    root, n : int

    Returns
    -------
    int
    """
    k = 0
    c = n
    while c != root:
        k += 1
        c = state.parent[c]
    c = n
    for i in range(k - 1, -1, -1):
        p = state.parent[c]
        state.stack[i] = state.left[p] == c
        c = p
    return k


@inline
def follow(state, root, k):
    """The node reached from ``root`` by the way in stack[:k].

    Parameters
    ----------
    state : PtsgState or CandidateView
    root, k : int

    Returns
    -------
    int64
    """
    n = root
    for i in range(k):
        n = n + 1 if state.stack[i] else state.right[n]  # preorder: the left child is next
    return n


@inline
def climb(state, n, k):
    """The node from which the way in stack[:k] leads down to n, or −1 when n is not where
    that way ends (it is on the other side of some step, or too near its tree's root).

    Parameters
    ----------
    state : PtsgState or CandidateView
    n, k : int

    Returns
    -------
    int64
    """
    for i in range(k - 1, -1, -1):
        p = state.parent[n]
        if p < 0 or (p + 1 == n) != state.stack[i]:  # preorder: a left child follows its parent
            return -1
        n = p
    return n


# what block_candidates reads and writes: handed to its kernel instead of the whole state
CandidateView = namedtuple("CandidateView", (
    "parent", "left", "right", "node_site", "site_node", "cut", "h_in", "slot_key", "slot_head",
    "slot_size", "item_next", "gone", "type_key", "type_root", "gathering", "stack"))


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates (``find_candidates``), inlined into the moves: it hands its
    kernel the 16 arrays it needs (~110 machine words), not the whole state (~210), once a
    block.

    Parameters
    ----------
    state : PtsgState
    s0, out
        As find_candidates'.

    Returns
    -------
    int
    """
    view = CandidateView(state.parent, state.left, state.right, state.node_site,
                         state.site_node, state.cut, state.h_in, state.slot_key,
                         state.slot_head, state.slot_size, state.item_next, state.gone,
                         state.type_key, state.type_root, state.gathering, state.stack)
    return find_candidates(view, s0, out)


@kernel
def find_candidates(state, s0, out):
    """The sites of the removed pivot's type (M, U, L). A site of the type sits where the pivot
    sits in its fragment: the same way down from the fragment's root (keys identify fragments
    up to their shape, so an occurrence of M, or of U with L at the end of that way, has the
    site there, and no other: cutting one fragment at two different nodes gives two different
    uppers). The cut ones are found through the shorter of the lists of L and of U (a common
    lower part, a determiner's word, under a rare upper part is found from the upper's few
    occurrences), the others through the list of M; the pivot, set aside with its fragments in
    the index, is among them. Nothing is written for them but ``out`` (a row per candidate cost
    a third of a TYPE sweep on GUM: one more line of memory each, far apart): remove_site knows
    them by ``gathering``.

    Parameters
    ----------
    state : CandidateView
        stack used as work; gathering set.
    s0 : int
        The pivot, removed.
    out : int64[S]
        Output: the sites.

    Returns
    -------
    int
        How many.
    """
    key_m, key_u, key_l = state.type_key[M_KEY], state.type_key[U_KEY], state.type_key[L_KEY]
    state.gathering[0] = 1
    slot_l, slot_u, slot_m = hash_table.find_three(state.slot_key, key_l, key_u, key_m)
    k = path_from(state, state.type_root[0], state.site_node[s0])
    found = 0
    # Each list is walked one occurrence ahead (``ask_ahead``): the next occurrence's lines
    # are asked for before this one's are read, so the walk waits on memory about once an
    # occurrence instead of at each of its reads.
    if slot_l >= 0 and slot_u >= 0 and state.slot_size[slot_u] < state.slot_size[slot_l]:
        r = state.slot_head[slot_u]
        while r >= 0:
            after = ask_ahead(state, r)
            q = follow(state, r, k)
            if state.h_in[q] == key_l:
                out[found] = candidate(state, q, r)
                found += 1
            r = after
    elif slot_l >= 0 and slot_u >= 0:
        q = state.slot_head[slot_l]
        while q >= 0:
            after = ask_ahead(state, q)
            r = climb(state, q, k)
            if r >= 0 and state.cut[r] and state.h_in[r] == key_u:
                out[found] = candidate(state, q, r)
                found += 1
            q = after
    r = state.slot_head[slot_m] if slot_m >= 0 else -1
    while r >= 0:
        after = ask_ahead(state, r)
        q = follow(state, r, k)
        out[found] = candidate(state, q, r)
        found += 1
        r = after
    return found


@inline
def ask_ahead(state, n):
    """The occurrence after n in its list, with the lines a walk reads of it asked for now
    (``prefetch``): its link, its links down and up, its key and its mark — following a way
    down from it or climbing one from it starts there.

    Parameters
    ----------
    state : PtsgState or CandidateView
    n : int
        An occurrence in a list of the index.

    Returns
    -------
    int64
        The next occurrence, −1 at the list's end.
    """
    after = np.int64(state.item_next[n])
    if after >= 0:
        prefetch(state.item_next, after)
        prefetch(state.right, after)
        prefetch(state.parent, after)
        prefetch(state.h_in, after)
        prefetch(state.cut, after)
    return after


@inline
def candidate(state, q, r):
    """The site at node q, a candidate of the block gathered (r: the root of its fragment
    above), with the lines its move will read asked for now (``prefetch``): conflicts,
    remove_site and add_site read its node's marks and links and its fragment root's ``gone``,
    in a treebank-wide scatter that would otherwise wait on memory site by site.

    Parameters
    ----------
    state : PtsgState or CandidateView
    q, r : int

    Returns
    -------
    int64
    """
    s = state.node_site[q]
    prefetch(state.site_node, s)
    prefetch(state.gone, q)
    prefetch(state.gone, r)
    prefetch(state.cut, q)
    return np.int64(s)


implements(interface.block_weights)(block_weight.rising_block_weights)


@inline
def base_term(state, log_mu, n):
    """block_delta's base for a fragment's term n_f + α μ_f: its value or, when no customer
    has it and α μ_f is below e^TINY_LOG, its log (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : PtsgState
    log_mu : float64
    n : int

    Returns
    -------
    float64
    """
    log_alpha_mu = state.params[1] + log_mu
    if n == 0 and log_alpha_mu < TINY_LOG:
        value = log_alpha_mu
    else:
        value = n + np.exp(log_alpha_mu)
    return value


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 9's terms for the pivot's type — value 0 draws M from θ_R,
    value 1 draws U from θ_R and L from θ_X (one term when L = U, one denominator when
    X = R).

    Parameters
    ----------
    state : PtsgState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 5]
        Output: the terms.

    Returns
    -------
    int
        The number of terms (4 or 5).
    """
    key_m, key_u, key_l = state.type_key[M_KEY], state.type_key[U_KEY], state.type_key[L_KEY]
    x, root_label = state.label[state.site_node[s0]], state.label[state.type_root[0]]
    # the sites set aside still hold their fragments: joined ones an M each, cut ones a U and
    # an L (the same fragment twice when U = L), all rooted at R but the L's, rooted at X
    joined, cut = state.aside[0], state.aside[1]
    base[0] = base_term(state, state.type_mu[M_KEY], count_of(state, key_m) - joined)
    d0[0], d1[0], sign[0] = 1 - v0, 1 - v1, 1.0
    if key_u == key_l:
        base[1] = base_term(state, state.type_mu[U_KEY], count_of(state, key_u) - 2 * cut)
        d0[1], d1[1], sign[1] = 2 * v0, 2 * v1, 1.0
        j = 2
    else:
        base[1] = base_term(state, state.type_mu[U_KEY], count_of(state, key_u) - cut)
        d0[1], d1[1], sign[1] = v0, v1, 1.0
        base[2] = base_term(state, state.type_mu[L_KEY], count_of(state, key_l) - cut)
        d0[2], d1[2], sign[2] = v0, v1, 1.0
        j = 3
    n_r = state.n_root[root_label] - joined - cut
    if x == root_label:
        base[j] = state.params[0] + n_r - cut
        d0[j], d1[j], sign[j] = 1 + v0, 1 + v1, -1.0
        j += 1
    else:
        base[j] = state.params[0] + n_r
        d0[j], d1[j], sign[j] = 1, 1, -1.0
        base[j + 1] = state.params[0] + state.n_root[x] - cut
        d0[j + 1], d1[j + 1], sign[j + 1] = v0, v1, -1.0
        j += 2
    return j
