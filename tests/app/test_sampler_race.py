"""The Sampler race page (AppTest): every registered model races on it with no page code of its
own; chains step in the workers; the diagnostics appear once the chains are long enough."""
import pytest

from engine.models import registry

MODELS = list(registry.models())


@pytest.mark.parametrize("name", MODELS)
def test_every_registered_model_races_on_the_page(open_page, name):
    at = open_page("pages/sampler_race.py", model=name, passes=20, chains=2)
    race = at.session_state.race_race
    model_class = registry.get(name)
    assert race.ready and not race.error
    assert {task.sampler for task in race.tasks} <= set(model_class.samplers) | {"type-token"}
    assert len(race.tasks) == 2 * len(at.session_state.race_samplers)
    at.button(key="race_step").click().run()
    assert not at.exception and not at.error
    assert set(race.sweeps()) == {1}
    assert all("· pass 1" in metric.label for metric in at.metric)


def test_the_verdicts_and_the_table_appear_once_the_chains_are_long_enough(open_page):
    at = open_page("pages/sampler_race.py", passes=40)
    verdicts = [md.value for md in at.markdown if "R̂" in md.value and "**TOKEN**" in md.value]
    assert verdicts and "too few passes" in verdicts[0]
    race = at.session_state.race_race
    race.sweep(30)
    at.run()
    lines = " ".join(md.value for md in at.markdown)
    assert "**TOKEN** — not mixed: R̂ = " in lines or "**TOKEN** — mixed: R̂ = " in lines
    assert len(at.table) == 2  # one table of log p, one of token F
    table = at.table[0].value
    assert list(table.index) == ["TOKEN", "TYPE"]
    assert list(table.columns) == ["chains × draws", "R̂", "bulk ESS", "tail ESS", "ESS/s"]
    assert table.loc["TOKEN", "chains × draws"] == "4 × 16"
    assert "R̂ and ESS of **token F**" in [md.value for md in at.markdown]


def test_switching_model_keeps_only_samplers_it_offers(open_page):
    at = open_page("pages/sampler_race.py", samplers="token,type-sentence")
    at.selectbox(key="race_model").set_value("toy").run()
    assert not at.exception
    assert at.session_state.race_samplers == ["token"]  # the toy has no SENTENCE
    assert {task.sampler for task in at.session_state.race_race.tasks} == {"token"}


def test_per_sampler_starts_give_each_sampler_its_eta(open_page):
    at = open_page("pages/sampler_race.py", model="toy", starts="per_sampler",
                   eta_token="0.0", eta_type="1.0", passes=10)
    race = at.session_state.race_race
    assert {(task.sampler, task.eta) for task in race.tasks} == {("token", 0.0), ("type", 1.0)}
    starts = {task.sampler: rows[0]["m"] for task, rows in zip(race.tasks, race.rows)}
    assert starts == {"token": 0, "type": 1000}


def test_gao_and_johnsons_estimators_race_with_no_page_code_of_their_own(open_page):
    """EM, VB and the explicit samplers are registered samplers: the race runs them, and its
    diagnostics read their traces, like any other."""
    at = open_page("pages/sampler_race.py", model="hmm", samplers="em,vb,explicit-sentence",
                   passes=20, chains=2, eta="0.0")
    race = at.session_state.race_race
    assert race.ready and not race.error
    assert {task.sampler for task in race.tasks} == {"em", "vb", "explicit-sentence"}
    race.sweep(12)
    at.run()
    assert not at.exception and not at.error
    assert set(race.sweeps()) == {12}
    assert list(at.table[0].value.index) == ["EM", "VB", "explicit SENTENCE"]
