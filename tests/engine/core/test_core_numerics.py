"""engine.core against scipy and against the laws the draws must follow (chi-square, fixed seeds)."""
import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import comb, gammaln, logsumexp

from engine.core.draw import draw_log_weights, draw_weights, random_permutation, random_subset
from engine.core.rng import chain_rngs, make_rng
from engine.core.special import log_binom, log_rising, log_sum_exp


@pytest.mark.parametrize("a", [1e-3, 0.1, 1.0, 3.0, 20.0, 1e6])
@pytest.mark.parametrize("k", [0, 1, 2, 7, 8, 9, 50, 1000, 100_000])
def test_log_rising_is_the_log_gamma_ratio(a, k):
    expected = gammaln(a + k) - gammaln(a)
    assert log_rising(a, k) == pytest.approx(expected, rel=1e-10, abs=1e-9)


def test_log_rising_small_k_on_a_large_base_keeps_its_digits():
    """lgamma(a + k) − lgamma(a) loses digits for large a; the direct product does not."""
    a = 1e12
    assert log_rising(a, 2) == pytest.approx(math.log(a) + math.log(a + 1), rel=1e-14)


@pytest.mark.parametrize("n, k", [(0, 0), (5, 2), (10, 0), (10, 10), (1000, 333), (100_000, 5)])
def test_log_binom_matches_scipy(n, k):
    # three lgammas of size ~ n log n: absolute error ~ 1e-16 · n log n, far below what eq. 7 needs
    assert log_binom(n, k) == pytest.approx(math.log(comb(n, k, exact=True)), rel=1e-12, abs=1e-8)


@pytest.mark.parametrize("k", [-1, 6])
def test_log_binom_outside_the_range_is_minus_infinity(k):
    assert log_binom(5, k) == -np.inf


@pytest.mark.parametrize("x", [np.array([0.0]), np.array([-1000.0, -1001.0, 3.0]),
                               np.array([700.0, 710.0]), np.array([-np.inf, 2.0])])
def test_log_sum_exp_matches_scipy(x):
    assert log_sum_exp(x) == pytest.approx(logsumexp(x), rel=1e-13)


def test_log_sum_exp_of_nothing_is_minus_infinity():
    assert log_sum_exp(np.array([-np.inf, -np.inf])) == -np.inf
    assert log_sum_exp(np.zeros(0)) == -np.inf


def draw_many(draw, weights, count, seed):
    rng = make_rng(seed)
    w = np.asarray(weights, dtype=float)
    return np.bincount([draw(rng, w, len(w)) for _ in range(count)], minlength=len(w))


def test_draw_log_weights_follows_the_normalised_weights_far_below_underflow():
    log_w = np.array([-1000.0, -1001.0, -1000.5, -1e9])
    counts = draw_many(draw_log_weights, log_w, 30_000, seed=1)
    p = np.exp(log_w - logsumexp(log_w))
    assert counts[3] == 0
    assert stats.chisquare(counts[:3], p[:3] * counts.sum()).pvalue > 1e-3


def test_draw_weights_follows_the_normalised_weights():
    w = np.array([0.5, 3.0, 0.0, 1.5])
    counts = draw_many(draw_weights, w, 30_000, seed=2)
    assert counts[2] == 0
    keep = w > 0
    assert stats.chisquare(counts[keep], (w / w.sum())[keep] * counts.sum()).pvalue > 1e-3


def test_draw_uses_only_the_first_n_weights():
    rng = make_rng(3)
    w = np.array([1.0, 1.0, 1e9])
    assert {draw_weights(rng, w, 2) for _ in range(500)} == {0, 1}


def test_random_subset_is_uniform_over_all_subsets_of_size_m():
    n, m = 5, 2
    rng = make_rng(4)
    chosen = np.zeros(n, np.uint8)
    subsets = {s: i for i, s in enumerate(itertools.combinations(range(n), m))}
    counts = np.zeros(len(subsets))
    for _ in range(20_000):
        random_subset(rng, n, m, chosen)
        assert chosen.sum() == m
        counts[subsets[tuple(np.flatnonzero(chosen))]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


@pytest.mark.parametrize("m", [0, 7])
def test_random_subset_edge_sizes(m):
    chosen = np.full(7, 9, np.uint8)
    random_subset(make_rng(5), 7, m, chosen)
    assert chosen.sum() == m and set(chosen) <= {0, 1}


def test_random_permutation_is_uniform():
    rng = make_rng(6)
    orders = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = np.zeros(len(orders))
    order = np.arange(4, dtype=np.int64)
    for _ in range(24_000):
        random_permutation(rng, order)
        counts[orders[tuple(order)]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


def test_chain_rngs_are_reproducible_and_independent():
    first = [rng.random(5) for rng in chain_rngs(7, 3)]
    again = [rng.random(5) for rng in chain_rngs(7, 3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[0], first[1])
    assert np.array_equal(make_rng(7).random(5), first[0])
    assert not np.array_equal(make_rng(8).random(5), first[0])
