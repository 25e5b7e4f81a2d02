"""One module per model: data container, init(η), exact log-likelihood, measures.

Every model offers the same Python surface, which Run and the command line rely on:

- ``new_state(rng, **init)`` → a state (namedtuple of arrays) the kernels implement;
- ``loglik(state)`` → exact collapsed log-probability recomputed from the assignment alone;
- ``loglik_running(state)`` → the same from the running counts (tests compare the two);
- ``measures(state)`` → dict of the model's figures for the trace (accuracy, m, …);
- ``values(state)`` → every site's value in site order (for ``--samples``).
"""
