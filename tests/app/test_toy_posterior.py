"""The Toy posterior page through AppTest: every widget, step, play, reset and bad input.

The metrics read "<SAMPLER> · pass k" and "m = …"; they are the page's live view of each chain.
"""
import re

import pytest
from scipy.special import gammaln

PAGE = "pages/toy_posterior.py"


def log_g(n, m):
    """log g(m) of eq. 1: 1^(m) 1^(m) 1^(n−m) / 3^(n+m), with a^(k) = Γ(a+k)/Γ(a)."""
    return 2 * gammaln(1 + m) + gammaln(1 + n - m) - (gammaln(3 + n + m) - gammaln(3))


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", "")) for m in at.metric]


def ms(at):
    return [int(m.value.removeprefix("m = ").replace(",", "")) for m in at.metric]


def chart_count(at):
    return len(at.get("plotly_chart")) + len(at.get("vega_lite_chart"))


def test_first_load_shows_the_papers_start_and_every_chart(open_page):
    at = open_page(PAGE)
    assert [m.label.split(" ·")[0] for m in at.metric] == ["TOKEN", "TYPE"]
    assert passes(at) == [0, 0]
    assert ms(at) == [1000, 1000]  # Fig. 2b starts at m = n = 1000
    assert chart_count(at) == 4    # race, exact posterior, TYPE's draws, escape times
    assert not at.error


def test_step_advances_every_chain_one_pass_and_type_jumps(open_page):
    at = open_page(PAGE)
    at.button(key="toy_step").click().run()
    assert passes(at) == [1, 1]
    token_m, type_m = ms(at)
    assert token_m > 900  # TOKEN is still stuck near m = n after one pass
    assert type_m < 10    # TYPE drew m from the exact posterior, whose mass is at m ≈ 0
    race = at.session_state.toy_race
    assert race.runs["token"].trace[-1]["m"] == token_m


def test_play_advances_on_each_tick_and_pause_stops(open_page):
    at = open_page(PAGE)
    at.button(key="toy_play").click().run()
    assert at.session_state.toy_playing
    first = passes(at)
    at.run()  # one more tick of the live fragment
    second = passes(at)
    assert all(b > a for a, b in zip(first, second))
    at.button(key="toy_pause").click().run()
    assert not at.session_state.toy_playing
    paused = passes(at)
    at.run()
    assert passes(at) == paused


def test_play_stops_by_itself_at_the_end_of_the_run(open_page):
    at = open_page(PAGE)
    at.number_input(key="toy_passes").set_value(3).run()
    at.button(key="toy_play").click().run()
    for _ in range(5):
        at.run()
    assert passes(at) == [3, 3]
    assert not at.session_state.toy_playing
    assert at.button(key="toy_step").disabled


def test_reset_restarts_the_same_chains_from_the_same_seed(open_page):
    at = open_page(PAGE)
    for _ in range(3):
        at.button(key="toy_step").click().run()
    after_three = ms(at)
    at.button(key="toy_reset").click().run()
    assert passes(at) == [0, 0]
    for _ in range(3):
        at.button(key="toy_step").click().run()
    assert ms(at) == after_three


def test_settings_start_new_chains(open_page):
    at = open_page(PAGE)
    at.number_input(key="toy_n").set_value(50).run()
    assert ms(at) == [50, 50]  # initial m follows n while it was at n
    at.number_input(key="toy_m").set_value(10).run()
    assert ms(at) == [10, 10]
    at.multiselect(key="toy_samplers").set_value(["token", "type", "anneal", "greedy"]).run()
    assert [m.label.split(" ·")[0] for m in at.metric] == ["TOKEN", "TYPE", "TOKEN-anneal",
                                                          "TYPE-greedy"]
    at.checkbox(key="toy_skip").uncheck().run()
    assert at.session_state.toy_race.runs["type"].sampler.skip is False
    at.number_input(key="toy_seed").set_value(7).run()
    at.button(key="toy_step").click().run()
    assert passes(at) == [1, 1, 1, 1]
    # greedy sets the block all-`ab` (m = 0) or all-`a b` (m = n), the larger of g(0), g(n)
    assert ms(at)[3] == (0 if log_g(50, 0) > log_g(50, 50) else 50)
    assert at.query_params["n"] == "50" and at.query_params["seed"] == "7"


def test_speed_and_chains_widgets(open_page):
    at = open_page(PAGE)
    at.select_slider(key="toy_speed").set_value(50).run()
    at.button(key="toy_play").click().run()
    at.run()
    assert min(passes(at)) >= 2
    at.number_input(key="toy_chains").set_value(20).run()
    caption = " ".join(c.value for c in at.caption)
    assert "over 20 chains" in caption
    assert not at.error


@pytest.mark.parametrize("key, value, message", [
    ("toy_n", 0, "n must be between 1 and 100,000; it is 0."),
    ("toy_n", 100_001, "n must be between 1 and 100,000; it is 100,001."),
    ("toy_m", 1001, "The initial m must be between 0 and n = 1,000; it is 1,001."),
    ("toy_m", -1, "The initial m must be between 0 and n = 1,000; it is -1."),
    ("toy_passes", 0, "Passes per run must be between 1 and 10,000; it is 0."),
    ("toy_seed", -3, "The seed must be between 0 and 4,294,967,295; it is -3."),
])
def test_bad_settings_say_what_is_wrong_and_keep_the_chains(open_page, key, value, message):
    at = open_page(PAGE)
    at.button(key="toy_step").click().run()
    before = ms(at)
    race = at.session_state.toy_race
    at.number_input(key=key).set_value(value).run()
    assert message in [e.value for e in at.error]
    assert at.session_state.toy_race is race
    assert passes(at) == [1, 1] and ms(at) == before
    at.button(key="toy_step").click().run()  # the chains still run
    assert passes(at) == [2, 2]


def test_no_sampler_chosen_keeps_the_chains(open_page):
    at = open_page(PAGE)
    at.multiselect(key="toy_samplers").set_value([]).run()
    assert "Choose at least one sampler." in [e.value for e in at.error]
    assert passes(at) == [0, 0]


def test_bad_chain_count_is_reported(open_page):
    at = open_page(PAGE)
    at.number_input(key="toy_chains").set_value(0).run()
    assert "The number of chains must be between 1 and 10,000; it is 0." in [
        e.value for e in at.error]


def test_address_bar_settings_are_used_and_bad_ones_explained(open_page):
    at = open_page(PAGE, n=30, m=12, seed=4, samplers="greedy,anneal")
    assert ms(at) == [12, 12]
    assert [m.label.split(" ·")[0] for m in at.metric] == ["TYPE-greedy", "TOKEN-anneal"]
    at = open_page(PAGE, n="abc", samplers="token,gibbs")
    warnings = " ".join(w.value for w in at.warning)
    assert "`n=abc`" in warnings and "whole number" in warnings
    assert "`samplers=token,gibbs`" in warnings
    assert ms(at) == [1000, 1000]


def test_presets_set_the_settings_and_start_new_chains(open_page):
    at = open_page(PAGE)
    at.selectbox(key="toy_preset").set_value("Small n = 12: TYPE's draws, m by m").run()
    assert at.number_input(key="toy_n").value == 12 and ms(at) == [12, 12]
    at.selectbox(key="toy_preset").set_value("Fig. 2: TOKEN stuck at m = n, TYPE at the mode").run()
    assert len(at.metric) == 4 and ms(at) == [1000] * 4
    at.selectbox(key="toy_preset").set_value("From the mode (m = 0): both stay").run()
    at.button(key="toy_step").click().run()
    assert passes(at) == [1, 1] and max(ms(at)) < 10


def test_a_link_with_n_alone_starts_at_m_equal_n(open_page):
    at = open_page(PAGE, n=77)
    assert ms(at) == [77, 77] and not at.error
