"""Every lesson, as a lecturer shares it: settings changed → the address carries them → a new
session opened at that address shows the same view; leaving the page and coming back finds the
run where it was; presets are links; a bad address gets a notice and the defaults."""
import pytest

from ui.settings import slug

# page, its settings prefix, the widgets a lecturer changes (kind, key, value), its step button
PAGES = [
    ("pages/toy_posterior.py", "toy", [
        ("number_input", "toy_seed", 9), ("number_input", "toy_passes", 40),
        ("select_slider", "toy_speed", 20), ("checkbox", "toy_skip", False),
        ("number_input", "toy_chains", 50), ("multiselect", "toy_samplers", ["type", "greedy"]),
    ], "toy_step"),
    ("pages/word_segmentation.py", "seg", [
        ("number_input", "seg_seed", 5), ("number_input", "seg_passes", 100),
        ("multiselect", "seg_samplers", ["token", "type"]), ("select_slider", "seg_speed", 10),
        ("checkbox", "seg_skip", False), ("number_input", "seg_usm_alpha0", 0.001),
    ], "seg_step"),
    ("pages/tag_trajectories.py", "hmm", [
        ("number_input", "hmm_seed", 3), ("number_input", "hmm_n_states", 4),
        ("number_input", "hmm_alpha_emit", 0.01), ("multiselect", "hmm_samplers",
                                                   ["token", "type"]),
        ("number_input", "hmm_passes", 50),
    ], "hmm_step"),
    ("pages/type_blocks.py", "tb", [
        ("radio", "tb_model", "hmm"), ("number_input", "tb_seed", 4),
        ("slider", "tb_size", 20), ("checkbox", "tb_skip", False),
    ], "tb_step"),
    ("pages/sampler_race.py", "race", [
        ("number_input", "race_seed", 5), ("slider", "race_chains", 3),
        ("multiselect", "race_samplers", ["token", "type-token"]),
        ("radio", "race_starts", "spread"), ("number_input", "race_passes", 100),
        ("number_input", "race_usm_alpha0", 5.0), ("select_slider", "race_speed", 20),
    ], "race_step"),
    ("pages/tree_fragments.py", "tf", [
        ("number_input", "tf_seed", 6), ("number_input", "tf_passes", 30),
        ("multiselect", "tf_samplers", ["token", "greedy"]), ("checkbox", "tf_skip", False),
        ("number_input", "tf_alpha", 2.5), ("select_slider", "tf_speed", 20),
    ], "tf_step"),
]
IDS = [page.split("/")[1].removesuffix(".py") for page, *_ in PAGES]


def change(at, kind, key, value):
    widget = getattr(at, kind)(key=key)
    widget.set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]


def plain(value):
    return list(value) if isinstance(value, (list, tuple)) else value


def progress(at, prefix):
    """How far the page's run has gone: passes per chain, or TYPE moves on Type blocks."""
    state = at.session_state
    if prefix == "tb":
        return state.tb_race["moves"]
    if prefix == "race":  # chains in worker processes
        return state.race_race.sweeps()
    return {name: run.sweeps_done for name, run in state[f"{prefix}_race"].runs.items()}


@pytest.mark.parametrize("page, prefix, changes, step", PAGES, ids=IDS)
def test_a_link_reopens_the_same_view_in_a_new_session(open_page, page, prefix, changes, step):
    at = open_page(page)
    for kind, key, value in changes:
        change(at, kind, key, value)
    address = {name: value for name, value in at.query_params.items()}
    assert address, "the address carries the changed settings"
    again = open_page(page, **address)
    for kind, key, value in changes:
        assert plain(again.session_state[key]) == plain(value), key
    assert not again.warning


@pytest.mark.parametrize("page, prefix, changes, step", PAGES, ids=IDS)
def test_leaving_the_page_and_coming_back_keeps_the_run(open_page, page, prefix, changes, step):
    at = open_page(page)
    kind, key, value = changes[0]
    change(at, kind, key, value)
    for _ in range(3):
        at.button(key=step).click().run()
    before = progress(at, prefix)
    at.switch_page("pages/home.py").run()
    at.switch_page(page).run()
    assert not at.exception
    assert at.session_state[key] == value
    assert progress(at, prefix) == before
    at.button(key=step).click().run()  # and it goes on from there
    assert progress(at, prefix) != before


@pytest.mark.parametrize("page, prefix, changes, step", PAGES, ids=IDS)
def test_a_bad_address_gets_a_notice_and_the_defaults(open_page, page, prefix, changes, step):
    at = open_page(page, seed="minus-one", nonsense="1", preset="no-such-preset")
    notices = " ".join(w.value for w in at.warning)
    assert "`seed=minus-one`" in notices and "whole number" in notices
    assert "`nonsense`" in notices and "no-such-preset" in notices
    assert at.session_state[f"{prefix}_seed"] == 0
    assert not at.exception and not at.error


def test_the_clock_travels_in_the_link(open_page):
    at = open_page("pages/word_segmentation.py", clock="time", speed="50")
    assert at.session_state.seg_clock == "time" and at.session_state.seg_speed == 50
    at = open_page("pages/word_segmentation.py", speed="7")
    assert "`speed=7`" in " ".join(w.value for w in at.warning)


@pytest.mark.parametrize("page, prefix, changes, step", PAGES, ids=IDS)
def test_every_preset_is_a_link_to_its_settings(open_page, page, prefix, changes, step):
    at = open_page(page)
    presets = at.selectbox(key=f"{prefix}_preset").options
    assert presets, "every lesson has presets"
    for label in presets:
        linked = open_page(page, preset=slug(label))
        chosen = open_page(page)
        chosen.selectbox(key=f"{prefix}_preset").set_value(label).run()
        for name in ("seed", "samplers", "model", "n", "eta", "passes"):
            key = f"{prefix}_{name}"
            if key in chosen.session_state:
                assert linked.session_state[key] == chosen.session_state[key], (label, key)
        assert not linked.warning and not linked.exception


@pytest.mark.parametrize("page, prefix, changes, step", PAGES, ids=IDS)
def test_a_preset_gives_its_links_settings_whatever_came_before(open_page, page, prefix, changes,
                                                                step):
    """Chosen after a lecturer's changes, or after another preset, a preset sets every setting
    as its link does: those it does not name back to their defaults."""
    at = open_page(page)
    for kind, key, value in changes:
        change(at, kind, key, value)
    presets = at.selectbox(key=f"{prefix}_preset").options
    for label in [*presets, presets[0]]:  # each after the changes or the preset before it
        at.selectbox(key=f"{prefix}_preset").set_value(label).run()
        assert not at.exception, [e.value for e in at.exception]
        linked = open_page(page, preset=slug(label))
        saved = f"_{prefix}_saved"
        assert at.session_state[saved] == linked.session_state[saved], label


def test_an_invalid_value_stays_out_of_the_link_and_a_preset_replaces_it(open_page):
    at = open_page("pages/toy_posterior.py")
    change(at, "number_input", "toy_seed", -3)
    change(at, "number_input", "toy_passes", 40)
    assert "seed" not in at.query_params and at.query_params["passes"] == "40"
    label = at.selectbox(key="toy_preset").options[0]
    at.selectbox(key="toy_preset").set_value(label).run()
    assert at.session_state.toy_seed >= 0
    assert not at.error, [e.value for e in at.error]
