"""Word segmentation (Goldwater et al. 2009; Liang et al. §5, Fig. 5): every registered model of
segmented text — the unigram model's five samplers, the bigram model's three — races from the
same initial segmentation. The lesson's declaration (ui/lesson.py runs it); what to look for
is in word_segmentation.md beside it.
"""
from pathlib import Path

import streamlit as st

from datasets.segmented import SEGMENTATION
from engine.models import registry
from engine.samplers import offered
from ui import playback, race_page
from ui.kinds.segmentation import VIEW, segmentation_panel
from ui.lesson import Lesson, text, formulas, live, redrawn, still
from ui.models import ModelOptions
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_chosen

HERE = Path(__file__)
MAX_PASSES = 20_000
SHOWN_UTTERANCES = 12
MEASURES = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F"}
MODELS = {name: cls for name, cls in registry.models().items()
          if cls.display == SEGMENTATION.name}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PICKER = VIEW.picker
BUILTIN_USM = dict(source="builtin", model="usm", eta=1.0, passes=200, seed=0, usm_alpha0=20.0,
                   usm_p_boundary=0.5, usm_rho=2.0, skip=True)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "TYPE escapes where TOKEN crawls": dict(
        BUILTIN_USM, samplers=("token", "type"), clock="time", seconds=0.5),
    "Annealing helps only a little": dict(
        BUILTIN_USM, samplers=("token", "anneal", "type"), clock="passes"),
    "Bigram model: annealing ends highest, TOKEN lowest": dict(
        source="builtin", model="bigram", samplers=("token", "anneal", "sentence"), eta=0.5,
        passes=300, seed=0, clock="passes", shown="anneal"),
}
SETTINGS = PageSettings("seg", (
    *PICKER.settings,
    Setting("model", next(iter(MODELS)), str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    *race_page.race_settings(tuple(MODELS.values()), MAX_PASSES),
    *OPTIONS.settings(),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the segmentation shown",
            choices=tuple(dict.fromkeys(name for cls in MODELS.values()
                                        for name in offered(cls.samplers)))),
    Setting("first", 1, int, "the first utterance shown", 1, 10**7),
    Setting("measure", "token_f", str, "the F measure", choices=tuple(MEASURES)),
    *playback.SETTINGS,
), PRESETS)


def sidebar(lesson):
    corpus, options = race_page.RaceSidebar(
        PICKER, OPTIONS, MAX_PASSES, "η — initial boundary probability",
        "each site starts as a boundary with probability η; 1 = every symbol a word (the "
        "paper's choice for TYPE)",
        choose_model=lambda: race_page.model_radio(lesson, MODELS, help=(
            "the bigram model (Goldwater et al.'s HDP) has no TYPE sampler: see the "
            "Restaurants lesson for why")),
        length_help="TOKEN-anneal cools from 10 to 1 over the first half of the run").draw(lesson)
    return corpus, race_page.race_config(lesson.prefix, corpus, model=lesson.value("model"),
                                         hyperparameters=options,
                                         skip=bool(lesson.value("skip")))


def metrics_and_charts(race):
    race_page.sampler_metrics(
        race, lambda run, last: f"{last['loglik']:,.1f}",
        lambda run, last: f"{run.model.loglik_label}; token F {last['token_f']:.3f}, boundary "
                          f"F {last['boundary_f']:.3f}; engine time {run.seconds:,.2f} s"
                          f"{race_page.sampler_figure(last)}")
    left, right = st.columns(2)
    measure = LESSON.value("measure", "token_f")
    race_page.over_time(left, race, "loglik", "log-probability",
                        "Log-probability over time (Fig. 5)", LESSON.key("loglik_chart"))
    race_page.over_time(right, race, measure, MEASURES[measure],
                        f"{MEASURES[measure]} over time", LESSON.key("f_chart"), fraction=True)


def view_controls(race):
    """Below the charts (on a phone they come first), above the segmentation they choose;
    a sampler or an utterance this race does not have (a link's) falls back to one it has."""
    LESSON.fit_shown(race)
    count = len(race_page.first_model(race).texts)
    SETTINGS.fit("first", min(LESSON.value("first"), count),
                 f"the corpus has {count:,} utterances")
    cols = st.columns(3)
    cols[0].selectbox("Show the segmentation of", list(race.runs), format_func=label,
                      key=LESSON.key("shown"))
    cols[1].number_input("From utterance", 1, count, key=LESSON.key("first"))
    cols[2].selectbox("F measure in the right chart above", list(MEASURES),
                      format_func=MEASURES.get, key=LESSON.key("measure"))


def segmentation(race):
    name = LESSON.value("shown")  # fitted to the race's samplers (view_controls)
    run = race.runs[name]
    first = min(LESSON.value("first", 1), len(run.model.texts)) - 1
    segmentation_panel(label(name), run.sweeps_done, run.model, run.state, first,
                       SHOWN_UTTERANCES, LESSON.key(f"lexicon_{name}"))


LESSON = Lesson(
    SETTINGS, "Word segmentation",
    "The unigram and bigram models of Goldwater, Griffiths & Johnson (2009), sampled from the "
    "same start (Liang, Jordan & Klein 2010, §5 and Fig. 5). A pass visits every boundary site "
    "once (SENTENCE: every utterance once).", sidebar,
    warm=warm_chosen(MODELS),
    describe=lambda shown, race: f"**{shown.name}**: {len(shown.utterances):,} utterances, "
                                 f"{shown.n_symbols:,} symbols, {shown.n_words:,} gold words.",
    views=(live(metrics_and_charts), still(view_controls),
           redrawn(segmentation), still(formulas), text(HERE.with_suffix(".md"))))
LESSON.run()
