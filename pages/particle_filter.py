"""Particle filter (Börschinger & Johnson 2011; rejuvenation: Börschinger & Johnson 2012): word
segmentation learned online — N weighted particles read the utterances once, in order. The
lesson's declaration (ui/lesson.py runs it; its views: ui/filter_views.py, its other tabs
ui/table_one.py and ui/online_batch.py); its equations and what to look for are Markdown
beside it."""
from pathlib import Path

import streamlit as st

from datasets.segmented import SEGMENTATION
from engine.models import registry
from engine.models.protocol import Population
from ui import filter_settings, playback
from ui.corpus_choice import cap_note, first_units
from ui.filter_run import MAX_UTTERANCES, first_utterances, moves_offered, start
from ui.filter_views import draw_filter, evaluation
from ui.grid_progress import GridShelf
from ui.kinds.segmentation import VIEW
from ui.lesson import Lesson, equations, live, still, text
from ui.models import ModelOptions
from ui.online_batch import online_against_batch
from ui.settings import PageSettings, Setting, start_anew
from ui.table_one import table_one
from ui.warmup import warm_samplers

HERE = Path(__file__)
MODELS = {name: cls for name, cls in registry.models(Population).items()
          if cls.display == SEGMENTATION.name}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PARTICLE_OPTIONS = ModelOptions(tuple(MODELS.values()), "particle_options")
PICKER = VIEW.picker
STEP = playback.Wording(
    step="utterance", step_help="every particle reads the next utterance",
    speed="Speed: utterances per second",
    finished="Every particle has read the corpus's {total:,} utterances: see §6.1's scores "
             "below, or **Reset**.", clock=False)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "N = 1 collapses: one particle is DPS": dict(model="usm", particles=1, threshold="N/2",
                                                 rejuvenation="off", seed=0),
    "Resampling only at ESS ≤ 1: one particle takes all the weight": dict(
        model="usm", particles=100, threshold="fraction", fraction=0.01, rejuvenation="off",
        seed=0),
    "Rejuvenation rescues 100 particles": dict(model="usm", particles=100, threshold="N/2",
                                               rejuvenation="type", moves=2, seed=0),
}
SETTINGS = PageSettings("pf", (
    *PICKER.settings,
    Setting("model", next(iter(MODELS)), str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    *filter_settings.SETTINGS,
    *OPTIONS.settings(),
    *PARTICLE_OPTIONS.settings(),
    Setting("seed", 0, int, "the seed", 0, 2**32 - 1),
    Setting("logw", False, bool, "the log scale"),
    *playback.SETTINGS,
), PRESETS)
TABLE_ONE = GridShelf(SETTINGS.key("t1"))


def sidebar(lesson):
    """(the corpus or None, the filter's config or None when the corpus is unusable)."""
    key, value = lesson.key, lesson.value
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(lesson.prefix)
        cap_note(lesson.prefix, f"{MAX_UTTERANCES:,} utterances")
        st.radio("Model", list(MODELS), format_func=lambda n: MODELS[n].label, key=key("model"))
    warm_samplers(MODELS[value("model")], ("particle",))  # before its population is built
    with st.sidebar:
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, MODELS[value("model")])
            particle_options = PARTICLE_OPTIONS.widgets(SETTINGS, MODELS[value("model")])
        moves = moves_offered(value("model"), corpus, options, particle_options) if corpus else ()
        chosen = filter_settings.widgets(key, value, moves)
        st.number_input("Seed", 0, 2**32 - 1, key=key("seed"),
                        help="same seed, same settings → the same run")
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    if corpus is None:
        return None, None
    first_units(PICKER.data, corpus, MAX_UTTERANCES, "the command line's `filter` reads any "
                "corpus")  # said here; first_utterances cuts it
    return corpus, dict(chosen, corpus=first_utterances(corpus), model=value("model"),
                        options=options, particle_options=particle_options,
                        seed=int(value("seed")))


def follow(corpus, config):
    """A new filter when the settings changed (none while the corpus is unusable)."""
    if config is not None and start_anew(LESSON.prefix, config):
        start(config, LESSON.key)


LESSON = Lesson(
    SETTINGS, "Particle filter",
    "Word segmentation learned online: N weighted particles read the utterances once, in "
    "order, each drawing a segmentation from its own frozen model (Börschinger & Johnson "
    "2011; rejuvenation: 2012).", sidebar,
    start=follow,
    reset=lambda: start(LESSON.value("config"), LESSON.key), wording=STEP,
    views=(still(lambda f: st.checkbox("Weights on a log scale", key=LESSON.key("logw"))),
           live(lambda f: draw_filter(f, LESSON.value("logw"), LESSON.key)),
           still(lambda f: evaluation(f, LESSON.key))),
    tail=(equations(HERE.with_suffix(".equations.md"), lambda race: {},
                    title="The model and the filter: eqs. 3–12"), text(HERE.with_suffix(".md"))),
    tab="The filter", tabs=(
        ("Table 1", (still(lambda race: table_one(LESSON.config, LESSON.key, TABLE_ONE)),)),
        ("Online against batch", (still(lambda race: online_against_batch(
            LESSON.config, LESSON.key, MODELS, PICKER)),))))
LESSON.run()
