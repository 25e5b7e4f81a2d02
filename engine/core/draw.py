"""Random draws inside kernels. The Generator is always the first argument."""
import math

import numpy as np

from engine.core.jit import inline, kernel


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
    end and scaled to 1 (a draw ∝ exp(log_w) when u is uniform; −inf means weight 0).

    Parameters
    ----------
    u : float64
        In [0, 1).
    log_w : float64[≥ n]
        Unnormalised log-weights.
    n : int

    Returns
    -------
    int
    """
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
    """The index of the largest of log_w[:n] (the first when tied): the maximising 'draw'.

    Parameters
    ----------
    log_w : float64[≥ n]
    n : int

    Returns
    -------
    int
    """
    best = 0
    for i in range(1, n):
        if log_w[i] > log_w[best]:
            best = i
    return best


@kernel
def draw_weights(rng, w, n):
    """Draw an index i < n with probability ∝ w[i] (linear scale).

    Parameters
    ----------
    rng : numpy.random.Generator
    w : float64[≥ n]
        Weights ≥ 0, not all 0.
    n : int

    Returns
    -------
    int
    """
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
    kernels go without; the float's granularity biases the draw by less than n / 2^53.)

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        n ≥ 1.

    Returns
    -------
    int64
    """
    return min(np.int64(rng.random() * n), n - 1)


@kernel
def random_permutation(rng, order):
    """Shuffle ``order`` in place: a uniformly random permutation (Fisher–Yates).

    Parameters
    ----------
    rng : numpy.random.Generator
    order : int64[n]
        Mutated.
    """
    for i in range(order.shape[0] - 1, 0, -1):
        j = random_index(rng, i + 1)
        order[i], order[j] = order[j], order[i]


# Weights in scaled linear form, for draws from weights whose range overflows float64 without
# taking logs: weight i = w[i] · SCALE^k[i], w[i] in [1, SCALE). The entries with
# k ≤ K − 2 (K the largest k) are below the largest entry by a factor SCALE and are left out of
# the draw; a one-step ratio outside [STEP_MIN, STEP_MAX] (which could overflow w) is refused.
SCALE = 2.0 ** 300
STEP_MIN, STEP_MAX = 2.0 ** -600, 2.0 ** 600


@inline  # per block of TYPE: a call costs more than its loop on small blocks
def scale_steps(size, w, k):
    """Turn one-step ratios into weights in scaled linear form, in place: from
    weight(m + 1) / weight(m) = w[m + 1] / k[m + 1] (m = 0 … size − 1) and weight(0) = 1 to
    weight(m) = w[m] · SCALE^k[m] (m = 0 … size).

    Parameters
    ----------
    size : int
    w, k : float64[≥ size + 1]
        In: the ratios' numerators and denominators at 1 … size; out: the scaled weights.

    Returns
    -------
    bool
        False when a ratio is outside [STEP_MIN, STEP_MAX] (w and k then hold no weights).
    """
    value, scale = 1.0, 0.0
    w[0], k[0] = value, scale
    in_range = True
    for m in range(1, size + 1):
        ratio = w[m] / k[m]
        if not STEP_MIN <= ratio <= STEP_MAX:
            in_range = False
            break
        value *= ratio
        while value >= SCALE:
            value /= SCALE
            scale += 1.0
        while value < 1.0:
            value *= SCALE
            scale -= 1.0
        w[m], k[m] = value, scale
    return in_range  # (one return: what Numba's inliner handles best)


@kernel
def draw_scaled(rng, w, k, n):
    """Draw an index i < n with probability ∝ w[i] · SCALE^k[i] (``scale_steps``' form).

    Parameters
    ----------
    rng : numpy.random.Generator
    w, k : float64[≥ n]
        The weights' mantissas and scale exponents.
    n : int

    Returns
    -------
    int
        The drawn index.
    """
    top = -np.inf
    for i in range(n):
        top = max(top, k[i])
    total = 0.0
    for i in range(n):
        total += scaled_weight(w[i], k[i], top)
    u = rng.random() * total
    last = 0
    for i in range(n):
        weight = scaled_weight(w[i], k[i], top)
        if weight <= 0.0:
            continue
        last = i
        u -= weight
        if u < 0.0:
            return i
    return last  # only reached through rounding: the last index with positive weight


@kernel
def scaled_weight(w, k, top):
    """w · SCALE^(k − top) for a draw whose largest exponent is ``top``: exact for
    k ≥ top − 1, 0 below (negligible).

    Parameters
    ----------
    w, k, top : float64

    Returns
    -------
    float64
    """
    if k == top:
        return w
    if k == top - 1.0:
        return w / SCALE
    return 0.0


@kernel
def scaled_to_log(w, k, n):
    """Turn the weights w[:n] · SCALE^k[:n] into their logs, in w.

    Parameters
    ----------
    w : float64[≥ n]
        In: the mantissas; out: the log-weights.
    k : float64[≥ n]
        The scale exponents.
    n : int
    """
    for i in range(n):
        w[i] = np.log(w[i]) + k[i] * np.log(SCALE)
