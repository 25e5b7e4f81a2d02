"""Resampling a weighted population (Doucet, Godsill & Andrieu 2000; Börschinger & Johnson 2011 §5).

``offspring`` draws how many copies of each particle the next population holds; ``ancestry``
turns the counts into a plan that copies as few particles as possible: a particle with at least
one copy keeps its place, and its extra copies overwrite particles that have none; a model's
particles, one row a particle in pooled arrays, copy theirs with ``copy_row``.
"""
import numpy as np

from engine.core.jit import kernel

SCHEMES = ("multinomial", "systematic")


def effective_sample_size(weights):
    """Eq. 12: 1 / Σ w², for normalised weights."""
    return 1.0 / float(np.sum(np.square(weights)))


def offspring(rng, weights, scheme):
    """How many copies of each particle to keep (int64[N], summing to N), given normalised
    weights.

    multinomial: N independent draws from the weights. systematic: one uniform u, the N points
    (u + i) / N against the weights' cumulative sums, so particle l gets ⌊N w_l⌋ or ⌈N w_l⌉
    copies (lower variance, the same expectation N w_l).
    """
    n = len(weights)
    if scheme == "multinomial":
        return rng.multinomial(n, weights / weights.sum()).astype(np.int64)
    if scheme == "systematic":
        edges = np.cumsum(weights)
        edges /= edges[-1]
        points = (rng.random() + np.arange(n)) / n
        chosen = np.minimum(np.searchsorted(edges, points, side="right"), n - 1)
        return np.bincount(chosen, minlength=n).astype(np.int64)
    raise ValueError(f"resampling is {' or '.join(SCHEMES)}, not {scheme!r}")


def ancestry(counts):
    """(ancestors, sources, targets) for offspring ``counts``: ancestors[l] is the particle the
    new particle l copies (l itself when it survives); the copies to make are sources[i] →
    targets[i], and no target is a source."""
    ancestors = np.arange(len(counts))
    empty = np.flatnonzero(counts == 0)
    extra = np.repeat(np.arange(len(counts)), np.maximum(counts - 1, 0))
    ancestors[empty] = extra
    return ancestors, extra, empty


@kernel
def copy_row(array, a, b, used):
    """Particle a's row over particle b's in a pooled array: array[b, :used] = array[a, :used].

    Parameters
    ----------
    array : any dtype[N, ≥ used]
        Mutated (row b).
    a, b : int
        The source and target particles.
    used : int
        The entries of the row in use.
    """
    for x in range(used):
        array[b, x] = array[a, x]
