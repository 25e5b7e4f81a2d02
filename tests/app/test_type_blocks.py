"""The Type blocks page through AppTest: a TYPE move laid out, TOKEN beside it, the settings."""
import re

import numpy as np
import pytest

PAGE = "pages/type_blocks.py"


def metrics(at):
    return {m.label: m.value for m in at.metric}


def test_before_any_move_the_page_invites_one(open_page):
    at = open_page(PAGE)
    assert "Press **TYPE move**" in at.info[0].value
    assert not at.metric and not at.get("vega_lite_chart")


def test_a_type_move_shows_its_type_block_and_both_distributions(open_page):
    at = open_page(PAGE)
    at.button(key="tb_step").click().run()
    lab = at.session_state.tb_race
    info = lab["move"]["info"]
    shown = metrics(at)
    w1, w2, _ = lab["model"].site_type(lab["state"], info.pivot)
    assert shown["The pivot's type"].startswith(f"{w1}|{w2}")
    assert shown["Sites of this type"] == f"{len(info.type_sites):,}"
    assert shown["In the block |S|"] == f"{len(info.block):,}"
    assert shown["m drawn"] == f"{info.drawn:,} of {len(info.block):,}"
    assert set(info.block) <= set(info.type_sites) and info.pivot in info.type_sites
    assert len(at.get("vega_lite_chart")) == 2  # p(m | …) and TOKEN's p(b | …)
    assert np.exp(info.log_p).sum() == pytest.approx(1.0)
    assert lab["token"]["p"].sum() == pytest.approx(1.0)
    history = at.dataframe[0].value
    assert list(history["move"]) == [1]


def test_every_block_site_has_the_pivots_words(open_page):
    at = open_page(PAGE)
    for _ in range(5):
        at.button(key="tb_ten").click().run()
    lab = at.session_state.tb_race
    model, state, move = lab["model"], lab["state"], lab["move"]
    for s in move["info"].type_sites:
        assert model.site_type(state, s) == model.site_type(state, move["info"].pivot)
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-8)


def test_reset_and_new_settings_start_over(open_page):
    at = open_page(PAGE)
    at.button(key="tb_ten").click().run()
    assert at.session_state.tb_race["moves"] == 10
    at.button(key="tb_reset").click().run()
    assert at.session_state.tb_race["moves"] == 0
    at.radio(key="tb_source").set_value("Synthetic: 3 symbols, 8 words").run()
    at.slider(key="tb_size").set_value(20).run()
    assert len(at.session_state.tb_race["model"].texts) == 20
    at.button(key="tb_step").click().run()
    assert not at.exception and at.session_state.tb_race["moves"] == 1


def test_the_hmm_view_shows_a_binary_slice_of_a_tokens_type(open_page):
    at = open_page(PAGE)
    at.radio(key="tb_model").set_value("hmm").run()
    at.number_input(key="tb_hmm_n_states").set_value(4).run()
    for _ in range(3):
        at.button(key="tb_ten").click().run()
    at.button(key="tb_step").click().run()
    assert not at.exception
    lab = at.session_state.tb_race
    model, state, move = lab["model"], lab["state"], lab["move"]
    if move is None:  # the pass ran out of pivots on this step: take one more
        at.button(key="tb_step").click().run()
        lab = at.session_state.tb_race
        model, state, move = lab["model"], lab["state"], lab["move"]
    info = move["info"]
    assert model.name == "hmm" and model.n_states == 4
    previous, following, word = model.site_type(state, info.pivot)
    assert f"“{word}”" in metrics(at)["The pivot's type"]
    for s in info.type_sites:
        assert model.site_type(state, s) == (previous, following, word)
    assert set(state.tag[info.block] - 1) <= {info.value_zero, info.value_one}
    assert len(lab["token"]["p"]) == 4 and lab["token"]["p"].sum() == pytest.approx(1.0)
    assert "→" in at.dataframe[0].value["type"][0]  # the history names the type


def test_the_trees_say_the_treebanks_labels_until_asked_for_the_grammars(open_page):
    """With the PTSG the drawn trees and fragments say NP, not @NP|<DT>; the page's own
    "Binarised labels" switch (it had none: only Tree fragments had one) shows the grammar's."""
    at = open_page(PAGE, model="ptsg")
    at.button(key="tb_step").click().run()

    def drawn():  # the drawings' visible labels (a node's tooltip names both)
        return " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", " ".join(
            m.value for m in at.markdown if "<svg" in m.value)))
    assert "@" not in drawn()
    at.toggle(key="trees_binarised").set_value(True).run()
    assert "@" in drawn() and not at.exception
