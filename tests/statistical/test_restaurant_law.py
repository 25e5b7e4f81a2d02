"""The law of a lone Chinese restaurant's seating (engine.core.restaurant) against references
computed here independently of the engine, for both seating representations.

- DP, one dish of base probability 1: after n customers the number of tables T has
  P(t | n) = s(n, t) α^t Γ(α) / Γ(α + n), s the unsigned Stirling numbers of the first kind
  (from their recurrence, in log space).
- Pitman-Yor: the law of T by exact enumeration of the table-count paths (customer i + 1 opens
  a table with probability (α + d·T)/(i + α)), cross-checked against a brute-force sum over all
  set partitions of the exchangeable partition probability; for n = 6 the law of the whole
  partition (the sorted table sizes) too, which also sees *which* existing table is joined.
- Gibbs reseating (gibbs_reseat) leaves those laws invariant: chains started from an exact
  draw, thinned until successive draws are nearly uncorrelated (asserted, lag 1).
- Several dishes with fixed base probabilities: given the customers' dishes, the dishes' table
  counts are independent, each with the DP law of a = α·P(w).
- Mean tables against the digamma expectation of engine.core.table_expectations (Blunsom,
  Cohn, Goldwater & Johnson 2009, §3), within 3 exact standard errors.
- log_probability against the product of sequential seating probabilities.

A correct engine passes at these fixed seeds with p > 0.001; a planted bug (1.3α in the
reference law) fails at the same number of draws.
"""
import functools
import math
from collections import Counter

import numpy as np
import pytest
from scipy.special import gammaln

from engine.core import seating as seats
from engine.core.restaurant import gibbs_reseat, log_probability, new_restaurant, seat_in_order
from engine.core.table_expectations import expected_tables_digamma, tables_variance
from tests.statistical.exact import chi_square_p

ALPHA = 1e-3  # a correct engine passes with p above this
DRAWS = 10_000  # independent seatings per law
GIBBS_DRAWS = 5_000  # thinned Gibbs draws per law
REPRESENTATIONS = ["explicit", "histogram"]

# --- references, independent of the engine -------------------------------------------------------
def log_stirling1(n):
    """log s(n, t), t = 0 … n, the unsigned Stirling numbers of the first kind (−inf where 0),
    by s(m + 1, t) = m·s(m, t) + s(m, t − 1) in log space, so that neither s(n, t) (29! ≈ 9e30
    at n = 30) nor s(n, t)·α^t overflows whatever n."""
    row = np.array([0.0])  # s(0, 0) = 1
    for m in range(n):
        new = np.full(m + 2, -np.inf)
        new[1:] = row  # s(m, t − 1)
        with np.errstate(divide="ignore"):
            new[:-1] = np.logaddexp(new[:-1], math.log(m) + row if m else np.full(m + 1, -np.inf))
        row = new
    return row


def dp_tables_law(n, alpha):
    """P(T = t | n), t = 0 … n, for the DP with base probability 1 (a = α)."""
    t = np.arange(n + 1)
    return np.exp(log_stirling1(n) + t * math.log(alpha) + gammaln(alpha) - gammaln(alpha + n))


def py_tables_law(n, alpha, d):
    """P(T = t | n), t = 0 … n, for the Pitman-Yor restaurant, by exact enumeration of the
    paths of (customers so far i, tables so far T)."""
    p = np.zeros(n + 1)
    p[0] = 1.0
    for i in range(n):
        step = np.zeros(n + 1)
        for tables in range(i + 1):
            step[tables + 1] += p[tables] * (alpha + d * tables) / (i + alpha)
            step[tables] += p[tables] * (i - d * tables) / (i + alpha)
        p = step
    return p


def set_partitions(items):
    """Every partition of the list ``items`` into blocks (lists)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first]] + partition
        for k in range(len(partition)):
            yield partition[:k] + [[first] + partition[k]] + partition[k + 1:]


def eppf(sizes, alpha, d):
    """The probability of one set partition with these block sizes (Pitman-Yor, base 1):
    Π_{i=1}^{T−1} (α + i·d) / Π_{i=1}^{n−1} (α + i) · Π_k Π_{j=1}^{n_k−1} (j − d)."""
    n, tables = sum(sizes), len(sizes)
    p = math.prod(alpha + i * d for i in range(1, tables)) / math.prod(alpha + i
                                                                       for i in range(1, n))
    return p * math.prod(math.prod(j - d for j in range(1, m)) for m in sizes)


@functools.lru_cache(maxsize=None)
def brute_force_partition_law(n, alpha, d):
    """{sorted table sizes: probability} summed over all set partitions of n customers."""
    law = Counter()
    for partition in set_partitions(list(range(n))):
        sizes = tuple(sorted(len(block) for block in partition))
        law[sizes] += eppf(sizes, alpha, d)
    return dict(law)


def sequential_log_p(sizes_per_dish, alpha, d, log_base):
    """log P(seating, dishes) as the product of sequential probabilities in one order: dish
    by dish, table by table, each table's customers in a row (its first opens it)."""
    total, customers, tables = 0.0, 0, 0
    for w, sizes in enumerate(sizes_per_dish):
        for size in sizes:
            total += (math.log((alpha + d * tables) / (customers + alpha)) + log_base[w])
            tables += 1
            customers += 1
            for m in range(1, size):
                total += math.log((m - d) / (customers + alpha))
                customers += 1
    return total


# --- the engine's draws --------------------------------------------------------------------------
def seated(rng, representation, alpha, d, dishes, base):
    """A restaurant with customer c of dish dishes[c] seated by the engine (an exact draw): in
    order 0 … n − 1 (for α < 0 the first one opens a table whatever its weight)."""
    n = len(dishes)
    restaurant = new_restaurant(len(base), alpha, d, representation, max_customers=n)
    opened = np.zeros(n, np.uint8)
    seat_in_order(rng, restaurant, dishes, base, opened)
    return restaurant


def tables_of(restaurant, n_dishes):
    return tuple(int(t) for t in restaurant.seating.group[:n_dishes, seats.TABLES])


@functools.lru_cache(maxsize=None)
def direct_draws(representation, alpha, d, n, draws, seed, sizes=False):
    """T (or the sorted table sizes) of ``draws`` independent seatings of n customers of one
    dish."""
    rng = np.random.default_rng(seed)
    dishes, base = np.zeros(n, np.int64), np.array([1.0])
    out = []
    for _ in range(draws):
        restaurant = seated(rng, representation, alpha, d, dishes, base)
        out.append(tuple(seats.table_sizes(restaurant.seating, 0)) if sizes
                   else int(restaurant.totals[1]))
    return out


def gibbs_draws(representation, alpha, d, dishes, base, draws, thin, seed, sizes=False):
    """Per-dish table counts (or dish 0's sorted table sizes) of one Gibbs chain, ``thin``
    sweeps apart, started from an exact draw."""
    rng = np.random.default_rng(seed)
    restaurant = seated(rng, representation, alpha, d, dishes, base)
    out = []
    for _ in range(draws):
        gibbs_reseat(rng, restaurant, dishes, base, thin)
        out.append(tuple(seats.table_sizes(restaurant.seating, 0)) if sizes
                   else tables_of(restaurant, len(base)))
    return out


def lag1_autocorrelation(x):
    x = np.asarray(x, dtype=float) - np.mean(x)
    return float(x[:-1] @ x[1:] / (x @ x))


def tables_p(draws, law):
    """Chi-square p of drawn table counts against law[t], t = 0 … n."""
    return chi_square_p(np.bincount(draws, minlength=len(law)), law)


def partition_p(draws, law):
    """Chi-square p of drawn sorted table sizes against {sizes: probability}."""
    keys = sorted(law)
    seen = Counter(draws)
    assert set(seen) <= set(keys)
    return chi_square_p([seen[k] for k in keys], [law[k] for k in keys])


# --- the references agree with each other --------------------------------------------------------
def test_stirling_numbers_and_the_references_agree():
    assert np.allclose(np.exp(log_stirling1(5)), [0, 24, 50, 35, 10, 1])
    assert math.isclose(np.exp(log_stirling1(30)[1]), math.factorial(29), rel_tol=1e-12)
    for n in [1, 5, 12, 30]:
        for alpha in [0.5, 3.0]:
            law = dp_tables_law(n, alpha)
            assert math.isclose(law.sum(), 1.0, rel_tol=1e-12)
            assert np.allclose(law, py_tables_law(n, alpha, 0.0), rtol=1e-10, atol=1e-300)
    for n in range(1, 7):
        for alpha, d in [(0.5, 0.0), (1.0, 0.3), (1.0, 0.7), (-0.2, 0.3), (-0.2, 0.7)]:
            law = brute_force_partition_law(n, alpha, d)
            assert math.isclose(sum(law.values()), 1.0, rel_tol=1e-12)
            by_tables = np.zeros(n + 1)
            for sizes, p in law.items():
                by_tables[len(sizes)] += p
            assert np.allclose(by_tables, py_tables_law(n, alpha, d), rtol=1e-12, atol=0)


# --- 1. DP, one dish -----------------------------------------------------------------------------
@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha", [0.5, 3.0])
@pytest.mark.parametrize("n", [1, 5, 12, 30])
def test_dp_tables_follow_the_stirling_law(representation, alpha, n):
    draws = direct_draws(representation, alpha, 0.0, n, DRAWS, seed=100 + n)
    law = dp_tables_law(n, alpha)
    if n == 1:  # one cell: nothing for a chi-square, everything for an exact check
        assert math.isclose(law[1], 1.0, rel_tol=1e-12) and set(draws) == {1}
        return
    assert tables_p(draws, dp_tables_law(n, alpha)) > ALPHA


# --- 5. the chi-square of test 1 has teeth -------------------------------------------------------
@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha", [0.5, 3.0])
@pytest.mark.parametrize("n", [5, 12, 30])
def test_dp_tables_fail_a_law_with_the_wrong_alpha(representation, alpha, n):
    """The same draws against the law of 1.3α (a planted bug in the reference) fail."""
    draws = direct_draws(representation, alpha, 0.0, n, DRAWS, seed=100 + n)
    assert tables_p(draws, dp_tables_law(n, 1.3 * alpha)) < 1e-6


# --- 2. Pitman-Yor, one dish ---------------------------------------------------------------------
PY_PARAMS = [pytest.param(1.0, 0.3, id="a1-d0.3"), pytest.param(1.0, 0.7, id="a1-d0.7"),
             pytest.param(-0.2, 0.3, id="a-0.2-d0.3"), pytest.param(-0.2, 0.7, id="a-0.2-d0.7")]

@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", PY_PARAMS)
def test_pitman_yor_tables_follow_the_enumerated_law(representation, alpha, d):
    """n = 8 (smaller n: the whole partition's law below, n = 6)."""
    n = 8
    draws = direct_draws(representation, alpha, d, n, DRAWS, seed=200 + n)
    assert tables_p(draws, py_tables_law(n, alpha, d)) > ALPHA


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", [(0.5, 0.0), (3.0, 0.0)] + PY_PARAMS)
def test_table_sizes_follow_the_partition_law(representation, alpha, d):
    """n = 6: the law of the sorted table sizes (11 cells), brute-forced over all 203 set
    partitions; it sees the choice among existing tables (weight n_k − d), which T does not."""
    n = 6
    draws = direct_draws(representation, alpha, d, n, DRAWS, seed=300, sizes=True)
    assert partition_p(draws, brute_force_partition_law(n, alpha, d)) > ALPHA


# --- 3. Gibbs reseating keeps the laws -----------------------------------------------------------
def thin_for(n):
    """Sweeps between Gibbs draws. The lag-1 autocorrelation of T one sweep apart (measured
    over 20 000 sweeps) is up to 0.77 for these laws at n = 30 (histogram, DP α = 0.5) and up
    to 0.81 at n ≤ 12 (histogram, PY α = −0.2); the histogram mixes slower, as its leaving
    customer is anyone at a random table. Thinned so, |ρ| ≤ 0.03 in the draws below at these
    seeds (asserted < 0.05: the chi-square takes the draws as independent)."""
    return 40 if n > 12 else 20


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", [(0.5, 0.0), (3.0, 0.0)])
@pytest.mark.parametrize("n", [5, 12, 30])
def test_gibbs_keeps_the_dp_tables_law(representation, alpha, d, n):
    dishes = np.zeros(n, np.int64)
    draws = [t for (t,) in gibbs_draws(representation, alpha, d, dishes, np.array([1.0]),
                                       GIBBS_DRAWS, thin_for(n), seed=400 + n)]
    assert abs(lag1_autocorrelation(draws)) < 0.05
    assert tables_p(draws, dp_tables_law(n, alpha)) > ALPHA


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", PY_PARAMS)
def test_gibbs_keeps_the_pitman_yor_tables_law(representation, alpha, d):
    n = 8
    dishes = np.zeros(n, np.int64)
    draws = [t for (t,) in gibbs_draws(representation, alpha, d, dishes, np.array([1.0]),
                                       GIBBS_DRAWS, thin_for(n), seed=500)]
    assert abs(lag1_autocorrelation(draws)) < 0.05
    assert tables_p(draws, py_tables_law(n, alpha, d)) > ALPHA


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", [(3.0, 0.0)] + PY_PARAMS)
def test_gibbs_keeps_the_partition_law(representation, alpha, d):
    """The histogram's leaving customer is drawn in proportion to table size: its law too."""
    n = 6
    draws = gibbs_draws(representation, alpha, d, np.zeros(n, np.int64), np.array([1.0]),
                        GIBBS_DRAWS, thin_for(n), seed=600, sizes=True)
    assert partition_p(draws, brute_force_partition_law(n, alpha, d)) > ALPHA


BASE = np.array([0.2, 0.3, 0.5])
DISH_COUNTS = (6, 8, 10)


def several_dishes():
    """Customers of fixed dishes (6, 8, 10 of dishes 0, 1, 2), interleaved."""
    dishes = np.repeat(np.arange(3), DISH_COUNTS)
    return np.random.default_rng(7).permutation(dishes).astype(np.int64)


def check_dishes_independent_with_own_law(draws, alpha):
    """Each dish's T against the DP law of a = α·P(w), and the joint against their product."""
    draws = np.asarray(draws)
    laws = [dp_tables_law(n, alpha * p) for n, p in zip(DISH_COUNTS, BASE)]
    for w, law in enumerate(laws):
        assert tables_p(draws[:, w], law) > ALPHA
    joint = laws[0][:, None, None] * laws[1][None, :, None] * laws[2][None, None, :]
    index = np.ravel_multi_index(draws.T, joint.shape)
    assert chi_square_p(np.bincount(index, minlength=joint.size), joint.ravel()) > ALPHA


@pytest.mark.parametrize("representation", REPRESENTATIONS)
def test_several_dishes_seated_in_order(representation):
    alpha, dishes = 2.0, several_dishes()
    rng = np.random.default_rng(700)
    draws = [tables_of(seated(rng, representation, alpha, 0.0, dishes, BASE), 3)
             for _ in range(DRAWS)]
    check_dishes_independent_with_own_law(draws, alpha)


@pytest.mark.parametrize("representation", REPRESENTATIONS)
def test_several_dishes_gibbs(representation):
    alpha = 2.0
    draws = gibbs_draws(representation, alpha, 0.0, several_dishes(), BASE, GIBBS_DRAWS,
                        thin_for(sum(DISH_COUNTS)), seed=800)
    for w in range(3):
        assert abs(lag1_autocorrelation([t[w] for t in draws])) < 0.05
    check_dishes_independent_with_own_law(draws, alpha)


# --- 4. mean tables against the digamma expectation ----------------------------------------------
MEAN_DRAWS = 4_000


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("a", [0.01, 0.1, 1.0, 10.0])
@pytest.mark.parametrize("n", [1, 10, 100])
def test_mean_tables_match_the_digamma_expectation(representation, a, n):
    """a = α·P with α = 20 and dish 0's base P = a/20 (the rest on an uneaten dish 1)."""
    alpha = 20.0
    base = np.array([a / alpha, 1 - a / alpha])
    dishes = np.zeros(n, np.int64)
    rng = np.random.default_rng(900 + n)
    tables = np.array([seated(rng, representation, alpha, 0.0, dishes, base).totals[1]
                       for _ in range(MEAN_DRAWS)])
    expected, variance = expected_tables_digamma(a, n), tables_variance(a, n)
    if n == 1:  # the note's extreme case (a = 1, n = 1) and its kin: one table, always
        assert variance == 0.0 and expected == 1.0
        assert np.all(tables == 1)
        return
    standard_error = math.sqrt(variance / MEAN_DRAWS)
    assert abs(tables.mean() - expected) < 3 * standard_error


# --- 6. log_probability --------------------------------------------------------------------------
LOG_P_PARAMS = [(0.5, 0.0), (3.0, 0.0), (1.0, 0.3), (1.0, 0.7),
                (-0.2, 0.3), (-0.2, 0.7)]


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("alpha, d", LOG_P_PARAMS)
def test_log_probability_is_the_sequential_probability(representation, alpha, d):
    rng = np.random.default_rng(1000)
    log_base = np.log(BASE)
    for trial in range(40):
        n = int(rng.integers(1, 40))
        dishes = rng.integers(0, 3, n).astype(np.int64)
        restaurant = seated(rng, representation, alpha, d, dishes, BASE)
        if trial % 2 and n > 1:  # (n = 1 with α < 0 would empty the restaurant: the bug)
            gibbs_reseat(rng, restaurant, dishes, BASE, 3)
        sizes = [seats.table_sizes(restaurant.seating, w) for w in range(3)]
        assert [sum(s) for s in sizes] == [int(np.sum(dishes == w)) for w in range(3)]
        expected = sequential_log_p(sizes, alpha, d, log_base)
        assert math.isclose(log_probability(restaurant, log_base), expected,
                            rel_tol=1e-10, abs_tol=1e-10)
