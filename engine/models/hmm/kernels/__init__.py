"""The Bayesian HMM of Liang et al. §3 / Gao & Johnson §2 behind the model interface.

States 1 … K tag the tokens; state 0 is the boundary that starts and ends every sentence and
emits nothing. Every state's transitions (over the K + 1 outcomes 0 … K) have a symmetric
Dirichlet(α) prior; states 1 … K emit word types under a symmetric Dirichlet(α′). Collapsed,
p(z, w) is eq. 3 with one restaurant per transition row and per emission row.

Sites are tokens; a site's value v = 0 … K − 1 is state v + 1. A site's type is (previous
state, next state, word) (§4.2); the type → sites index is a hash table of doubly-linked lists
(engine.core.keyed_lists) updated in O(1) when a state changes: only the two neighbours'
types depend on it (once TYPE has built it: ``typed``).

The kernels, one idea a module, each importing only those before it: ``layout`` (the state
and its arrays), ``counts``, ``neighbours`` (a token's neighbours and type), ``token_moves`` and
``type_blocks`` (TOKEN's and TYPE's sides of the interface), and ``scoring``. The model's
``kernel_modules`` name those whose import registers its interface implementations
(``for_state``).
"""
