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

The kernels, one idea a module, each importing only those before it: ``layout`` (the state
and its arrays), ``rules`` (keys and P₀), ``counts``, ``tables`` (exact seating), ``trees``,
``edge`` (eq. 9), ``token_cut`` (eq. 8), ``structure`` (the FOREST functions), and TYPE's
``type_sites``, ``type_blocks`` and ``type_weights`` (eqs. 10–11). The model's
``kernel_modules`` name the five whose import registers its interface implementations
(``for_state``).
"""
