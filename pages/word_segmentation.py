"""Word segmentation (Goldwater et al. 2009; Liang et al. §5, Fig. 5): every registered model of
segmented text — the unigram model's five samplers, the bigram model's three — races from the
same initial segmentation.

Widgets and plots only; every number comes from the models (engine.models, the registry's models
of the segmentation kind) and engine.run; each model's settings are its options (ui/models).
"""
import pandas as pd
import streamlit as st

from datasets.segmented import SEGMENTATION
from engine.models import registry
from engine.samplers import offered
from ui import exercises, playback, race_page
from ui.kinds.segmentation import VIEW, legend, utterance_html
from ui.models import ModelOptions, build_model, show_formulas
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting
from ui.theme import label

KEY = "seg"
MAX_PASSES = 20_000
SHOWN_UTTERANCES = 12
MEASURES = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F"}
MODELS = {name: cls for name, cls in registry.models().items()
          if cls.display == SEGMENTATION.name}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PICKER = VIEW.picker

# each claim is checked by tests/app/test_preset_claims.py. At equal engine time a run's length
# is engine seconds: measured quiet (2026-11-27: a TOKEN pass 0.2 ms, a TYPE pass 1 ms) the
# first claim holds from 0.1 to 1 s (TYPE's lead in token F 0.26 at 0.1 s, 0.28 at 0.5 s, 0.16
# at 1 s, 0.09 at 2 s, when TOKEN has done ~11,000 passes); under make test's load a TYPE pass
# slows down more than a TOKEN pass, and at 0.5 s the lead was 0.16. Annealing's depends on how many
# passes it cools over, which engine time does not fix (at 1 s under make test's load it ended
# below TOKEN): at 200 equal passes it holds in 10 of 10 seeds, anneal 1,300–1,927 above TOKEN
# and 972–1,321 below TYPE. The bigram model's holds at 300 passes: both race at equal passes.
PRESETS = {
    "TYPE escapes where TOKEN crawls": dict(
        source="builtin", model="usm", samplers=("token", "type"), eta=1.0, passes=200, seed=0,
        usm_alpha0=20.0, usm_p_boundary=0.5, usm_rho=2.0, skip=True, clock="time",
        seconds=0.5),
    "Annealing helps only a little": dict(
        source="builtin", model="usm", samplers=("token", "anneal", "type"), eta=1.0,
        passes=200, seed=0, usm_alpha0=20.0, usm_p_boundary=0.5, usm_rho=2.0, skip=True,
        clock="passes"),
    "Bigram model: annealing ends highest, TOKEN lowest": dict(
        source="builtin", model="bigram", samplers=("token", "anneal", "sentence"), eta=0.5,
        passes=300, seed=0, clock="passes", shown="anneal"),
}
SETTINGS = PageSettings(KEY, (
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


def settings():
    """Sidebar widgets; return (corpus, config) — corpus None when unusable."""
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = race_page.within_sites(PICKER, KEY, PICKER.choose(KEY))
        st.radio("Model", list(MODELS), format_func=lambda n: MODELS[n].label,
                 key="seg_model", on_change=keep_offered_samplers,
                 help="the bigram model (Goldwater et al.'s HDP) has no TYPE sampler: see the "
                      "Restaurants lesson for why")
        model_class = MODELS[st.session_state.seg_model]
        st.multiselect("Samplers", offered(model_class.samplers), format_func=label,
                       key="seg_samplers")
        st.number_input("η — initial boundary probability", 0.0, 1.0, step=0.1,
                        key="seg_eta", help="each site starts as a boundary with probability η; "
                                            "1 = every symbol a word (the paper's choice for TYPE)")
        race_page.length_input(KEY, "Passes per run", 1, MAX_PASSES,
                               help="TOKEN-anneal cools from 10 to 1 over the first half of "
                                    "the run")
        race_page.seed_input(KEY)
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, model_class)
        if "type" in model_class.samplers:
            race_page.skip_checkbox(KEY)
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    s = st.session_state
    # the corpus itself (a frozen dataclass): a new upload or generator setting is a new corpus
    config = race_page.race_config(KEY, corpus, model=s.seg_model, hyperparameters=options,
                                   skip=bool(s.seg_skip))
    return corpus, config


def keep_offered_samplers():
    """On a change of model: keep the chosen samplers the new model offers (its own when none
    is left)."""
    s = st.session_state
    model_class = MODELS[s.seg_model]
    kept = [name for name in s.seg_samplers if name in offered(model_class.samplers)]
    s.seg_samplers = kept or list(model_class.samplers)


def make_model(corpus, config):
    return build_model(config["model"], corpus, config["hyperparameters"])


def draw_race(race):
    items = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        extra = ""
        if "acceptance" in last and last["acceptance"] == last["acceptance"]:
            extra = f"; acceptance {last['acceptance']:.1%}"
        if "mean_block_size" in last and last["mean_block_size"] == last["mean_block_size"]:
            extra = f"; mean block {last['mean_block_size']:.2f} sites"
        items.append((f"{label(name)} · pass {run.sweeps_done:,}", f"{last['loglik']:,.1f}",
                      f"{run.model.loglik_label}; token F {last['token_f']:.3f}, "
                      f"boundary F {last['boundary_f']:.3f}; engine time "
                      f"{run.seconds:,.2f} s{extra}"))
    race_page.metric_row(items)
    left, right = st.columns(2)
    measure = st.session_state.get("seg_measure", "token_f")
    race_page.over_time(left, race, "loglik", "log-probability",
                        "Log-probability over time (Fig. 5)", "seg_loglik_chart")
    race_page.over_time(right, race, measure, MEASURES[measure],
                        f"{MEASURES[measure]} over time", "seg_f_chart", fraction=True)


def draw_segmentation(race):
    name = st.session_state.get("seg_shown")
    if name not in race.runs:
        name = next(iter(race.runs))
    run = race.runs[name]
    model = run.model
    first = min(st.session_state.get("seg_first", 1), len(model.texts)) - 1
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{label(name)}'s segmentation after pass {run.sweeps_done:,}** "
                    f"(utterances {first + 1}–{min(first + SHOWN_UTTERANCES, len(model.texts))})")
        rows = [utterance_html(model.texts[u], model.boundary_labels(run.state, u), number=u + 1)
                for u in range(first, min(first + SHOWN_UTTERANCES, len(model.texts)))]
        st.markdown("".join(rows) + legend(), unsafe_allow_html=True)
    with right:
        lexicon = model.lexicon(run.state)
        gold = set(model.gold_lexicon)
        st.markdown(f"**{label(name)}'s lexicon: {len(lexicon):,} words** (gold: {len(gold):,})")
        table = pd.DataFrame({"word": list(lexicon), "count": list(lexicon.values())})
        table["in gold lexicon"] = table.word.isin(gold)
        st.dataframe(table, height=330, hide_index=True, key=f"seg_lexicon_{name}")


def check_view(race):
    """Views of samplers or utterances this race does not have (a link, a smaller corpus)
    fall back to ones it has."""
    s = st.session_state
    if s.seg_shown not in race.runs:
        SETTINGS.fit("shown", next(iter(race.runs)), "this race does not run that sampler")
    count = len(next(iter(race.runs.values())).model.texts)
    SETTINGS.fit("first", min(s.seg_first, count), f"the corpus has {count:,} utterances")


def view_controls(race):
    """Below the charts, above the segmentation they choose: on a phone the charts come
    first."""
    cols = st.columns(3)
    names = list(race.runs)
    n_texts = len(next(iter(race.runs.values())).model.texts)
    cols[0].selectbox("Show the segmentation of", names, format_func=label, key="seg_shown")
    cols[1].number_input("From utterance", 1, n_texts, key="seg_first")
    cols[2].selectbox("F measure in the right chart above", list(MEASURES),
                      format_func=MEASURES.get, key="seg_measure")


# --- the page ---------------------------------------------------------------------------------
prologue("Word segmentation",
         "The unigram and bigram models of Goldwater, Griffiths & Johnson (2009), sampled from "
         "the same start (Liang, Jordan & Klein 2010, §5 and Fig. 5). A pass visits every "
         "boundary site once (SENTENCE: every utterance once).")
SETTINGS.restore()
corpus, config = settings()
warm_samplers(MODELS[config["model"]], config["samplers"])
race_page.follow_settings(KEY, corpus, config, make_model)

if "seg_race" in st.session_state:
    race = st.session_state.seg_race
    shown = st.session_state.seg_corpus
    st.caption(f"**{shown.name}**: {len(shown.utterances):,} utterances, "
               f"{shown.n_symbols:,} symbols, {shown.n_words:,} gold words.")
    playback.controls(KEY, on_reset=lambda: race_page.restart(KEY, make_model))
    check_view(race)
    playback.live(KEY, draw_race)
    view_controls(race)
    playback.live(KEY, draw_segmentation, advances=False)
    show_formulas(next(iter(race.runs.values())).model)
    st.markdown(
        "#### What to look for\n"
        "- **TOKEN** flips one boundary at a time (eq. 4). From η = 1 every symbol is a word; "
        "merging two frequent one-symbol words into a new word is improbable for one site "
        "alone, so TOKEN crawls.\n"
        "- **TYPE** takes every site of one type at once — every `ab|c` and every `abc` — and "
        "draws how many are split (eq. 7), so a whole word type is created or removed in one "
        "move: its log-probability climbs fastest per second of engine time.\n"
        "- **TOKEN-anneal** samples eq. 4 raised to 1/T, T cooling from 10 to 1 over the first "
        "half of the run; **TYPE-greedy** sets each block all-split or all-joined, whichever "
        "is more probable (not a sampler of the posterior).\n"
        "- **SENTENCE** draws a whole utterance's segmentation by dynamic programming with the "
        "other utterances' counts fixed, then accepts it by Metropolis-Hastings; its metric "
        "shows the acceptance rate.\n"
        "- **The bigram model** (Model, in the sidebar) conditions each word on the one before. "
        "The unigram model explains frequent word pairs best as single words, so it "
        "undersegments; the bigram model can explain them by the pair, and finds words closer "
        "to the gold (on the Brent corpus, token F 0.66 after 1000 TOKEN-anneal passes, against "
        "0.55 for the unigram model). Its state includes the seating of its restaurants, so "
        "its log-probability is that of the segmentation *and* the seating.")
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
