"""The PTSG's kernels against eq. 3 recomputed from scratch: TOKEN's conditional (eq. 4) at every
site, Proposition 1 (a type block's probability depends on its sites' values only through m),
TYPE's block stability (criterion B), and the running counts after many moves."""
import itertools
import math

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.kernels import block_weight, moves
from engine.models.ptsg.model import PtsgModel
from engine.samplers import make_sampler
from tests.conformance.cases.ptsg import CHAIN, DOG, PRIOR, SHORT, ptsg_log_p

# a corpus with repeated constructions, recursion (fragments whose upper and lower parts are the
# same fragment) and a three-way coordination (binarisation's @ nodes)
TREES = [DOG, CHAIN, SHORT, DOG,
         ("ROOT", ("S", ("NP", ("NP", ("DT", "the"), ("NN", "dog")), ("CC", "and"),
                         ("NP", ("DT", "the"), ("NN", "cat"))),
                   ("VP", ("VBZ", "sees"), ("NP", ("PRP", "it"))))),
         ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "cat")),
                   ("VP", ("VBZ", "sees"), ("NP", ("DT", "the"), ("NN", "dog")))))]


def model():
    return PtsgModel(TREES, rare=1, **PRIOR)


def test_running_loglik_equals_eq_3_from_scratch_and_the_oracle():
    m, rng = model(), make_rng(1)
    for eta in (0.0, 0.3, 1.0):
        state = m.new_state(rng, eta=eta)
        values = m.values(state)
        assert m.loglik_running(state) == pytest.approx(m.loglik(state), abs=1e-9)
        assert m.loglik(state) == pytest.approx(ptsg_log_p(m.trees, values, **PRIOR), abs=1e-9)


def test_token_weights_are_the_ratio_of_eq_3_at_every_site():
    """eq. 4 in place (token_weights) and removed (site_weights) against eq. 3 recomputed by
    the oracle with b_s = 0 and 1, at every site of random states."""
    m, rng = model(), make_rng(2)
    w, w_removed = np.empty(2), np.empty(2)
    for eta in (0.2, 0.8, 1.0):  # η = 1: sites whose upper and lower are one fragment
        state = m.new_state(rng, eta=eta)
        for s in range(m.n_sites):
            values = m.values(state).copy()
            moves.weights_by_removal(rng, state, s, w_removed)  # site_weights, s removed
            # token_weights (it leaves them in w), on a copy: the state is not moved, so the
            # sites of η = 1 whose upper and lower parts are one fragment stay so
            moves.token_move(rng, m.clone_state(state), s, 1.0, w)
            log_p = []
            for b in (0, 1):
                values[s] = b
                log_p.append(ptsg_log_p(m.trees, values, **PRIOR))
            for weights in (w, w_removed):
                assert math.log(weights[1] / weights[0]) == pytest.approx(
                    log_p[1] - log_p[0], abs=1e-12)


def type_text(m, state, s):
    """A site's type as the model shows it (brackets): independent of the kernels' keys."""
    return m.describe_site(state, s).type_text


def test_a_left_child_follows_its_parent_in_the_node_arrays():
    """TYPE's walks (``follow``, ``climb``) take n + 1 for a node's left child."""
    state = model().new_state(make_rng(0), eta=0.5)
    inner = np.flatnonzero(state.left >= 0)
    assert inner.size > 0
    np.testing.assert_array_equal(state.left[inner], inner + 1)
    np.testing.assert_array_equal(state.parent[inner + 1], inner)


def test_block_candidates_are_the_sites_of_the_pivots_type():
    """Every other site of the pivot's type, found by a scan of the types' brackets, is a
    candidate, and nothing else is."""
    m = model()
    n = m.n_sites
    ints = np.zeros((3, n), np.int64)
    for trial in range(60):
        state = m.new_state(make_rng(trial), eta=(trial % 5) / 4)
        types = [type_text(m, state, s) for s in range(n)]
        pivot = trial % n
        size, n_cand = moves.gather_block(state, pivot, 0, 1, ints[0], ints[1], ints[2])
        scan = {s for s in range(n) if types[s] == types[pivot]}
        assert set(ints[0, :n_cand].tolist()) | {pivot} == scan, types[pivot]
        assert ints[1, 0] == pivot and set(ints[1, :size].tolist()) <= scan


def test_a_type_block_is_the_same_after_its_move():
    """Criterion B (§4.4): after a TYPE move the block gathered from the same pivot is the
    same block."""
    m = model()
    n = m.n_sites
    ints = np.zeros((3, n), np.int64)
    floats = np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS)))
    chosen = np.zeros(n, np.uint8)
    rng = make_rng(3)
    big = 0
    for trial in range(200):
        state = m.new_state(rng, eta=(trial % 5) / 4)
        pivot = int(rng.integers(n))
        before = m.clone_state(state)
        size, _ = moves.gather_block(before, pivot, 0, 1, ints[0], ints[1], ints[2])
        block = set(ints[1, :size].tolist())
        moves.type_move(rng, state, pivot, 1, 1.0, False, ints, floats, chosen)
        after = m.clone_state(state)
        size, _ = moves.gather_block(after, pivot, 0, 1, ints[0], ints[1], ints[2])
        assert set(ints[1, :size].tolist()) == block
        big = max(big, len(block))
    assert big >= 3  # the test saw real blocks


def g_of_the_block_depends_only_on_m(m, state, pivot):
    """Gather the type block of ``pivot`` (2 … 12 sites) and check Proposition 1 on it: every
    assignment of its sites, the others fixed, has the probability eq. 3 gives it, which
    depends only on m and equals the kernels' g(m) (C(|S|, m)-free). False for a block of
    another size (not checked)."""
    n = m.n_sites
    ints = np.zeros((3, n), np.int64)
    work = np.zeros((4, block_weight.MAX_DELTA_TERMS))
    log_g = np.zeros(n + 1)
    values = m.values(state).copy()
    size, _ = moves.gather_block(state, pivot, 0, 1, ints[0], ints[1], ints[2])
    if size < 2 or size > 12:
        return False
    block = ints[1, :size].copy()
    block_weight.block_log_g(state, pivot, 0, 1, size, log_g, *work)
    by_m = {}
    for bits in itertools.product((0, 1), repeat=size):
        values[block] = bits
        by_m.setdefault(sum(bits), set()).add(round(ptsg_log_p(m.trees, values, **PRIOR), 9))
    assert all(len(v) == 1 for v in by_m.values()), f"block {block.tolist()}"
    exact = np.array([by_m[k].pop() for k in range(size + 1)])
    np.testing.assert_allclose(log_g[: size + 1], exact - exact[0], atol=1e-9)
    return True


def test_proposition_1_p_depends_on_the_block_only_through_m():
    """For type blocks of up to 12 sites of random states (``g_of_the_block…``)."""
    m = model()
    checked = 0
    for trial in range(80):
        state = m.new_state(make_rng(100 + trial), eta=(trial % 3) / 2)
        checked += g_of_the_block_depends_only_on_m(m, state, trial % m.n_sites)
    assert checked >= 10


def chain(k):
    """A VP → VB VP chain k VPs deep."""
    return ("NN", "run") if k == 0 else ("VP", ("VB", "try"), chain(k - 1))


def test_a_site_inside_a_block_sites_lower_fragment_stays_out_of_the_block():
    """Every node cut down a chain of VPs: a VP site's upper and lower parts are one fragment
    (VP → VB* VP*), so the next VP down is of its type and inside its lower fragment. It
    conflicts with the pivot (``conflicts``: its fragment's root is gone) and the blocks keep
    Proposition 1; taken into the block, the block's probability would depend on more than
    m."""
    m = PtsgModel([("ROOT", chain(6))], rare=1, **PRIOR)
    state = m.state_from_values(np.ones(m.n_sites, np.int64))
    checked = sum(g_of_the_block_depends_only_on_m(m, m.clone_state(state), pivot)
                  for pivot in range(m.n_sites))
    assert checked >= 3


def test_running_counts_equal_rebuilt_counts_after_mixed_moves():
    m, rng = model(), make_rng(9)
    state = m.new_state(rng, eta=0.5)
    samplers = [make_sampler(name, total_sweeps=100, skip=False)
                for name in ("token", "type", "anneal", "greedy", "sentence")]
    for _ in range(50):  # 250 sweeps over 46 sites: over 10,000 site moves
        for sampler in samplers:
            sampler.sweep(rng, state)
    rebuilt = m.rebuilt_state(state)
    for key, table in m.counts(state).items():
        np.testing.assert_array_equal(table, m.counts(rebuilt)[key])
    np.testing.assert_array_equal(state.h_in, rebuilt.h_in)
    np.testing.assert_allclose(state.mu_in, rebuilt.mu_in)
    assert m.loglik_running(state) == pytest.approx(m.loglik(state), abs=1e-9)


def test_the_base_is_a_distribution_over_each_labels_fragments():
    """μ (the treebank's PCFG times s at each frontier node and 1 − s at each inner one) sums to
    1 over every fragment rooted at a label, enumerated from the rules of a non-recursive
    grammar, for any s; without s at the frontier nodes it would not."""
    rules = list(PtsgModel([DOG, SHORT], rare=1, **PRIOR).packed.rules)
    lhs = {rule[0] for rule in rules}

    def fragments(label):
        for rule in (r for r in rules if r[0] == label):
            if len(rule) == 2:  # a preterminal and its word
                yield rule
                continue
            options = [[child, *fragments(child)] if child in lhs else [child]
                       for child in rule[1:]]
            for left, right in itertools.product(*options):
                yield (label, left, right)

    def frontier(f):
        return sum(1 if isinstance(c, str) else frontier(c) for c in f[1:]) if len(f) == 3 \
            else 0

    for stop in (PRIOR["stop"], 0.05, 0.95):
        m = PtsgModel([DOG, SHORT], rare=1, alpha=PRIOR["alpha"], stop=stop)
        for label in lhs:
            total = math.fsum(math.exp(m.log_base(f)) for f in fragments(label))
            assert total == pytest.approx(1, abs=1e-12), (stop, label)
    root = next(label for label in lhs if label.startswith("ROOT"))
    m = PtsgModel([DOG, SHORT], rare=1, **PRIOR)
    without_s = math.fsum(math.exp(m.log_base(f) - frontier(f) * math.log(PRIOR["stop"]))
                          for f in fragments(root))
    assert without_s > 1.5
