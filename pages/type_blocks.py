"""Type blocks (Liang et al. §4): one TYPE move at a time, everything it looks at laid out.

Widgets and plots only; the moves are the engine's (engine.samplers). Every registered model
that offers TYPE can be chosen: its corpora and how its analysis is drawn come from the view of
its kind of data (ui/kinds), its settings from its options (ui/models).
"""
import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.report.plots import style
from engine.models import registry
from ui import exercises
from ui.charts import show
from ui.kinds import tagging
from ui.kinds.registry import view_or_stop, views
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting, start_anew
from ui.theme import EXACT_COLOUR, SITE_MARK, colour
from ui.type_lab import new_lab, type_move

MAX_SEED = 2**32 - 1
SHOWN_UTTERANCES = 24
MAX_ROWS = 120  # units drawn at most: a toy's block is every one of its copies


@st.cache_data(max_entries=16, show_spinner=False)
def small_corpus(kind, source, size, seed):
    return views()[kind].small_corpus(source, size, seed)


MODELS = {name: cls for name, cls in registry.models().items() if "type" in cls.samplers}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PRESETS = {
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


def settings():
    s = st.session_state
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        name = st.radio("Model", list(MODELS), format_func=lambda n: MODELS[n].label,
                        key="tb_model")
    model_class = MODELS[name]
    view = view_or_stop(model_class)
    with st.sidebar:
        if view.corpora:
            if s.tb_source not in view.corpora:  # another kind's corpus, or none chosen yet
                SETTINGS.fit("source", view.corpora[0], "this model has no such corpus")
            if len(view.corpora) > 1:
                st.radio("Corpus", view.corpora, key="tb_source")
            st.slider(view.unit, 5, 150, step=5, key="tb_size")
        st.number_input("η — initial share of sites with value 1 (a boundary; state 1)", 0.0,
                        1.0, step=0.1, key="tb_eta",
                        help="1 = every symbol a word (segmentation), every token in state 1 "
                             "(tagging); the rest start at random")
        with st.expander("Model settings", expanded=True):
            options = OPTIONS.widgets(SETTINGS, model_class)
        st.number_input("Seed", 0, MAX_SEED, key="tb_seed")
        st.checkbox("Skip approximation", key="tb_skip",
                    help="do not take a site as pivot if it was in a block earlier in this "
                         "pass (§4.4): faster, but only approximately exact")
        SETTINGS.share()
    SETTINGS.save()
    return dict(model=name, source=s.tb_source, size=int(s.tb_size), eta=float(s.tb_eta),
                seed=int(s.tb_seed), skip=bool(s.tb_skip), options=options)


def model_of(config):
    """The model of the settings: on a small corpus of its kind, or from its options alone."""
    view = views()[MODELS[config["model"]].display]
    corpus = (small_corpus(view.name, config["source"], config["size"], config["seed"])
              if view.corpora else None)
    return build_model(config["model"], corpus, config["options"])


def start(config):
    st.session_state.tb = new_lab(model_of(config), config["seed"], config["eta"],
                                  config["skip"])
    st.session_state.tb_config = config


def controls(lab):
    # one row of buttons as wide as their labels (columns cut "10 moves" on narrow screens),
    # then the status, which wraps below them when the row is full
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    if row.button("TYPE move", icon=":material/skip_next:", type="primary",
                  key="tb_step", shortcut="Right"):
        type_move(lab)
    if row.button("10 moves", icon=":material/fast_forward:", key="tb_ten",
                  shortcut="Shift+Right"):
        for _ in range(10):
            type_move(lab)
    if row.button("Reset", icon=":material/replay:", key="tb_reset", shortcut="0"):
        start(st.session_state.tb_config)
        lab = st.session_state.tb
    model, state = lab["model"], lab["state"]
    extra = views()[model.display].status(model, state)
    row.markdown(f"Move {lab['moves']:,} · pass {lab['sampler'].sweeps_done + 1:,} · "
                 f"log p = {model.loglik(state):,.2f} · {extra}", width="content")
    st.container(key="tb_keys_hint").caption(  # the key: phones hide it
        "Keys: **→** one TYPE move · **Shift+→** ten moves · **0** reset")
    return lab


METRIC_CHARS = 40  # a longer type is written as wrapped text, not as a metric


def type_card(move, view):
    info = move["info"]
    zero, one = (move["values"][v] for v in move["slice"])
    sliced = len(move["values"]) > 2  # K > 2 values: a binary slice of them
    cols = st.columns([2.2, 1, 1, 1, 1])  # the type needs room: metrics cut long values
    type_help = view.edge_help + (f"; the slice is {zero} ↔ {one}" if sliced else "")
    if len(move["type"]) <= METRIC_CHARS:
        cols[0].metric("The pivot's type", move["type"], help=type_help)
    else:  # a tree fragment's brackets: wrapped, where a metric would cut them to one line
        cols[0].markdown(f"**The pivot's type**  \n`{move['type']}`", help=type_help)
    cols[1].metric("Sites of this type", f"{len(info.type_sites):,}")
    cols[2].metric("In the block |S|", f"{len(info.block):,}",
                   help="the sites of the type that share no choice with an earlier block site"
                        + (f" and are in {zero} or {one}" if sliced else ""))
    cols[3].metric("m drawn", f"{info.drawn:,} of {len(info.block):,}",
                   help=f"how many block sites are now {one}; the rest are {zero}")
    cols[4].metric("Sites changed", f"{len(info.changed):,}")


def marks_by_utterance(model, info):
    """{utterance: {symbol index: (kind, changed?)}} for the pivot, block and conflicts."""
    changed = set(info.changed.tolist())
    marks = {}
    for kind, sites in (("conflict", info.conflicted), ("block", info.block[1:]),
                        ("pivot", info.block[:1])):
        for s in sites.tolist():
            u, i = model.site_place(s)
            marks.setdefault(u, {})[i] = (kind, "changed") if s in changed else (kind,)
    return marks


def corpus_view(lab):
    model, state, move = lab["model"], lab["state"], lab["move"]
    view = views()[model.display]
    marks = marks_by_utterance(model, move["info"]) if move else {}
    involved = sorted(marks) if marks else []
    rest = [u for u in range(view.n_units(model)) if u not in marks]
    shown = (involved + rest)[:max(SHOWN_UTTERANCES, min(len(involved), MAX_ROWS))]
    rows = [view.row(model, state, u, marks.get(u)) for u in shown]
    key = " &nbsp;·&nbsp; ".join(
        f"<span style='background:{SITE_MARK[k][0]};border:1px solid {SITE_MARK[k][1]};"
        f"border-radius:3px;padding:0 4px;color:{'#fff' if k == 'pivot' else 'inherit'}'>"
        f"{text}</span>"
        for k, text in (("pivot", "pivot"), ("block", "block site"),
                        ("conflict", view.conflict_text)))
    key += " &nbsp;·&nbsp; <span style='border:3px solid #00505c;border-radius:3px;" \
           "padding:0 4px'>changed by this move</span>"
    with st.container(height=430):
        st.markdown("".join(rows), unsafe_allow_html=True)
    st.markdown(view.legend() + f"<div style='font-size:0.9rem;margin-top:4px'>{key}</div>",
                unsafe_allow_html=True)
    if view.drawing_controls:
        view.drawing_controls()
    if involved:
        st.caption(view.caption.format(n=len(involved)) + (
            f" The first {MAX_ROWS:,} are drawn." if len(involved) > MAX_ROWS else ""))


def m_chart(move):
    """TYPE's exact p(m | rest) over the block's split counts m (eq. 7), the drawn m coloured."""
    info = move["info"]
    p = np.exp(info.log_p)
    m = np.arange(len(p))
    every = -(-len(p) // 20)  # at most about 20 labelled m
    data = pd.DataFrame({"m": m, "probability": p, "drawn": m == info.drawn})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("m:O", title=f"m — block sites set to {move['values'][move['slice'][1]]}",
                axis=alt.Axis(labelAngle=0, values=m[::every].tolist())),
        y=alt.Y("probability:Q", title="probability"),
        color=drawn_colour("type"),
        tooltip=["m:O", alt.Tooltip("probability:Q", format=".4f")])
    return style(chart, ["TYPE: p(m | rest), eq. 7", f"drawn: m = {info.drawn}"], 220)


def token_chart(move, token):
    """TOKEN's exact conditional at the same pivot (eq. 4), the drawn value coloured."""
    names = list(move["values"])
    data = pd.DataFrame({"value": names, "probability": token["p"],
                         "drawn": np.arange(len(names)) == token["drawn"]})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("value:N", sort=names, title=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
        color=drawn_colour("token"),
        tooltip=["value:N", alt.Tooltip("probability:Q", format=".4f")])
    return style(chart, ["TOKEN at the same pivot,", "same state (eq. 4)"], 220)


def drawn_colour(sampler):
    """The exact distribution dark grey, the value the sampler drew in its colour."""
    return alt.condition("datum.drawn", alt.value(colour(sampler)), alt.value(EXACT_COLOUR))


def explain(move, token):
    info = move["info"]
    size = len(info.block)
    if size == 1:
        st.caption("A block of one site: TYPE and TOKEN make the same move here.")
        return
    flip = 1.0 - token["p"][token["old"]]
    others = f"{size - 1:,} other site" + ("s" if size > 2 else "")
    st.caption(f"TOKEN can only change this one site, keeping the {others} of the block as "
               f"they are: it would change it with probability {flip:.3f}. TYPE "
               f"weighs every split count m at once — C(|S|, m) g(m) — and moved "
               f"{len(info.changed):,} sites in one step.")


def formulas(move):
    """Eq. 4, 7 and 9 of Liang et al., with the last move's numbers."""
    with st.expander("The equations", icon=":material/function:"):
        st.markdown("**TOKEN** (eq. 4) changes one site s from its conditional given the rest, "
                    "the choices that depend on b_s taken out (counts n⁻ˢ):")
        st.latex(r"p(b_s = v \mid b_{-s}) \propto p(\Delta z^{s:v} \mid z^{-s})")
        st.markdown("**TYPE** removes a block S of sites of one type at once. Every assignment "
                    "of the block with m sites at value 1 adds the same counts, so it has the "
                    "same probability g(m) (eq. 9), a product over the counts the block touches "
                    "of rising factorials a⁽ᵏ⁾ = a(a+1)…(a+k−1):")
        st.latex(r"g(m) = \frac{\prod_{r,o} (\alpha_r\mu_{ro} + n^{-S}_{ro})^"
                 r"{(m\,\delta_{ro}^{1} + (|S|-m)\,\delta_{ro}^{0})}}"
                 r"{\prod_r (\alpha_r + n^{-S}_r)^{(m\,\delta_r^{1} + (|S|-m)\,\delta_r^{0})}}")
        st.markdown("where δᵛ counts what one site with value v adds to outcome o of "
                    "distribution r. The number of sites at value 1 is then drawn from eq. 7, "
                    "and a uniformly random m of the block's sites get value 1:")
        st.latex(r"p(m \mid \text{rest}) = \frac{\binom{|S|}{m}\,g(m)}"
                 r"{\sum_{m'=0}^{|S|}\binom{|S|}{m'}\,g(m')}")
        if move is not None:
            info = move["info"]
            size = len(info.block)
            p = np.exp(info.log_p)
            st.markdown(f"Last move: |S| = {size:,}, m drawn = {info.drawn:,}, "
                        f"p(m = {info.drawn} | rest) = {p[info.drawn]:.4f}; the most probable m "
                        f"is {int(p.argmax()):,} (p = {p.max():.4f}).")


# --- the page ---------------------------------------------------------------------------------
prologue("Type blocks", "Liang, Jordan & Klein (2010), §4: a TYPE move gathers the sites that "
                        "share the pivot's type — the same words on either side — and resamples "
                        "them jointly.")
SETTINGS.restore()
config = settings()
warm_samplers(MODELS[config["model"]], ("type", "token"))  # TOKEN: its conditional beside
if start_anew("tb", config):
    start(config)
lab = controls(st.session_state.tb)
move = lab["move"]
view = views()[lab["model"].display]
if move is None:
    st.info("Press **TYPE move**: a pivot site is chosen at random and its whole type block is "
            f"resampled. The corpus below is the current {view.analysis}.")
else:
    type_card(move, view)
    if view.type_drawing:
        st.markdown(view.type_drawing(lab["model"], lab["state"], int(move["info"].pivot)),
                    unsafe_allow_html=True)
left, right = st.columns([3, 2])
with left:
    corpus_view(lab)
with right:
    if move is not None:
        show(st, m_chart(move), "tb_m_chart")
        show(st, token_chart(move, lab["token"]), "tb_token_chart")
        explain(move, lab["token"])
formulas(move)
if lab["history"]:
    st.markdown("**Recent moves**")
    st.dataframe(lab["history"], hide_index=True, key="tb_history")
st.markdown(
    "#### How a TYPE move works\n"
    "1. Pick a pivot site s₀ (a gap between two symbols) and read its **type**: the words it "
    "separates when it is a boundary (`w1|w2`) and the word they form when it is not "
    "(`w1w2`), with whether the last word ends its utterance.\n"
    "2. Find every other site of that type through the word → positions index, and take into "
    "the block S those that share no word with a site already taken (**conflicts** are left "
    "out: changing both would change each other's counts).\n"
    "3. With the block's words removed, every assignment with m boundaries has the same "
    "probability g(m) (exchangeability), so m is drawn from p(m) ∝ C(|S|, m) g(m) (eq. 7) "
    "and a uniformly random m of the sites become boundaries.\n\n"
    "**In the HMM** a site is a token and its type is (previous state, next state, word); "
    "adjacent tokens conflict (they share a transition). With K > 2 states the move takes a "
    "random *binary slice*: the pivot's state k and a uniformly random k′, and only the "
    "block's tokens in k or k′, then draws how many go to k′ (§4.4). A token next to the same "
    "word (*very very*) joins only its own blocks: the move could change its type, and the "
    "block must come out the same after the move for TYPE to be exact.\n\n"
    "**In the tree-substitution grammar** a site is a node of a binarised tree and b = 1 "
    "makes it the root of a fragment. Its type is the fragment it belongs to when b = 0 "
    "(merged, M) against the two it splits into when b = 1 (upper U over lower L), written "
    "M · U + L; the sites of a type are found through an index of the fragments in use, and "
    "two sites conflict when they touch one fragment.\n\n"
    "**In the SCFG rules from forests** (Peng & Gildea 2014) a site is a node of a sentence "
    "pair's current tree of phrase pairs and b = 1 cuts the tree there. Its type is the rule r₁ "
    "it is inside when b = 0 against the rule r₂ above it and the rule r₃ it roots when b = 1, "
    "each written `source ||| target`; the candidates are found through an index of the rules "
    "in use (inside an occurrence of r₁, or at the root of one of r₃), and two sites conflict "
    "when their rules r₁ share a node. [Tree fragments from forests](./forests) draws the "
    "trees.",
    unsafe_allow_html=True)
st.caption("Both bar charts are exact conditional distributions computed by the engine, not "
           "histograms of samples (dark grey); the coloured bar is the value drawn.")
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
