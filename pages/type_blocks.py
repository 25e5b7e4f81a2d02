"""Type blocks (Liang et al. §4): one TYPE move at a time, everything it looks at laid out. Every
registered model that offers TYPE can be chosen: its corpora and how its analysis is drawn come
from the view of its kind of data (ui/kinds), its settings from its options (ui/models). The
lesson's declaration (ui/lesson.py runs it; its views: ui/type_block_views.py); how a move
works and its equations are Markdown beside it.
"""
from pathlib import Path

import streamlit as st

from engine.models import registry
from ui import prose, type_block_views as views
from ui.kinds import tagging
from ui.kinds.registry import view_or_stop, views as kind_views
from ui.lesson import Lesson, still
from ui.models import ModelOptions, build_model
from ui.settings import PageSettings, Setting, start_anew
from ui.type_lab import new_lab
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_SEED = 2**32 - 1
MODELS = {name: cls for name, cls in registry.models().items() if "type" in cls.samplers}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    # seed 4's first pivot is a “the” (found by trying seeds): its block holds all 27 of them
    "One block of “the” (HMM)": dict(model="hmm", source=tagging.SMALL_CORPORA[0], size=40,
                                     eta=1.0, seed=4, skip=True, hmm_n_states=5,
                                     hmm_alpha=0.1, hmm_alpha_emit=0.1),
}
SETTINGS = PageSettings("tb", (
    Setting("model", "usm", str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    Setting("source", "", str, "the corpus"),
    Setting("size", 40, int, "the number of utterances or sentences", 5, 150),
    Setting("eta", 1.0, float, "η", 0.0, 1.0),
    Setting("seed", 0, int, "the seed", 0, MAX_SEED),
    Setting("skip", True, bool, "the skip approximation"),
    *OPTIONS.settings(),
), PRESETS)


@st.cache_data(max_entries=16, show_spinner=False)
def small_corpus(kind, source, size, seed):
    return kind_views()[kind].small_corpus(source, size, seed)


def sidebar(lesson):
    key, value = lesson.key, lesson.value
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        name = st.radio("Model", list(MODELS), format_func=lambda n: MODELS[n].label,
                        key=key("model"))
    model_class = MODELS[name]
    view = view_or_stop(model_class)
    with st.sidebar:
        if view.corpora:
            if value("source") not in view.corpora:  # another kind's corpus, or none chosen yet
                SETTINGS.fit("source", view.corpora[0], "this model has no such corpus")
            if len(view.corpora) > 1:
                st.radio("Corpus", view.corpora, key=key("source"))
            st.slider(view.unit, 5, 150, step=5, key=key("size"))
        st.number_input("η — initial share of sites with value 1 (a boundary; state 1)", 0.0,
                        1.0, step=0.1, key=key("eta"),
                        help="1 = every symbol a word (segmentation), every token in state 1 "
                             "(tagging); the rest start at random")
        with st.expander("Model settings", expanded=True):
            options = OPTIONS.widgets(SETTINGS, model_class)
        st.number_input("Seed", 0, MAX_SEED, key=key("seed"))
        st.checkbox("Skip approximation", key=key("skip"),
                    help="do not take a site as pivot if it was in a block earlier in this "
                         "pass (§4.4): faster, but only approximately exact")
        SETTINGS.share()
    SETTINGS.save()
    return None, dict(model=name, source=value("source"), size=int(value("size")),
                      eta=float(value("eta")), seed=int(value("seed")),
                      skip=bool(value("skip")), options=options)


def follow(corpus, config):
    """A new lab when the settings changed."""
    if start_anew(LESSON.prefix, config):
        start(config)


def start(config):
    """A new lab: the model of the settings (on a small corpus of its kind, or from its options
    alone), its state drawn from η."""
    view = kind_views()[MODELS[config["model"]].display]
    corpus = (small_corpus(view.name, config["source"], config["size"], config["seed"])
              if view.corpora else None)
    model = build_model(config["model"], corpus, config["options"])
    st.session_state[LESSON.key("race")] = new_lab(model, config["seed"], config["eta"],
                                                   config["skip"])
    st.session_state[LESSON.key("config")] = config
    return st.session_state[LESSON.key("race")]


LESSON = Lesson(
    SETTINGS, "Type blocks",
    "Liang, Jordan & Klein (2010), §4: a TYPE move gathers the sites that share the pivot's "
    "type — the same words on either side — and resamples them jointly.", sidebar,
    # TOKEN: its conditional beside TYPE's
    warm=lambda config: warm_samplers(MODELS[config["model"]], ("type", "token")),
    start=follow,
    controls=lambda lab: views.controls(lab, LESSON.key, lambda: start(LESSON.value("config"))),
    views=(still(lambda lab: views.move_view(lab, LESSON.key)),
           still(lambda lab: views.equations(lab["move"], HERE.with_suffix(".equations.md"))),
           still(lambda lab: views.history(lab, LESSON.key("history"))),
           still(lambda lab: prose.show(prose.read(HERE.with_suffix(".md")))),
           still(lambda lab: st.caption(
               "Both bar charts are exact conditional distributions computed by the engine, "
               "not histograms of samples (dark grey); the coloured bar is the value drawn."))))
LESSON.run()
