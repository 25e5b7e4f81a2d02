"""The Type blocks page through AppTest: a TYPE move laid out, TOKEN beside it, the settings."""
import numpy as np
import pytest

PAGE = "pages/type_blocks.py"


def metrics(at):
    return {m.label: m.value for m in at.metric}


def test_before_any_move_the_page_invites_one(open_page):
    at = open_page(PAGE)
    assert "Press **TYPE move**" in at.info[0].value
    assert not at.metric and not at.get("plotly_chart")


def test_a_type_move_shows_its_type_block_and_both_distributions(open_page):
    at = open_page(PAGE)
    at.button(key="tb_step").click().run()
    lab = at.session_state.tb
    info = lab["move"]["info"]
    shown = metrics(at)
    w1, w2 = lab["move"]["w1"], lab["move"]["w2"]
    assert shown["The pivot's type"].startswith(f"{w1}|{w2}")
    assert shown["Sites of this type"] == f"{len(info.type_sites):,}"
    assert shown["In the block |S|"] == f"{len(info.block):,}"
    assert shown["m drawn"] == f"{info.drawn:,} of {len(info.block):,}"
    assert set(info.block) <= set(info.type_sites) and info.pivot in info.type_sites
    assert len(at.get("plotly_chart")) == 2  # p(m | …) and TOKEN's p(b | …)
    assert np.exp(info.log_p).sum() == pytest.approx(1.0)
    assert lab["token"]["p"].sum() == pytest.approx(1.0)
    history = at.dataframe[0].value
    assert list(history["move"]) == [1]


def test_every_block_site_has_the_pivots_words(open_page):
    at = open_page(PAGE)
    for _ in range(5):
        at.button(key="tb_ten").click().run()
    lab = at.session_state.tb
    model, state, move = lab["model"], lab["state"], lab["move"]
    for s in move["info"].type_sites:
        assert model.site_type(state, s) == (move["w1"], move["w2"], move["final"])
    assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-8)


def test_reset_and_new_settings_start_over(open_page):
    at = open_page(PAGE)
    at.button(key="tb_ten").click().run()
    assert at.session_state.tb["moves"] == 10
    at.button(key="tb_reset").click().run()
    assert at.session_state.tb["moves"] == 0
    at.radio(key="tb_source").set_value("Synthetic: 3 symbols, 8 words").run()
    at.slider(key="tb_size").set_value(20).run()
    assert len(at.session_state.tb["model"].texts) == 20
    at.button(key="tb_step").click().run()
    assert not at.exception and at.session_state.tb["moves"] == 1
