"""Each sampler's long-run distribution over all 2^n toy assignments against exact enumeration.

A correct sampler passes with p > 0.001 at these fixed seeds; the same tests fail when a bug is
planted in the conditional (eq. 4), in eq. 7 or in the uniform subset (see the issue note).
Samples are thinned so successive ones are close to independent, as the chi-square assumes.
"""
import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.models.toy.model import ToyModel
from engine.samplers import make_sampler, schedule
from engine.samplers.token import TokenSampler
from tests.conformance.cases.toy import toy_exact_p
from tests.statistical.exact import chi_square_p, z_index

ALPHA = 1e-3


def visit_counts(sampler, n, seed, sweeps, thin=1, burn_in=10, init_m=None):
    """How often each assignment is the state after a sweep (every ``thin``-th sweep)."""
    model = ToyModel(n)
    rng = make_rng(seed)
    state = model.new_state(rng, m=init_m)
    counts = np.zeros(2**n, dtype=np.int64)
    for sweep in range(burn_in + sweeps * thin):
        sampler.sweep(rng, state)
        if sweep >= burn_in and (sweep - burn_in) % thin == 0:
            counts[z_index(state.z)] += 1
    return counts


@pytest.mark.parametrize("n", [4, 5])
def test_token_matches_the_exact_posterior(n):
    counts = visit_counts(make_sampler("token"), n, seed=11, sweeps=20_000, thin=3)
    assert chi_square_p(counts, toy_exact_p(n)) > ALPHA


@pytest.mark.parametrize("skip", [True, False])
def test_type_matches_the_exact_posterior(skip):
    n = 5
    counts = visit_counts(make_sampler("type", skip=skip), n, seed=12, sweeps=20_000)
    assert chi_square_p(counts, toy_exact_p(n)) > ALPHA


def test_token_anneal_after_cooling_matches_the_exact_posterior():
    """Once the schedule reaches temperature 1 (half-way), TOKEN-anneal is TOKEN in law."""
    n, total = 4, 60_000
    sampler = make_sampler("anneal", total_sweeps=total)
    counts = visit_counts(sampler, n, seed=13, sweeps=(total // 2) // 3, thin=3,
                          burn_in=total // 2)
    assert sampler.temperature() == 1.0
    assert chi_square_p(counts, toy_exact_p(n)) > ALPHA


def test_token_at_temperature_two_samples_the_flattened_posterior():
    """Conditionals raised to 1/T give the stationary law p^(1/T); at T = 2 it is not p."""
    n = 4
    counts = visit_counts(TokenSampler(schedule.constant(2.0)), n, seed=14, sweeps=20_000, thin=3)
    assert chi_square_p(counts, toy_exact_p(n, power=0.5)) > ALPHA
    assert chi_square_p(counts, toy_exact_p(n)) < 1e-12


def test_type_moves_draw_m_from_eq_2():
    """On the toy a TYPE move's block is all n sites, so its m is an exact draw of p(m | x)."""
    n = 30
    model = ToyModel(n)
    rng = make_rng(15)
    state = model.new_state(rng)
    sampler = make_sampler("type")
    infos = (sampler.step(rng, state) for _ in range(40_000))
    # with the skip approximation a sweep's second step finds every pivot visited: no move
    draws = np.array([info.drawn for info in infos if info.block.size])
    assert len(draws) == 20_000
    exact = np.exp(model.log_posterior())
    assert chi_square_p(np.bincount(draws, minlength=n + 1), exact) > ALPHA
    # the engine's batch of draws (the Toy page's histogram) obeys the same law
    batch = model.type_draws(seed=16, count=20_000)
    assert chi_square_p(np.bincount(batch, minlength=n + 1), exact) > ALPHA
