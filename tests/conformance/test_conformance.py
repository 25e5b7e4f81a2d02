"""The conformance suite: every registered model × every sampler it offers.

Each model joins through one module in cases/ (its case: a tiny model, its exact posterior
computed without the engine, and a bigger model for the invariants). Against it:

1. every sampler that samples the posterior (TOKEN, TYPE without the skip approximation,
   SENTENCE, TOKEN-anneal once cooled) visits the tiny model's analyses as often as the exact
   posterior says (chi-square, p > 0.001), and the same test rejects a planted wrong target;
   TYPE-greedy sets each block to the more probable of its two extremes;
2. the running counts equal counts rebuilt from the values after thousands of mixed moves;
3. the running log-likelihood equals the one recomputed from scratch;
4. a cloned state is independent of its original, and replays it from a copy of the RNG;
5. the same seed gives the same trace;
6. SENTENCE's remove/add round trip restores the counts, and its log-probabilities are exact;
7. each model's state implements every interface function its samplers call, and the model
   (its class and its tiny instance) has every member of every role it claims.

Every test has a fixed seed. ``make test`` runs this suite a second time with Numba's bounds
checking on, so an out-of-bounds write in a kernel fails a test instead of corrupting memory.
"""
import copy
import os
import zlib

import numpy as np
import pandas as pd
import pytest
from numba import config as numba_config
from numba import njit

from engine.core.jit import kernel
from engine.core.rng import make_rng
from engine.kernels.interface import (get_value, missing, n_sites, sentence_add, sentence_remove,
                                      sentence_restore, sentence_sites)
from engine.kernels.sentence import count_sentences
from engine.models import registry
from engine.models.protocol import shortfall
from engine.run import Run
from engine.samplers import entry, make_sampler, offered
from tests.conformance.cases import CASES
from tests.statistical.exact import chi_square_p

ALPHA = 1e-3
WRONG_POWER = 1.3  # the planted wrong target: the exact posterior raised to this power
ANNEAL_COOLING = 4_000  # sweeps from temperature 10 down to 1 (half of total_sweeps)

# How the suite tests each sampler a model may offer. A sampler that samples the posterior
# exactly gets a chi-square test: here is how to build it for one (with its run's length).
EXACT = {
    "token": lambda: make_sampler("token"),
    "type": lambda: make_sampler("type", skip=False),  # the skip approximation is not exact
    "sentence": lambda: make_sampler("sentence"),
    "anneal": lambda: make_sampler("anneal", total_sweeps=2 * ANNEAL_COOLING),
    "type-token": lambda: make_sampler("type-token", skip=False),
    "type-sentence": lambda: make_sampler("type-sentence", skip=False),
    "explicit-token": lambda: make_sampler("explicit-token"),
    "explicit-sentence": lambda: make_sampler("explicit-sentence"),
    "one-stage-mh": lambda: make_sampler("one-stage-mh", skip=False),
    # at β = 1 once its schedule is over (sweep 45: every case burns in longer)
    "type-anneal": lambda: make_sampler("type-anneal", skip=False),
}
# Samplers offered as their papers have them though they do not sample the posterior: the
# exact test must fail them, or it could not tell their bias (measured: one-stage on the toy
# at n = 10, E[m] = 0.97 against 0.10).
APPROXIMATE = {"one-stage": lambda: make_sampler("one-stage", skip=False)}
# TYPE-greedy maximises rather than samples: its block rule is tested instead.
BLOCK_RULE = {"greedy"}
# EM and variational Bayes estimate parameters: their objective must never fall.
POINT = {"em", "vb"}
# The samplers whose moves the invariant tests interleave (TYPE with and without skipping;
# TOKEN-anneal stays near temperature 10, where its moves change the most).
MIXED = {
    "token": lambda: [make_sampler("token")],
    "type": lambda: [make_sampler("type", skip=True), make_sampler("type", skip=False)],
    "anneal": lambda: [make_sampler("anneal", total_sweeps=10**9)],
    "greedy": lambda: [make_sampler("greedy")],
    "sentence": lambda: [make_sampler("sentence")],
    "type-token": lambda: [make_sampler("type-token")],
    "type-sentence": lambda: [make_sampler("type-sentence")],
    "explicit-token": lambda: [make_sampler("explicit-token")],
    "explicit-sentence": lambda: [make_sampler("explicit-sentence")],
    "em": lambda: [make_sampler("em")],
    "vb": lambda: [make_sampler("vb")],
    "one-stage": lambda: [make_sampler("one-stage")],
    "type-anneal": lambda: [make_sampler("type-anneal")],
    "one-stage-mh": lambda: [make_sampler("one-stage-mh", skip=True),
                             make_sampler("one-stage-mh", skip=False)],
}


def seed_of(*parts):
    """A fixed seed per test and parameters (crc32: the same in every process)."""
    return zlib.crc32("-".join(map(str, parts)).encode())


# --- helpers --------------------------------------------------------------------------------------
def assert_counts_equal(actual, expected, where="counts"):
    """Compare two ``model.counts`` results entry by entry (arrays exactly)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: {type(actual).__name__}, expected a dict"
        only_actual = sorted(map(repr, actual.keys() - expected.keys()))
        only_expected = sorted(map(repr, expected.keys() - actual.keys()))
        assert not only_actual and not only_expected, (
            f"{where}: keys only in the running counts {only_actual[:10]}, "
            f"only in the rebuilt ones {only_expected[:10]}")
        for key in expected:
            assert_counts_equal(actual[key], expected[key], f"{where}[{key!r}]")
    elif isinstance(expected, np.ndarray):
        np.testing.assert_array_equal(actual, expected, err_msg=where)
    elif isinstance(expected, (list, tuple)):
        assert len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_counts_equal(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: running {actual!r}, rebuilt {expected!r}"


def rebuilt_counts(model, state):
    return model.counts(model.rebuilt_state(state))


def mixers(model):
    """Fresh samplers of every kind the model offers, for interleaved single moves."""
    out = []
    for name in offered(model.samplers):
        if name not in MIXED:
            pytest.fail(f"the conformance suite does not know the sampler {name!r}: say in "
                        "tests/conformance/test_conformance.py how to test it", pytrace=False)
        out += MIXED[name]()
    return out


def mixed_moves(model, state, rng, moves, order_seed, every=None, check=None):
    """``moves`` single moves on ``state``, each by a sampler picked at random (from a stream
    seeded by order_seed, so the same order_seed replays the same picks) with the one ``rng``;
    ``check(done)`` after every ``every`` moves."""
    samplers = mixers(model)
    picks = np.random.default_rng(order_seed).integers(len(samplers), size=moves)
    for done, k in enumerate(picks, 1):
        samplers[k].step(rng, state)
        if every and done % every == 0:
            check(done)


@njit(_nrt=False)
def interface_values(state, out):
    """Every site's value as the interface gives it (get_value)."""
    for s in range(n_sites(state)):
        out[s] = get_value(state, s)


@njit(_nrt=False)
def sentence_values(state, u, out):
    """The site values of sentence u into out[:stop − start]; return that length."""
    start, stop = sentence_sites(state, u)
    for i in range(stop - start):
        out[i] = get_value(state, start + i)
    return stop - start


@njit(_nrt=False)
def remove_then_add(rng, state, u, values):
    """sentence_remove then sentence_add(values): both returned log-probabilities."""
    removed = sentence_remove(rng, state, u)
    added = sentence_add(rng, state, u, values)
    return removed, added


@njit(_nrt=False)
def remove_add_restore(rng, state, u, values, old):
    """A rejected SENTENCE move: sentence_remove, sentence_add(values), then sentence_restore of
    the old analysis."""
    sentence_remove(rng, state, u)
    sentence_add(rng, state, u, values)
    sentence_restore(rng, state, u, old)


# --- the registry and the cases -------------------------------------------------------------------
def test_every_registered_model_has_a_case():
    absent = [name for name in registry.models() if name not in CASES]
    assert not absent, "\n".join(f"the {name!r} model is registered but no module of "
                                 "tests/conformance/cases/ defines its CASE: add one"
                                 for name in absent)


def test_every_case_is_a_registered_model():
    stale = sorted(set(CASES) - set(registry.models()))
    assert not stale, f"tests/conformance/cases/ has cases for models nobody registers: {stale}"


def test_the_model_plays_every_role_it_claims(model_name, model_class):
    """What registration checked on the class, and on its tiny instance what only an instance
    holds (notes, n_sites)."""
    tiny = model_class.tiny()
    for role in model_class.roles:
        for target in (model_class, tiny):
            assert shortfall(target, role) == "", (
                f"the {model_name} model claims the {role.__name__} role but "
                f"{shortfall(target, role)}")


def test_the_suite_knows_how_to_test_the_sampler(model_name, sampler_name):
    assert (sampler_name in EXACT or sampler_name in APPROXIMATE or sampler_name in BLOCK_RULE
            or sampler_name in POINT), (
        f"the {model_name} model offers {sampler_name!r}, which the conformance suite does not "
        "know: add how to test it (EXACT, APPROXIMATE, BLOCK_RULE, POINT, MIXED in "
        "test_conformance.py)")
    assert sampler_name in MIXED


def test_the_state_implements_what_the_sampler_calls(case, model_class, sampler_name):
    state = case.tiny().new_state(make_rng(0), **case.init)
    assert type(state) is model_class.state_class
    assert missing(model_class.state_class, entry(sampler_name).needs) == []


def test_the_exact_posterior_is_the_models_up_to_a_constant(case, model_name):
    """The case's independent posterior, its rows and the model's loglik describe one model."""
    model = case.tiny()
    p = case.exact_p()
    analyses = case.analyses()
    assert len(analyses) == len(p) and p.sum() == pytest.approx(1.0)
    assert [case.row(a) for a in analyses] == list(range(len(p)))
    gap = np.array([case.log_marginal(model, a) for a in analyses]) - np.log(p)
    np.testing.assert_allclose(gap, gap[0], atol=1e-9, rtol=0)


def test_values_are_the_interface_values(case, model_name):
    model = case.large()
    rng = make_rng(seed_of("values", model_name))
    out = np.zeros(model.n_sites, np.int64)
    for _ in range(5):
        state = model.new_state(rng, **case.init)
        interface_values(state, out)
        sites, values = case.site_values(model, model.values(state))
        assert len(sites) > 0
        np.testing.assert_array_equal(values, out[sites] + case.value_offset)


# --- 1. exact enumeration -------------------------------------------------------------------------
def visited_rows(case, sampler_name, seed):
    """The rows of the states a chain of the sampler visits on the tiny model, every
    ``case.thin`` sweeps after ``case.burn_in`` (TOKEN-anneal: after it has cooled to 1)."""
    model = case.tiny()
    sampler = {**EXACT, **APPROXIMATE}[sampler_name]()
    rng = make_rng(seed)
    state = model.new_state(rng, **case.init)
    if sampler_name == "anneal":
        first = sampler.sweep(rng, state).temperature
        while sampler.temperature() > 1.0:
            sampler.sweep(rng, state)
        assert first == pytest.approx(10.0) and sampler.sweeps_done == ANNEAL_COOLING
    for _ in range(case.burn_in):
        sampler.sweep(rng, state)
    values = np.empty((case.draws, len(model.values(state))), np.int64)
    for i in range(case.draws):
        for _ in range(case.thin):
            info = sampler.sweep(rng, state)
        assert info.temperature == 1.0
        values[i] = model.values(state)
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), rel=1e-9)
    return np.array([case.row(v) for v in values])


@pytest.mark.samplers(*EXACT)
def test_the_sampler_matches_the_exact_posterior(case, model_name, sampler_name):
    rows = visited_rows(case, sampler_name, seed_of("exact", model_name, sampler_name))
    exact = case.exact_p()
    p = chi_square_p(np.bincount(rows, minlength=len(exact)), exact)
    assert p > ALPHA, f"{sampler_name} on the tiny {model_name}: chi-square p = {p:.2g}"


@pytest.mark.samplers(*APPROXIMATE)
def test_an_approximate_sampler_fails_the_exact_test(case, model_name, sampler_name):
    rows = visited_rows(case, sampler_name, seed_of("exact", model_name, sampler_name))
    exact = case.exact_p()
    p = chi_square_p(np.bincount(rows, minlength=len(exact)), exact)
    assert p < ALPHA, (f"{sampler_name} on the tiny {model_name} passes the exact test "
                       f"(p = {p:.2g}): its bias is not shown here")


def test_the_exact_test_rejects_a_wrong_posterior(case, model_name, model_class):
    """The planted bug: TOKEN's chain tested against p^1.3 must fail, or the tests above
    could not tell a wrong sampler from a right one at this many draws."""
    if "token" not in model_class.samplers:
        pytest.fail(f"the {model_name} model offers no TOKEN: give this test another sampler")
    rows = visited_rows(case, "token", seed_of("exact", model_name, "token"))
    wrong = case.exact_p(WRONG_POWER)
    p = chi_square_p(np.bincount(rows, minlength=len(wrong)), wrong)
    assert p < ALPHA, f"the test cannot tell p from p^{WRONG_POWER} (p = {p:.2g})"


@pytest.mark.samplers(*BLOCK_RULE)
def test_greedy_sets_each_block_to_its_more_probable_extreme(case, model_name, sampler_name):
    """TYPE-greedy (§5.1): all of a block's sites get one value, v0 or v1, whichever makes the
    whole analysis more probable with the rest fixed (g(0) against g(|S|), from the exact
    enumeration)."""
    model = case.tiny()
    log_p = np.log(case.exact_p())
    rng = make_rng(seed_of("greedy", model_name))
    moved, largest = 0, 0
    for _ in range(60):
        state = model.new_state(rng, **case.init)
        sampler = make_sampler(sampler_name)
        for _ in range(model.n_sites):
            info = sampler.step(rng, state)
            block = info.block
            if not block.size:
                continue
            moved, largest = moved + 1, max(largest, block.size)
            v0, v1 = info.value_zero, info.value_one
            assert len(set(info.after.tolist())) == 1 and info.after[0] in (v0, v1)
            assert info.drawn in (0, block.size)
            values = model.values(state).copy()
            np.testing.assert_array_equal(values[block], info.after + case.value_offset)
            other = values.copy()
            other[block] = (v1 if info.after[0] == v0 else v0) + case.value_offset
            assert log_p[case.row(values)] >= log_p[case.row(other)] - 1e-9, (
                f"block {block.tolist()} set to {info.after[0]} but the other extreme is "
                "more probable")
    assert moved >= 100 and largest >= 2  # enough moves, and blocks of several sites


@pytest.mark.samplers(*POINT)
def test_a_point_estimators_objective_never_falls(case, model_name, sampler_name):
    """EM's likelihood and VB's bound rise (or stay) at every iteration, from random starts on
    the tiny and the large model; the analysis it keeps is its parameters' decoding, scored
    like any sampler's."""
    for model, starts in ((case.tiny(), 3), (case.large(), 2)):
        for start in range(starts):
            run = Run(model, sampler_name, seed=seed_of("point", model_name, sampler_name, start),
                      init=case.init, total_sweeps=30)
            for _ in run.advance(30):
                pass
            objective = run.trace_frame().objective.to_numpy()  # row 0: the start's
            assert np.isfinite(objective).all()
            falls = np.diff(objective) < -1e-9 * np.abs(objective[1:])
            assert not falls.any(), (f"{sampler_name} on {model_name}: the objective fell at "
                                     f"iterations {np.flatnonzero(falls) + 1}: {objective}")
            assert run.model.loglik_running(run.state) == pytest.approx(
                run.model.loglik(run.state), rel=1e-9)


# --- 2, 3. running counts and log-likelihood after mixed moves ----------------------------------
MIXED_MOVES, CHECK_EVERY = 10_000, 1_000


def test_running_counts_equal_rebuilt_counts_after_mixed_moves(case, model_name):
    model = case.large()
    rng = make_rng(seed_of("counts", model_name))
    state = model.new_state(rng, **case.init)
    start = model.values(state).copy()
    assert_counts_equal(model.counts(state), rebuilt_counts(model, state), "counts at the start")
    moved = []

    def check(done):
        moved.append(not np.array_equal(model.values(state), start))
        if done % CHECK_EVERY == 0:
            counts = model.counts(state)
            assert isinstance(counts, dict) and counts, "counts() must give the count tables"
            assert_counts_equal(counts, rebuilt_counts(model, state),
                                f"after {done} moves: counts")
            assert model.scalars(state) == model.scalars(model.rebuilt_state(state)), (
                f"after {done} moves: the scalars from running counts differ from a rebuild's")

    mixed_moves(model, state, rng, MIXED_MOVES, seed_of("counts-order", model_name), 100, check)
    assert len(moved) == MIXED_MOVES // 100 and any(moved)  # the state did change


def test_trace_labels_name_the_trace_columns(case, model_name):
    model = case.large()
    state = model.new_state(make_rng(seed_of("labels", model_name)), **case.init)
    labels, scalars = set(type(model).trace_labels), model.scalars(state)
    assert set(scalars) <= labels, f"scalars without a label: {set(scalars) - labels}"
    assert all(isinstance(v, (int, float)) for v in scalars.values())
    measures = model.measures(state)  # {} when the case's corpus has no gold
    assert not measures or labels <= set(measures) | set(scalars), (
        f"trace_labels names columns the trace does not have: "
        f"{labels - set(measures) - set(scalars)}")


def test_running_loglik_equals_loglik_from_scratch_after_mixed_moves(case, model_name):
    model = case.large()
    rng = make_rng(seed_of("loglik", model_name))
    state = model.new_state(rng, **case.init)

    def check(done):
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), rel=1e-9), (
            f"after {done} moves")

    mixed_moves(model, state, rng, MIXED_MOVES, seed_of("loglik-order", model_name),
                CHECK_EVERY, check)


# --- 4. clone_state -------------------------------------------------------------------------------
def test_a_clone_is_independent_and_replays_its_original(case, model_name):
    model = case.large()
    rng = make_rng(seed_of("clone", model_name))
    state = model.new_state(rng, **case.init)
    mixed_moves(model, state, rng, 500, order_seed=1)
    clone = model.clone_state(state)
    values, counts = model.values(clone).copy(), model.counts(clone)
    rng_copy = copy.deepcopy(rng)

    moved = []

    def check(done):  # while the original moves, the clone stays as it was
        moved.append(not np.array_equal(model.values(state), values))
        np.testing.assert_array_equal(model.values(clone), values,
                                      err_msg=f"the clone's values moved with {done} moves")
        assert_counts_equal(model.counts(clone), counts, f"after {done} moves: the clone's counts")

    mixed_moves(model, state, rng, 3_000, order_seed=2, every=50, check=check)
    assert any(moved)

    mixed_moves(model, clone, rng_copy, 3_000, order_seed=2)
    np.testing.assert_array_equal(model.values(clone), model.values(state))
    assert_counts_equal(model.counts(clone), model.counts(state), "replayed counts")
    assert rng_copy.bit_generator.state == rng.bit_generator.state


# --- 5. determinism -------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_trace(case, model_name, sampler_name):
    runs = [Run(case.large(), sampler_name, seed=seed_of("run", model_name, sampler_name),
                init=case.init, total_sweeps=5) for _ in range(2)]
    for run in runs:
        for _ in run.advance(5):
            pass
    first, second = (run.trace_frame().drop(columns="seconds") for run in runs)
    assert len(first) == 6
    pd.testing.assert_frame_equal(first, second)
    np.testing.assert_array_equal(runs[0].model.values(runs[0].state),
                                  runs[1].model.values(runs[1].state))


# --- 6. SENTENCE's remove/add round trip ------------------------------------------------------------
@pytest.mark.samplers("sentence")
def test_a_rejected_sentence_move_restores_the_state_exactly(case, model_name, sampler_name):
    """sentence_remove, sentence_add of another analysis, sentence_restore: the counts (and a
    model's seats) are as before, whatever was drawn on the way."""
    model = case.large()
    rng = make_rng(seed_of("rejected", model_name))
    state = model.new_state(rng, **case.init)
    mixed_moves(model, state, rng, 300, order_seed=3)
    buffer = np.zeros(model.n_sites, np.int64)
    changed = 0
    for u in rng.integers(count_sentences(state), size=200):
        before, values = model.counts(state), model.values(state).copy()
        old = buffer[:sentence_values(state, u, buffer)].copy()
        new = buffer[:sentence_values(model.new_state(rng, **case.init), u, buffer)].copy()
        changed += not np.array_equal(new, old)
        remove_add_restore(rng, state, u, new, old)
        assert_counts_equal(model.counts(state), before, f"sentence {u}: counts")
        np.testing.assert_array_equal(model.values(state), values)
    assert changed >= 100


@pytest.mark.samplers("sentence")
def test_removing_and_re_adding_a_sentence_restores_its_counts(case, model_name, sampler_name):
    if case.reseats:
        pytest.skip("the model draws its customers' seats afresh when a sentence is added: "
                    "the rejected-move test above covers its round trip")
    model = case.large()
    rng = make_rng(seed_of("round-trip", model_name))
    state = model.new_state(rng, **case.init)
    mixed_moves(model, state, rng, 300, order_seed=3)
    buffer = np.zeros(model.n_sites, np.int64)
    for u in rng.integers(count_sentences(state), size=200):
        before, values = model.counts(state), model.values(state).copy()
        length = sentence_values(state, u, buffer)
        removed, added = remove_then_add(rng, state, u, buffer[:length].copy())
        assert_counts_equal(model.counts(state), before, f"sentence {u}: counts")
        np.testing.assert_array_equal(model.values(state), values)
        assert removed == pytest.approx(added, rel=1e-12, abs=1e-12), f"sentence {u}"
        assert removed < 0.0


@pytest.mark.samplers("sentence")
def test_a_sentence_re_added_with_a_new_analysis_scores_exactly(case, model_name, sampler_name):
    """log p(new analysis | rest) − log p(old | rest) = loglik(new) − loglik(old), and the
    counts are then those of the new analysis built from scratch. (For a model that reseats,
    loglik is the joint with the seats, and the two log-probabilities are given the seats
    drawn: only the counts are compared; its own tests check the scores.)"""
    model = case.large()
    rng = make_rng(seed_of("new-analysis", model_name))
    state = model.new_state(rng, **case.init)
    buffer = np.zeros(model.n_sites, np.int64)
    changed = 0
    for u in rng.integers(count_sentences(state), size=200):
        old_loglik = model.loglik(state)
        other = model.new_state(rng, **case.init)  # the new analysis: another random one's
        length = sentence_values(other, u, buffer)
        new = buffer[:length].copy()
        sentence_values(state, u, buffer)
        changed += not np.array_equal(new, buffer[:length])
        removed, added = remove_then_add(rng, state, u, new)
        if not case.reseats:
            assert added - removed == pytest.approx(model.loglik(state) - old_loglik,
                                                    abs=1e-9), f"sentence {u}"
        assert_counts_equal(model.counts(state), rebuilt_counts(model, state), f"sentence {u}")
    assert changed >= 100


# --- the bounds-checked run ------------------------------------------------------------------------
def write_past_the_end(out, n):
    for i in range(n):
        out[i] = 1.0


def test_numba_checks_bounds_when_asked():
    """`make test` runs this suite again with NUMBA_BOUNDSCHECK=1 (and a compile cache of its
    own: a kernel loaded from a cache filled without checks is not checked). Then an
    out-of-bounds write in a kernel compiled like the engine's must raise, not scribble."""
    if os.environ.get("NUMBA_BOUNDSCHECK") != "1":
        pytest.skip("bounds checking is off in this run (writing out of bounds here would "
                    "corrupt memory); make test's second run turns it on")
    assert numba_config.BOUNDSCHECK
    out = np.zeros(4)
    with pytest.raises(IndexError):
        kernel(write_past_the_end)(out, 5)
