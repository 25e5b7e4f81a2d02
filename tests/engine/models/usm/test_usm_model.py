"""The unigram segmentation model: its log-probability against the reference figures, the
segmentation measures, settings refused with the setting named. (Its running counts and indexes
against rebuilt ones: test_usm_indexes.py.)"""

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.scoring.metrics import score_words
from engine.models.usm.model import UsmModel

from tests.corpora import BR_PHONO


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
    texts = UsmModel.build().texts[:30]  # the built-in nursery talk: words recur
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
