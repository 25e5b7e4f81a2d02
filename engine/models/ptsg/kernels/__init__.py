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

The kernels, one idea a module, each importing only those before it: ``layout`` (the state
and its arrays), ``keys``, ``counts`` (the fragment index), ``weights`` (eq. 4),
``site_moves`` (a site's value, out and back in) and ``type_blocks`` (TYPE). The model's
``kernel_modules`` name those whose import registers its interface implementations
(``for_state``).
"""
