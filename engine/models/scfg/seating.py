"""Exact seating under the Pitman-Yor prior: the arithmetic of a few rules' tables summed out.

The exact moves (``kernels``, option ``exact_seating``) keep each rule's table count t_r in the
chain's state: one restaurant's customers eating dishes r with counts n_r at t_r tables have
probability (Teh 2006; the sum over seatings of ``pitman_yor.py``, before its sum over t)

    ∏_{k<T} (α + k d) / α^(N) · ∏_r S_d(n_r, t_r) P₀(r)^{t_r},   T = Σ_r t_r, N = Σ_r n_r.

A move that changes the counts of a few rules R weighs each of its options with the tables of R
summed out given everyone else's (T₋ of them): a convolution of one row per rule,
c(s) = Σ_{t_R: Σ t = s} ∏_{r∈R} S_d(n_r, t_r) P₀(r)^{t_r}, against ∏_{k=T₋}^{T₋+s−1} (α + k d).
That is an exact Gibbs step on (z, t_R) with t_R collapsed; the tables are then drawn back from
their exact conditional (``draw_tables``). Everything is in logs: S_d(n, t) outgrows a float near
n = 170, and the rising factor can outgrow what a scaled convolution keeps.
"""
import math

import numpy as np

from engine.core.draw import draw_log_weights
from engine.core.jit import inline, kernel


def log_stirling_table(d, m):
    """log S_d(n, t) for 0 ≤ t ≤ n ≤ m (−inf elsewhere): S_d(0, 0) = 1 and
    S_d(n + 1, t) = S_d(n, t − 1) + (n − t d) S_d(n, t) — the seatings of n customers at t
    tables, each table weighted by (1 − d)^(size − 1).

    Parameters
    ----------
    d : float
        The discount, 0 ≤ d < 1.
    m : int

    Returns
    -------
    float64[m + 1, m + 1]
    """
    table = np.full((m + 1, m + 1), -np.inf)
    table[0, 0] = 0.0
    for n in range(m):
        t = np.arange(1, n + 2)
        stay = np.full(n + 1, -np.inf)
        inside = t <= n  # S_d(n, n + 1) = 0: no stay term past the row's end
        stay[inside] = np.log(n - t[inside] * d) + table[n, t[inside]]
        table[n + 1, 1:n + 2] = np.logaddexp(table[n, 0:n + 1], stay)
    return table


@inline
def log_rise(alpha, d, start, s):
    """log ∏_{k=start}^{start+s−1} (α + k d): what s new tables add to the restaurant's
    ∏_{k<T} (α + k d) when it has ``start`` tables.

    Parameters
    ----------
    alpha, d : float64
    start, s : int

    Returns
    -------
    float64
    """
    if s == 0:
        return 0.0
    if d == 0.0:
        return s * math.log(alpha)
    a = alpha / d
    return s * math.log(d) + math.lgamma(a + start + s) - math.lgamma(a + start)


@inline
def before(rows, i, s):
    """log c_{i−1}(s): the convolution of the rows before entry i (a point mass at 0 for i = 0).

    Parameters
    ----------
    rows : float64[k, ≥ s + 1]
    i, s : int

    Returns
    -------
    float64
    """
    if i > 0:
        return rows[i - 1, s]
    return 0.0 if s == 0 else -np.inf


@kernel
def convolve(counts, log_p0, log_s, rows):
    """rows[i, :D_i + 1] = log c_i, the convolution of entries 0 … i's rows
    S_d(n_r, t) P₀(r)^t (t = 0 … n_r), D_i = Σ_{j≤i} n_j. Returns D of the last entry.

    Parameters
    ----------
    counts : int64[k]
        n_r of each rule (0: no customer, no table).
    log_p0 : float64[k]
    log_s : float64[M + 1, M + 1]
        ``log_stirling_table``, M ≥ every count.
    rows : float64[k, ≥ Σ counts + 1]
        Output.

    Returns
    -------
    int
    """
    degree = 0
    for i in range(counts.shape[0]):
        c = counts[i]
        for s in range(degree + c + 1):
            acc = -np.inf
            for t in range(max(0 if c == 0 else 1, s - degree), min(c, s) + 1):
                term = before(rows, i, s - t) + log_s[c, t] + t * log_p0[i]
                if term > -np.inf:
                    acc = np.logaddexp(acc, term)
            rows[i, s] = acc
        degree += c
    return degree


@kernel
def log_tables_summed(counts, log_p0, log_s, t_rest, alpha, d, rows):
    """log Σ_{t_R} ∏_{k=T₋}^{T₋+Σt−1} (α + k d) ∏_r S_d(n_r, t_r) P₀(r)^{t_r} for one
    restaurant's rules R (its other rules holding T₋ tables).

    Parameters
    ----------
    counts : int64[k]
    log_p0 : float64[k]
    log_s : float64[M + 1, M + 1]
    t_rest : int
        T₋.
    alpha, d : float64
    rows : float64[k, ≥ Σ counts + 1]
        Work (``convolve``'s output).

    Returns
    -------
    float64
    """
    if counts.shape[0] == 0:
        return 0.0
    degree = convolve(counts, log_p0, log_s, rows)
    last = counts.shape[0] - 1
    total = -np.inf
    for s in range(degree + 1):
        if rows[last, s] > -np.inf:
            total = np.logaddexp(total, rows[last, s] + log_rise(alpha, d, t_rest, s))
    return total


@kernel
def draw_tables(rng, counts, log_p0, log_s, t_rest, alpha, d, rows, scratch, out):
    """Draw one restaurant's rules' tables t_R from their exact conditional given the counts
    and T₋: the total s first, then each rule's share backwards through the convolution.

    Parameters
    ----------
    rng : numpy.random.Generator
    counts : int64[k]
    log_p0 : float64[k]
    log_s : float64[M + 1, M + 1]
    t_rest : int
    alpha, d : float64
    rows : float64[k, ≥ Σ counts + 1]
        Work.
    scratch : float64[≥ Σ counts + 1]
        Work.
    out : int64[k]
        Output: t_r.
    """
    k = counts.shape[0]
    if k == 0:
        return
    degree = convolve(counts, log_p0, log_s, rows)
    for s in range(degree + 1):
        scratch[s] = rows[k - 1, s] + log_rise(alpha, d, t_rest, s)
    s = draw_log_weights(rng, scratch, degree + 1)
    for i in range(k - 1, -1, -1):
        c = counts[i]
        degree -= c  # the degree of the rows before entry i: rows[i − 1] is stale past it
        if c == 0:
            out[i] = 0
            continue
        for t in range(c + 1):
            scratch[t] = -np.inf
            if 1 <= t <= s and s - t <= degree:
                scratch[t] = before(rows, i, s - t) + log_s[c, t] + t * log_p0[i]
        out[i] = draw_log_weights(rng, scratch, c + 1)
        s -= out[i]
