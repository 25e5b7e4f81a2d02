"""The SCFG rules under the Pitman-Yor prior with exact seating (option exact_seating): every
move exact against each rule's tables, so the samplers visit the analyses as the exact
posterior says (``log_p_pitman_yor``, every customer seated by brute force) — also where the
paper's table approximation (T = N^d) does not — and the seating stays consistent."""
import dataclasses

import numpy as np
import pytest

from datasets.aligned import read
from engine.core.rng import make_rng
from engine.models.scfg.kernels.layout import CLASS_SHIFT, META, PEND, TABLES
from engine.models.scfg.model import EXACT_MAX_NODES, ScfgModel
from engine.samplers import make_sampler
from tests.conformance.cases import scfg
from tests.conformance.test_conformance import ALPHA, seed_of, visited_rows
from tests.statistical.exact import chi_square_p
from tests.engine.models.scfg.test_scfg import THIN_MONOTONE, fit, sampled_rows

# one rule type recurring: where T = N^d is furthest from the tables a rule really has
FIVE_AB = "a b ||| x y ||| 0-0 1-1\n" * 5
THREE_ABC = "a b c ||| x y z ||| 0-0 1-1 2-2\n" * 3


def pitman_yor(text, alpha, discount, exact_seating):
    return ScfgModel(read(text), alpha=alpha, pitman_yor=True, discount=discount,
                     exact_seating=exact_seating)


def p_value(make, sampler_name, *salt):
    """The chi-square p of the sampler's thinned draws on ``make()`` against its exact
    Pitman-Yor posterior (``visited_rows``: 8,000 draws, 3 sweeps apart)."""
    values, exact, _ = scfg.exact(make())
    row = {tuple(v): i for i, v in enumerate(values)}
    case = dataclasses.replace(scfg.CASE, tiny=make, exact_p=lambda power=1.0: exact,
                               row=lambda v: row[tuple(v)])
    rows = visited_rows(case, sampler_name, seed_of("exact seating", sampler_name, *salt))
    return chi_square_p(np.bincount(rows, minlength=len(exact)), exact)


@pytest.mark.parametrize("sampler_name", ["token", "type", "one-stage-mh"])
def test_exact_seating_matches_the_exact_posterior_where_the_approximation_does_not(
        sampler_name):
    """Measured (8,000 draws): p = 0.40 TOKEN, 0.28 TYPE, 0.17 one-stage + MH, total
    variation ≤ 0.006; the approximate TOKEN on the same corpus: TV 0.12, p = 0."""
    p = p_value(lambda: pitman_yor(FIVE_AB, 1.0, 0.9, True), sampler_name, "five")
    assert p > ALPHA, f"{sampler_name} with exact seating, d = 0.9: p = {p:.2g}"


def test_the_table_approximation_fails_the_same_test():
    p = p_value(lambda: pitman_yor(FIVE_AB, 1.0, 0.9, False), "token", "five")
    assert p < ALPHA, f"TOKEN with T = N^d passes the exact test (p = {p:.2g})"


@pytest.mark.parametrize("exact_seating", [True, False])
def test_the_edge_step_with_exact_seating_on_three_pairs_of_two_trees(exact_seating):
    """Three copies of a three-word pair: 32,768 analyses, each root with two edges, so that
    TOKEN's edge step (Metropolis-Hastings against the seating) is on the way. Measured
    (8,000 draws, α = 5, d = 0.9): exact p = 0.3; approximate p ≈ 1e-118 (20,000 draws)."""
    p = p_value(lambda: pitman_yor(THREE_ABC, 5.0, 0.9, exact_seating), "token", "three")
    assert (p > ALPHA) == exact_seating, f"exact seating {exact_seating}: p = {p:.2g}"


@pytest.mark.parametrize("sampler_name", ["token", "type"])
def test_exact_seating_on_the_tiny_corpus(sampler_name):
    p = p_value(lambda: scfg.tiny_model(pitman_yor=True, discount=0.5, exact_seating=True),
                sampler_name, "tiny")
    assert p > ALPHA, f"{sampler_name} with exact seating on the tiny corpus: p = {p:.2g}"


@pytest.mark.parametrize("deg", [True, False])
def test_without_deg_the_exact_edge_step_is_wrong_too(deg):
    """The four-word monotone pair (its root's middle edge a fifth of the time, exactly):
    the Metropolis-Hastings edge step keeps eq. 9's ∏ deg(v) in its target; without it the
    target itself is wrong and the test must fail."""
    model = scfg.monotone_model(pitman_yor=True, discount=0.5, exact_seating=True,
                                no_deg=not deg)
    p = fit(model, sampled_rows(model, 6000, THIN_MONOTONE, seed=31))
    assert (p > 1e-3) == deg, f"with deg {deg}: p = {p:.2g}"


def tables_per_length(state):
    """T_l of every restaurant (rule length) l, as the state keeps them."""
    return state.work_i[TABLES, :len(state.log_pois)]


def seating_of(model, state):
    """Each rule in use: (count, tables) from the index and u; and T_l per restaurant."""
    live = np.flatnonzero(state.slot_key >= 0)
    rules = {}
    for slot in live:
        v, t = state.slot_head[slot], 0
        while v >= 0:
            t += int(state.u[v])
            v = state.item_next[v]
        rules[int(state.slot_key[slot])] = (int(state.slot_size[slot]), t)
    per_class = np.zeros_like(tables_per_length(state))
    for key, (_, t) in rules.items():
        per_class[key >> CLASS_SHIFT] += t
    return rules, per_class


def test_the_seating_stays_consistent_after_mixed_moves():
    """After every sampler in turn: T_l = Σ u over the restaurant's occurrences, no u off the
    index, 1 ≤ t_r ≤ N(r) for every rule not pending (a pending one's tables are summed out),
    counts = rebuilt counts, log-likelihood running = from scratch."""
    model = scfg.large_model(pitman_yor=True, discount=0.5, exact_seating=True)
    rng = make_rng(seed_of("exact seating", "counts"))
    state = model.new_state(rng, eta=0.5)
    for name in ["token", "type", "one-stage-mh", "one-stage", "type", "token"] * 10:
        make_sampler(name, skip=False).sweep(rng, state)
        rules, per_class = seating_of(model, state)
        np.testing.assert_array_equal(per_class, tables_per_length(state))
        pending = set(state.work_i[PEND, :state.work_i[META, 0]].tolist())
        for key, (n, t) in rules.items():
            assert key in pending or 1 <= t <= n, (name, key, n, t)
    on_index = np.zeros(model.n_nodes, bool)
    for slot in np.flatnonzero(state.slot_key >= 0):
        v = state.slot_head[slot]
        while v >= 0:
            on_index[v] = True
            v = state.item_next[v]
    assert not state.u[~on_index].any()
    rebuilt = model.rebuilt_state(state)
    np.testing.assert_array_equal(state.cls_n, rebuilt.cls_n)
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), rel=1e-12)


def test_exact_seating_says_what_it_needs():
    with pytest.raises(ValueError, match="pitman-yor"):
        scfg.tiny_model(exact_seating=True)
    big = "a b c d e f ||| u v w x y z ||| 0-0 1-1 2-2 3-3 4-4 5-5\n" * 60
    with pytest.raises(ValueError, match=f"{EXACT_MAX_NODES:,} forest nodes"):
        pitman_yor(big, 5.0, 0.5, True)


def test_same_seed_same_trace_and_a_clone_goes_on_alike():
    model = scfg.large_model(pitman_yor=True, discount=0.5, exact_seating=True)

    def chain(state, rng, sweeps):
        """The log-likelihood after each sweep of TOKEN and TYPE in turn."""
        trace = []
        for i in range(sweeps):
            make_sampler(("token", "type")[i % 2]).sweep(rng, state)
            trace.append(model.loglik_running(state))
        return trace

    first, second = (model.new_state(make_rng(7), eta=0.5) for _ in range(2))
    assert chain(first, make_rng(8), 5) == chain(second, make_rng(8), 5)
    copy = model.clone_state(first)
    assert chain(first, make_rng(9), 5) == chain(copy, make_rng(9), 5)
    np.testing.assert_array_equal(first.u, copy.u)
    np.testing.assert_array_equal(tables_per_length(first), tables_per_length(copy))
