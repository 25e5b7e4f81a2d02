"""The Bayesian HMM: running counts and the type → tokens index against ones rebuilt from the
tags after thousands of moves; settings refused with the setting named."""
import numpy as np
import pytest

from engine.core import hash_table
from engine.core.rng import make_rng
from engine.kernels import block_weight, moves
from engine.models.hmm.model import HmmModel
from engine.samplers import make_sampler


def random_corpus(seed, n_sentences=40):
    rng = np.random.default_rng(seed)
    words = ["the", "a", "dog", "cat", "runs", "sees", "big", "."]
    return [list(rng.choice(words, size=rng.integers(1, 7))) for _ in range(n_sentences)]


def assert_state_matches_rebuilt(model, state):
    rebuilt = model.state_from_tags(state.tag)
    for name in ("trans", "trans_total", "emit", "emit_total"):
        np.testing.assert_array_equal(getattr(state, name), getattr(rebuilt, name), err_msg=name)
    index = model.counts(state)["type_index"]  # {type key: sorted tokens}, sizes checked
    assert index == model.counts(rebuilt)["type_index"]
    for key in index:  # and every key is found by a lookup
        assert hash_table.find(state.slot_key, key) >= 0
    assert not state.removed.any()
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-8)


@pytest.mark.parametrize("k", [2, 5])
def test_counts_and_type_index_equal_rebuilt_ones_after_thousands_of_moves(k):
    model = HmmModel(random_corpus(1), k)
    rng = make_rng(3)
    state = model.new_state(rng, eta=0.2)
    samplers = [make_sampler("token"), make_sampler("type"), make_sampler("type", skip=False),
                make_sampler("greedy"), make_sampler("sentence")]
    for _ in range(30):
        for sampler in samplers:
            for _ in range(40):
                sampler.step(rng, state)
        assert_state_matches_rebuilt(model, state)


def test_the_transition_counts_count_each_transition_once():
    model = HmmModel([["a", "b", "c"], ["d"]], 3)
    state = model.state_from_tags([1, 2, 3, 2])
    assert state.trans_total.sum() == 4 + 2  # tokens + one end per sentence
    assert state.trans[0, 1] == 1 and state.trans[3, 0] == 1 and state.trans[2, 0] == 1


@pytest.mark.parametrize("settings, message", [
    (dict(n_states=1), "the number of states K must be a whole number from 2"),
    (dict(n_states=3, alpha=0.0), "α must be a positive number"),
    (dict(n_states=3, alpha_emit=-1.0), "α′ must be a positive number"),
])
def test_bad_settings_are_refused_with_the_setting_named(settings, message):
    with pytest.raises(ValueError, match=message):
        HmmModel([["a"]], **settings)


def test_a_tagging_out_of_range_is_refused():
    with pytest.raises(ValueError, match="every token a state from 1 to 2"):
        HmmModel([["a", "b"]], 2).state_from_tags([1, 3])


def test_tagging_measures_on_a_hand_checked_example():
    """States 1 1 2 2 3 3 against tags N N V V V D, the first sentence = the first 3 tokens.

    Many-to-one: 1→N, 2→V, 3→V (or D): 5 of 6. Greedy one-to-one: 1–N, 2–V (2 each), then
    3–D (1): 5 of 6. Cross-validation: the first half maps 1→N, 2→V, 3→(unseen) the first tag,
    D; the second half's 2 V, 3 V, 3 D scores 2 of 3. VI = H(S) + H(T) − 2 I(S; T) =
    log₂3 + 1.459 − 2 · 1.126 = 0.7925 bits."""
    model = HmmModel([["a", "b", "c"], ["d", "e", "f"]], 3,
                     gold_tags=[["N", "N", "V"], ["V", "V", "D"]])
    scores = model.measures(model.state_from_tags([1, 1, 2, 2, 3, 3]))
    assert scores["acc_many_to_one"] == pytest.approx(5 / 6)
    assert scores["acc_one_to_one"] == pytest.approx(5 / 6)
    assert scores["acc_cross_validation"] == pytest.approx(2 / 3)
    h_tags = -(2 / 6 * np.log2(2 / 6) + 3 / 6 * np.log2(3 / 6) + 1 / 6 * np.log2(1 / 6))
    mutual = 1 / 3 * np.log2(3) + 1 / 3 + 1 / 6 * np.log2(3)
    assert scores["vi"] == pytest.approx(np.log2(3) + h_tags - 2 * mutual)


def test_one_state_for_everything_scores_the_majority_tag():
    model = HmmModel([["a", "b", "c", "d"]], 2, gold_tags=[["N", "V", "N", "N"]])
    scores = model.measures(model.state_from_tags([1, 1, 1, 1]))
    assert scores["acc_many_to_one"] == scores["acc_one_to_one"] == pytest.approx(3 / 4)
    assert scores["vi"] == pytest.approx(-(0.75 * np.log2(0.75) + 0.25 * np.log2(0.25)))


def test_gold_tags_must_cover_every_token():
    with pytest.raises(ValueError, match="every token of every sentence a tag"):
        HmmModel([["a", "b"]], 2, gold_tags=[["N"]])


def test_g_of_m_equals_the_exact_joint_for_every_split_of_random_blocks():
    """eq. 9's g(m) for a TYPE block against log p(z, w) recomputed for each m: rows shared by
    transitions in and out, sentence edges and the slice {k, k′} all on random states."""
    rng = np.random.default_rng(0)
    sentences = [list(rng.choice(["a", "b", "c"], size=rng.integers(1, 6))) for _ in range(12)]
    model = HmmModel(sentences, 4, alpha=0.3, alpha_emit=0.2)
    n = model.n_sites
    chains = make_rng(1)
    for _ in range(200):
        state = model.new_state(chains, eta=0.3)
        pivot, v1 = int(rng.integers(n)), int(rng.integers(4))
        v0 = int(state.tag[pivot]) - 1
        if v1 == v0:
            continue
        tags = state.tag.copy()
        work = np.zeros((3, n), np.int64)
        size, _ = moves.gather_block(state, pivot, v0, v1, work[0], work[1], work[2])
        floats = np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS)))
        block_weight.block_log_g(state, pivot, v0, v1, size, floats[0], floats[2], floats[3],
                                 floats[4], floats[5])
        exact = []
        for m in range(size + 1):
            split = tags.copy()
            split[work[1, :size]] = np.where(np.arange(size) < m, v1 + 1, v0 + 1)
            exact.append(model.loglik(model.state_from_tags(split)))
        log_g = floats[0, :size + 1]
        np.testing.assert_allclose(log_g - log_g[0], np.array(exact) - exact[0], atol=1e-9)
