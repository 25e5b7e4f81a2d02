"""Word segmentation (Goldwater et al. 2009; Liang et al. §5, Fig. 5): five samplers of the
unigram model race from the same initial segmentation.

Widgets and plots only; every number comes from engine.models.usm and engine.run.
"""
import pandas as pd
import streamlit as st

from engine.models.usm import UsmModel
from ui import playback, race_page
from ui.corpus_choice import choose_corpus
from ui.entry import through_app
from ui.segmentation import legend, utterance_html
from ui.theme import label
from ui.warmup import warm_engine

KEY = "seg"
MAX_PASSES = 20_000
MAX_SEED = 2**32 - 1
SHOWN_UTTERANCES = 12
MEASURES = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F"}


@st.cache_resource(max_entries=8, show_spinner="Preparing the corpus…")
def build_model(corpus, alpha0, p_boundary, rho):
    return UsmModel.from_corpus(corpus, alpha0=alpha0, p_boundary=p_boundary, rho=rho)


def settings():
    """Sidebar widgets; return (corpus, config) — corpus None when unusable."""
    with st.sidebar:
        st.header("Settings")
        corpus = choose_corpus(KEY)
        st.multiselect("Samplers", UsmModel.samplers, default=list(UsmModel.samplers),
                       format_func=label, key="seg_samplers")
        st.number_input("η — initial boundary probability", 0.0, 1.0, 1.0, step=0.1,
                        key="seg_eta", help="each site starts as a boundary with probability η; "
                                            "1 = every symbol a word (the paper's choice for TYPE)")
        st.number_input("Passes per run", 1, MAX_PASSES, 200, step=50, key="seg_passes",
                        help="TOKEN-anneal cools from 10 to 1 over the first half of the run")
        st.number_input("Seed", 0, MAX_SEED, 0, key="seg_seed",
                        help="same seed, same settings → the same chains")
        with st.expander("Model (α₀, p#, ρ)"):
            st.number_input("α₀ — DP concentration", 0.001, 1e6, 20.0, key="seg_alpha")
            st.number_input("p# — word-end probability of P₀", 0.01, 0.99, 0.5, key="seg_pb")
            st.number_input("ρ — utterance-end prior", 0.001, 1e6, 2.0, key="seg_rho")
        st.checkbox("TYPE: skip approximation", True, key="seg_skip",
                    help="skip pivots already sampled in a block this pass (Liang et al. §4.4). "
                         "Faster, but an approximation: the chain's law is then only close "
                         "to the posterior.")
    s = st.session_state
    # the corpus itself (a frozen dataclass): a new upload or generator setting is a new corpus
    config = dict(corpus=corpus, samplers=tuple(s.seg_samplers),
                  eta=float(s.seg_eta), passes=int(s.seg_passes), seed=int(s.seg_seed),
                  alpha0=float(s.seg_alpha), p_boundary=float(s.seg_pb), rho=float(s.seg_rho),
                  skip=bool(s.seg_skip))
    return corpus, config


def make_model(corpus, config):
    return build_model(corpus, config["alpha0"], config["p_boundary"], config["rho"])


def draw_race(race):
    frame = race.trace_frame()
    cols = st.columns(len(race.runs))
    for col, (name, run) in zip(cols, race.runs.items()):
        last = run.trace[-1]
        extra = ""
        if "acceptance" in last and last["acceptance"] == last["acceptance"]:
            extra = f"; acceptance {last['acceptance']:.1%}"
        if "mean_block_size" in last and last["mean_block_size"] == last["mean_block_size"]:
            extra = f"; mean block {last['mean_block_size']:.2f} sites"
        col.metric(f"{label(name)} · pass {run.sweeps_done:,}", f"{last['loglik']:,.1f}",
                   help=f"log p(corpus, segmentation); token F {last['token_f']:.3f}, "
                        f"boundary F {last['boundary_f']:.3f}; engine time "
                        f"{run.seconds:,.2f} s{extra}")
    left, right = st.columns(2)
    measure = st.session_state.get("seg_measure", "token_f")
    race_page.over_time(left, frame, "loglik", "log-probability",
                        "Log-probability over time (Fig. 5)", "seg_loglik_chart")
    race_page.over_time(right, frame, measure, MEASURES[measure],
                        f"{MEASURES[measure]} over time", "seg_f_chart", fraction=True)
    draw_segmentation(race)


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


def view_controls(race):
    cols = st.columns(3)
    names = list(race.runs)
    cols[0].selectbox("Show the segmentation of", names, format_func=label, key="seg_shown")
    cols[1].number_input("From utterance", 1, len(next(iter(race.runs.values())).model.texts), 1,
                         key="seg_first")
    cols[2].selectbox("F measure in the right chart", list(MEASURES),
                      format_func=MEASURES.get, key="seg_measure")


# --- the page ---------------------------------------------------------------------------------
through_app()
st.title("Word segmentation")
st.caption("The unigram model of Goldwater, Griffiths & Johnson (2009), sampled five ways from "
           "the same start (Liang, Jordan & Klein 2010, §5 and Fig. 5). A pass visits every "
           "boundary site once (SENTENCE: every utterance once).")
warm_engine()
corpus, config = settings()
race_page.follow_settings(KEY, corpus, config, make_model)

if "seg_race" in st.session_state:
    race = st.session_state.seg_race
    shown = st.session_state.seg_corpus
    st.caption(f"**{shown.name}**: {len(shown.utterances):,} utterances, "
               f"{shown.n_symbols:,} symbols, {shown.n_words:,} gold words.")
    speed = playback.controls(KEY, on_reset=lambda: race_page.restart(KEY, make_model))
    view_controls(race)
    playback.live(KEY, speed, draw_race)
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
        "shows the acceptance rate.")
