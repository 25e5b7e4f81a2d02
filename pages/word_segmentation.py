"""Word segmentation (Goldwater et al. 2009; Liang et al. §5, Fig. 5): the unigram model's five
samplers, or the bigram model's three, race from the same initial segmentation.

Widgets and plots only; every number comes from engine.models.usm.model, engine.models.bigram.model
and engine.run.
"""
import pandas as pd
import streamlit as st

from engine.models.bigram.model import BigramModel
from engine.models.usm.model import UsmModel
from engine.samplers import offered
from ui import playback, race_page
from ui.corpus_choice import SEGMENTED_SETTINGS, UPLOAD_NOTE, choose_corpus
from ui.entry import through_app
from ui.segmentation import legend, utterance_html
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_engine

KEY = "seg"
MAX_PASSES = 20_000
SHOWN_UTTERANCES = 12
MEASURES = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F"}
ALPHA_MIN = 0.001


MODELS = {"usm": UsmModel, "bigram": BigramModel}
LOGLIK = {"usm": "log p(corpus, segmentation)",
          "bigram": "log p(corpus, segmentation, seating)"}
SEATINGS = {"histogram": "histogram of table sizes", "explicit": "every customer's table"}


@st.cache_resource(max_entries=8, show_spinner="Preparing the corpus…")
def build_model(corpus, name, hyperparameters):
    return MODELS[name].from_corpus(corpus, **dict(hyperparameters))


PRESETS = {
    "TYPE escapes where TOKEN crawls": dict(
        source="builtin", samplers=("token", "type"), eta=1.0, passes=200, seed=0,
        alpha=20.0, pb=0.5, rho=2.0, skip=True, clock="time"),
    "Annealing helps only a little": dict(
        source="builtin", samplers=("token", "anneal", "type"), eta=1.0, passes=200, seed=0,
        alpha=20.0, pb=0.5, rho=2.0, skip=True, clock="time"),
    "Bigram model: annealing ends highest, TOKEN lowest": dict(
        source="builtin", model="bigram", samplers=("token", "anneal", "sentence"), eta=0.5,
        passes=300, seed=0, clock="time", shown="anneal"),
}
SETTINGS = PageSettings(KEY, (
    *SEGMENTED_SETTINGS,
    Setting("model", "usm", str, "the model", choices=tuple(MODELS)),
    *race_page.race_settings(UsmModel, MAX_PASSES),
    Setting("alpha", 20.0, float, "α₀", ALPHA_MIN, 1e6),
    Setting("pb", 0.5, float, "p#", 0.01, 0.99),
    Setting("rho", 2.0, float, "ρ", ALPHA_MIN, 1e6),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("b_alpha0", 3000.0, float, "α₀", ALPHA_MIN, 1e9),
    Setting("b_alpha1", 100.0, float, "α₁", ALPHA_MIN, 1e9),
    Setting("b_pb", 0.2, float, "p#", 0.01, 0.99),
    Setting("b_pu", 0.5, float, "p$", 0.01, 0.99),
    Setting("seating", "histogram", str, "the seating", choices=tuple(SEATINGS)),
    Setting("shown", "type", str, "the segmentation shown", choices=offered(UsmModel.samplers)),
    Setting("first", 1, int, "the first utterance shown", 1, 10**7),
    Setting("measure", "token_f", str, "the F measure", choices=tuple(MEASURES)),
    *playback.SETTINGS,
), PRESETS)


def settings():
    """Sidebar widgets; return (corpus, config) — corpus None when unusable."""
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = choose_corpus(KEY)
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
        st.number_input("Passes per run", 1, MAX_PASSES, step=50, key="seg_passes",
                        help="TOKEN-anneal cools from 10 to 1 over the first half of the run")
        st.number_input("Seed", 0, race_page.MAX_SEED, key="seg_seed",
                        help="same seed, same settings → the same chains")
        MODEL_WIDGETS[st.session_state.seg_model]()
        SETTINGS.share(UPLOAD_NOTE)
    SETTINGS.save()
    s = st.session_state
    # the corpus itself (a frozen dataclass): a new upload or generator setting is a new corpus
    config = race_page.race_config(KEY, corpus, model=s.seg_model,
                                   hyperparameters=HYPERPARAMETERS[s.seg_model](s),
                                   skip=bool(s.seg_skip))
    return corpus, config


def keep_offered_samplers():
    """On a change of model: keep the chosen samplers the new model offers (its own when none
    is left)."""
    s = st.session_state
    model_class = MODELS[s.seg_model]
    kept = [name for name in s.seg_samplers if name in offered(model_class.samplers)]
    s.seg_samplers = kept or list(model_class.samplers)


def usm_widgets():
    with st.expander("Model (α₀, p#, ρ)"):
        st.number_input("α₀ — DP concentration", ALPHA_MIN, 1e6, key="seg_alpha", format="%g")
        st.number_input("p# — word-end probability of P₀", 0.01, 0.99, key="seg_pb",
                        format="%g")
        st.number_input("ρ — utterance-end prior", ALPHA_MIN, 1e6, key="seg_rho", format="%g")
    st.checkbox("TYPE: skip approximation", key="seg_skip",
                help="skip pivots already sampled in a block this pass (Liang et al. §4.4). "
                     "Faster, but an approximation: the chain's law is then only close "
                     "to the posterior.")


def bigram_widgets():
    with st.expander("Model (α₀, α₁, p#, p$, seating)"):
        st.number_input("α₀ — the unigram level's concentration", ALPHA_MIN, 1e9,
                        key="seg_b_alpha0", format="%g")
        st.number_input("α₁ — each bigram restaurant's concentration", ALPHA_MIN, 1e9,
                        key="seg_b_alpha1", format="%g")
        st.number_input("p# — word-end probability of P₀", 0.01, 0.99, key="seg_b_pb",
                        format="%g")
        st.number_input("p$ — P₀'s probability of the utterance end $", 0.01, 0.99,
                        key="seg_b_pu", format="%g")
        st.radio("Tables kept as", list(SEATINGS), format_func=SEATINGS.get, key="seg_seating",
                 help="the same law either way (Blunsom et al. 2009); the histogram needs "
                      "less memory")


MODEL_WIDGETS = {"usm": usm_widgets, "bigram": bigram_widgets}
# a model's hyperparameters from the widgets, as (name, value) pairs (hashable for the cache)
HYPERPARAMETERS = {
    "usm": lambda s: (("alpha0", float(s.seg_alpha)), ("p_boundary", float(s.seg_pb)),
                      ("rho", float(s.seg_rho))),
    "bigram": lambda s: (("alpha0", float(s.seg_b_alpha0)), ("alpha1", float(s.seg_b_alpha1)),
                         ("p_boundary", float(s.seg_b_pb)),
                         ("p_utterance", float(s.seg_b_pu)), ("seating", s.seg_seating)),
}


def make_model(corpus, config):
    return build_model(corpus, config["model"], config["hyperparameters"])


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
                      f"{LOGLIK[run.model.name]}; token F {last['token_f']:.3f}, "
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
        s.seg_shown = next(iter(race.runs))
    s.seg_first = min(s.seg_first, len(next(iter(race.runs.values())).model.texts))


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


def usm_formulas(model):
    """The unigram model (Goldwater et al. 2009, §3) and the equations the samplers use, with
    the current corpus's numbers."""
    with st.expander("The model and its equations", icon=":material/function:"):
        st.markdown("Words are drawn one after another from a Dirichlet process: after n words, "
                    "of which n_w are w, the next word is w with probability")
        st.latex(r"P(w \mid \text{previous words}) = \frac{n_w + \alpha_0 P_0(w)}{n + \alpha_0},"
                 r"\qquad P_0(x_1 \dots x_M) = p_\#\,(1-p_\#)^{M-1}\,|\Sigma|^{-M}")
        st.markdown("and each word ends its utterance or not, u of the n words so far having "
                    "ended one:")
        st.latex(r"P(\text{end}) = \frac{u + \rho/2}{n + \rho},\qquad "
                 r"P(\text{not end}) = \frac{n - u + \rho/2}{n + \rho}")
        st.markdown(f"Here α₀ = {model.alpha0:g}, p# = {model.p_boundary:g}, ρ = {model.rho:g} and "
                    f"|Σ| = {len(model.alphabet)} symbols. The probability of a segmentation is "
                    "the product of these predictive probabilities in corpus order (it does not "
                    "depend on the order: the words are exchangeable).")
        st.markdown("**TOKEN** (eq. 4 of Liang et al.) resamples one site s: with every other "
                    "word counted (n^{−s}), the site joins its two words w₁w₂ or splits them:")
        st.latex(r"\frac{p(b_s = 1 \mid \text{rest})}{p(b_s = 0 \mid \text{rest})} = "
                 r"\frac{P(w_1 \mid n^{-s})\,P(\text{not end} \mid n^{-s})\,"
                 r"P(w_2 \mid n^{-s} + w_1)\,P(e \mid n^{-s} + w_1)}"
                 r"{P(w_1 w_2 \mid n^{-s})\,P(e \mid n^{-s})}")
        st.markdown("where e is whether the last word ends its utterance, and n^{−s} + w₁ "
                    "counts w₁ as one more word.")
        st.markdown("**TYPE** takes the block S of sites with the same type (w₁, w₂, whether w₂ "
                    "ends its utterance) that share no word, removes their words, and draws how "
                    "many m of them are split (eqs. 7 and 9): every assignment with m splits has "
                    "the same probability g(m), a product of rising factorials a^(k) = "
                    "a(a+1)…(a+k−1),")
        st.latex(r"p(m \mid \text{rest}) \propto \binom{|S|}{m}\,g(m),\qquad "
                 r"g(m) = \frac{\prod_{w}\big(\alpha_0 P_0(w) + n^{-S}_w\big)^{(c_w(m))}\;"
                 r"\prod_{e}\big(\rho/2 + n^{-S}_e\big)^{(c_e(m))}}"
                 r"{(\alpha_0 + n^{-S})^{(c(m))}\;(\rho + n^{-S})^{(c(m))}}")
        st.markdown("where c_w(m) counts the block's new occurrences of w ∈ {w₁, w₂, w₁w₂} "
                    "(m of w₁ and of w₂, |S| − m of w₁w₂), c_e(m) its utterance ends and "
                    "non-ends, and c(m) = |S| + m its words.")


def bigram_formulas(model):
    """The HDP bigram model (Goldwater et al. 2009, §5) as the engine implements it."""
    with st.expander("The model and its equations", icon=":material/function:"):
        st.markdown("Each word w is drawn given the previous word w′ (`$` at an utterance's "
                    "start). The words following w′ are the customers of w′'s restaurant:")
        st.latex(r"P(w \mid w') = \frac{n_{\langle w', w\rangle} + \alpha_1 P_1(w)}"
                 r"{n_{\langle w' \rangle} + \alpha_1},\qquad "
                 r"P_1(w) = \frac{t_w + \alpha_0 P_0(w)}{t + \alpha_0}")
        st.latex(r"P_0(\$) = p_\$,\qquad P_0(x_1 \dots x_M) = (1 - p_\$)\,p_\#\,"
                 r"(1-p_\#)^{M-1}\,|\Sigma|^{-M}")
        st.markdown(f"where t_w counts the tables labelled w in all bigram restaurants and t "
                    f"all tables: a new table in a bigram restaurant is a customer of the "
                    f"shared unigram restaurant. Here α₀ = {model.alpha0:g}, α₁ = "
                    f"{model.alpha1:g}, p# = {model.p_boundary:g}, p$ = {model.p_utterance:g}, "
                    f"|Σ| = {len(model.alphabet)}; the tables are kept as a "
                    f"{SEATINGS[model.seating]}. Every utterance ends with the word `$`.")
        st.markdown("**TOKEN** (Goldwater et al.'s Gibbs sampler) takes away the site's "
                    "customers — the one word w₁w₂, or w₁ and w₂, with the word after them "
                    "as a customer in their context — draws the boundary from the two "
                    "hypotheses' probabilities (each customer's table, new or existing, summed "
                    "over), and seats the chosen hypothesis's customers again. **SENTENCE** "
                    "proposes an utterance's segmentation by dynamic programming from the model "
                    "with that utterance removed and accepts it by Metropolis-Hastings against "
                    "the exact joint probability. There is no TYPE: see the Restaurants lesson.")


FORMULAS = {"usm": usm_formulas, "bigram": bigram_formulas}


# --- the page ---------------------------------------------------------------------------------
through_app()
st.title("Word segmentation")
st.caption("The unigram and bigram models of Goldwater, Griffiths & Johnson (2009), sampled "
           "from the same start (Liang, Jordan & Klein 2010, §5 and Fig. 5). A pass visits every "
           "boundary site once (SENTENCE: every utterance once).")
warm_engine()
SETTINGS.restore()
corpus, config = settings()
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
    model = next(iter(race.runs.values())).model
    FORMULAS[model.name](model)
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
