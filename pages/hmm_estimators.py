"""HMM estimators (Gao & Johnson 2008): EM, variational Bayes and four Gibbs samplers of the
Bayesian HMM side by side from the same start, and their Figures 2–5 on a grid of (α, α′). The
lesson's declaration (ui/lesson.py runs it); its equations and what to look for are in
hmm_estimators.equations.md and hmm_estimators.md beside it.
"""
from pathlib import Path

import streamlit as st

from engine.experiments import gao_johnson
from engine.models.hmm.model import HmmModel
from ui import gj_figures, gj_race, playback, race_page
from ui.kinds.registry import picker_of
from ui.lesson import Lesson, equations, live, still, text
from ui.models import ModelOptions
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_ITERATIONS = 5_000
PICKER = picker_of(HmmModel)
OPTIONS = ModelOptions((HmmModel,))
COMBINATIONS = [f"{a:g}, {b:g}" for a, b in gao_johnson.COMBINATIONS]
# from η = 0 each state is drawn uniformly at random: their "randomly jittered" start
BUILTIN = dict(source="builtin", n_states=None, eta=0.0, seed=0, alpha=0.1, alpha_emit=0.1,
               decode="posterior", samplers=gao_johnson.ESTIMATORS, passes=200)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "EM and VB stay put from one tag (η = 1)": dict(BUILTIN, eta=1.0, passes=50,
                                                    samplers=("em", "vb", "token")),
    "VI prefers a one-tag tagger (η = 1)": dict(BUILTIN, eta=1.0,
                                                samplers=("vb", "explicit-token", "token")),
    "TOKEN beats explicit TOKEN on a small corpus": dict(
        BUILTIN, samplers=("explicit-token", "token")),
}
SETTINGS = PageSettings("gj", (
    *PICKER.settings,
    Setting("samplers", gao_johnson.ESTIMATORS, tuple, "the estimators",
            choices=gao_johnson.ESTIMATORS),
    Setting("eta", 0.0, float, "η", 0.0, 1.0),
    Setting("passes", 200, int, "the number of iterations", 1, MAX_ITERATIONS),
    race_page.seconds_setting(),
    Setting("seed", 0, int, "the seed", 0, race_page.MAX_SEED),
    *OPTIONS.settings(),
    Setting("axis", "sweep", str, "the x axis", choices=tuple(gj_race.AXES)),
    *playback.SETTINGS,
), PRESETS)


def choose_combination():
    """One of their eight (α, α′) sets both number inputs."""
    picked = LESSON.value("combination")
    if picked in COMBINATIONS:
        alpha, alpha_emit = (float(x) for x in picked.split(", "))
        SETTINGS.apply({"alpha": alpha, "alpha_emit": alpha_emit})


def sidebar(lesson):
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(lesson.prefix)
        st.multiselect("Estimators", gao_johnson.ESTIMATORS, format_func=label,
                       key=lesson.key("samplers"))
        st.number_input("η — share of tokens starting in state 1", 0.0, 1.0, step=0.1,
                        key=lesson.key("eta"), help="the rest start in uniformly random "
                        "states; η = 0 gives EM and VB Gao & Johnson's randomly jittered "
                        "uniform start")
        race_page.length_input(lesson.prefix, "Iterations per run", 1, MAX_ITERATIONS)
        st.number_input("Seed", 0, race_page.MAX_SEED, key=lesson.key("seed"))
        with st.expander("Model settings (K, α, α′, decoding)", expanded=True):
            st.selectbox("Their eight combinations", COMBINATIONS, index=None,
                         key=lesson.key("combination"), on_change=choose_combination,
                         placeholder="(α, α′) from Gao & Johnson's grid…")
            options = OPTIONS.widgets(SETTINGS, HmmModel)
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    return corpus, race_page.race_config(lesson.prefix, corpus, model=HmmModel.name,
                                         hyperparameters=options, skip=True)


def numbers(race):
    m = race_page.first_model(race)
    return dict(K1=m.n_states + 1, V=f"{len(m.vocabulary):,}", alpha=f"{m.alpha:g}",
                alpha_emit=f"{m.alpha_emit:g}")


def describe(shown, race):
    m = race_page.first_model(race)
    return (f"**{shown.name}**: {len(shown.sentences):,} sentences, {shown.n_tokens:,} tokens, "
            f"{len(shown.tag_set):,} gold tags; K = {m.n_states}, "
            f"(α, α′) = ({m.alpha:g}, {m.alpha_emit:g}).")


LESSON = Lesson(
    SETTINGS, "HMM estimators",
    "Gao & Johnson (2008) compare six ways to fit the Bayesian HMM tagger: EM, variational Bayes, "
    "and Gibbs samplers that are explicit (they sample the probabilities θ, φ) or collapsed "
    "(they integrate them out), pointwise (a token at a time) or blocked (a sentence at a time). "
    "Here all six start from the same tagging. An iteration is one E- and M-step, or one pass "
    "over the corpus.", sidebar,
    warm=lambda config: warm_samplers(HmmModel, config["samplers"]), describe=describe,
    views=(still(lambda race: st.segmented_control("x axis", list(gj_race.AXES),
                                                   format_func=gj_race.AXES.get,
                                                   key=LESSON.key("axis"))),
           # a segmented control can be cleared: then iterations
           live(lambda race: gj_race.race_view(race, LESSON.value("axis") or "sweep",
                                               lambda column: LESSON.key(f"chart_{column}"))),
           equations(HERE.with_suffix(".equations.md"), numbers,
                     title="The six estimators' equations"),
           text(HERE.with_suffix(".md")),
           still(lambda race: gj_figures.grid_section(race_page.first_model(race),
                                                      LESSON.value("config")))),
    wording=gj_figures.WORDING)
LESSON.run()
