"""The toy model: input checks, the exact posterior, the likelihood and the running counts."""
import re

import numpy as np
import pytest
from scipy.special import gammaln, logsumexp

from engine.core.rng import make_rng
from engine.models.toy.model import ToyModel
from engine.run import Run
from tests.conformance.cases.toy import toy_log_g


@pytest.mark.parametrize("n, message", [(0, "n must be between 1 and 100,000 (got 0)"),
                                        (100_001, "n must be between 1 and 100,000 (got 100,001)")])
def test_n_out_of_range_is_refused_with_its_range(n, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ToyModel(n)


@pytest.mark.parametrize("kwargs, message", [
    (dict(m=11), r"initial m must be between 0 and n = 10 \(got 11\)"),
    (dict(m=-1), r"initial m must be between 0 and n = 10 \(got -1\)"),
    (dict(eta=1.5), r"η must be in \[0, 1\]"),
    (dict(m=3, eta=0.5), "either an initial m or η, not both"),
])
def test_bad_initial_states_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ToyModel(10).new_state(make_rng(0), **kwargs)


@pytest.mark.parametrize("m", [0, 3, 10])
def test_new_state_splits_exactly_m_copies_and_counts_their_words(m):
    state = ToyModel(10).new_state(make_rng(1), m=m)
    assert state.z.sum() == m
    assert list(state.n_word) == [m, m, 10 - m]
    assert not state.removed.any()


def test_eta_initialisation_splits_each_copy_with_probability_eta():
    z = ToyModel(20_000).new_state(make_rng(2), eta=0.3).z
    assert abs(z.mean() - 0.3) < 0.01


@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_log_posterior_is_eq_2_normalised(n):
    m = np.arange(n + 1)
    log_p = gammaln(n + 1) - gammaln(m + 1) - gammaln(n - m + 1) + toy_log_g(n, m)
    np.testing.assert_allclose(ToyModel(n).log_posterior(), log_p - logsumexp(log_p),
                               rtol=1e-9, atol=1e-9)


def test_log_posterior_at_n_100000_is_finite_normalised_with_its_mass_at_0():
    log_p = ToyModel(100_000).log_posterior()
    assert np.isfinite(log_p).all()
    assert logsumexp(log_p) == pytest.approx(0.0, abs=1e-9)
    assert log_p.argmax() == 0  # every copy one word `ab`


@pytest.mark.parametrize("n", [5, 1000, 100_000])
def test_posterior_over_z_is_bimodal_with_a_far_worse_mode_at_m_equal_n(n):
    """Fig. 2a / §2: m = 0 and m = n are both modes of p(z | x); m = n by a factor exp(O(n))."""
    log_pz = ToyModel(n).log_posterior_z()
    m = np.arange(n + 1)
    expected = toy_log_g(n, m) - logsumexp(toy_log_g(n, m) + gammaln(n + 1) - gammaln(m + 1)
                                           - gammaln(n - m + 1))
    np.testing.assert_allclose(log_pz, expected, rtol=1e-9, atol=1e-6)
    assert log_pz[0] > log_pz[1] and log_pz[-1] > log_pz[-2]
    assert log_pz[-1] < log_pz[0] - n / 2


def test_loglik_is_the_collapsed_joint_of_eq_3():
    """log p(x, z) = −n log 2 + log 1^(m) 1^(m) 1^(n−m) / 3^(n+m), z with m split copies."""
    n = 12
    state = ToyModel(n).new_state(make_rng(3), m=5)
    expected = -n * np.log(2) + toy_log_g(n, 5)
    assert ToyModel(n).loglik(state) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("sampler", ["token", "type", "anneal", "greedy"])
def test_running_counts_equal_recomputed_counts_after_many_moves(sampler):
    model = ToyModel(300)
    run = Run(model, sampler, seed=4, init={"m": 150}, total_sweeps=40)
    for sweep in range(40):
        run.sweep()
        if sweep % 10 == 0:
            for _ in range(50):  # single moves too, ending mid-sweep
                run.step()
        z = run.state.z
        m = int(z.sum())
        assert list(run.state.n_word) == [m, m, model.n - m]
        assert not run.state.removed.any()
        assert model.loglik_running(run.state) == pytest.approx(model.loglik(run.state),
                                                                rel=1e-9)


def test_token_flip_probability_is_eq_4_at_m_equal_n():
    n = 1000
    assert ToyModel(n).token_flip_probability(n) == pytest.approx((2 * n + 2) / (2 * n + 2 + n**2))
    with pytest.raises(ValueError, match="m must be between 1 and n"):
        ToyModel(n).token_flip_probability(0)


def test_token_escape_times_are_reproducible_and_in_range():
    model = ToyModel(500)
    times = model.token_escape_times(seed=5, chains=40, max_passes=200)
    assert np.array_equal(times, model.token_escape_times(seed=5, chains=40, max_passes=200))
    assert ((times >= 1) & (times <= 200)).all()
    assert (model.token_escape_times(seed=5, chains=40, max_passes=1) == -1).any()
    with pytest.raises(ValueError, match="number of chains must be between 1 and 10,000"):
        model.token_escape_times(seed=5, chains=0)


def test_token_escape_time_counts_passes_until_m_drops_below_half():
    """Replaying one chain pass by pass finds the same escape time as the kernel."""
    model = ToyModel(200)
    (time,) = model.token_escape_times(seed=6, chains=1, max_passes=500)
    from engine.core.rng import chain_rngs
    from engine.samplers import make_sampler
    rng = chain_rngs(6, 1)[0]
    state = model.new_state(rng, m=model.n)
    sampler = make_sampler("token")
    passes = 0
    while 2 * state.z.sum() >= model.n:
        sampler.sweep(rng, state)
        passes += 1
    assert passes == time
