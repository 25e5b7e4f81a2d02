"""R̂ and ESS (engine.diagnostics, ArviZ's statistics) on chains whose answer is known."""
import numpy as np
import pandas as pd
import pytest

from engine.diagnostics import RHAT_LIMIT, GrowingChains, after_warmup, diagnose, diagnose_chains
from engine.models.toy.model import ToyModel
from engine.run import Run


def ar1(rng, chains, n, rho):
    """Stationary AR(1) chains x_t = rho x_{t-1} + e_t: their ESS is n (1 - rho) / (1 + rho)."""
    x = np.empty((chains, n))
    x[:, 0] = rng.normal(size=chains) / np.sqrt(1 - rho**2)
    for t in range(1, n):
        x[:, t] = rho * x[:, t - 1] + rng.normal(size=chains)
    return x


def test_independent_draws_are_mixed_and_worth_their_number():
    draws = np.random.default_rng(1).normal(size=(4, 2_000))
    found = diagnose(draws, seconds=2.0)
    assert found.rhat == pytest.approx(1.0, abs=0.005) and found.mixed
    assert found.ess_bulk == pytest.approx(8_000, rel=0.1)
    assert found.ess_tail == pytest.approx(8_000, rel=0.15)
    assert found.ess_per_second == pytest.approx(found.ess_bulk / 2.0)
    assert found.verdict().startswith("mixed: R̂ = 1.00")


def test_correlated_draws_are_worth_what_the_autocorrelation_leaves():
    rho = 0.9
    found = diagnose(ar1(np.random.default_rng(2), 4, 20_000, rho), seconds=1.0)
    assert found.ess_bulk == pytest.approx(80_000 * (1 - rho) / (1 + rho), rel=0.15)
    assert found.mixed


def test_chains_around_different_values_are_not_mixed():
    rng = np.random.default_rng(3)
    draws = rng.normal(size=(4, 500)) + np.array([[0.0], [0.0], [3.0], [3.0]])
    found = diagnose(draws, seconds=1.0)
    assert found.rhat > 1.5 and not found.mixed
    assert found.verdict() == f"not mixed: R̂ = {found.rhat:.2f} ≥ {RHAT_LIMIT}"


def test_the_warm_up_half_is_dropped_and_chains_are_cut_to_one_length():
    kept = after_warmup([np.arange(10.0), np.arange(12.0) + 100])
    assert kept.tolist() == [[5, 6, 7, 8, 9], [105, 106, 107, 108, 109]]


def test_too_few_draws_or_chains_are_refused_and_constant_chains_have_no_rhat():
    with pytest.raises(ValueError, match="at least 2 chains of 4 draws"):
        diagnose(np.zeros((1, 100)), seconds=1.0)
    with pytest.raises(ValueError, match="have 3 of 2"):
        diagnose(np.zeros((3, 2)), seconds=1.0)
    found = diagnose(np.zeros((3, 10)), seconds=1.0)
    assert np.isnan(found.rhat) and found.verdict().startswith("no R̂")


def toy_chains(sampler, n, sweeps):
    """m of four chains of the toy, two started at m = n and two at m = 0."""
    runs = [Run(ToyModel(n), sampler, seed=k, init={"m": n if k < 2 else 0}) for k in range(4)]
    for run in runs:
        run.run_for(float("inf"), sweeps)
    return [np.array([row["m"] for row in run.trace], dtype=float) for run in runs]


def test_rhat_catches_token_stuck_at_m_equal_n_and_passes_type():
    # the lab's preset "R̂ catches a stuck chain": after 4 passes TOKEN's chains from m = n are
    # still far above the ones from m = 0; TYPE draws m from p(m | x) at its first move
    token = diagnose(after_warmup(toy_chains("token", 1000, 4), warmup=0.2), seconds=1.0)
    assert token.rhat > 2 and not token.mixed
    type_ = diagnose(after_warmup(toy_chains("type", 100, 40)), seconds=1.0)
    assert type_.rhat < RHAT_LIMIT and type_.mixed


def test_chains_each_stuck_at_their_own_value_are_not_mixed():
    draws = np.repeat([[1.0], [2.0], [3.0]], 20, axis=1)  # three chains, none moves
    found = diagnose(draws, seconds=1.0)
    assert np.isinf(found.rhat) and not found.mixed
    assert found.verdict() == "not mixed: R̂ = ∞ (each chain stays at its own value)"


def test_a_huge_rhat_reads_as_a_power_of_ten_in_the_verdict():
    """Chains frozen each in its own place gave R̂ = 11275249811377670.00 in the verdict line."""
    from engine.diagnostics import Diagnosis, rhat_text
    assert rhat_text(1.1275e16) == "1.1×10¹⁶"
    assert rhat_text(1.0042) == "1.004" and rhat_text(4.8) == "4.80"
    assert rhat_text(float("inf")) == "∞" and rhat_text(float("nan")) == "—"
    verdict = Diagnosis(1.1275e16, 5.0, 5.0, 1.0, chains=4, draws=100).verdict()
    assert verdict == "not mixed: R̂ = 1.1×10¹⁶ ≥ 1.01"


def growing_chains(rng, length):
    """Four chains' trace frames of ``length`` rows (log-probability and engine seconds)."""
    return [pd.DataFrame({"loglik": rng.normal(size=length),
                          "seconds": np.arange(length) * 0.01}) for _ in range(4)]


def test_growing_chains_are_diagnosed_again_only_once_grown_by_their_share():
    whole = growing_chains(np.random.default_rng(4), 1_010)
    chains = [c.iloc[:1_000] for c in whole]
    held = GrowingChains(share=0.01)
    first = held.diagnosis("token", chains)
    assert first == diagnose_chains(chains)
    grown = [c.iloc[:1_009] for c in whole]  # 0.9 % longer
    assert held.diagnosis("token", grown) is first
    grown = whole  # 1 % longer
    again = held.diagnosis("token", grown)
    assert again is not first and again == diagnose_chains(grown)
    assert held.diagnosis("type", chains) is not first  # each sampler's own


def test_growing_chains_too_short_or_without_the_column_have_no_diagnosis():
    held = GrowingChains()
    chains = growing_chains(np.random.default_rng(5), 3)
    assert held.diagnosis("token", chains) is None
    assert held.diagnosis("token", growing_chains(np.random.default_rng(6), 100),
                          "token_f") is None
