"""The SCFG rules under the Pitman-Yor prior per rule length (Peng & Gildea 2014, eqs. 5–7):
its exact log-likelihood against brute-force seating, the d = 0 case against the per-length DP
× Poisson, every exact sampler at d = 0 against exact enumeration, and the size of the paper's
table approximation (T = N^d) at d = 0.5, measured."""
import dataclasses
import math
from collections import Counter

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.models.scfg.model import ScfgModel
from engine.samplers import make_sampler
from tests.conformance.cases import scfg
from tests.conformance.test_conformance import ALPHA, seed_of, visited_rows
from tests.statistical.exact import chi_square_p


def model(discount):
    return scfg.tiny_model(pitman_yor=True, discount=discount)


def per_length_dp_times_poisson(m, rules):
    """Each length's rules from their own DP(α, P₀), times Poisson(l; λ) a rule."""
    total = 0.0
    for length in {len(r[0]) + len(r[1]) for r in rules}:
        counts = Counter(r for r in rules if len(r[0]) + len(r[1]) == length)
        n = sum(counts.values())
        for r, c in counts.items():
            a = m.alpha * m.v_f ** -len(r[0]) * m.v_e ** -len(r[1])
            total += math.lgamma(a + c) - math.lgamma(a)
        total -= math.lgamma(m.alpha + n) - math.lgamma(m.alpha)
        total += n * (length * math.log(m.poisson) - m.poisson - math.lgamma(length + 1))
    return total


def test_discount_zero_is_the_per_length_dp_times_poisson():
    m = model(0.0)
    for rules, _ in scfg.analyses(m):
        assert scfg.log_p_pitman_yor(m, rules) == pytest.approx(
            per_length_dp_times_poisson(m, rules), rel=1e-12)


@pytest.mark.parametrize("discount", [0.0, 0.5, 0.9])
def test_the_log_likelihood_is_the_exact_pitman_yor_probability(discount):
    """The engine sums the tables out with generalised Stirling numbers; the oracle seats
    every customer by brute force."""
    m = model(discount)
    for rules, values in scfg.analyses(m):
        state = m.state_from_values(np.array(values))
        assert m.loglik(state) == pytest.approx(scfg.log_p_pitman_yor(m, rules), rel=1e-10)


def test_the_log_likelihood_of_many_copies_of_a_rule():
    """Counts past a float's factorials (S_d(n, 1) = (1 − d)^(n−1) overflows at n ≈ 170):
    the exact value of one dish eaten n times is Σ_t S_d(n, t) α^(t, d) P₀^t / α^(n)."""
    from engine.models.scfg import pitman_yor
    n, d, alpha, log_p0 = 400, 0.5, 5.0, math.log(1e-3)
    poly, row = np.empty(n + 1), np.empty(n + 1)
    got = pitman_yor.log_class_probability(np.array([n]), np.array([log_p0]), alpha, d, poly, row)
    # the same by the sequential predictive with tables tracked exactly: a DP over t
    log_w = np.full(n + 1, -np.inf)
    log_w[1] = math.log(alpha * math.exp(log_p0) / alpha)
    for i in range(1, n):
        new = np.full(n + 1, -np.inf)
        for t in range(1, i + 1):
            if log_w[t] == -np.inf:
                continue
            stay = (i - t * d) / (i + alpha)
            move = (alpha + t * d) * math.exp(log_p0) / (i + alpha)
            new[t] = np.logaddexp(new[t], log_w[t] + math.log(stay))
            new[t + 1] = np.logaddexp(new[t + 1], log_w[t] + math.log(move))
        log_w = new
    assert got == pytest.approx(np.logaddexp.reduce(log_w), rel=1e-10)


@pytest.mark.parametrize("sampler_name", ["token", "type", "one-stage-mh"])
def test_exact_samplers_match_the_exact_posterior_at_discount_zero(sampler_name):
    """At d = 0 the table approximation is exact (T plays no part): the per-length DP."""
    case = dataclasses.replace(
        scfg.CASE, tiny=lambda: model(0.0),
        exact_p=lambda power=1.0: scfg.exact(model(0.0), power)[1])
    rows = visited_rows(case, sampler_name, seed_of("pitman-yor", sampler_name))
    p = chi_square_p(np.bincount(rows, minlength=len(case.exact_p())), case.exact_p())
    assert p > ALPHA, f"{sampler_name} under the Pitman-Yor prior, d = 0: p = {p:.2g}"


def test_running_counts_equal_rebuilt_counts_after_mixed_moves():
    m = scfg.large_model(pitman_yor=True)
    rng = make_rng(seed_of("pitman-yor", "counts"))
    state = m.new_state(rng, eta=0.5)
    for name in ["token", "type", "one-stage-mh", "type", "token"] * 20:
        make_sampler(name, skip=False).sweep(rng, state)
    rebuilt = m.rebuilt_state(state)
    np.testing.assert_array_equal(state.cls_n, rebuilt.cls_n)
    np.testing.assert_allclose(state.cls_t, rebuilt.cls_t, rtol=1e-12, atol=1e-12)
    assert m.loglik_running(state) == pytest.approx(m.loglik(state), rel=1e-12)


@pytest.mark.parametrize("sampler_name", ["token", "type"])
def test_the_table_approximation_is_below_what_the_exact_test_sees_on_the_fixture(sampler_name):
    """Measured: at d = 0.5 the approximate samplers visit the tiny corpus's analyses as the
    exact Pitman-Yor posterior says, within the test's power (total variation 0.012 for TOKEN,
    0.013 for TYPE at 20,000 draws; 0.018 and 0.010 at d = 0.9): with counts this small T = N^d
    is close to the expected tables. The lab still labels them approximate; on a real corpus the
    predictive's error is measured by ``python -m benchmarks forests``."""
    case = dataclasses.replace(
        scfg.CASE, tiny=lambda: model(0.5),
        exact_p=lambda power=1.0: scfg.exact(model(0.5), power)[1])
    rows = visited_rows(case, sampler_name, seed_of("pitman-yor", "approximate", sampler_name))
    p = chi_square_p(np.bincount(rows, minlength=len(case.exact_p())), case.exact_p())
    assert p > ALPHA, f"{sampler_name} under the Pitman-Yor prior, d = 0.5: p = {p:.2g}"
