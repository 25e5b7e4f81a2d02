"""The HMM kernels' fast paths against slow definitions.

TOKEN, TYPE and SENTENCE read float64 copies of the counts with the priors added (transition
counts transposed, emission counts by word) and cached reciprocal denominators; SENTENCE
multiplies probabilities in linear space, taking logs only when a product grows small. Each is
checked here against a recount from the tags or against logs of the definition.
"""
import numpy as np
import pytest
from numba import njit

from engine.core.rng import make_rng
from engine.kernels import block_weight, moves, sentence
from engine.models.hmm import sentence as hmm_sentence
from engine.kernels.interface import sentence_add, sentence_remove, token_weights
from engine.models.hmm.model import HmmModel

WORDS = ["the", "a", "dog", "cat", "runs", "sees", "big", "."]


def random_corpus(seed, n_sentences=60, longest=7):
    rng = np.random.default_rng(seed)
    return [list(rng.choice(WORDS, size=rng.integers(1, longest))) for _ in range(n_sentences)]


def assert_float_counts_equal_recount(model, state):
    rebuilt = model.state_from_tags(state.tag)
    for name in ("trans", "trans_total", "emit", "emit_total"):
        np.testing.assert_array_equal(getattr(state, name), getattr(rebuilt, name), err_msg=name)
    k1, v = rebuilt.trans.shape[0], rebuilt.emit.shape[1]
    np.testing.assert_array_equal(state.trans_num_t, rebuilt.trans.T + model.alpha)
    np.testing.assert_array_equal(state.emit_num_t[:, 1:], rebuilt.emit[1:].T + model.alpha_emit)
    np.testing.assert_array_equal(
        state.inv_den,
        1.0 / ((rebuilt.emit_total + v * model.alpha_emit) * (rebuilt.trans_total + k1 * model.alpha)))


@pytest.mark.parametrize("k", [2, 6])
def test_float_counts_equal_the_integer_recount_after_thousands_of_mixed_moves(k):
    """TOKEN, TYPE (with and without skipping, greedy) and SENTENCE sweeps in turn, every other
    round tempered, about 12,000 moves: the float copies stay equal to a recount, exactly."""
    model = HmmModel(random_corpus(1), k, alpha=0.3, alpha_emit=0.05)
    rng = make_rng(5)
    state = model.new_state(rng, eta=0.3)
    n, n_sentences = model.n_sites, len(model.sentences)
    w = np.zeros(k)
    order, visited = np.zeros(n, np.int64), np.zeros(n, np.uint8)
    width = max(n + 1, block_weight.MAX_DELTA_TERMS)
    ints, floats = np.zeros((3, n), np.int64), np.zeros((6, width))
    chosen, type_totals = np.zeros(n, np.uint8), np.zeros(6, np.int64)
    old, new = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    work, sentence_totals = np.zeros(sentence.work_size(state)), np.zeros(2, np.int64)
    for round_ in range(25):
        inv_temp = 1.0 if round_ % 2 else 0.5
        moves.token_sweep(rng, state, 0, n, inv_temp, w)
        assert_float_counts_equal_recount(model, state)
        moves.new_order(rng, state, order, False)
        visited[:] = 0
        moves.type_sweep(rng, state, order, 0,
                         moves.Pass(n, inv_temp, round_ % 5 == 0, moves.TWO_STAGE,
                                    round_ % 3 == 0),
                         moves.BlockBuffers(visited, ints, floats, chosen, type_totals))
        assert_float_counts_equal_recount(model, state)
        sentence.sentence_sweep(rng, state, 0, n_sentences, inv_temp, old, new, work,
                                sentence_totals)
        assert_float_counts_equal_recount(model, state)
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), rel=1e-12)


def gao_johnson_weights(model, state, s):
    """p(z_s = k | rest) ∝ (Fig. 1) from the integer counts with token s's choices taken away."""
    p = 0 if model.first[s] else state.tag[s - 1]
    n = 0 if model.last[s] else state.tag[s + 1]
    c, word = state.tag[s], model.words[s]
    trans, trans_total = state.trans.copy(), state.trans_total.copy()
    emit, emit_total = state.emit.copy(), state.emit_total.copy()
    trans[p, c] -= 1
    trans[c, n] -= 1
    trans_total[p] -= 1
    trans_total[c] -= 1
    emit[c, word] -= 1
    emit_total[c] -= 1
    k1, v = trans.shape[0], emit.shape[1]
    a, a_emit = model.alpha, model.alpha_emit
    w = np.array([(emit[k, word] + a_emit) / (emit_total[k] + v * a_emit) * (trans[p, k] + a)
                  * (trans[k, n] + (p == k == n) + a) / (trans_total[k] + (p == k) + k1 * a)
                  for k in range(1, k1)])
    return w / w.sum()


@njit
def in_place_weights(rng, state, s, w):
    token_weights(rng, state, s, w)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_token_and_site_weights_follow_gao_and_johnson_for_every_token(k):
    """Every token of random states (neighbours in the same state, words beside themselves):
    token_weights with the token in place, and site_weights with it removed."""
    model = HmmModel(random_corpus(4, n_sentences=25) + [["a", "a", "a"], ["dog"]], k,
                     alpha=0.3, alpha_emit=0.2)
    rng = make_rng(9)
    w = np.zeros(k)
    for _ in range(5):
        state = model.new_state(rng, eta=0.6)
        for s in range(model.n_sites):
            expected = gao_johnson_weights(model, state, s)
            in_place_weights(rng, state, s, w)
            np.testing.assert_allclose(w / w.sum(), expected, rtol=1e-12)
            moves.weights_by_removal(rng, state, s, w)
            np.testing.assert_allclose(w / w.sum(), expected, rtol=1e-12)
        assert_float_counts_equal_recount(model, state)


@njit
def remove_and_add(rng, state, u, values):
    return sentence_remove(rng, state, u), sentence_add(rng, state, u, values)


def test_a_sentence_s_log_probability_is_the_exact_conditional_even_when_long():
    """log p(sentence u's tags and words | the rest) = log p(all) − log p(the rest), the rest
    scored as a corpus of its own (every word occurs elsewhere, so V is the same). The long
    sentence's product of probabilities falls far below 1e-150, so its logs are taken on the
    way; the short one is scored in one log."""
    long = list(np.random.default_rng(3).choice(WORDS, 120))
    sentences = random_corpus(2, n_sentences=30) + [long, ["big", "dog", "."]]
    model = HmmModel(sentences, 4, alpha=0.2, alpha_emit=0.1)
    rng = make_rng(7)
    for u in (len(sentences) - 2, len(sentences) - 1):
        state = model.new_state(rng, eta=0.2)
        first, stop = model.sent_start[u], model.sent_start[u + 1]
        values = state.tag[first:stop] - 1
        rest = HmmModel(sentences[:u] + sentences[u + 1:], 4, alpha=0.2, alpha_emit=0.1)
        rest_tags = np.r_[state.tag[:first], state.tag[stop:]]
        expected = model.loglik(state) - rest.loglik(rest.state_from_tags(rest_tags))
        removed, added = remove_and_add(rng, state, u, values)
        assert removed == pytest.approx(expected, rel=1e-12)
        assert added == pytest.approx(expected, rel=1e-12)
        assert_float_counts_equal_recount(model, state)


@pytest.mark.parametrize("inv_temp", [1.0, 0.4])
def test_the_proposal_s_log_q_sums_to_one_over_every_tagging(inv_temp):
    """The forward pass's normaliser against q's weights of all K^L taggings (path_log_q)."""
    model = HmmModel([["a", "b", "a", "c"], ["b", "c"], ["a"]], 3, alpha=0.5, alpha_emit=0.3)
    state = model.new_state(make_rng(11), eta=0.4)
    k1, length = 4, 4
    theta, scale, emit_scale = np.zeros((k1, k1)), np.zeros(k1), np.zeros(k1)
    emit_q, forward = np.zeros((length, k1)), np.zeros((length, k1))
    hmm_sentence.proposal_parameters(state, inv_temp, theta, scale, emit_scale)
    hmm_sentence.proposal_emissions(state, 0, inv_temp, emit_scale, emit_q)
    log_z = hmm_sentence.forward_filter(theta, scale, emit_q, forward)
    log_q = [hmm_sentence.path_log_q(theta, scale, emit_q, np.array(values, np.int64)) - log_z
             for values in np.ndindex(3, 3, 3, 3)]
    assert np.logaddexp.reduce(log_q) == pytest.approx(0.0, abs=1e-12)
