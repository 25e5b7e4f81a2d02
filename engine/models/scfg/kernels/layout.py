"""The SCFG sampler's state (``ScfgState``) and the constants that lay out its flat arrays: the
rule keys' bits, the parameters' slots, the work rows. The package's docstring says what the
state means.
"""
from collections import namedtuple

import numpy as np

from engine.core.jit import inline
from engine.kernels.interface import for_state


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


T1, T2, T3 = 0, 1, 2  # columns of type_key and type_logp0: r₁, r₂, r₃


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
