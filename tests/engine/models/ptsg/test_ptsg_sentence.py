"""SENTENCE on the tree-substitution grammar, piece by piece against the oracle: with one tree
taken out, the proposal q (the other trees' counts frozen; the counts' part for fragments of
depth ≤ 3) is normalised over every fragmentation of the tree, equals its definition computed
by brute force, and its draws follow it; sentence_remove returns the exact log p of the tree's
fragments given the others (eq. 3's difference). The move's Metropolis-Hastings step is the
engine's one (engine.kernels.sentence), the whole checked against the exact posterior by the
conformance suite."""
import itertools
import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from engine.core.rng import make_rng
from engine.kernels import sentence
from engine.models.ptsg.model import PtsgModel
from engine.models.ptsg.sentence import DEPTH
from engine.samplers import make_sampler
from tests.conformance.cases.ptsg import CHAIN, DOG, PRIOR, SHORT, fragments, ptsg_log_p

TREES = [CHAIN, DOG, SHORT, CHAIN, DOG]  # repeated trees: counts the proposal looks up


@pytest.fixture(scope="module")
def setting():
    m = PtsgModel(TREES, rare=1, **PRIOR)
    state = m.new_state(make_rng(4), eta=0.5)
    return m, state, make_sampler("sentence").make_buffers(state)


def tree_sites(m, u):
    start = int(m.packed.tree_start[u]) - u
    return start, start + int(m.packed.tree_start[u + 1] - m.packed.tree_start[u]) - 1


def with_tree(values, m, u, cuts):
    out = values.copy()
    start, stop = tree_sites(m, u)
    out[start:stop] = cuts
    return out


def brute_q(m, values, u):
    """q over tree u's fragmentations from its definition: Π over the tree's fragments of
    (n_f [depth ≤ DEPTH] + α μ_f) / (n_X + α), n counted on the other trees, normalised."""
    others = Counter(), Counter()
    for t, shape, _, label, _ in fragments(m.trees, values, PRIOR["stop"]):
        if t != u:
            others[0][shape] += 1
            others[1][label] += 1
    start, stop = tree_sites(m, u)
    log_q = []
    for cuts in itertools.product((0, 1), repeat=stop - start):
        total = 0.0
        for t, shape, log_mu, label, depth in fragments(m.trees, with_tree(values, m, u, cuts),
                                                        PRIOR["stop"]):
            if t == u:
                n_f = others[0][shape] if depth <= DEPTH else 0
                total += math.log((n_f + PRIOR["alpha"] * math.exp(log_mu))
                                  / (others[1][label] + PRIOR["alpha"]))
        log_q.append(total)
    log_q = np.array(log_q)
    return np.exp(log_q - np.logaddexp.reduce(log_q))


def kernel_q(m, state, b, u):
    """q over tree u's fragmentations as the proposal reports it (its log q(old) with old set
    to each one in turn), and log p(old) for each."""
    start, stop = tree_sites(m, u)
    values = m.values(state)
    q, log_p = [], []
    for cuts in itertools.product((0, 1), repeat=stop - start):
        probe = m.state_from_values(with_tree(values, m, u, cuts))
        p_old, _, q_old = sentence.propose(make_rng(0), probe, u, b["old"], b["new"], b["work"])
        q.append(q_old)
        log_p.append(p_old)
    return np.exp(q), np.array(log_p)


@pytest.mark.parametrize("u", [0, 1, 2])
def test_the_proposal_is_normalised_and_is_its_definition(setting, u):
    m, state, b = setting
    q, _ = kernel_q(m, state, b, u)
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    assert q == pytest.approx(brute_q(m, m.values(state), u), abs=1e-12)


def test_the_proposals_draws_follow_q(setting):
    """Tree 0 (the chain of VPs, 2^12 fragmentations): 40,000 draws against q, the rarest
    fragmentations pooled so each cell expects at least 5."""
    m, state, b = setting
    q, _ = kernel_q(m, state, b, 0)
    start, stop = tree_sites(m, 0)
    rng = make_rng(7)
    weights = 1 << np.arange(stop - start - 1, -1, -1)
    draws = np.empty(40_000, np.int64)
    for i in range(draws.size):
        sentence.propose(rng, state, 0, b["old"], b["new"], b["work"])
        draws[i] = int(b["new"][:stop - start] @ weights)
    seen = np.bincount(draws, minlength=q.size)
    expected = q * draws.size
    big = expected >= 5
    observed = np.append(seen[big], seen[~big].sum())
    expected = np.append(expected[big], expected[~big].sum())
    assert stats.chisquare(observed, expected).pvalue > 0.001


def log_p_given_the_others(m, values, u):
    """log p of tree u's fragments given the other trees': drawn last, one after another, from
    their restaurants (the predictive form of eq. 3, the base of the whole treebank)."""
    drawn = list(fragments(m.trees, values, PRIOR["stop"]))
    n_f, n_x, total = Counter(), Counter(), 0.0
    for t, shape, log_mu, label, _ in sorted(drawn, key=lambda f: f[0] == u):
        if t == u:
            total += math.log((n_f[shape] + PRIOR["alpha"] * math.exp(log_mu))
                              / (n_x[label] + PRIOR["alpha"]))
        n_f[shape] += 1
        n_x[label] += 1
    return total


def test_sentence_remove_gives_the_trees_exact_log_p_given_the_others(setting):
    m, state, b = setting
    values = m.values(state)
    for u in range(len(TREES)):
        log_p, _, _ = sentence.propose(make_rng(0), state, u, b["old"], b["new"], b["work"])
        assert log_p == pytest.approx(log_p_given_the_others(m, values, u), abs=1e-10)
    assert (m.values(state) == values).all()  # propose leaves the state as it was
    assert m.loglik_running(state) == pytest.approx(m.loglik(state), abs=1e-9)
    assert m.loglik(state) == pytest.approx(ptsg_log_p(m.trees, values, **PRIOR), abs=1e-9)
