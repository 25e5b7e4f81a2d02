"""RNG plumbing: one numpy Generator per chain, never a global state."""
import numpy as np


def chain_rngs(seed, n_chains):
    """Independent Generators for n_chains chains, reproducible from one integer seed."""
    children = np.random.SeedSequence(seed).spawn(n_chains)
    return [np.random.Generator(np.random.PCG64(child)) for child in children]


def make_rng(seed):
    """The Generator of a single chain with this seed (the same as chain_rngs(seed, 1)[0])."""
    return chain_rngs(seed, 1)[0]
