"""The Word segmentation page through AppTest: the race of five samplers, its controls, the
corpus choices and the views of one chain's segmentation and lexicon."""
import re

import pytest

PAGE = "pages/word_segmentation.py"
NAMES = ["TOKEN", "TYPE", "TOKEN-anneal", "TYPE-greedy", "SENTENCE"]


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", "")) for m in at.metric]


def logliks(at):
    return [float(m.value.replace(",", "")) for m in at.metric]


def test_first_load_races_all_five_samplers_on_the_built_in_corpus(open_page):
    at = open_page(PAGE)
    assert [m.label.split(" ·")[0] for m in at.metric] == NAMES
    assert passes(at) == [0] * 5
    assert len(set(logliks(at))) == 1  # one initial state for every chain
    assert "nursery talk" in at.caption[1].value and "408 utterances" in at.caption[1].value
    assert len(at.get("vega_lite_chart")) == 2
    assert not at.error


def test_step_play_pause_and_reset(open_page):
    at = open_page(PAGE)
    at.button(key="seg_step").click().run()
    assert passes(at) == [1] * 5
    race = at.session_state.seg_race
    for name, run in race.runs.items():
        assert run.trace[-1]["loglik"] == pytest.approx(run.model.loglik_running(run.state))
    at.button(key="seg_play").click().run()
    first = passes(at)
    at.run()
    assert all(b > a for a, b in zip(first, passes(at)))
    at.button(key="seg_pause").click().run()
    assert not at.session_state.seg_playing
    at.button(key="seg_reset").click().run()
    assert passes(at) == [0] * 5


def test_type_beats_token_from_every_symbol_a_word(open_page):
    """Liang et al. Fig. 5: from η = 1, TYPE climbs far faster than TOKEN per pass."""
    at = open_page(PAGE)
    at.session_state.seg_samplers = ["token", "type"]
    at.run()
    for _ in range(3):
        at.button(key="seg_step").click().run()
    token, type_ = logliks(at)
    assert type_ > token + 500


def test_the_segmentation_view_colours_boundaries_and_lists_the_lexicon(open_page):
    at = open_page(PAGE)
    at.button(key="seg_step").click().run()
    html = "".join(m.value for m in at.markdown if "line-height" in m.value)
    assert "#2e7d32" in html and "#d1495b" in html  # correct and spurious boundaries
    at.selectbox(key="seg_shown").set_value("type").run()
    lexicon = at.dataframe[0].value
    run = at.session_state.seg_race.runs["type"]
    assert list(lexicon.columns) == ["word", "count", "in gold lexicon"]
    assert lexicon["count"].sum() == sum(len(w) for w in run.model.words(run.state))
    at.number_input(key="seg_first").set_value(400).run()
    assert any("utterances 400–408" in m.value for m in at.markdown)


def test_a_synthetic_corpus_and_new_settings_start_new_chains(open_page):
    at = open_page(PAGE)
    at.radio(key="seg_source").set_value("synthetic").run()
    at.slider(key="seg_syn_n").set_value(100).run()
    assert "synthetic" in at.session_state.seg_corpus.name
    assert len(at.session_state.seg_corpus.utterances) == 100
    at.number_input(key="seg_eta").set_value(0.5).run()
    at.number_input(key="seg_usm_alpha0").set_value(5.0).run()
    assert at.session_state.seg_config["eta"] == 0.5
    assert at.session_state.seg_race.runs["token"].model.alpha0 == 5.0
    assert not at.exception and not at.error


def test_no_sampler_chosen_keeps_the_race(open_page):
    at = open_page(PAGE)
    at.button(key="seg_step").click().run()
    at.multiselect(key="seg_samplers").set_value([]).run()
    assert "Choose at least one sampler." in [e.value for e in at.error]
    assert passes(at) == [1] * 5


def test_an_impossible_synthetic_lexicon_is_explained_and_keeps_the_race(open_page):
    at = open_page(PAGE)
    at.button(key="seg_step").click().run()
    at.radio(key="seg_source").set_value("synthetic").run()
    at.slider(key="seg_syn_sym").set_value(2).run()
    at.slider(key="seg_syn_lex").set_value(500).run()
    assert any("lexicon_size must be" in e.value for e in at.error)
    assert "synthetic" in at.session_state.seg_corpus.name  # the last usable corpus


def test_the_bigram_model_races_its_three_samplers_with_its_own_settings(open_page):
    at = open_page(PAGE)
    at.radio(key="seg_model").set_value("bigram").run()
    assert [m.label.split(" ·")[0] for m in at.metric] == ["TOKEN", "TOKEN-anneal", "SENTENCE"]
    assert at.multiselect(key="seg_samplers").options == ["TOKEN", "TOKEN-anneal", "SENTENCE"]
    at.button(key="seg_step").click().run()
    race = at.session_state.seg_race
    for run in race.runs.values():
        assert run.model.name == "bigram" and run.model.alpha1 == 100.0
        assert run.trace[-1]["loglik"] == pytest.approx(run.model.loglik_running(run.state))
        assert run.trace[-1]["tables"] > 0
    assert "segmentation, seating" in " ".join(m.help or "" for m in at.metric)
    at.number_input(key="seg_bigram_alpha1").set_value(5.0).run()
    at.selectbox(key="seg_bigram_seating").set_value("explicit").run()
    model = next(iter(at.session_state.seg_race.runs.values())).model
    assert (model.alpha1, model.seating) == (5.0, "explicit") and passes(at) == [0] * 3
    at.radio(key="seg_model").set_value("usm").run()
    assert [m.label.split(" ·")[0] for m in at.metric] == ["TOKEN", "TOKEN-anneal", "SENTENCE"]
    assert next(iter(at.session_state.seg_race.runs.values())).model.name == "usm"
