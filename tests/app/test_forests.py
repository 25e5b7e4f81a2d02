"""The forests page through AppTest: the Pitman-Yor prior chosen in the model settings."""
import re

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
