"""Toy posterior (Liang et al. §2): n copies of `ab`, and why TOKEN is stuck at m = n. The
lesson's declaration (ui/lesson.py runs it; its views: ui/toy_views.py); why TOKEN is stuck is
in toy_posterior.md beside it."""
from pathlib import Path

import streamlit as st

from engine.models.toy.model import MAX_N, ToyModel
from engine.run import Race
from engine.samplers import offered
from ui import playback, race_page, toy_views
from ui.lesson import Lesson, live, still, text
from ui.settings import PageSettings, Setting, start_anew
from ui.theme import label
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_PASSES = 10_000
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "Fig. 2: TOKEN stuck at m = n, TYPE at the mode": dict(
        n=1000, m=1000, passes=30, samplers=("token", "type", "anneal", "greedy")),
    "Small n = 12: TYPE's draws, m by m": dict(n=12, m=12, passes=50, samplers=("token", "type")),
    "n = 100,000: TOKEN stuck longer": dict(n=100_000, m=100_000, passes=30,
                                           samplers=("token", "type")),
    "From the mode (m = 0): both stay": dict(n=1000, m=0, passes=30, samplers=("token", "type")),
    "One-stage is biased (n = 10); corrected, it is not": dict(
        n=10, m=0, passes=400, speed=50, samplers=("type", "one-stage", "one-stage-mh")),
}
SETTINGS = PageSettings("toy", (
    Setting("n", 1000, int, "n", 1, MAX_N),
    Setting("m", 1000, int, "the initial m", 0, MAX_N),
    Setting("samplers", ("token", "type"), tuple, "the samplers",
            choices=offered(ToyModel.samplers), words=label),
    Setting("passes", 30, int, "the number of passes", 1, MAX_PASSES),
    race_page.seconds_setting(0.5),
    Setting("seed", 0, int, "the seed", 0, race_page.MAX_SEED),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("chains", 200, int, "the number of TOKEN chains", 1, toy_views.MAX_CHAINS),
    *playback.SETTINGS,
), PRESETS, agree=lambda values: {} if values["m"] <= values["n"] else {
    "m": f"the initial m must be between 0 and n = {values['n']:,}"})


def follow_n():
    """Keep 'start at m = n' when n changes (the paper's start), if m was at n before."""
    if LESSON.value("m") == LESSON.value("n_before"):
        st.session_state[LESSON.key("m")] = LESSON.value("n")


def sidebar(lesson):
    key, value = lesson.key, lesson.value
    if key("n_before") not in st.session_state and "m" not in SETTINGS.linked():
        st.session_state[key("m")] = value("n")  # a link without m: start at m = n
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        st.number_input("n — copies of `ab`", step=1, key=key("n"), on_change=follow_n,
                        help=f"1 … {MAX_N:,}")
        st.number_input("initial m — copies split as `a b`", step=1, key=key("m"),
                        help="0 … n; the paper starts at m = n")
        st.multiselect("Samplers", offered(ToyModel.samplers), format_func=label,
                       key=key("samplers"))
        race_page.length_input(lesson.prefix, "Passes per run", step=1, help="TOKEN-anneal "
                               "cools from 10 to 1 over the first half of the run")
        st.number_input("Seed", step=1, key=key("seed"),
                        help="same seed, same settings → the same chains")
        st.checkbox("TYPE: skip approximation", key=key("skip"),
                    help="on the toy the block is always all n sites, so this only changes "
                         "how many moves a pass makes")
        SETTINGS.share()
    st.session_state[key("n_before")] = value("n")  # what follow_n compares with next
    SETTINGS.save()
    return None, dict(n=value("n"), m=value("m"), samplers=tuple(value("samplers")),
                      passes=value("passes"), length=race_page.length(lesson.prefix),
                      seed=value("seed"), skip=value("skip"))


def follow(corpus, config):
    """New chains when the settings changed and are valid; else say what is wrong."""
    issues = toy_views.problems(config, MAX_PASSES, race_page.MAX_SEED)
    for text_ in issues:
        st.error(text_)
    if issues and LESSON.value("config") is None:  # nothing valid yet to show
        st.stop()
    if issues:
        st.info("The chains below keep the last valid settings; fix the value to start new ones.")
    elif start_anew(LESSON.prefix, config):
        build_race(config)


def build_race(config):
    """Chains for ``config``, all from the same initial state; stops playing."""
    race = Race(ToyModel(config["n"]), config["samplers"], config["seed"],
                init={"m": config["m"]}, skip=config["skip"], **config["length"])
    for name, value in (("race", race), ("config", config), ("playing", False)):
        st.session_state[LESSON.key(name)] = value


def applied():
    """(n, seed) of the chains running: the last valid settings."""
    return LESSON.value("config")["n"], LESSON.value("config")["seed"]


def numbers(race):
    n = LESSON.value("config")["n"]
    flip = ToyModel(n).token_flip_probability(n)
    return dict(flip=f"{flip:.3g}", n=f"{n:,}", joined=f"{n * flip:.1f}")


LESSON = Lesson(
    SETTINGS, "Toy posterior: n copies of `ab`",
    "Liang, Jordan & Klein (2010), §2. Each copy of `ab` is either one word `ab` (z = 0) or two "
    "words `a b` (z = 1); m counts the split copies.", sidebar,
    warm=lambda config: warm_samplers(ToyModel, config["samplers"], lesson=True),
    start=follow, reset=lambda: build_race(LESSON.value("config")),
    views=(live(lambda race: toy_views.race_view(race, LESSON.key("race_chart"))),
           still(lambda race: toy_views.exact_section(*applied(), LESSON.key)),
           still(lambda race: toy_views.escape_section(*applied(), LESSON.key)),
           text(HERE.with_suffix(".md"), numbers)))
LESSON.run()
