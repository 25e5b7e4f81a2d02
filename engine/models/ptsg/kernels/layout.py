"""The PTSG state (``PtsgState``) and the constants of its flat arrays: the keys' frontier and
missing-child codes, the parameters' slots and the work rows. The package's docstring says what
the state means.
"""
from collections import namedtuple

import numpy as np

from engine.kernels import block_weight, interface
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


implements(interface.block_weights)(block_weight.rising_block_weights)
