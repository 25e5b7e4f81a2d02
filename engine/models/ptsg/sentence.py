"""SENTENCE for the tree-substitution grammar: every cut of one tree in one move.

With tree u taken out, a proposal q holds the other trees' counts n fixed and scores a
fragmentation of u as a product over its fragments,

    q(f) = (n_f [depth(f) ≤ DEPTH] + α μ_f) / (n_X + α),

so that an inside pass over u's nodes sums q over all 2^(sites) fragmentations: the base's part
α μ_f factorises over the fragment's nodes (a rule, then 1 − s for a node inside, s for a
frontier node), and the counts' part is a sum over the fragments of depth ≤ DEPTH rooted at a
node, which are few (at most 25 on a binary tree) and are looked up in the index by their keys.
A fragment deeper than DEPTH keeps only its base part in q: q is then no longer the frozen-count
predictive for it, which the Metropolis-Hastings step corrects, as it corrects the counts being
frozen within the tree (Cohn & Blunsom 2010's blocked sampler builds the same kind of proposal
from a grammar transform). The exact probability p updates the counts fragment by fragment.

A pattern is a fragment rooted at a node, down to depth d: each child of a node inside it is a
frontier or goes on. ``patterns(d, n)`` are built from the children's of depth d − 1; depths 1,
2 and 3 are kept per node (1, ≤ 4 and ≤ 25 of them), with each one's key (as kernels.own_key
would compute it), log μ and the summed log inside weight of its frontier nodes.
"""
import numpy as np

from engine.core.draw import draw_log_weights
from engine.kernels import interface, sentence
from engine.core.jit import inline
from engine.models.ptsg.kernels.counts import count_of, file_fragment
from engine.models.ptsg.kernels.keys import node_key, own_key
from engine.models.ptsg.kernels.layout import FRONTIER, NO_CHILD, implements
from engine.models.ptsg.kernels.weights import log_term

DEPTH = 3  # the counts' part of q covers fragments this deep (a node and two levels below)
OFFSET = (0, 0, 1, 5)  # where the patterns of depth 1, 2, 3 start in a node's row
WIDTH = 30  # 1 + 4 + 25: a node's row of patterns
ROOT_MODE, PATTERN_MODE, BASE_MODE = 0, 1, 2  # what a node on the sampling stack is


@implements(interface.n_sentences)
def _n_sentences(state):
    """interface.n_sentences: the trees.

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    int
    """
    return state.tree_start.shape[0] - 1


@implements(interface.sentence_sites)
def _sentence_sites(state, u):
    """interface.sentence_sites: tree u's nodes but its root, tree_start[u] − u …
    tree_start[u + 1] − u − 2 (each earlier tree's root is no site).

    Parameters
    ----------
    state : PtsgState
    u : int

    Returns
    -------
    (int, int)
        start, stop.
    """
    return state.tree_start[u] - u, state.tree_start[u + 1] - u - 1


@implements(interface.sentence_remove)
def _sentence_remove(rng, state, u):
    """interface.sentence_remove: the tree's fragments uncounted one by one; each contributes
    its predictive given the counts left, (n_f − 1 + α μ_f) / (n_X − 1 + α).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        Mutated (cuts and keys stay).
    u : int

    Returns
    -------
    float
    """
    log_p = 0.0
    for r in range(state.tree_start[u], state.tree_start[u + 1]):
        if state.cut[r]:
            file_fragment(state, r, -1)
            log_p += predictive(state, r)
    return log_p


@inline
def predictive(state, r):
    """log (n_f + α μ_f) / (n_X + α) of the fragment rooted at r, from the counts now held.

    Parameters
    ----------
    state : PtsgState
    r : int

    Returns
    -------
    float64
    """
    return (log_term(state.params[1] + state.mu_in[r], count_of(state, state.h_in[r]))
            - np.log(state.params[0] + state.n_root[state.label[r]]))


@implements(interface.sentence_add)
def _sentence_add(rng, state, u, values):
    """interface.sentence_add: the cuts set, the tree's keys refilled, its fragments counted
    one by one in preorder.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        Mutated.
    u : int
    values : int64[≥ the tree's sites]

    Returns
    -------
    float
    """
    set_cuts(state, u, values)
    log_p = 0.0
    for r in range(state.tree_start[u], state.tree_start[u + 1]):
        if state.cut[r]:
            log_p += predictive(state, r)
            file_fragment(state, r, 1)
    return log_p


@inline
def set_cuts(state, u, values):
    """Tree u's cuts from ``values`` (its sites in order) and every node's key and log μ.

    Parameters
    ----------
    state : PtsgState
        cut, h_in, mu_in written for the tree's nodes.
    u : int
    values : int64[≥ the tree's sites]
    """
    first, last = state.tree_start[u], state.tree_start[u + 1]
    for i in range(last - first - 1):
        state.cut[first + 1 + i] = values[i]
    for n in range(last - 1, first - 1, -1):
        state.h_in[n], state.mu_in[n] = own_key(state, n)


@implements(interface.sentence_restore)
def _sentence_restore(rng, state, u, values):
    """interface.sentence_restore by re-adding (sentence.restore_by_readding): the tree's
    analysis is its cuts.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        Mutated.
    u : int
    values : int64[≥ the tree's sites]
    """
    sentence.restore_by_readding(rng, state, u, values)


@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    """interface.sentence_work_size: the inside pass's rows for the largest tree (``work_length``).

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    int
    """
    return work_length(largest_tree(state))


@inline
def largest_tree(state):
    """The most nodes of any tree.

    Parameters
    ----------
    state : PtsgState

    Returns
    -------
    int
    """
    largest = 0
    for u in range(state.tree_start.shape[0] - 1):
        largest = max(largest, state.tree_start[u + 1] - state.tree_start[u])
    return largest


@inline
def work_length(size):
    """float64 entries of the work buffer for a tree of ``size`` nodes: log I, log E and the
    depth in use per node, then per node a row of WIDTH patterns' log μ, frontier log weight
    and count, and a draw's WIDTH + 1 log weights.

    Parameters
    ----------
    size : int

    Returns
    -------
    int
    """
    return size * (3 + 3 * WIDTH) + WIDTH + 1


# --- the inside pass ------------------------------------------------------------------------------
@inline
def log_add(a, b):
    """log(e^a + e^b).

    Parameters
    ----------
    a, b : float64

    Returns
    -------
    float64
    """
    top = max(a, b)
    if top == -np.inf:
        return top
    return top + np.log(np.exp(a - top) + np.exp(b - top))




@inline
def n_patterns(state, n, d):
    """How many patterns of depth ≤ d node n roots: one under a preterminal or at depth 1,
    four at depth 2, and at depth 3 (1 + the left child's of depth 2)(1 + the right one's).

    Parameters
    ----------
    state : PtsgState
    n, d : int

    Returns
    -------
    int
    """
    if d == 1 or state.left[n] < 0:
        return 1
    if d == 2:
        return 4
    left_2 = 1 if state.left[state.left[n]] < 0 else 4
    right_2 = 1 if state.left[state.right[n]] < 0 else 4
    return (1 + left_2) * (1 + right_2)


@inline
def option(state, work, size, first, c, d, o):
    """(key, log μ, frontier log weight) that child c gives a pattern of depth d of its parent
    under option o: 0 a frontier (c roots a fragment of its own), o ≥ 1 c's pattern o − 1 of
    depth d − 1.

    Parameters
    ----------
    state : PtsgState
    work : float64[work_length(size)]
        The rows filled for c.
    size, first : int
        The tree's nodes and its first node.
    c, d, o : int

    Returns
    -------
    (int64, float64, float64)
    """
    i = c - first
    label = state.label[c]
    if o == 0:
        return FRONTIER, state.log_stop[label], work[i]
    k = i * WIDTH + OFFSET[d - 1] + o - 1
    return (state.pattern_key[k], state.log_go[label] + work[3 * size + k],
            work[3 * size + size * WIDTH + k])


@inline
def fill_row(state, work, size, first, n):
    """Node n's patterns of depths 1–3, their counts, log E(n) and log I(n), its children's
    rows filled.

    E(n): the base's sum over the fragments that go on through n (n's rule, then for each
    child s · I(child) + (1 − s) · E(child)); I(n): the proposal's sum over the
    fragmentations below n with n a fragment's root, (α E(n) + Σ_f n_f Π I(frontier)) /
    (n_X + α) over n's patterns f of depth ≤ DEPTH.

    Parameters
    ----------
    state : PtsgState
        pattern_key written.
    work : float64[work_length(size)]
        Written: n's row.
    size, first : int
    n : int
    """
    i = n - first
    mu_row, fsum_row, count_row = 3 * size + i * WIDTH, 3 * size + (size + i) * WIDTH, \
        3 * size + (2 * size + i) * WIDTH
    left, right = state.left[n], state.right[n]
    if left < 0:
        for d in range(1, 4):
            state.pattern_key[i * WIDTH + OFFSET[d]] = node_key(state.rule[n], NO_CHILD,
                                                                NO_CHILD)
            work[mu_row + OFFSET[d]] = state.log_rule[n]
            work[fsum_row + OFFSET[d]] = 0.0
        log_e = state.log_rule[n]
    else:
        for d in range(1, 4):
            n_right = 1 if d == 1 else 1 + n_patterns(state, right, d - 1)
            n_left = 1 if d == 1 else 1 + n_patterns(state, left, d - 1)
            for ol in range(n_left):
                key_l, mu_l, fsum_l = option(state, work, size, first, left, d, ol)
                for o_r in range(n_right):
                    key_r, mu_r, fsum_r = option(state, work, size, first, right, d, o_r)
                    k = OFFSET[d] + ol * n_right + o_r
                    state.pattern_key[i * WIDTH + k] = node_key(state.rule[n], key_l, key_r)
                    work[mu_row + k] = state.log_rule[n] + mu_l + mu_r
                    work[fsum_row + k] = fsum_l + fsum_r
        log_e = state.log_rule[n]
        for c in (left, right):
            label = state.label[c]
            log_e += log_add(state.log_stop[label] + work[c - first],
                             state.log_go[label] + work[size + c - first])
    work[size + i] = log_e
    log_i = state.params[1] + log_e
    for k in range(n_patterns(state, n, DEPTH)):
        count = count_of(state, state.pattern_key[i * WIDTH + OFFSET[DEPTH] + k])
        work[count_row + OFFSET[DEPTH] + k] = count
        if count > 0:
            log_i = log_add(log_i, np.log(count) + work[fsum_row + OFFSET[DEPTH] + k])
    work[i] = log_i - np.log(state.params[0] + state.n_root[state.label[n]])


@inline
def log_q(state, work, size, first):
    """log q of the tree's fragmentation as its cuts and keys stand (the tree taken out):
    Σ over its fragments of log (n_f [depth ≤ DEPTH] + α μ_f) / (n_X + α), less log I(root).

    Parameters
    ----------
    state : PtsgState
    work : float64[work_length(size)]
        The inside pass done; the depth row written.
    size, first : int

    Returns
    -------
    float64
    """
    depth_row = 2 * size
    for n in range(first + size - 1, first - 1, -1):
        depth = 1
        if state.left[n] >= 0:
            for c in (state.left[n], state.right[n]):
                if not state.cut[c]:
                    depth = max(depth, 1 + int(work[depth_row + c - first]))
        work[depth_row + n - first] = depth
    total = -work[0]
    for r in range(first, first + size):
        if state.cut[r]:
            count = count_of(state, state.h_in[r]) if work[depth_row + r - first] <= DEPTH \
                else np.int64(0)
            total += (log_term(state.params[1] + state.mu_in[r], count)
                      - np.log(state.params[0] + state.n_root[state.label[r]]))
    return total


@inline
def push(stack, top, n, mode, pattern):
    """Put (node, mode, pattern) on the sampling stack; return the new top.

    Parameters
    ----------
    stack : int64[≥ top + 3]
        Mutated.
    top, n, mode, pattern : int
        The stack's top; the node, what it is (ROOT_MODE, PATTERN_MODE, BASE_MODE) and, for a
        pattern, depth × WIDTH + its index.

    Returns
    -------
    int
    """
    stack[top], stack[top + 1], stack[top + 2] = n, mode, pattern
    return top + 3


@inline
def draw_fragmentation(rng, state, work, size, first, new):
    """Draw the tree's cuts from q top-down: at a fragment's root, one of its patterns of depth
    ≤ DEPTH (∝ n_f Π I(frontier)) or the base (∝ α E); inside a base fragment, each child a
    frontier (∝ s I) or going on (∝ (1 − s) E).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        tree_stack used as work.
    work : float64[work_length(size)]
        The inside pass done.
    size, first : int
    new : int64[≥ size − 1]
        Output: the tree's sites' values.
    """
    stack = state.tree_stack
    draw = work[3 * size + 3 * size * WIDTH:]
    top = push(stack, 0, first, ROOT_MODE, 0)
    while top > 0:
        top -= 3
        n, mode, pattern = stack[top], stack[top + 1], stack[top + 2]
        i = n - first
        if mode == ROOT_MODE:
            n_top = n_patterns(state, n, DEPTH)
            for k in range(n_top):
                count = work[3 * size + (2 * size + i) * WIDTH + OFFSET[DEPTH] + k]
                draw[k] = -np.inf if count == 0 else \
                    np.log(count) + work[3 * size + (size + i) * WIDTH + OFFSET[DEPTH] + k]
            draw[n_top] = state.params[1] + work[size + i]
            k = draw_log_weights(rng, draw, n_top + 1)
            top = push(stack, top, n, BASE_MODE if k == n_top else PATTERN_MODE,
                       DEPTH * WIDTH + k)
        elif state.left[n] >= 0 and mode == PATTERN_MODE:
            d, k = pattern // WIDTH, pattern % WIDTH
            n_right = 1 if d == 1 else 1 + n_patterns(state, state.right[n], d - 1)
            for c, o in ((state.left[n], k // n_right), (state.right[n], k % n_right)):
                new[c - first - 1] = 1 if o == 0 else 0
                top = push(stack, top, c, ROOT_MODE if o == 0 else PATTERN_MODE,
                           (d - 1) * WIDTH + o - 1)
        elif state.left[n] >= 0:  # BASE_MODE
            for c in (state.left[n], state.right[n]):
                label = state.label[c]
                stop = state.log_stop[label] + work[c - first]
                go = state.log_go[label] + work[size + c - first]
                frontier = rng.random() * (1.0 + np.exp(go - stop)) < 1.0
                new[c - first - 1] = 1 if frontier else 0
                top = push(stack, top, c, ROOT_MODE if frontier else BASE_MODE, 0)


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    """interface.sentence_proposal: the inside pass over tree u's nodes (children first), then
    a draw from q top-down. q is not tempered: the acceptance applies inv_temp to p alone,
    which keeps the move exact for p^inv_temp. The tree's cuts and keys are left as ``new``'s.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
        Tree u taken out; its cuts and keys are set to new's.
    u : int
    inv_temp : float64
    old : int64[≥ the tree's sites]
        The tree's values before the move (its cuts now).
    new : int64[≥ the tree's sites]
        Output.
    work : float64[sentence_work_size(state)]

    Returns
    -------
    (float, float)
        log q(new), log q(old).
    """
    first, last = state.tree_start[u], state.tree_start[u + 1]
    size = last - first
    for n in range(last - 1, first - 1, -1):
        fill_row(state, work, size, first, n)
    log_q_old = log_q(state, work, size, first)
    draw_fragmentation(rng, state, work, size, first, new)
    set_cuts(state, u, new)
    return log_q(state, work, size, first), log_q_old
