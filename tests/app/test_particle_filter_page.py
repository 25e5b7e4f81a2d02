"""The Particle filter lesson in AppTest: stepping reads utterances, the metrics follow the
filter, settings from a link, bad input keeps the run, the Table 1 grid fills its table, and the
comparison with batch chains draws its charts."""
import json
import time

import numpy as np

from datasets.builtin import builtin_corpus
from tests.charts import title_text


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def test_stepping_reads_utterances(open_page):
    at = open_page("pages/particle_filter.py")
    assert metric(at, "Utterances read") == f"0 / {len(builtin_corpus().utterances)}"
    for _ in range(3):
        at.button(key="pf_step").click().run()
    pf = at.session_state.pf_race
    assert pf.read == 3 and metric(at, "Utterances read").startswith("3 /")
    assert metric(at, "log Ẑ") == f"{pf.log_z:,.1f}"
    assert metric(at, "ESS") == f"{pf.trace[-1]['ess']:.1f}"
    assert not at.exception


def test_reset_starts_the_same_run_again(open_page):
    at = open_page("pages/particle_filter.py")
    for _ in range(4):
        at.button(key="pf_step").click().run()
    before = [row["log_z"] for row in at.session_state.pf_race.trace]
    at.button(key="pf_reset").click().run()
    assert at.session_state.pf_race.read == 0
    for _ in range(4):
        at.button(key="pf_step").click().run()
    assert [row["log_z"] for row in at.session_state.pf_race.trace] == before


def test_a_link_sets_the_filter(open_page):
    at = open_page("pages/particle_filter.py", particles=7, threshold="fraction",
                   fraction="0.25", resampling="systematic", rejuvenation="token", moves=3,
                   seed=5)
    pf = at.session_state.pf_race
    assert (pf.n, pf.threshold, pf.resampling, pf.seed) == (7, 0.25 * 7, "systematic", 5)
    assert pf.rejuvenation.moves == 3 and pf.rejuvenation.kind == "token"


def test_a_bad_link_gets_a_notice_and_the_defaults(open_page):
    at = open_page("pages/particle_filter.py", particles="lots", threshold="sometimes")
    assert at.warning and "Ignored in the address" in at.warning[0].value
    assert at.session_state.pf_race.n == 50 and not at.exception


def test_the_bigram_model_runs_and_takes_no_moves(open_page):
    at = open_page("pages/particle_filter.py", model="bigram", rejuvenation="type")
    at.button(key="pf_step").click().run()
    pf = at.session_state.pf_race
    assert pf.read == 1 and pf.rejuvenation is None and not at.exception


def test_a_bad_upload_keeps_the_run(open_page):
    at = open_page("pages/particle_filter.py")
    at.button(key="pf_step").click().run()
    at.radio(key="pf_source").set_value("upload").run()
    assert at.session_state.pf_race.read == 1  # no corpus yet: the filter stays
    assert not at.exception


def test_finishing_scores_the_particles(open_page):
    at = open_page("pages/particle_filter.py", particles=5)
    pf = at.session_state.pf_race
    pf.sweep(pf.total_sweeps - 1)
    at.button(key="pf_step").click().run()
    assert pf.finished
    at.button(key="pf_score").click().run()
    scores = at.session_state.pf_scores
    assert 0 < scores["token_f"] < 1
    assert metric(at, "token F") == f"{100 * scores['token_f']:,.2f}"


def grid_status(at):
    return [p.proto.text for p in at.get("progress")]


def test_the_table_one_grid_fills_its_table_and_a_cancel_keeps_it(open_page):
    at = open_page("pages/particle_filter.py")
    at.multiselect(key="pf_t1_sizes").set_value([1, 50]).run()
    at.number_input(key="pf_t1_runs").set_value(2).run()
    at.button(key="pf_t1_run").click().run()
    job = at.session_state.pf_t1_grids[-1].job
    deadline = time.time() + 240
    while job.running and time.time() < deadline:
        time.sleep(1)
    assert job.error is None and job.done == job.total == 1 + 2 + 2 * 2  # DPM, N=1, N=50 × 2
    at.run()
    assert grid_status(at) == ["7 of 7 runs done — finished"]
    table = at.table[0].value.reset_index()
    assert list(zip(table["learner"], table["threshold"], table["runs"])) == [
        ("DPM", "", 1), ("PF 1", "", 2), ("PF 50", "N", 2), ("PF 50", "N/2", 2)]
    theirs = dict(zip(table["learner"] + " " + table["threshold"], table["TF theirs"]))
    assert theirs["DPM "] == "65.65" and theirs["PF 50 N/2"] == "59.84"
    # change a setting, run, cancel: "cancelled", and the finished table is kept for its own
    at.number_input(key="pf_t1_runs").set_value(3).run()
    at.button(key="pf_t1_run").click().run()
    at.button(key="pf_t1_cancel").click().run()
    cancelled = at.session_state.pf_t1_grids[-1].job
    assert grid_status(at) == [f"cancelled ({cancelled.done} of 10 done)"]
    assert "finished" in at.selectbox(key="pf_t1_earlier").options[0]
    at.number_input(key="pf_t1_runs").set_value(2).run()
    assert grid_status(at)[0] == "7 of 7 runs done — finished"
    assert at.table[0].value.reset_index()["runs"].tolist() == [1, 2, 2, 2]
    assert not at.exception


def versus_charts(at):
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    return [s for s in specs if "against engine time" in title_text(s)]


def test_the_comparison_draws_log_probability_and_f(open_page):
    at = open_page("pages/particle_filter.py", particles=10)
    at.button(key="pf_compare").click().run()
    points, lines = at.session_state.pf_versus
    assert list(points["learner"]) == ["filter", "filter + TOKEN ×10", "filter + TYPE ×2"]
    assert set(lines) == {"batch TOKEN", "batch TYPE"}
    for frame in lines.values():
        assert frame["seconds"].iloc[-1] >= 2 * points["seconds"].max()
        assert np.isfinite(frame["log_prob"]).all()
    specs = versus_charts(at)
    assert [title_text(s) for s in specs] == [
        "Log-probability of the final state against engine time", "Token F against engine time"]
    assert all(s["config"]["legend"]["orient"] == "bottom" for s in specs)  # off the data
    assert not at.get("plotly_chart")


def test_no_upload_names_the_corpus_and_keeps_the_comparison(open_page):
    at = open_page("pages/particle_filter.py", particles=10)
    at.button(key="pf_compare").click().run()
    at.radio(key="pf_source").set_value("upload").run()
    infos = [i.value for i in at.info]
    assert any(i.startswith("No file has been uploaded yet") and "plain segmented text" in i
               for i in infos), infos
    assert not any("Choose a model" in i for i in infos)
    assert len(versus_charts(at)) == 2  # the earlier comparison stays on screen
    assert any("The last comparison: " in c.value for c in at.caption)
    assert not at.exception


def test_the_weights_axis_holds_every_weight(open_page):
    at = open_page("pages/particle_filter.py", particles=100)
    for _ in range(6):
        at.button(key="pf_step").click().run()
        weights = np.exp(at.session_state.pf_race.log_w_read)
        spec = next(json.loads(c.proto.spec) for c in at.get("vega_lite_chart")
                    if title_text(json.loads(c.proto.spec)).startswith("Weights"))
        top = spec["encoding"]["y"]["scale"]["domain"][1]
        assert weights.max() <= top <= 1


def test_choosing_a_preset_whose_settings_are_shown_starts_it_anew(open_page):
    """The Preset box fires only when its value changes: a preset chosen while its settings
    were already set by hand (the box empty) and their run finished starts that run again,
    Play enabled (before: nothing happened, Play stayed disabled)."""
    at = open_page("pages/particle_filter.py")
    at.number_input(key="pf_particles").set_value(1).run()  # preset "N = 1 …" by hand
    assert at.selectbox(key="pf_preset").value is None
    pf = at.session_state.pf_race
    pf.sweep(pf.total_sweeps - 1)
    at.button(key="pf_step").click().run()
    at.run()  # the page drawn after the last step
    assert pf.finished and at.button(key="pf_play").disabled
    at.selectbox(key="pf_preset").set_value("N = 1 collapses: one particle is DPS").run()
    fresh = at.session_state.pf_race
    assert fresh is not pf and fresh.read == 0 and fresh.n == 1
    assert not at.button(key="pf_play").disabled and not at.exception
