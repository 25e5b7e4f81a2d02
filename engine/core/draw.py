"""Random draws inside kernels. The Generator is always the first argument."""
import math

import numpy as np

from engine.core.jit import kernel


@kernel
def draw_log_weights(rng, log_w, n):
    """Draw an index i < n with probability ∝ exp(log_w[i]).

    Parameters
    ----------
    rng : numpy.random.Generator
    log_w : float64[>= n]
        Unnormalised log-weights; only the first n are used; −inf means weight 0.
    n : int

    Returns
    -------
    int
        The drawn index.
    """
    return pick_log_weight(rng.random(), log_w, n)


@kernel
def pick_log_weight(u, log_w, n):
    """The index i < n where u ∈ [0, 1) falls when the weights exp(log_w[:n]) are laid end to
    end and scaled to 1 (a draw ∝ exp(log_w) when u is uniform; −inf means weight 0)."""
    top = -np.inf
    for i in range(n):
        if log_w[i] > top:
            top = log_w[i]
    total = 0.0
    for i in range(n):
        total += math.exp(log_w[i] - top)
    u = u * total
    last = 0
    for i in range(n):
        if log_w[i] == -np.inf:
            continue
        last = i
        u -= math.exp(log_w[i] - top)
        if u < 0.0:
            return i
    return last  # only reached through rounding: the last index with positive weight


@kernel
def pick_largest(log_w, n):
    """The index of the largest of log_w[:n] (the first when tied): the maximising 'draw'."""
    best = 0
    for i in range(1, n):
        if log_w[i] > log_w[best]:
            best = i
    return best


@kernel
def draw_weights(rng, w, n):
    """Draw an index i < n with probability ∝ w[i] (linear scale, w >= 0, not all 0)."""
    total = 0.0
    for i in range(n):
        total += w[i]
    u = rng.random() * total
    last = 0
    for i in range(n):
        if w[i] <= 0.0:
            continue
        last = i
        u -= w[i]
        if u < 0.0:
            return i
    return last


@kernel
def random_subset(rng, n, m, chosen):
    """Choose m of n items uniformly at random (selection sampling, Knuth's Algorithm S).

    Parameters
    ----------
    rng : numpy.random.Generator
    n, m : int
        0 <= m <= n.
    chosen : uint8[>= n]
        Output, written in place: chosen[i] = 1 for the m chosen items, 0 for the rest.
    """
    needed = m
    for i in range(n):
        # item i is taken with probability (still needed) / (still left)
        if rng.random() * (n - i) < needed:
            chosen[i] = 1
            needed -= 1
        else:
            chosen[i] = 0


@kernel
def random_index(rng, n):
    """A uniform integer in 0 … n − 1. (Generator.integers needs reference counting, which
    kernels go without; the float's granularity biases the draw by less than n / 2^53.)"""
    return min(np.int64(rng.random() * n), n - 1)


@kernel
def random_permutation(rng, order):
    """Shuffle order (int64[n]) in place: a uniformly random permutation (Fisher–Yates)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = random_index(rng, i + 1)
        order[i], order[j] = order[j], order[i]
