"""The forests page through AppTest: the Pitman-Yor prior chosen in the model settings."""
import re

import pytest

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
