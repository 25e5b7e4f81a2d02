"""HMM tag trajectories (Liang et al. §5, Fig. 5a; Gao & Johnson 2008): five samplers of the
Bayesian HMM race from the same tagging; TYPE moves whole word types at once. The lesson's
declaration (ui/lesson.py runs it); what to look for and the equations are in
tag_trajectories.md and tag_trajectories.equations.md beside it.
"""
from pathlib import Path

import streamlit as st

from engine.models.hmm.model import HmmModel
from engine.samplers import offered
from ui import playback, race_page, tag_views
from ui.kinds.registry import picker_of
from ui.lesson import Lesson, text, equations, live, redrawn, still
from ui.models import ModelOptions
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_PASSES = 5_000
LIANG_SAMPLERS = ("token", "type", "anneal", "greedy", "sentence")
PICKER = picker_of(HmmModel)
OPTIONS = ModelOptions((HmmModel,))
BUILTIN = dict(source="builtin", n_states=None, eta=1.0, passes=200, seed=0, alpha=0.1, skip=True)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "TYPE wins on large word types (α′ = 0.0001)": dict(
        BUILTIN, alpha_emit=0.0001, samplers=("token", "type"), clock="passes", word="the"),
    "TYPE-greedy collapses": dict(BUILTIN, alpha_emit=0.1, samplers=("type", "greedy"),
                                  word="the"),
    "SENTENCE ≈ TOKEN (blocked ≈ pointwise)": dict(BUILTIN, alpha_emit=0.1,
                                                   samplers=("token", "sentence")),
}
SETTINGS = PageSettings("hmm", (
    *PICKER.settings,
    # Liang et al.'s five by default; Gao & Johnson's other four have a lesson of their own
    *race_page.race_settings((HmmModel,), MAX_PASSES, LIANG_SAMPLERS),
    *OPTIONS.settings(),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the sampler shown", choices=offered(HmmModel.samplers)),
    Setting("word", "", str, "the word followed"),
    Setting("window", 0, int, "the first token of the heatmaps", 0, 10**8),
    *playback.SETTINGS,
), PRESETS)


def sidebar(lesson):
    corpus, options = race_page.RaceSidebar(
        PICKER, OPTIONS, MAX_PASSES, "η — share of tokens starting in state 1",
        "the rest start in uniformly random states", model_class=HmmModel, cap=False,
        model_settings="Model settings (K, α, α′)", expanded=True,
        skip_help="skip pivots already sampled in a block this pass (§4.4): faster, but the "
                  "chain's law is then only close to the posterior").draw(lesson)
    return corpus, race_page.race_config(lesson.prefix, corpus, model=HmmModel.name,
                                         hyperparameters=options, skip=bool(lesson.value("skip")))


def metrics_and_charts(race):
    has_gold = "acc_many_to_one" in next(iter(race.runs.values())).trace[-1]
    race_page.sampler_metrics(
        race, lambda run, last: (f"{last['acc_many_to_one']:.1%}" if has_gold
                                 else f"{last['loglik']:,.0f}"),
        lambda run, last: f"log p = {last['loglik']:,.1f}; engine time {run.seconds:,.2f} s"
                          + (f"; 1-to-1 {last['acc_one_to_one']:.1%}, VI {last['vi']:.2f} bits"
                             if has_gold else ""))
    measures = [("loglik", "log-probability", "Log-probability over time (Fig. 5a)")]
    if has_gold:
        measures.append(("acc_many_to_one", "many-to-one accuracy", "Accuracy over time"))
    for col, (column, y_title, title) in zip(st.columns(2), measures):
        race_page.over_time(col, race, column, y_title, title, LESSON.key(f"chart_{column}"))


def view_controls(race):
    """Below the charts over time (on a phone they come first), above the views they choose;
    a word, sampler or window this race does not have (a link's) falls back to one it has."""
    model = race_page.first_model(race)
    frequent = tag_views.fit_word(SETTINGS, "word", model)
    LESSON.fit_shown(race)
    last_token = max(0, model.n_sites - 1)
    SETTINGS.fit("window", min(LESSON.value("window"), last_token),
                 f"the corpus has {model.n_sites:,} tokens")
    cols = st.columns(3)
    cols[0].selectbox("Word and confusion of", list(race.runs), format_func=label,
                      key=LESSON.key("shown"))
    cols[1].selectbox("Word to follow", frequent, key=LESSON.key("word"))
    cols[2].number_input("Heatmap from token", 0, last_token, step=tag_views.WINDOW,
                         key=LESSON.key("window"))


def views(race):
    tag_views.trajectories(race, LESSON.value("window", 0), lambda n: LESSON.key(f"heat_{n}"))
    name = LESSON.value("shown")  # fitted to the race (view_controls)
    tag_views.word_and_confusion(name, race.runs[name], LESSON.value("word"),
                                 LESSON.key("word_chart"), LESSON.key("confusion"))


def numbers(race):
    m = race_page.first_model(race)
    return dict(K=m.n_states, V=f"{len(m.vocabulary):,}", alpha=f"{m.alpha:g}",
                alpha_emit=f"{m.alpha_emit:g}")


LESSON = Lesson(
    SETTINGS, "HMM tag trajectories",
    "The Bayesian HMM for part-of-speech induction (Gao & Johnson 2008), sampled five ways from "
    "the same tagging (Liang, Jordan & Klein 2010, §5, Fig. 5a). A pass visits every token once "
    "(SENTENCE: every sentence once).", sidebar,
    warm=lambda config: warm_samplers(HmmModel, config["samplers"]),
    describe=lambda shown, race: (
        f"**{shown.name}**: {len(shown.sentences):,} sentences, {shown.n_tokens:,} tokens, "
        f"{len(shown.tag_set):,} gold tags; K = {race_page.first_model(race).n_states}."),
    views=(live(metrics_and_charts), still(view_controls), redrawn(views),
           equations(HERE.with_suffix(".equations.md"), numbers),
           text(HERE.with_suffix(".md"))),
    record_values=True)
LESSON.run()
