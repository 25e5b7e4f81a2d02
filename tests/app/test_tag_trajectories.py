"""The HMM tag-trajectories page through AppTest: the race, its controls and its views."""
import json
import re
from tests.charts import title_text

PAGE = "pages/tag_trajectories.py"
NAMES = ["TOKEN", "TYPE", "TOKEN-anneal", "TYPE-greedy", "SENTENCE"]


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", "")) for m in at.metric]


def test_first_load_races_five_samplers_on_the_built_in_corpus(open_page):
    at = open_page(PAGE)
    assert [m.label.split(" ·")[0] for m in at.metric] == NAMES
    assert passes(at) == [0] * 5
    assert len({m.value for m in at.metric}) == 1  # one initial tagging for every chain
    model = at.session_state.hmm_race.runs["token"].model
    assert model.n_states == len(model.tag_set) == 15  # K defaults to the gold tags
    assert "Built-in: simple sentences" in at.caption[1].value
    # log-probability, accuracy, the TOKEN and TYPE heatmaps, one word, the confusion matrix
    assert len(at.get("vega_lite_chart")) == 6
    assert not at.error


def test_step_play_and_reset(open_page):
    at = open_page(PAGE)
    at.button(key="hmm_step").click().run()
    assert passes(at) == [1] * 5
    run = at.session_state.hmm_race.runs["type"]
    assert len(run.values) == 2 and (run.values[-1] == run.state.tag).all()
    at.button(key="hmm_play").click().run()
    first = passes(at)
    at.run()
    assert all(b > a for a, b in zip(first, passes(at)))
    at.button(key="hmm_pause").click().run()
    at.button(key="hmm_reset").click().run()
    assert passes(at) == [0] * 5


def chart_specs(at):
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def chart_titles(at):
    return [title_text(spec) for spec in chart_specs(at)]


def test_views_follow_the_chosen_sampler_word_and_window(open_page):
    at = open_page(PAGE)
    at.button(key="hmm_step").click().run()
    at.selectbox(key="hmm_shown").set_value("type").run()
    at.selectbox(key="hmm_word").set_value("dog").run()
    titles = chart_titles(at)
    assert any(t.startswith("TYPE: states of the") and "“dog”" in t for t in titles)
    assert "TYPE: states against gold tags" in titles
    at.number_input(key="hmm_window").set_value(120).run()
    x = [layer["encoding"]["x"] for layer in chart_specs(at)[2]["layer"]]
    assert next(axis for axis in x if "sort" in axis)["sort"][0].startswith("120:")


def test_settings_start_new_chains_and_bad_ones_keep_the_race(open_page):
    at = open_page(PAGE)
    at.button(key="hmm_step").click().run()
    at.multiselect(key="hmm_samplers").set_value([]).run()
    assert "Choose at least one sampler." in [e.value for e in at.error]
    assert passes(at) == [1] * 5
    at.multiselect(key="hmm_samplers").set_value(["token", "type"]).run()
    at.number_input(key="hmm_n_states").set_value(4).run()
    assert at.session_state.hmm_race.runs["token"].model.n_states == 4
    at.radio(key="hmm_source").set_value("synthetic").run()
    assert "synthetic HMM" in at.session_state.hmm_corpus.name
    assert not at.exception
