"""Each word-segmentation sampler's long-run distribution over every segmentation of a tiny
corpus against exact enumeration (tests/conformance/cases/usm.py recomputes the USM on its own).

Four utterances with repeated substrings give 7 sites (128 segmentations) and TYPE blocks of
up to four sites (`a|b` ending an utterance occurs four times). α₀ = 1 makes the posterior far from flat, so a wrong conditional shows.

TOKEN, TYPE (skip off), TOKEN-anneal and TYPE-greedy on this corpus are tested by the
conformance suite (tests/conformance, the same corpus and settings); here are the tests
particular to this model.
"""
import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.models.usm.model import UsmModel
from engine.samplers import make_sampler
from tests.conformance.cases.segmentation import split_by_bits
from tests.conformance.cases.usm import usm_exact_p, usm_log_p
from tests.statistical.exact import chi_square_p, z_index

ALPHA = 1e-3
TEXTS = ("ab", "ab", "bab", "abab")
HYPER = dict(alpha0=1.0, p_boundary=0.5, rho=2.0)


def visit_counts(sampler, seed, sweeps, thin=1, burn_in=20, eta=0.5):
    """How often each segmentation is the state after a sweep (every ``thin``-th sweep)."""
    model = UsmModel(TEXTS, **HYPER)
    rng = make_rng(seed)
    state = model.new_state(rng, eta=eta)
    counts = np.zeros(2 ** model.n_sites, dtype=np.int64)
    for sweep in range(burn_in + sweeps * thin):
        sampler.sweep(rng, state)
        if sweep >= burn_in and (sweep - burn_in) % thin == 0:
            counts[z_index(model.values(state))] += 1
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-9)
    return counts


@pytest.fixture(scope="module")
def exact():
    return usm_exact_p(TEXTS, **HYPER)


def test_the_model_agrees_with_the_definition():
    model = UsmModel(TEXTS, **HYPER)
    rng = make_rng(0)
    for _ in range(20):
        state = model.new_state(rng, eta=0.5)
        words = split_by_bits(TEXTS, model.values(state))
        assert model.loglik(state) == pytest.approx(usm_log_p(words, **HYPER), abs=1e-10)


def test_type_with_the_skip_approximation_is_close_to_the_exact_posterior(exact):
    """Skipping pivots that were in a block earlier in the sweep is an approximation (Liang et
    al. §4.4): whether a site is skipped depends on the blocks, hence on the state, so a sweep
    no longer leaves the posterior exactly invariant. On this corpus its law is measurably off
    (the chi-square test rejects it at 40,000 sweeps, p ≈ 1e-4) but close: within 0.02 in total
    variation, where sampling noise alone gives about 0.005."""
    counts = visit_counts(make_sampler("type", skip=True), seed=22, sweeps=40_000, thin=2,
                          eta=1.0)
    assert 0.5 * np.abs(counts / counts.sum() - exact).sum() < 0.02


def test_type_blocks_here_have_several_sites():
    """Otherwise the TYPE tests above would only test single-site moves."""
    model = UsmModel(TEXTS, **HYPER)
    rng = make_rng(5)
    state = model.new_state(rng, eta=1.0)
    sampler = make_sampler("type")
    sizes = [len(sampler.step(rng, state).block) for _ in range(300)]
    assert max(sizes) >= 3 and np.mean(sizes) > 1.3


def test_sentence_matches_the_exact_posterior(exact):
    sampler = make_sampler("sentence")
    counts = visit_counts(sampler, seed=23, sweeps=20_000, thin=2)
    assert chi_square_p(counts, exact) > ALPHA
    assert 0.3 < sampler.sweep_figures()["acceptance"] <= 1.0
