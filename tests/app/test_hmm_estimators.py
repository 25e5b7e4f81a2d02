"""The HMM estimators page through AppTest: six estimators from one start, their controls, the
(α, α′) panel, links, and the grid that fills Gao & Johnson's Figures 2–5."""
import json
import re
import time

import numpy as np
import pyarrow as pa
from tests.charts import title_text

PAGE = "pages/hmm_estimators.py"
NAMES = ["EM", "VB", "explicit TOKEN", "explicit SENTENCE", "TOKEN", "SENTENCE"]


def iterations(at):
    return [int(re.search(r"iteration ([\d,]+)", m.label).group(1).replace(",", ""))
            for m in at.metric]


def chart_titles(at):
    return [title_text(json.loads(c.proto.spec)) for c in at.get("vega_lite_chart")]


def test_first_load_starts_six_estimators_from_one_tagging(open_page):
    at = open_page(PAGE)
    assert [m.label.split(" ·")[0] for m in at.metric] == NAMES
    assert iterations(at) == [0] * 6
    assert len({m.value for m in at.metric}) == 1  # one initial tagging for all six
    race = at.session_state.gj_race
    starts = [run.state.tag for run in race.runs.values()]
    assert all((tags == starts[0]).all() for tags in starts)
    # log-probability, the own objective, the four measures
    assert len(chart_titles(at)) == 6
    assert "Greedy 1-to-1 accuracy" in chart_titles(at)
    standings = at.dataframe[0].value
    assert list(standings.index) == NAMES
    assert list(standings["objective"]) == ["log p(words | θ)", "bound F"] + [
        "log p(tags, words)"] * 4
    assert len(at.latex) >= 6  # the update equations are rendered
    assert not at.error and not at.exception


def shown_cells(table):
    """The standings as the browser writes them: the Styler's display values."""
    return pa.ipc.open_stream(table.proto.arrow_data.styler.display_values).read_pandas()


def test_every_estimator_has_its_objective_from_iteration_0(open_page):
    """EM's and VB's objective at iteration 0 is that of the parameters the initial tagging
    gives (it was blank: "None" in the table, an empty cell in the traces' CSV)."""
    at = open_page(PAGE)
    for _ in range(2):
        shown = shown_cells(at.dataframe[0])
        assert all(re.fullmatch(r"−?-?[\d,]+\.\d", v) for v in shown["value"]), list(shown)
        race = at.session_state.gj_race
        assert all(np.isfinite(run.trace[-1]["objective"]) for run in race.runs.values())
        at.button(key="gj_step").click().run()


def test_step_play_and_reset(open_page):
    at = open_page(PAGE)
    at.button(key="gj_step").click().run()
    assert iterations(at) == [1] * 6
    standings = at.dataframe[0].value
    assert np.isfinite(standings["value"]).all()  # EM's and VB's objective after one iteration
    at.button(key="gj_play").click().run()
    first = iterations(at)
    at.run()
    assert all(b > a for a, b in zip(first, iterations(at)))
    at.button(key="gj_pause").click().run()
    at.button(key="gj_reset").click().run()
    assert iterations(at) == [0] * 6


def test_the_bound_and_the_likelihood_never_fall_on_the_page(open_page):
    at = open_page(PAGE, samplers="em,vb", passes=30)
    race = at.session_state.gj_race
    race.sweep(30)
    for name in ("em", "vb"):
        objective = np.array([row["objective"] for row in race.runs[name].trace[1:]])
        assert (np.diff(objective) >= -1e-9 * np.abs(objective[1:])).all(), name


def test_their_combinations_set_both_priors_and_restart(open_page):
    at = open_page(PAGE)
    at.button(key="gj_step").click().run()
    at.selectbox(key="gj_combination").set_value("0.0001, 0.1").run()
    assert (at.session_state.gj_alpha, at.session_state.gj_alpha_emit) == (0.0001, 0.1)
    model = at.session_state.gj_race.runs["em"].model
    assert (model.alpha, model.alpha_emit) == (0.0001, 0.1)
    assert iterations(at) == [0] * 6
    at.selectbox(key="gj_decode").set_value("viterbi").run()
    assert at.session_state.gj_race.runs["vb"].model.decode == "viterbi"
    assert not at.exception


def test_a_link_restores_its_settings_and_a_bad_one_is_refused(open_page):
    at = open_page(PAGE, samplers="em,token", alpha="0.5", eta="1.0", axis="seconds")
    assert list(at.session_state.gj_race.runs) == ["em", "token"]
    assert at.session_state.gj_race.runs["em"].model.alpha == 0.5
    assert "engine time (s)" in json.dumps([json.loads(c.proto.spec)
                                            for c in at.get("vega_lite_chart")])
    bad = open_page(PAGE, samplers="em,nope", alpha="-1")
    assert bad.warning and "the estimators must be among" in bad.warning[0].value
    assert list(bad.session_state.gj_race.runs) == ["em", "vb", "explicit-token",
                                                    "explicit-sentence", "token", "sentence"]
    assert not bad.exception


def test_no_estimator_keeps_the_runs(open_page):
    at = open_page(PAGE)
    at.button(key="gj_step").click().run()
    at.multiselect(key="gj_samplers").set_value([]).run()
    assert "Choose at least one sampler." in [e.value for e in at.error]
    assert iterations(at) == [1] * 6


def grid_status(at):
    return [p.proto.text for p in at.get("progress")]


def test_the_grid_fills_figures_two_to_five_and_a_cancel_keeps_it(open_page):
    at = open_page(PAGE)
    at.number_input(key="gj_grid_iters").set_value(12).run()
    at.multiselect(key="gj_grid_estimators").set_value(["em", "token"]).run()
    at.button(key="gj_grid_run").click().run()
    job = at.session_state.gj_grid_grids[-1].job
    deadline = time.time() + 240
    while job.running and time.time() < deadline:
        time.sleep(1)
    assert job.error is None and job.done == job.total == 2 * 8
    at.run()
    assert grid_status(at) == ["16 of 16 runs done — finished"]
    tables = [t.value for t in at.dataframe[1:]]
    assert len(tables) == 4  # Figures 2–5
    assert [list(t["estimator"]) for t in tables] == [["EM", "GSc,p"]] * 4
    assert list(tables[0]["theirs"]) == ["0.2817", "0.3916"]  # their 24K × 17 column
    assert any("EM has the worst VI" in m.value for m in at.markdown)
    # each figure a chart beside its table: ours and theirs per estimator, what is better
    figures = [t for t in chart_titles(at) if t.startswith("Figure")]
    assert figures == ["Figure 2: greedy 1-to-1 accuracy (higher is better)",
                       "Figure 3: cross-validation accuracy (higher is better)",
                       "Figure 4: variation of information (lower is better)",
                       "Figure 5: iterations to converge (lower is better)"]
    # another setting's grid, cancelled: it says so, and the finished one stays available
    at.number_input(key="gj_grid_iters").set_value(14).run()
    assert len(at.dataframe) == 1  # these settings have no grid yet
    at.button(key="gj_grid_run").click().run()
    at.button(key="gj_grid_cancel").click().run()
    cancelled = at.session_state.gj_grid_grids[-1].job
    assert cancelled.state == "cancelled"
    assert grid_status(at) == [f"cancelled ({cancelled.done} of 16 done)"]
    assert at.selectbox(key="gj_grid_earlier").options == [
        "12 iterations × 1 start, EM, GSc,p; Built-in: simple sentences, K = 15, seed 0 — "
        "16 of 16 runs done — finished"]
    at.number_input(key="gj_grid_iters").set_value(12).run()  # back: the finished grid
    assert grid_status(at)[0] == "16 of 16 runs done — finished"
    assert [list(t.value["estimator"]) for t in at.dataframe[1:5]] == [["EM", "GSc,p"]] * 4
    assert not at.exception
