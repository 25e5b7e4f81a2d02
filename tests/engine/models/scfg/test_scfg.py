"""The SCFG rule sampler's state against the oracle's rules written out as strings: rule keys,
counts, log-likelihood from running counts and from scratch, and TOKEN (edges by eq. 9, cuts by
eq. 8) against exact enumeration; without ∏ deg(v) the edge sampler fails it."""
import numpy as np
import pytest
from numba import njit

from engine.core.rng import make_rng
from engine.kernels import block_weight, interface, moves
from engine.kernels.forest import N_TOTALS, forest_walk
from datasets.aligned import monotone
from engine.models.scfg.kernels.rules import rule_key
from engine.models.scfg.kernels.counts import rule_root
from engine.models.scfg.kernels.token_cut import type_of
from engine.models.scfg.kernels.type_blocks import merged_region
from engine.models.scfg.model import ScfgModel
from tests.conformance.cases.scfg import (exact, trees, large_model, monotone_model, repeats_model,
                                          tiny_model, twice_model)
from tests.statistical.exact import chi_square_p


THIN_MONOTONE = 10


class Sweeper:
    """A forest sweep's buffers for one model: ``sweep(rng, state)`` makes one."""

    def __init__(self, model, typed=False, inv_temp=1.0, greedy=False, skip=False,
                 stages=moves.TWO_STAGE):
        n = model.n_sites
        z = max(fo.n_nodes for fo in model.forests)
        deg = int(np.diff(model.arrays["edge_start"]).max())
        self.cursor = np.zeros(3, np.int64)
        self.how = moves.Pass(2 ** 62, inv_temp, greedy, stages, skip)
        self.typed = typed
        self.w = np.zeros(2 * max(2, deg))  # an edge step: two parts an edge
        self.queue = np.zeros(z, np.int64)
        self.buffers = moves.BlockBuffers(
            np.zeros(n, np.uint8), np.zeros((3, n), np.int64),
            np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS))), np.zeros(n, np.uint8),
            np.zeros(N_TOTALS, np.int64))

    def sweep(self, rng, state):
        self.cursor[:] = 0
        self.buffers.visited[:] = 0
        forest_walk(rng, state, self.cursor, self.how, self.typed, self.w, self.queue,
                    self.buffers)
        return self.buffers.totals


def test_the_exact_posterior_counts_every_tree_and_cut():
    rows, p, _ = exact(tiny_model())
    # pair 1: 2 trees of 5 nodes (4 sites); pairs 2, 3: 1 tree of 3 nodes (2 sites)
    assert len(rows) == (2 * 2 ** 4) * 2 ** 2 * 2 ** 2 == len({tuple(r) for r in rows})
    assert p.sum() == pytest.approx(1.0)


def test_equal_rules_have_equal_keys_and_the_log_likelihood_is_the_oracles():
    """For every analysis: the state built from its values has the oracle's log p, from
    running counts and rebuilt, and as many distinct keys as the oracle has distinct rules."""
    model = tiny_model()
    rows, _, log_ps = exact(model)
    from tests.conformance.cases.scfg import analyses
    every = analyses(model)
    for (rules, values), log_p in zip(every, log_ps):
        state = model.state_from_values(values)
        assert tuple(model.values(state)) == values
        assert model.loglik_running(state) == pytest.approx(log_p, abs=1e-10)
        assert model.loglik(state) == pytest.approx(log_p, abs=1e-10)
        live = state.slot_key[state.slot_key >= 0]
        assert len(live) == len(set(rules))
        assert state.n_rules[0] == len(rules)


def test_running_counts_equal_counts_rebuilt_after_many_moves():
    model = large_model()
    state = model.new_state(make_rng(3))
    sweepers = [Sweeper(model), Sweeper(model, typed=True)]
    rng = make_rng(4)
    for i in range(120):
        sweepers[i % 2].sweep(rng, state)
        rebuilt = model.rebuilt_state(state)
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-9)
        assert sorted(state.slot_size[state.slot_key >= 0]) == sorted(
            rebuilt.slot_size[rebuilt.slot_key >= 0])
        assert (state.up == rebuilt.up).all()


def sampled_rows(model, draws, thin, seed, **sweeper):
    state = model.new_state(make_rng(seed))
    sweeper = Sweeper(model, **sweeper)
    rng = make_rng(seed + 1)
    for _ in range(50):
        sweeper.sweep(rng, state)
    seen = []
    for _ in range(draws):
        for _ in range(thin):
            sweeper.sweep(rng, state)
        seen.append(tuple(model.values(state)))
    return seen


def fit(model, seen):
    rows, p, _ = exact(model)
    index = {tuple(r): i for i, r in enumerate(rows)}
    counts = np.bincount([index[v] for v in seen], minlength=len(rows))
    return chi_square_p(counts, p)


def test_token_matches_the_exact_posterior():
    model = tiny_model()
    assert fit(model, sampled_rows(model, 6000, 2, seed=11)) > 1e-3


def test_token_matches_the_exact_posterior_where_an_edge_has_three_choices():
    # the root's edge moves slowly (a tree's rules are mostly merged into one): thinned every
    # 2 sweeps the chain failed (p = 5e-5), every 10 it passes (p = 0.75)
    model = monotone_model()
    assert fit(model, sampled_rows(model, 6000, THIN_MONOTONE, seed=12)) > 1e-3


def test_without_deg_the_edge_sampler_is_wrong():
    """Peng & Gildea's eq. 9 weighs an edge by ∏ deg(v): the chain keeps stale edges off the
    tree, and a tree whose nodes have more edges has more such completions. Without it the
    four-word monotone pair's root takes its middle edge a third of the time, not a fifth."""
    model = monotone_model(no_deg=True)
    assert fit(model, sampled_rows(model, 6000, THIN_MONOTONE, seed=12)) < 1e-6


def test_type_matches_the_exact_posterior():
    model = tiny_model()
    assert fit(model, sampled_rows(model, 6000, 2, seed=21, typed=True)) > 1e-3


def test_type_matches_the_exact_posterior_where_its_blocks_join_two_pairs():
    model = twice_model()
    assert fit(model, sampled_rows(model, 8000, 3, seed=22, typed=True)) > 1e-3


def on_tree_sites(model, state):
    on = np.flatnonzero(model.values(state)[:model.n_sites] >= 0)
    return on


@pytest.mark.parametrize("make, trials", [(large_model, 300), (repeats_model, 3000)])
def test_a_type_block_is_the_same_after_its_move(make, trials):
    """Criterion B (§4.4): after a TYPE move the block gathered from the same pivot is the
    same block. On the repeated word, blocks that take in every site of the type (crowded ones
    too) differ after 3 of these 3,000 moves."""
    model = make()
    n = model.n_sites
    ints = np.zeros((3, n), np.int64)
    floats = np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS)))
    chosen = np.zeros(n, np.uint8)
    rng = make_rng(3)
    big = 0
    for trial in range(trials):
        state = model.new_state(rng, eta=(trial % 5) / 4)
        pivot = int(rng.choice(on_tree_sites(model, state)))
        before = model.clone_state(state)
        size, _ = moves.gather_block(before, pivot, 0, 1, ints[0], ints[1], ints[2])
        block = set(ints[1, :size].tolist())
        moves.type_move(rng, state, pivot, 1, 1.0, False, ints, floats, chosen)
        after = model.clone_state(state)
        size, _ = moves.gather_block(after, pivot, 0, 1, ints[0], ints[1], ints[2])
        assert set(ints[1, :size].tolist()) == block
        big = max(big, len(block))
    assert big >= 3  # the test saw real blocks


@njit
def pivot_candidates(state, s0, out):
    """The sites block_candidates lists for pivot s0, removed first as TYPE removes it."""
    interface.remove_site(state, s0)
    return interface.block_candidates(state, s0, out)


def key(state, r):
    return rule_key(state, r)[0]


def type_keys(state, n):
    return type_of(state, n)[0:6:2]


def crowded_by_search(state, x, pivot_type, region):
    """crowded's criterion from the rules themselves: whether a node of x's merged rule has, for
    some value of x, the pivot's type — every rule key walked and hashed again (``rule_key``),
    none read from the index."""
    k = merged_region(state, x, region)
    old, hit = state.cut[x], False
    for value in (0, 1):
        state.cut[x] = value
        for w in region[:k]:
            if state.node_site[w] < 0:
                continue
            if w == region[0]:
                hit |= key(state, w) == pivot_type[2]
            elif state.cut[w]:
                hit |= (key(state, rule_root(state, w)) == pivot_type[1]
                        and key(state, w) == pivot_type[2])
            else:
                hit |= type_keys(state, w) == pivot_type
    state.cut[x] = old
    return hit


@pytest.mark.parametrize("make", [large_model, repeats_model, twice_model])
def test_a_pivots_candidates_are_the_uncrowded_sites_of_its_type(make):
    """block_candidates against a search of every site: the other sites whose three rule keys
    are the pivot's, less the crowded ones, and none when the pivot is crowded — on states
    after TYPE sweeps, where common rules sit under rarer ones (the index's lists searched from
    either end, crowded's keys read from the index)."""
    model = make()
    n = model.n_sites
    out, region = np.zeros(n, np.int64), np.zeros(4 * n + 8, np.int64)
    rng = make_rng(5)
    sweeper = Sweeper(model, typed=True)
    blocks = 0
    for trial in range(30):  # a planted error in crowded's filed keys showed at trial 21
        state = model.new_state(rng, eta=(trial % 6) / 5)
        for _ in range(trial % 7):
            sweeper.sweep(rng, state)
        on = on_tree_sites(model, state)
        types = {int(s): type_keys(state, state.site_node[s]) for s in on}
        for s0 in on:
            removed = model.clone_state(state)
            got = set(out[:pivot_candidates(removed, s0, out)].tolist())
            expected = set()
            if not crowded_by_search(removed, removed.site_node[s0], types[s0], region):
                expected = {s for s in types if s != s0 and types[s] == types[s0]
                            and not crowded_by_search(removed, removed.site_node[s],
                                                      types[s0], region)}
            assert got == expected, (trial, s0)
            blocks += len(got) > 0
    assert blocks >= 10  # the test saw blocks, not only lone pivots


def test_the_registered_samplers_walk_forests_and_step_or_sweep_alike():
    """TOKEN and TYPE built by name take their forest form on meeting the state; a sweep made
    of single steps is the sweep made at once, draw for draw."""
    from engine.samplers import make_sampler
    from engine.samplers.forest import ForestWalk
    model = large_model()
    for name in ("token", "type", "greedy"):
        whole, steps = model.new_state(make_rng(5)), model.new_state(make_rng(5))
        a, b = make_sampler(name), make_sampler(name)
        rng_a, rng_b = make_rng(6), make_rng(6)
        for _ in range(3):
            info = a.sweep(rng_a, whole)
            assert info.moves == sum(len(trees(fo, fo.root)[0]) for fo in model.forests)
            while True:
                move = b.step(rng_b, steps)
                if move.sweep_done:
                    break
        assert (whole.cut == steps.cut).all() and (whole.edge == steps.edge).all()
        assert isinstance(a.moves_for(whole), ForestWalk)  # its moves walk the forests


def test_one_stage_corrected_matches_the_exact_posterior_and_plain_one_stage_does_not():
    """Peng & Gildea's one-stage draw (eq. 12) normalises each site's step as if the later
    sites did not exist: not the block's law. Corrected by Metropolis-Hastings it is exact."""
    model = twice_model()
    assert fit(model, sampled_rows(model, 8000, 3, seed=23, typed=True,
                                   stages=moves.ONE_STAGE_MH)) > 1e-3
    assert fit(model, sampled_rows(model, 8000, 3, seed=23, typed=True,
                                   stages=moves.ONE_STAGE)) < 1e-6


def test_a_rules_key_is_its_strings_whichever_side_is_longer():
    """Keys come from prefix hashes and powers of the hash base: a target side longer than
    every source sentence must hash right too (the powers once stopped at the longest source
    sentence and read past their end)."""
    from datasets.aligned import read
    from engine.models.scfg.model import ScfgModel
    model = ScfgModel(read("a ||| x y z w v ||| 0-0 0-4\na ||| x y z w v ||| 0-0 0-4\n"
                           "b ||| v ||| 0-0\n"))
    state = model.new_state(make_rng(0))
    # the two copies of the pair are one rule: the same key, counted twice
    assert sorted(state.slot_size[state.slot_key >= 0]) == [1, 2]


def test_the_models_own_enumeration_is_the_oracles():
    """``exact_posterior`` (what the lesson checks its chains against) lists every analysis
    and gives it the oracle's probability; the four-word pair's root edges are 0.4, 0.2, 0.4."""
    model = tiny_model()
    values, p = model.exact_posterior()
    rows, expected, _ = exact(model)
    index = {tuple(r): i for i, r in enumerate(rows)}
    assert model.n_analyses() == len(values) == len(rows) == len({tuple(v) for v in values})
    np.testing.assert_allclose(p, expected[[index[tuple(v)] for v in values]], atol=1e-12)
    model = ScfgModel(monotone())  # α = 5, as the lesson's tiny corpus
    values, p = model.exact_posterior()
    root = model.n_sites + int(model.arrays["pair_root"][0])
    assert model.n_analyses() == 320
    np.testing.assert_allclose([p[values[:, root] == e].sum() for e in range(3)],
                               [0.4, 0.2, 0.4], atol=1e-4)


@pytest.mark.parametrize("name", ["type", "greedy", "one-stage-mh"])
def test_the_registered_samplers_sweep_the_built_in_pairs_and_keep_their_counts(name):
    """Whole sweeps of the registered samplers, whose blocks here reach dozens of sites: the
    last block's draw is converted from its scaled form by its own size (the sum of a sweep's
    block sizes once overran the buffer: a crash on KFTT; Numba's bounds checking, on in make
    test's second run, catches it here)."""
    from engine.models import registry
    from engine.samplers import make_sampler
    model = registry.get("scfg").build()
    rng = make_rng(5)
    state, sampler = model.new_state(rng), make_sampler(name, skip=False)
    largest = 0
    for _ in range(15):
        sampler.sweep(rng, state)
        largest = max(largest, sampler.buffers(state)["totals"][3])
    assert largest > model.n_sites  # a sweep's blocks together outnumber the sites
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-9)
