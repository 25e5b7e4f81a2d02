"""The expected number of tables of one dish in a Chinese restaurant with a FIXED base.

A Dirichlet process with concentration α and base probability P(w) for dish w; after n
customers have eaten w, write a = α·P(w). Customer i (1-based) opens a new table of w with
probability a/(a + i − 1), independently, so the number of tables t is a sum of Bernoullis
(Blunsom, Cohn, Goldwater & Johnson 2009, "A note on the implementation of hierarchical
Dirichlet processes", §3):

    exact (Antoniak)   E[t] = a · Σ_{i=1..n} 1/(a + i − 1)                     O(n)
    digamma            E[t] = a · (ψ(a + n) − ψ(a))                             O(1)
    Antoniak's approx  E[t] ≈ a · log((n + a)/a)
    flawed (GGJ06)     E[t] ≈ α · log((n + α)/α)   (Antoniak's form without P(w))
    variance           Var[t] = Σ_{i=1..n} a(i − 1)/(a + i − 1)²
                              = a(ψ(a + n) − ψ(a)) − a²(ψ₁(a) − ψ₁(a + n))     O(1)

The note's point: Antoniak's approximation is good when a ≫ 1, but NLP models take a < 1 for
a sparse prior, and there it is far off (a = 1, n = 1: one table for certain, log 2 by the
approximation); GGJ06's form is off even for a ≫ 1, having dropped P(w).

How the O(1) forms are computed, so that they keep 1e-10 relative accuracy against the exact
sums for every a > 0 and n (measured against correctly rounded sums, a ∈ [1e-9, 1e14],
n ≤ 3·10⁵: E[t] within 3e-15, Var[t] within 1e-13, the worst at a just below 10 with n = 2):

- a < ``LARGE_A`` (10): SciPy's ψ and ψ₁, after peeling off the first customer, who always
  opens a table (1 to E[t], 0 to Var[t]): E[t] = 1 + a(ψ(a + n) − ψ(a + 1)) and
  Var[t] = a[(ψ(a + n) − ψ(a + 1)) − a(ψ₁(a + 1) − ψ₁(a + n))]. Here ψ(a + n) − ψ(a + 1) is
  0 or at least 1/(a + 1) > 1/11 while |ψ(a + 1)| < 2.4, so the difference loses at most two
  digits; the peeling makes n = 1 exact and keeps Var[t] ≈ a·H_{n−1} free of the
  cancellation between two terms near 1 that the unpeeled form has when a ≪ 1.
- a ≥ ``LARGE_A``: ψ(a + n) − ψ(a) ≈ n/a is far smaller than ψ(a) ≈ log a, so subtracting
  two ψ values would lose about log10(a/n) digits (a = 1e6, n = 1: relative error 1e-9).
  Instead the sums are taken by Euler–Maclaurin with the terms at a and a + n combined before
  rounding:
  log(a + n) − log a = log1p(n/a), and (a + n)^−p − a^−p = a^−p · expm1(−p log1p(n/a)),
  with Bernoulli terms up to B₂₀ (at a ≥ 10 the next term is below 1e-19 relative). The
  variance's two parts a(ψ(a + n) − ψ(a)) and a²(ψ₁(a) − ψ₁(a + n)) are each ≈ n while their
  difference is ≈ n²/(2a), so it is summed the same way as one sum, a·Σ_{j<n} j/(a + j)².

The exact sum is summed with NumPy's pairwise summation (relative error ~ 1e-16 · log2 n),
in blocks so memory stays bounded for any n.
"""
import numpy as np
from numpy.polynomial.polynomial import polyval
from scipy.special import bernoulli, digamma, polygamma

LARGE_A = 10.0  # from here on the Euler–Maclaurin forms
_P = np.arange(2.0, 21.0, 2.0)  # the powers 2k of the Bernoulli terms, k = 1 … 10
_B = bernoulli(20)[2::2]  # B₂, B₄, …, B₂₀
_BLOCK = 1 << 20  # customers per block of the exact sum


def _broadcast(a, n):
    """a and n as broadcast float arrays, refusing a ≤ 0 and n that is not a whole number ≥ 0."""
    a, n = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(n))
    if not np.all(np.isfinite(a) & (a > 0)):
        raise ValueError("a (and α) must be finite and > 0")
    if not (np.all(np.isfinite(n)) and np.all(n >= 0) and np.all(n == np.floor(n))):
        raise ValueError("n must be whole numbers ≥ 0")
    return a, n.astype(float)


def _result(values):
    """A 0-d result as a NumPy scalar, anything else as the array."""
    return values[()]


def _psi_difference(x, m):
    """ψ(x + m) − ψ(x) for x ≥ LARGE_A, by Euler–Maclaurin without subtracting near-equals.

    Parameters
    ----------
    x, m : float64[...]
        Same shape; x ≥ LARGE_A, m ≥ 0.

    Returns
    -------
    float64[...]
    """
    log_ratio = np.log1p(m / x)  # log(x + m) − log x
    powers = np.expm1(-_P * log_ratio[..., None])  # ((x + m)/x)^−2k − 1
    series = np.sum(_B / _P * x[..., None] ** -_P * powers, axis=-1)
    return log_ratio + m / (2 * x * (x + m)) - series


def _spread_difference(x, m):
    """Σ_{j=0}^{m−1} j/(x + j)² for x ≥ LARGE_A: Var[t]/a, by Euler–Maclaurin on the whole
    summand 1/u − x/u² (u = x + j), so that its two parts (each ≈ m/x) never get subtracted.

    Parameters
    ----------
    x, m : float64[...]
        Same shape; x ≥ LARGE_A, m ≥ 2 (m ≤ 1 gives 0; the caller sets it).

    Returns
    -------
    float64[...]
    """
    s, log_ratio = m / (x + m), np.log1p(m / x)
    # ∫ (1/u − x/u²) du from x to x + m = log1p(m/x) − s = Σ_{k≥2} s^k/k: the series where the
    # difference would cancel (small s), the difference elsewhere (log1p(−s) would lose 1 − s)
    integral = np.where(s < 0.25, s**2 * polyval(s, 1 / np.arange(2.0, 32.0)), log_ratio - s)
    powers = np.expm1(-np.arange(2, 22) * log_ratio[..., None])  # ((x+m)/x)^−p − 1, p = 2 … 21
    even, odd = powers[..., 0::2], powers[..., 1::2]  # p = 2k and p = 2k + 1
    series = np.sum(_B * x[..., None] ** -_P * (odd - even / _P), axis=-1)
    return integral - m / (2 * (x + m) ** 2) + series


def expected_tables_exact(a, n):
    """E[t] = a · Σ_{i=1..n} 1/(a + i − 1), summed term by term (Antoniak's exact form).

    Parameters
    ----------
    a : float or float64[...]
        α·P(w), > 0.
    n : int or int64[...]
        Customers eating w, ≥ 0; broadcast against ``a``.

    Returns
    -------
    float64 or float64[...]
        The broadcast shape; 0 where n = 0. O(n) time per element.
    """
    a, n = _broadcast(a, n)
    out = np.zeros(a.shape)
    for index in np.ndindex(a.shape):
        x, m = a[index], int(n[index])
        out[index] = sum(np.sum(x / (x + np.arange(lo, min(lo + _BLOCK, m), dtype=float)))
                         for lo in range(0, m, _BLOCK))
    return _result(out)


def expected_tables_digamma(a, n):
    """E[t] = a · (ψ(a + n) − ψ(a)) in O(1), cancellation-free (see the module docstring).

    Parameters
    ----------
    a : float or float64[...]
        α·P(w), > 0.
    n : int or int64[...]
        Customers eating w, ≥ 0; broadcast against ``a``.

    Returns
    -------
    float64 or float64[...]
        The broadcast shape; 0 where n = 0, 1 (to rounding) where n = 1.
    """
    a, n = _broadcast(a, n)
    out = np.zeros(a.shape)
    small, large = (n > 0) & (a < LARGE_A), (n > 0) & (a >= LARGE_A)
    x, m = a[small], n[small]
    out[small] = 1 + x * (digamma(x + m) - digamma(x + 1))
    out[large] = a[large] * _psi_difference(a[large], n[large])
    return _result(out)


def expected_tables_antoniak(a, n):
    """Antoniak's approximation E[t] ≈ a · log((n + a)/a), good only when a ≫ 1.

    Parameters
    ----------
    a : float or float64[...]
        α·P(w), > 0.
    n : int or int64[...]
        Customers eating w, ≥ 0; broadcast against ``a``.

    Returns
    -------
    float64 or float64[...]
        The broadcast shape.
    """
    a, n = _broadcast(a, n)
    return _result(a * np.log1p(n / a))


def expected_tables_flawed(alpha, n):
    """GGJ06's approximation E[t] ≈ α · log((n + α)/α): Antoniak's form with the base
    probability P(w) left out (α where a = α·P(w) belongs).

    Parameters
    ----------
    alpha : float or float64[...]
        The concentration α, > 0.
    n : int or int64[...]
        Customers eating w, ≥ 0; broadcast against ``alpha``.

    Returns
    -------
    float64 or float64[...]
        The broadcast shape.
    """
    return expected_tables_antoniak(alpha, n)


def tables_variance(a, n):
    """Var[t] = Σ_{i=1..n} a(i − 1)/(a + i − 1)² = a(ψ(a + n) − ψ(a)) − a²(ψ₁(a) − ψ₁(a + n)),
    in O(1), cancellation-free (see the module docstring).

    Parameters
    ----------
    a : float or float64[...]
        α·P(w), > 0.
    n : int or int64[...]
        Customers eating w, ≥ 0; broadcast against ``a``.

    Returns
    -------
    float64 or float64[...]
        The broadcast shape; 0 where n ≤ 1.
    """
    a, n = _broadcast(a, n)
    out = np.zeros(a.shape)
    small, large = (n > 1) & (a < LARGE_A), (n > 1) & (a >= LARGE_A)
    x, m = a[small], n[small]
    out[small] = x * ((digamma(x + m) - digamma(x + 1))
                      - x * (polygamma(1, x + 1) - polygamma(1, x + m)))
    out[large] = a[large] * _spread_difference(a[large], n[large])
    return _result(out)
