"""The PTSG's samplers on the 14-site treebank (16,384 fragmentations; a chain of VPs where a
fragment's upper and lower parts can be one fragment) against the exact posterior: the
conformance suite's tiny treebank has no such site."""
import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.samplers import make_sampler
from tests.conformance.cases.ptsg import PRIOR, large_model, ptsg_log_p
from tests.statistical.exact import binary_assignments, chi_square_p, normalised, z_index

DRAWS, THIN, BURN_IN = 6000, 10, 50


@pytest.fixture(scope="module")
def exact():
    model = large_model()
    log_p = [ptsg_log_p(model.trees, values, **PRIOR)
             for values in binary_assignments(model.n_sites)]
    return lambda power=1.0: normalised(log_p, power)


def visited(sampler_name, seed):
    model = large_model()
    rng = make_rng(seed)
    state = model.new_state(rng, eta=0.5)
    sampler = make_sampler(sampler_name, skip=False)
    for _ in range(BURN_IN):
        sampler.sweep(rng, state)
    rows = np.empty(DRAWS, np.int64)
    for i in range(DRAWS):
        for _ in range(THIN):
            sampler.sweep(rng, state)
        rows[i] = z_index(model.values(state))
    return np.bincount(rows, minlength=1 << model.n_sites)


@pytest.mark.parametrize("sampler_name", ["token", "type", "sentence"])
def test_the_sampler_matches_the_exact_posterior(exact, sampler_name):
    p = chi_square_p(visited(sampler_name, 11), exact())
    assert p > 0.001, f"{sampler_name}: chi-square p = {p:.2g}"


def test_the_test_rejects_a_wrong_posterior(exact):
    """p^1.5 is told from p at this many draws (measured: p^1.3 gives a chi-square p of 0.015,
    too close to call; p^1.5, 1e-13)."""
    p = chi_square_p(visited("token", 11), exact(1.5))
    assert p < 0.001, p
