"""The Sampler race (SPEC §9.6; Liang et al. §5.2, Fig. 5): any registered model on any corpus,
several chains per sampler advancing in worker processes, with R̂ and ESS to tell a stuck
chain from a mixed one, and the initialisation sweep over η. The lesson's declaration
(ui/lesson.py runs it): its chains are ui/chain_race.py's, its views ui/race_views.py's, its
sweep ui/eta_sweep.py's; how to read R̂ and ESS is Markdown beside it. Nothing here knows one
model from another: a model's options and measures come from the registry (engine.models,
ui/models), its corpus choice from its kind of data (ui/kinds).
"""
from pathlib import Path

import streamlit as st

from engine.diagnostics import RHAT_LIMIT
from engine.models import registry
from engine.report.plots import plain
from engine.samplers import offered
from ui import chain_race, eta_sweep, playback, race_page
from ui.kinds.registry import every_picker_settings, picker_of, view_or_stop
from ui.lesson import Lesson, equations, live, redrawn, still
from ui.models import ModelOptions
from ui.race_views import ChainViews
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_chosen

HERE = Path(__file__)
MAX_PASSES = 100_000
MODELS = registry.models()
OPTIONS = ModelOptions(tuple(MODELS.values()))
ALL_SAMPLERS = tuple(dict.fromkeys(s for cls in MODELS.values() for s in offered(cls.samplers)))
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "R̂ catches a stuck chain (toy, starts spread from m = 0 to m = n)": dict(
        model="toy", toy_n=100_000, samplers=("token", "type"), chains=4, starts="spread",
        passes=12, seed=0, clock="passes", speed=1, scalar="m"),
    "TYPE + TOKEN on the HMM: best of both, none mixed (α′ = 0.0001)": dict(
        model="hmm", tag_source="builtin", hmm_alpha_emit=0.0001, chains=4, starts="shared",
        eta=1.0, samplers=("token", "type", "type-token"), passes=1000, seed=0,
        clock="passes", speed=50),
    "Word segmentation: none of five samplers mixes in 2,000 passes": dict(
        model="usm", seg_source="builtin", chains=4, starts="shared", eta=1.0,
        samplers=("token", "type", "anneal", "greedy", "sentence"), passes=2000, seed=0,
        clock="passes", speed=50),
}
SETTINGS = PageSettings("race", (
    Setting("model", "usm", str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    *every_picker_settings(),
    Setting("first", 0, int, "the number of units used (0: all)", 0, 10**7),
    *OPTIONS.settings(),
    Setting("samplers", ("token", "type"), tuple, "the samplers", choices=ALL_SAMPLERS,
            words=label),
    Setting("chains", 4, int, "the chains per sampler", 2, chain_race.MAX_CHAINS),
    *chain_race.start_settings(ALL_SAMPLERS),
    Setting("passes", 500, int, "the number of passes", 10, MAX_PASSES),
    race_page.seconds_setting(10.0, "the engine seconds per chain"),
    Setting("seed", 0, int, "the seed", 0, race_page.MAX_SEED),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("measure", "token_f", str, "the measure charted"),
    Setting("scalar", "loglik", str, "the scalar traced"),
    *eta_sweep.SETTINGS,
    *playback.SETTINGS,
), PRESETS)
RACE, VIEWS = chain_race.ChainRace(SETTINGS, MODELS), ChainViews(SETTINGS.key, MODELS)
SWEEP = eta_sweep.EtaSweep(SETTINGS.key, MODELS)


def sidebar(lesson):
    """(the corpus or None, the race's config)."""
    key, value = lesson.key, lesson.value
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        st.selectbox("Model", list(MODELS), format_func=lambda n: plain(MODELS[n].label),
                     key=key("model"))
    model_class = MODELS[value("model")]
    view_or_stop(model_class)  # a model of a kind no page draws says so here
    with st.sidebar:
        RACE.fit_to_model(model_class)
        picker = picker_of(model_class)
        corpus = picker.choose(key(picker.code)) if picker else None
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, model_class)
        st.multiselect("Samplers", offered(model_class.samplers), format_func=label,
                       key=key("samplers"),
                       help="TYPE + TOKEN and TYPE + SENTENCE alternate whole sweeps of the two")
        st.slider("Chains per sampler", 2, chain_race.MAX_CHAINS, key=key("chains"),
                  help="R̂ compares chains: at least 2, and 4 is the usual choice")
        eta = chain_race.eta_widgets(key, value)
        race_page.length_input(lesson.prefix, "Passes per chain", 10, MAX_PASSES, step=100,
                               seconds_label="Engine seconds per chain")
        st.number_input("Seed", 0, race_page.MAX_SEED, key=key("seed"),
                        help="chain c starts from seed + c; same seed, same chains")
        st.checkbox("TYPE: skip approximation", key=key("skip"),
                    help="skip pivots already sampled in a block this pass (§4.4)")
        SETTINGS.share(picker.upload_note if picker else None)
    SETTINGS.save()
    return corpus, dict(
        model=value("model"), corpus=corpus, first=int(value("first")), options=options,
        samplers=tuple(value("samplers")), chains=int(value("chains")),
        starts=value("starts"), eta=eta, length=race_page.length(lesson.prefix),
        seed=int(value("seed")), skip=bool(value("skip")))


LESSON = Lesson(
    SETTINGS, "Sampler race",
    "Several chains of every sampler, from different starts, on any model and corpus: do they "
    "agree (mixed) or does each stay near its start (stuck)? The chains run in worker "
    "processes on every core; this page only reads their traces.", sidebar,
    warm=warm_chosen(MODELS),
    start=RACE.follow, describe=RACE.describe, reset=RACE.restart,
    views=(live(VIEWS.draw_race),
           equations(HERE.with_suffix(".md"), lambda race: dict(limit=RHAT_LIMIT),
                     "How to read R̂ and ESS", ":material/help:",
                     "ρ̂ₜ: the autocorrelation at lag t, combined over the chains and summed "
                     "until it dies out (Geyer's initial monotone sequence)."),
           still(VIEWS.scalar_controls), redrawn(VIEWS.draw_scalar),
           still(lambda race: SWEEP.section(LESSON.value("model_built"),
                                            LESSON.value("config")))))
LESSON.run()
