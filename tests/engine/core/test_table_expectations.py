"""Expected table counts (Blunsom et al. 2009 §3) against the exact sums, hand-worked cases and
simulated restaurants."""
import math

import numpy as np
import pytest
from scipy.special import digamma

from engine.core.table_expectations import (expected_tables_antoniak, expected_tables_digamma,
                                            expected_tables_exact, expected_tables_flawed,
                                            tables_variance)

A_GRID = np.logspace(-8, 6, 57)  # four points a decade
N_GRID = [1, 2, 3, 10, 100, 10**4, 10**6]


def test_digamma_matches_the_exact_sum_to_1e_10_over_the_grid():
    a, n = np.meshgrid(A_GRID, N_GRID, indexing="ij")
    exact, fast = expected_tables_exact(a, n), expected_tables_digamma(a, n)
    assert fast.shape == exact.shape == a.shape
    assert np.max(np.abs(fast - exact) / exact) < 1e-10


def test_the_naive_digamma_difference_would_fail_the_grid():
    """The grid has teeth: ψ(a + n) − ψ(a) as written loses digits when a ≫ n."""
    a, n = 1e6, 1
    naive = a * (digamma(a + n) - digamma(a))
    assert abs(naive - expected_tables_exact(a, n)) / expected_tables_exact(a, n) > 1e-10


@pytest.mark.parametrize("a, n", [(1e5, 1), (1e6, 2), (1e12, 3), (9.99, 2), (10.0, 2),
                                  (1e-8, 10**6), (0.5, 10**6)])
def test_digamma_matches_a_correctly_rounded_sum(a, n):
    terms = a / (a + np.arange(n, dtype=float))
    assert expected_tables_digamma(a, n) == pytest.approx(math.fsum(terms), rel=1e-14)


def test_the_notes_extreme_case_one_customer_at_a_equal_1():
    assert expected_tables_exact(1.0, 1) == 1.0
    assert expected_tables_digamma(1.0, 1) == pytest.approx(1.0, rel=1e-15)
    assert expected_tables_antoniak(1.0, 1) == pytest.approx(math.log(2), rel=1e-15)


@pytest.mark.parametrize("a", [1e-8, 0.01, 0.5, 1.0, 7.0, 10.0, 123.4, 1e6])
def test_small_cases_by_hand(a):
    # the first customer always opens a table; the second with probability a/(a + 1)
    for tables in (expected_tables_exact, expected_tables_digamma):
        assert tables(a, 0) == 0.0
        assert tables(a, 1) == pytest.approx(1.0, rel=1e-15)
        assert tables(a, 2) == pytest.approx(1 + a / (a + 1), rel=1e-14)
        assert tables(a, 3) == pytest.approx(1 + a / (a + 1) + a / (a + 2), rel=1e-14)
    assert tables_variance(a, 0) == tables_variance(a, 1) == 0.0
    # Bernoulli variances p(1 − p): the second customer's p = a/(a + 1)
    assert tables_variance(a, 2) == pytest.approx(a / (a + 1) ** 2, rel=1e-13)


@pytest.mark.parametrize("a", list(A_GRID[::4]) + [9.99, 10.0, 10.01, 1e12])
@pytest.mark.parametrize("n", [2, 3, 10, 100, 10**4, 10**6])
def test_variance_matches_its_sum(a, n):
    i = np.arange(1, n + 1, dtype=float)
    total = math.fsum(a * (i - 1) / (a + i - 1) ** 2)
    assert tables_variance(a, n) == pytest.approx(total, rel=1e-12)


def test_variance_is_the_trigamma_form_where_that_is_well_conditioned():
    from scipy.special import polygamma
    a, n = np.array([0.3, 2.0, 50.0]), np.array([40, 1000, 500])
    trigamma_form = (a * (digamma(a + n) - digamma(a))
                     - a**2 * (polygamma(1, a) - polygamma(1, a + n)))
    np.testing.assert_allclose(tables_variance(a, n), trigamma_form, rtol=1e-12)


def test_antoniak_is_close_when_a_is_large_and_n_much_larger():
    a, n = np.array([50.0, 200.0, 1000.0]), 10**6
    exact, antoniak = expected_tables_exact(a, n), expected_tables_antoniak(a, n)
    assert np.all(np.abs(antoniak / exact - 1) < 2e-3)
    # short by ≈ a/(2a) = 1/2 table: the 1/(2a) term of the asymptotic expansion it drops
    np.testing.assert_allclose(exact - antoniak, 0.5, atol=0.01)


@pytest.mark.parametrize("a", [1e-3, 0.01, 0.1])
def test_antoniak_is_far_off_for_a_sparse_prior(a):
    """The note's point: with a < 1 it says far fewer tables than the one that is certain."""
    for n in (1, 10, 100):
        assert expected_tables_antoniak(a, n) < 0.5 * expected_tables_exact(a, n)


def test_the_flawed_form_forgets_the_base_probability():
    alpha, p, n = 10.0, 1e-3, 100  # a = αP = 0.01: about one table
    assert expected_tables_exact(alpha * p, n) == pytest.approx(1.05, abs=0.01)
    assert expected_tables_flawed(alpha, n) == pytest.approx(alpha * math.log(1 + n / alpha))
    assert expected_tables_flawed(alpha, n) > 20 * expected_tables_exact(alpha * p, n)


@pytest.mark.parametrize("a", [0.01, 0.1, 1.0, 10.0])
@pytest.mark.parametrize("n", [1, 10, 100])
def test_simulated_restaurants_seat_the_expected_number_of_tables(a, n):
    """Customer i opens a table with probability a/(a + i − 1): the mean of many seatings is
    within 3 standard errors (from tables_variance) of the digamma expectation."""
    seatings = 20_000
    rng = np.random.default_rng(2009)
    opens = rng.random((seatings, n)) < a / (a + np.arange(n))
    tables = opens.sum(axis=1)
    standard_error = math.sqrt(tables_variance(a, n) / seatings)
    assert abs(tables.mean() - expected_tables_digamma(a, n)) <= 3 * standard_error + 1e-12


def test_arrays_broadcast_and_scalars_stay_scalars():
    a, n = np.array([[0.5], [2.0], [30.0]]), np.array([0, 1, 5, 40])
    for f in (expected_tables_exact, expected_tables_digamma, expected_tables_antoniak,
              expected_tables_flawed, tables_variance):
        values = f(a, n)
        assert values.shape == (3, 4) and values.dtype == np.float64
        assert np.all(values[:, 0] == 0.0)
        assert np.ndim(f(2.0, 5)) == 0
        assert f(2.0, 5) == pytest.approx(values[1, 2], rel=1e-15)


@pytest.mark.parametrize("a, n", [(0.0, 3), (-1.0, 3), (np.nan, 3), (np.inf, 3), (1.0, -1),
                                  (1.0, 2.5), (1.0, np.nan)])
def test_bad_arguments_are_refused(a, n):
    for f in (expected_tables_exact, expected_tables_digamma, tables_variance):
        with pytest.raises(ValueError):
            f(a, n)
