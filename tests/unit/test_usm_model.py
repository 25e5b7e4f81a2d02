"""The unigram segmentation model: its log-probability against the reference figures, its
running counts and word index against ones rebuilt from scratch, the segmentation measures."""
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.kernels import usm as kernels
from engine.metrics import score_words
from engine.models.usm import UsmModel
from engine.samplers import make_sampler

BR_PHONO = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "br-phono.txt"


def read_br_phono():
    if not BR_PHONO.exists():
        pytest.skip(f"the Brent corpus is not at {BR_PHONO}")
    return [line.split() for line in BR_PHONO.read_text().splitlines() if line.strip()]


def test_log_probability_matches_the_reference_implementation():
    utterances = read_br_phono()
    texts = ["".join(words) for words in utterances]
    model = UsmModel(texts)
    gold = model.state_from_bound(gold_bound(utterances))
    none = model.state_from_bound(model.final)
    every = model.state_from_bound(np.ones_like(model.final))
    assert model.loglik(gold) == pytest.approx(-222426.7, abs=0.5)
    assert model.loglik(none) == pytest.approx(-393589.3, abs=0.5)
    assert model.loglik(every) == pytest.approx(-371489.9, abs=0.5)


def gold_bound(utterances):
    ends = np.cumsum([len(w) for words in utterances for w in words]) - 1
    bound = np.zeros(ends[-1] + 1, dtype=np.uint8)
    bound[ends] = 1
    return bound


def random_corpus(seed, n_utterances=60):
    """Utterances of 1–4 words from a small lexicon over 'abc', so words and pairs repeat."""
    rng = np.random.default_rng(seed)
    lexicon = ["a", "b", "ab", "ba", "abc", "ca", "bca", "cc"]
    return ["".join(rng.choice(lexicon, size=rng.integers(1, 5))) for _ in range(n_utterances)]


def lexicon_of(model, state):
    """{word: (count, sorted start positions)} read from the state's table and lists."""
    out = {}
    keys, heads, sizes = state.lexicon[:, :state.counts[kernels.LEX_CAPACITY]]
    for slot in np.flatnonzero(keys >= 0):
        start = heads[slot]
        length = kernels.word_end(state.bound, start) - start
        word = "".join(model.alphabet[c] for c in model.chars[start:start + length])
        positions, x = [], heads[slot]
        while x >= 0:
            positions.append(int(x))
            x = state.links[kernels.OCC_NEXT, x]
        assert word not in out, "a word has two slots"
        out[word] = (int(sizes[slot]), sorted(positions))
    return out


def lexicon_from_scratch(model, state):
    counts, positions, start = Counter(), defaultdict(list), 0
    for words in model.words(state):
        for w in words:
            counts[w] += 1
            positions[w].append(start)
            start += len(w)
    return {w: (counts[w], sorted(positions[w])) for w in counts}


def test_running_counts_and_word_index_equal_rebuilt_ones_after_thousands_of_moves():
    model = UsmModel(random_corpus(1), alpha0=2.0)
    rng = make_rng(3)
    state = model.new_state(rng, eta=0.5)
    samplers = [make_sampler(name) for name in ("token", "type", "sentence")]
    samplers.append(make_sampler("type", skip=False))
    for round_ in range(40):
        for sampler in samplers:
            for _ in range(30):
                sampler.step(rng, state)
        assert lexicon_of(model, state) == lexicon_from_scratch(model, state)
        n_words = sum(len(words) for words in model.words(state))
        assert state.counts[kernels.WORDS] == n_words
        assert state.counts[kernels.ENDS] == len(model.texts)
        assert state.counts[kernels.LEX_LIVE] == len(lexicon_from_scratch(model, state))
        assert not state.removed.any()
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-8)


def test_the_lexicon_table_grows_and_shrinks_without_losing_words():
    """Every symbol a word, then none: thousands of distinct words come and go."""
    rng = np.random.default_rng(2)
    texts = ["".join(rng.choice(list("abcdefgh"), size=12)) for _ in range(400)]
    model = UsmModel(texts)
    for eta in (1.0, 0.0, 0.5):
        state = model.new_state(make_rng(4), eta=eta)
        make_sampler("token").sweep(make_rng(5), state)
        assert lexicon_of(model, state) == lexicon_from_scratch(model, state)
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-7)


def test_scores_of_the_particle_filter_papers_example():
    """Börschinger & Johnson (2011) §6.1: "the old woman", "the old man" segmented as
    "theold wo man", "theold man"."""
    gold = [["the", "old", "woman"], ["the", "old", "man"]]
    found = [["theold", "wo", "man"], ["theold", "man"]]
    s = score_words(gold, found)
    assert (s["token_p"], s["token_r"]) == pytest.approx((1 / 5, 1 / 6))
    assert (s["boundary_p"], s["boundary_r"]) == pytest.approx((2 / 3, 1 / 2))
    assert (s["lexicon_p"], s["lexicon_r"]) == pytest.approx((1 / 3, 1 / 4))
    assert s["token_f"] == pytest.approx(2 / (5 + 6))
    assert s["boundary_f"] == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))


def test_perfect_and_empty_segmentations_score_as_expected():
    gold = [["ab", "c"], ["d"]]
    perfect = score_words(gold, gold)
    assert all(v == 1.0 for v in perfect.values())
    joined = score_words(gold, [["abc"], ["d"]])
    assert joined["boundary_p"] == 0.0 and joined["boundary_r"] == 0.0
    assert joined["token_p"] == pytest.approx(1 / 2) and joined["token_r"] == pytest.approx(1 / 3)


def test_scoring_refuses_an_analysis_of_different_text():
    with pytest.raises(ValueError, match="utterance 2 differs"):
        score_words([["ab"], ["cd"]], [["ab"], ["c", "e"]])


def test_the_measures_of_a_state_are_the_word_level_scores():
    texts = random_corpus(7, 30)
    rng = make_rng(1)
    truth = UsmModel(texts).new_state(rng, eta=0.5)
    model = UsmModel(texts, gold_bound=truth.bound)
    state = model.new_state(rng, eta=0.5)
    assert model.measures(state) == pytest.approx(score_words(model.words(truth),
                                                              model.words(state)))


@pytest.mark.parametrize("settings, message", [
    (dict(alpha0=0.0), "α₀ must be a positive number"),
    (dict(p_boundary=1.0), "p# must be strictly between 0 and 1"),
    (dict(rho=-1.0), "ρ must be a positive number"),
])
def test_bad_hyperparameters_are_refused_with_the_setting_named(settings, message):
    with pytest.raises(ValueError, match=message):
        UsmModel(["abc"], **settings)


def test_eta_out_of_range_is_refused():
    with pytest.raises(ValueError, match=r"η must be in \[0, 1\]"):
        UsmModel(["abc"]).new_state(make_rng(0), eta=1.5)
