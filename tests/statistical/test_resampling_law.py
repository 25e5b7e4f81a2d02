"""Resampling draws offspring counts from the law its scheme promises (chi-square), keeps the
weighted mean of a test function in expectation, and the effective sample size is eq. 12."""
import numpy as np
import pytest
from scipy import stats

from engine.core.resampling import ancestry, effective_sample_size, offspring
from engine.core.rng import make_rng
from tests.statistical.exact import chi_square_p

WEIGHTS = np.array([0.05, 0.3, 0.02, 0.13, 0.25, 0.25])
TRIALS = 20_000


def counts_of(scheme, seed=1, trials=TRIALS, weights=WEIGHTS):
    rng = make_rng(seed)
    return np.array([offspring(rng, weights, scheme) for _ in range(trials)])


@pytest.mark.parametrize("particle", range(len(WEIGHTS)))
def test_multinomial_offspring_are_binomial(particle):
    n = len(WEIGHTS)
    drawn = counts_of("multinomial")[:, particle]
    law = stats.binom(n, WEIGHTS[particle]).pmf(np.arange(n + 1))
    assert chi_square_p(np.bincount(drawn, minlength=n + 1), law) > 1e-3


@pytest.mark.parametrize("particle", range(len(WEIGHTS)))
def test_systematic_offspring_are_floor_or_ceiling(particle):
    """Systematic resampling gives particle l ⌊N w_l⌋ copies, or one more with probability the
    fractional part of N w_l."""
    n = len(WEIGHTS)
    drawn = counts_of("systematic")[:, particle]
    expected = n * WEIGHTS[particle]
    low = int(np.floor(expected))
    assert set(np.unique(drawn)) <= {low, low + 1}
    law = np.array([1 - (expected - low), expected - low])
    assert chi_square_p(np.bincount(drawn - low, minlength=2), law) > 1e-3


@pytest.mark.parametrize("scheme", ["multinomial", "systematic"])
def test_resampling_keeps_the_weighted_mean(scheme):
    f = np.array([3.0, -1.0, 10.0, 0.5, 2.0, -4.0])
    means = counts_of(scheme) @ f / len(WEIGHTS)
    error = means.std(ddof=1) / np.sqrt(len(means))
    assert abs(means.mean() - WEIGHTS @ f) < 4 * error + 1e-12


def test_a_wrong_law_is_caught():
    """The chi-square check has power: uniform weights' draws fail against WEIGHTS' law."""
    n = len(WEIGHTS)
    drawn = counts_of("multinomial", weights=np.full(n, 1 / n))[:, 2]
    law = stats.binom(n, WEIGHTS[2]).pmf(np.arange(n + 1))
    assert chi_square_p(np.bincount(drawn, minlength=n + 1), law) < 1e-6


def test_ancestry_copies_only_into_particles_without_offspring():
    counts = np.array([0, 3, 0, 1, 0, 2])
    ancestors, sources, targets = ancestry(counts)
    assert np.array_equal(np.bincount(ancestors, minlength=6), counts)
    assert set(targets) == {0, 2, 4} and not set(sources) & set(targets)
    assert all(ancestors[l] == l for l in (1, 3, 5))


def test_effective_sample_size():
    assert effective_sample_size(np.full(8, 1 / 8)) == pytest.approx(8)
    assert effective_sample_size(np.array([1.0, 0, 0])) == pytest.approx(1)
    assert effective_sample_size(WEIGHTS) == pytest.approx(1 / np.sum(WEIGHTS ** 2))
