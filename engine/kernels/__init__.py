"""Every @njit loop of the engine that is not shared numerics (those live in engine.core).

- interface.py: the functions a model implements (stubs here, one numba overload per model);
- moves.py: TOKEN and TYPE moves and sweeps, written once against that interface;
- sentence.py: SENTENCE (blocked Metropolis-Hastings over a sentence), likewise;
- toy.py, usm.py (and one module per later model): a model's implementation of the interface,
  with usm_sentence.py holding the USM's dynamic-programming proposal.
"""
