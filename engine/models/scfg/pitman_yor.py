"""The exact probability of a multiset of SCFG rules under the Pitman-Yor prior per rule length
(Peng & Gildea 2014, eq. 5), tables summed out: the chain's log-likelihood under that prior.

The samplers weigh moves with the paper's approximation T_r = N(r)^d (eqs. 6–7), under which
the sequential draws are no longer exchangeable and have no joint probability of their own; the
lab reports this exact one instead (the paper reports none: "the approximation renders it
impossible to calculate the real PYP likelihood"). In one restaurant with concentration α and
discount d, n customers eating dishes r with counts n_r seated at t_r tables have probability

    ∏_{k<T} (α + k d) / α^(n) · ∏_r S_d(n_r, t_r) P₀(r)^{t_r},   T = Σ_r t_r,

where S_d are the generalised Stirling numbers (S_d(k + 1, t) = S_d(k, t − 1) + (k − t d) S_d(k, t),
S_d(0, 0) = 1: the seatings of k customers at t tables, weighted by each table's (1 − d)^(size−1));
summing over every t_r convolves one polynomial in T per dish. With d = 0 it is the DP's
∏_r (α P₀(r))^(n_r) / α^(n).
"""
import math

import numpy as np

from engine.core.jit import kernel


@kernel
def stirling_row(n, d, row):
    """S_d(n, t) for t = 0 … n into row[: n + 1], scaled: returns log c with row = S_d / c
    (the numbers outgrow a float near n = 170; scaling keeps their ratios).

    Parameters
    ----------
    n : int
    d : float64
    row : float64[≥ n + 1]
        Output.

    Returns
    -------
    float64
    """
    row[0] = 1.0
    log_scale = 0.0
    for k in range(n):  # row holds S_d(k, ·) for t ≤ k; make it S_d(k + 1, ·)
        row[k + 1] = 0.0
        top = 0.0
        for t in range(k + 1, 0, -1):
            row[t] = row[t - 1] + (k - t * d) * row[t] if t <= k else row[t - 1]
            top = max(top, row[t])
        row[0] = 0.0
        for t in range(1, k + 2):
            row[t] /= top
        log_scale += np.log(top)
    return log_scale


@kernel
def log_class_probability(counts, log_p0, alpha, d, poly, row):
    """log p of one restaurant's customers: dish i eaten counts[i] times with base log_p0[i].

    Parameters
    ----------
    counts : int64[R]
    log_p0 : float64[R]
    alpha, d : float64
    poly : float64[≥ Σ counts + 1]
        Work: the polynomial in T, ∏_i Σ_t S_d(n_i, t) P₀(i)^t T^t, scaled by exp(log_factor).
    row : float64[≥ max(counts) + 1]
        Work.

    Returns
    -------
    float64
    """
    degree = 0
    poly[0] = 1.0
    shift, log_factor, n = 0, 0.0, 0
    for i in range(counts.shape[0]):
        c = counts[i]
        n += c
        if c == 1:  # one customer, one table: T^1 P₀
            shift += 1
            log_factor += log_p0[i]
            continue
        log_factor += stirling_row(c, d, row)
        # P₀^t: its log grows by log_p0 per table, scaled so that the largest factor is 1
        top = -np.inf
        for t in range(1, c + 1):
            top = max(top, np.log(row[t]) + t * log_p0[i] if row[t] > 0.0 else -np.inf)
        for t in range(1, c + 1):
            row[t] = np.exp(np.log(row[t]) + t * log_p0[i] - top) if row[t] > 0.0 else 0.0
        log_factor += top
        largest = 0.0
        for j in range(degree + c, -1, -1):  # poly ← poly × row (row[0] = 0)
            acc = 0.0
            for t in range(max(1, j - degree), min(c, j) + 1):
                acc += poly[j - t] * row[t]
            poly[j] = acc
            largest = max(largest, acc)
        for j in range(degree + c + 1):
            poly[j] /= largest
        log_factor += np.log(largest)
        degree += c
    total = -np.inf
    log_rise = 0.0  # log ∏_{k<T} (α + k d), T = j + shift
    for k in range(shift):
        log_rise += np.log(alpha + k * d)
    for j in range(degree + 1):
        if poly[j] > 0.0:
            total = np.logaddexp(total, np.log(poly[j]) + log_rise)
        log_rise += np.log(alpha + (j + shift) * d)
    return total + log_factor - (math.lgamma(alpha + n) - math.lgamma(alpha))


def log_probability(classes, counts, log_p0, alpha, d, log_pois):
    """log p of the rules in use under the Pitman-Yor prior per length: each length's
    restaurant (``log_class_probability``) and each rule's Poisson length prior.

    Parameters
    ----------
    classes, counts : int64[R]
        Each distinct rule's length and count.
    log_p0 : float64[R]
    alpha, d : float
    log_pois : float64[L]

    Returns
    -------
    float
    """
    total = 0.0
    for c in np.unique(classes):
        mine = classes == c
        n = counts[mine]
        poly = np.empty(int(n.sum()) + 1)
        row = np.empty(int(n.max()) + 1)
        total += log_class_probability(n, log_p0[mine], alpha, d, poly, row)
        total += int(n.sum()) * log_pois[c]
    return total


def predictive_errors(classes, counts, log_p0, alpha, d, rules):
    """The paper's approximate predictive (eq. 5 with T = N^d, eqs. 6–7) against the exact one,
    p(rules + r) / p(rules) with the tables summed out, for each rule index in ``rules`` (its
    Poisson length prior cancels in the ratio). Returns (approximate, exact) log predictives.

    Parameters
    ----------
    classes, counts : int64[R]
    log_p0 : float64[R]
    alpha, d : float
    rules : int64[K]
        Indices into the R rules.

    Returns
    -------
    (float64[K], float64[K])
    """
    approximate, exact = np.empty(len(rules)), np.empty(len(rules))
    for k, i in enumerate(rules):
        mine = np.flatnonzero(classes == classes[i])
        n, base = counts[mine], log_p0[mine]
        tables = np.where(n > 0, n.astype(float) ** d, 0.0)
        approximate[k] = math.log(counts[i] - d * counts[i] ** d
                                  + (d * tables.sum() + alpha) * math.exp(log_p0[i]))
        approximate[k] -= math.log(n.sum() + alpha)
        more = n.copy()
        more[np.flatnonzero(mine == i)] += 1
        poly, row = np.empty(int(more.sum()) + 1), np.empty(int(more.max()) + 1)
        exact[k] = (log_class_probability(more, base, alpha, d, poly, row)
                    - log_class_probability(n, base, alpha, d, poly, row))
    return approximate, exact
