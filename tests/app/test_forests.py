"""The forests page through AppTest: the Pitman-Yor prior chosen in the model settings."""
import re

import numpy as np
import pandas as pd
import pytest

from tests.app.test_lesson_looks import charts
from ui.settings import slug

PAGE = "pages/forests.py"


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", ""))
            for m in at.metric if " · pass" in m.label]


def test_the_pitman_yor_prior_is_labelled_approximate_and_reports_its_exact_log_p(open_page):
    at = open_page(PAGE)
    assert not at.session_state.fo_race.runs["type"].model.pitman_yor
    box = next(c for c in at.checkbox if "pitman_yor" in c.key)
    box.check().run()
    assert not at.exception
    race = at.session_state.fo_race
    model = race.runs["type"].model
    assert model.pitman_yor and model.discount == 0.5 and model.poisson == 2.0
    assert any("every sampler is approximate" in c.value for c in at.caption)
    at.button(key="fo_step").click().run()
    assert passes(at) and min(passes(at)) == 1
    for run in race.runs.values():  # the trace's log p is the exact one, tables summed out
        assert run.trace[-1]["loglik"] == pytest.approx(run.model.loglik(run.state), rel=1e-9)
    assert any("Pitman-Yor" in m.value for m in at.markdown)  # the formulas say so


def test_on_a_tiny_corpus_the_chains_stand_beside_the_exact_posterior(open_page):
    """The one-stage preset: the root edge and the rules in use, each chain's share of passes
    against the exact posterior's (enumerated: 4,096 analyses)."""
    at = open_page(PAGE, preset=slug("One-stage is biased; corrected, it is not"))
    at.button(key="fo_step").click().run()
    assert not at.exception
    drawn = charts(at)
    tail = " against the exact posterior (dark ticks)"
    assert f"Root edge: the chains' shares of passes{tail}" in drawn
    _, data = drawn[f"Rules in use: the chains' shares of passes{tail}"]
    rows = pd.concat(data.values(), ignore_index=True)
    exact = rows[rows.sampler == "exact"].set_index("value").share
    assert exact.sum() == pytest.approx(1.0) and exact["3"] == pytest.approx(0.777, abs=1e-3)
    assert rows.sampler.nunique() == 4  # the exact posterior and the three chains


def test_a_nodes_edges_are_weighed_with_and_without_deg(open_page):
    """The four-word pair's root: three edges, the two that bring a node of two edges onto the
    tree weighed twice (∏ deg(v) = 2), which is the whole of the preset's point."""
    at = open_page(PAGE, preset=slug("Without deg(v) the edge sampler is wrong"))
    model = at.session_state.fo_race.runs["token"].model
    at.selectbox(key="fo_node").set_value(int(model.arrays["pair_root"][0])).run()
    table = next(d.value for d in at.dataframe if "∏ deg(v)" in d.value.columns)
    assert list(table["∏ deg(v)"]) == [2, 1, 2] and table["now"].sum() == 1
    weights = np.exp(table["log Π P(rᵢ)"]) * table["∏ deg(v)"]
    np.testing.assert_allclose(table["P(edge) (eq. 9)"], weights / weights.sum())
    plain = np.exp(table["log Π P(rᵢ)"])
    np.testing.assert_allclose(table["without deg(v)"], plain / plain.sum())


def test_the_race_on_one_pair_alone(open_page):
    """Pair 3 of the built-in pairs raced alone: its chains see one forest, the view and the
    pair number stay on it, and unticking the box brings the whole corpus back."""
    at = open_page(PAGE)
    at.number_input(key="fo_pair").set_value(3).run()
    at.checkbox(key="fo_alone").check().run()
    race = at.session_state.fo_race
    model = race.runs["type"].model
    corpus = at.session_state.fo_corpus
    assert len(model.forests) == 1 and corpus.name.startswith("pair 3 of")
    assert at.session_state.fo_pair == 3 and not at.exception
    full = at.session_state.fo_pairs
    assert full == 48
    at.button(key="fo_step").click().run()
    assert passes(at) == [1] * len(race.runs) and not at.exception
    at.checkbox(key="fo_alone").uncheck().run()
    assert len(at.session_state.fo_race.runs["type"].model.forests) == full
