"""The bigram model's samplers against exact enumeration over segmentations *and* seatings, for
both seating representations (tests/conformance/cases/bigram.py recomputes the model on its
own: every customer's choice of table, summed in a memoised recursion).

The conformance suite tests TOKEN, TOKEN-anneal and SENTENCE on the histogram representation;
here both representations run TOKEN and SENTENCE on a second corpus with smaller α's (a peakier
posterior, so a wrong conditional shows). A wrong Metropolis-Hastings ratio in SENTENCE (its
proposal's or its joint's terms) would show as a wrong marginal too.
"""
import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.models.bigram.model import BigramModel
from engine.samplers import make_sampler
from tests.conformance.cases.bigram import bigram_exact_p, bigram_log_p
from tests.conformance.cases.segmentation import split_by_bits
from tests.statistical.exact import chi_square_p, z_index

ALPHA = 1e-3
TEXTS = ("aba", "ab", "abab")  # 6 sites, 64 segmentations
HYPER = dict(alpha0=2.0, alpha1=2.0, p_boundary=0.5, p_utterance=0.5)
REPRESENTATIONS = ["histogram", "explicit"]


@pytest.fixture(scope="module")
def exact():
    return bigram_exact_p(TEXTS, **HYPER)


def visit_counts(representation, sampler, seed, sweeps=8_000, thin=4, burn_in=50):
    """How often each segmentation is the state, every ``thin``-th sweep."""
    model = BigramModel(TEXTS, seating=representation, **HYPER)
    rng = make_rng(seed)
    state = model.new_state(rng, eta=0.5)
    counts = np.zeros(2 ** model.n_sites, dtype=np.int64)
    for _ in range(burn_in):
        sampler.sweep(rng, state)
    for _ in range(sweeps):
        for _ in range(thin):
            sampler.sweep(rng, state)
        counts[z_index(model.values(state))] += 1
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-9)
    return counts


def test_the_exact_marginal_agrees_with_the_definition():
    """The model's Stirling-number marginal over seatings against the recursion over every
    customer's table."""
    model = BigramModel(TEXTS, **HYPER)
    rng = make_rng(0)
    for _ in range(20):
        state = model.new_state(rng, eta=0.5)
        words = split_by_bits(TEXTS, model.values(state))
        assert model.exact_log_marginal(state.bound) == pytest.approx(
            bigram_log_p(words, n_symbols=2, **HYPER), abs=1e-10)


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("name, seed", [("token", 31), ("sentence", 32)])
def test_sampler_matches_the_exact_marginal(exact, representation, name, seed):
    sampler = make_sampler(name)
    counts = visit_counts(representation, sampler, seed)
    assert chi_square_p(counts, exact) > ALPHA
    # the same draws tell a slightly wrong posterior apart (the test has the power to fail)
    wrong = exact ** 1.3 / (exact ** 1.3).sum()
    assert chi_square_p(counts, wrong) < 1e-6
    if name == "sentence":
        assert 0.3 < sampler.sweep_figures()["acceptance"] <= 1.0
