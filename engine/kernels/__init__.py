"""The generic moves: Numba loops written once against the model interface. A model's own
kernels live in its folder (engine.models.<model>), shared numerics in engine.core.

- interface.py: the functions a model implements (stubs here, one numba overload per model);
- moves.py: TOKEN and TYPE moves and sweeps;
- block_weight.py: TYPE's block weight g(m) (eq. 7), and the Dirichlet-process family's;
- sentence.py: SENTENCE (blocked Metropolis-Hastings over a sentence);
- estimators.py: Gao & Johnson's explicit samplers, EM and variational Bayes;
- forward_backward.py: forward filtering, backward sampling and posterior marginals.
"""
