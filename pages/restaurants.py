"""Restaurants (Blunsom, Cohn, Goldwater & Johnson 2009): a Chinese restaurant filling up, its
two seating representations, and why a hierarchical model must count its tables (Figure 2).

Widgets and pictures only; every number comes from engine.core.arrivals, engine.experiments.table_figure
and engine.core.table_expectations.
"""
import numpy as np
import streamlit as st

from engine.core.arrivals import MAX_CUSTOMERS, Arrivals
from engine.experiments import table_figure
from engine.models.bigram.model import BigramModel
from ui import exercises, playback
from ui.charts import show
from ui.corpus_picker import UPLOAD_NOTE
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.restaurant_view import (explicit_text, figure_two, histogram_text, restaurant_html,
                                tables_path)
from ui.settings import PageSettings, Setting, start_anew
from ui.word_corpus import SETTINGS as WORD_SETTINGS
from ui.word_corpus import choose_word_corpus

KEY = "rest"
FIG = "fig"  # the prefix of Figure 2's corpus widgets
DISH_NAMES = ("the", "dog", "a", "ball", "you", "look", "is", "cat", "what", "that", "see",
              "it")
PROCESSES = {"dp": "Dirichlet process (d = 0)", "py": "Pitman-Yor process (discount d)"}
SAMPLES = (50, 100, 200, 500, 1000)
ALPHA_NAMES = tuple(f"{a:g}" for a in table_figure.ALPHAS)  # as the address writes them
STEP = playback.Wording(
    step="customer", step_help="the next customer arrives",
    speed="Speed: customers per second",
    finished="The restaurant has its {total:,} customers: raise **Customers** to go on, or "
             "**Reset** to watch it fill again.", clock=False)

PRESETS = {
    "DP, α = 1: a few big tables (the rich get richer)": dict(
        process="dp", alpha=1.0, dishes=4, customers=200, seed=0),
    "DP, α = 20: many tables, each dish on several": dict(
        process="dp", alpha=20.0, dishes=4, customers=200, seed=0),
    "Pitman-Yor, d = 0.8: tables keep opening (a power law)": dict(
        process="py", alpha=1.0, discount=0.8, dishes=4, customers=400, seed=0),
    "Figure 2: Antoniak's approximation fails when αP(w) < 1": dict(fig_source="tagged", samples=200),
}
SETTINGS = PageSettings(KEY, (
    Setting("process", "dp", str, "the process", choices=tuple(PROCESSES)),
    Setting("alpha", 2.0, float, "α", -0.999, 1e6),
    Setting("discount", 0.5, float, "the discount d", 0.0, 0.99),
    Setting("dishes", 4, int, "the number of dishes", 1, len(DISH_NAMES)),
    Setting("customers", 200, int, "the number of customers", 1, MAX_CUSTOMERS),
    Setting("seed", 0, int, "the seed", 0, 2**32 - 1),
    *playback.SETTINGS,
    *(Setting(f"{FIG}_{s.name}", s.default, s.kind, s.what, s.low, s.high, s.choices)
      for s in WORD_SETTINGS),
    Setting("samples", 200, int, "the number of samples", choices=SAMPLES),
    Setting("alphas", ALPHA_NAMES, tuple, "the α values", choices=ALPHA_NAMES),
), PRESETS)


# --- engine results, cached per setting -------------------------------------------------------
@st.cache_data(max_entries=8, show_spinner="Sampling seatings for Figure 2…")
def figure_data(corpus, samples):
    counts = table_figure.word_counts(corpus.sentences)
    return table_figure.lines(counts), table_figure.points(BigramModel, corpus.sentences, samples=samples)


# --- settings ---------------------------------------------------------------------------------
def settings():
    """Sidebar widgets; return (restaurant config, Figure 2's corpus or None)."""
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        st.subheader("The restaurant")
        st.radio("Process", list(PROCESSES), format_func=PROCESSES.get, key="rest_process")
        st.number_input("α — concentration", -0.999, 1e6, key="rest_alpha", format="%g",
                        help="the DP needs α > 0; Pitman-Yor α > −d")
        if st.session_state.rest_process == "py":
            st.slider("d — discount", 0.0, 0.99, step=0.01, key="rest_discount")
        st.slider("Dishes (base uniform over them)", 1, len(DISH_NAMES), key="rest_dishes")
        st.number_input("Customers", 1, MAX_CUSTOMERS, step=50, key="rest_customers")
        st.number_input("Seed", 0, 2**32 - 1, key="rest_seed",
                        help="same seed, same settings → the same arrivals")
        st.subheader("Figure 2")
        corpus = choose_word_corpus(f"{KEY}_{FIG}")
        st.select_slider("Samples per point (Gibbs sweeps of the seating)", SAMPLES,
                         key="rest_samples")
        SETTINGS.share(UPLOAD_NOTE)
    SETTINGS.save()
    s = st.session_state
    discount = float(s.rest_discount) if s.rest_process == "py" else 0.0
    config = dict(alpha=float(s.rest_alpha), discount=discount, dishes=int(s.rest_dishes),
                  customers=int(s.rest_customers), seed=int(s.rest_seed))
    return config, corpus


def follow_settings(config):
    """A new restaurant when the settings changed; a refused setting keeps the old one."""
    if start_anew(KEY, config):
        start(config)


def start(config):
    try:
        arrivals = Arrivals(np.full(config["dishes"], 1.0 / config["dishes"]), config["alpha"],
                            config["discount"], config["seed"], config["customers"])
    except ValueError as err:
        st.error(f"Cannot open this restaurant: {err}. The restaurant below keeps its "
                 "settings.")
        return
    st.session_state.rest_race = arrivals
    st.session_state.rest_config = config
    st.session_state.rest_playing = False


# --- the restaurant ---------------------------------------------------------------------------
def draw_restaurant(arrivals):
    config = st.session_state.rest_config
    names = DISH_NAMES[:config["dishes"]]
    cols = st.columns(4)
    cols[0].metric("Customers n", f"{arrivals.customers:,}")
    cols[1].metric("Tables T", f"{arrivals.tables:,}")
    cols[2].metric("P(next customer opens a table)", f"{arrivals.new_table_probability():.3f}",
                   help="(α + d·T) / (n + α)")
    cols[3].metric("log P(seating, dishes)", f"{arrivals.log_probability():,.2f}",
                   help="the same in any arrival order: the customers are exchangeable")
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**The restaurant** — a round per table, labelled with its dish and its "
                    "number of customers; a dot per customer, the newest ringed in red")
        st.markdown(restaurant_html(arrivals, names), unsafe_allow_html=True)
    with right:
        st.markdown("**The histogram representation** (what the bigram model keeps by "
                    "default): per dish, table size → number of tables")
        st.code(histogram_text(arrivals, names), language=None)
        st.markdown("**The explicit representation**: every customer's table (the newest "
                    "customers shown)")
        st.code(explicit_text(arrivals, names), language=None, wrap_lines=True)
    history = np.cumsum(np.asarray(arrivals.opened, dtype=np.int64))
    show(st, tables_path(history, config["alpha"], config["discount"], config["customers"]),
         "rest_path_chart")


def restaurant_formulas():
    with st.expander("The seating rule and the two representations", icon=":material/function:"):
        st.markdown("Customer n + 1 arrives at a restaurant of n customers at T tables, n_k at "
                    "table k. With discount d (0 for the Dirichlet process) and concentration "
                    "α, it sits")
        st.latex(r"\text{at table } k \text{ with probability } \frac{n_k - d}{n + \alpha},"
                 r"\qquad \text{at a new table with probability } "
                 r"\frac{\alpha + d\,T}{n + \alpha},")
        st.markdown("and a new table's dish is drawn from the base P. Summing over the tables "
                    "of dish w (t_w of them, n_w customers), the next customer eats w with")
        st.latex(r"P(w \mid \text{seating}) = "
                 r"\frac{n_w - d\,t_w + (\alpha + d\,T)\,P(w)}{n + \alpha}.")
        st.markdown("Only the number of tables per dish and their sizes matter, not which "
                    "customer sits where: the **histogram** keeps, per dish, how many tables "
                    "have 1, 2, 3 … customers (the note's Fig. 3). When a customer of w leaves, "
                    "its table is drawn in proportion to size — by exchangeability any of w's "
                    "customers is equally likely to be at any seat. The **explicit** form "
                    "keeps every customer's table: more memory (on the Brent corpus's bigram "
                    "model 16.6 bytes per customer against 7.5, in the benchmarks) for the "
                    "same law.")


# --- Figure 2 ---------------------------------------------------------------------------------
def draw_figure_two(corpus):
    st.subheader("Why count the tables? The note's Figure 2, live")
    if corpus is None:
        st.info("Figure 2 needs a corpus of words: choose one in the sidebar.")
        return
    counts = table_figure.word_counts(corpus.sentences)
    tokens = sum(counts.values())
    if tokens > table_figure.MAX_TOKENS:
        st.error(f"{corpus.name} has {tokens:,} word tokens: Figure 2 takes at most "
                 f"{table_figure.MAX_TOKENS:,}. Upload a smaller file.")
        return
    st.caption(f"**{corpus.name}**: {tokens:,} word tokens, V = {len(counts):,} word types; "
               f"the fixed base is uniform, P(w) = 1/V.")
    alphas = st.multiselect("α (one colour each)", ALPHA_NAMES,
                            format_func=lambda a: f"{float(a):,.0f}", key="rest_alphas")
    lines, points = figure_data(corpus, st.session_state.rest_samples)
    if not alphas:
        st.info("Choose at least one α.")
        return
    show(st, figure_two(lines, points, [float(a) for a in alphas]), "rest_fig2")
    st.caption("Lines: E[t_w] for a restaurant with a fixed base — **solid** exact "
               "(α P(w) (ψ(α P(w) + n_w) − ψ(α P(w))), the same as the exact sum), **dashed** "
               "Antoniak's approximation, **dotted** GGJ06's approximation (Antoniak's without "
               "P(w)). Points: mean tables of the words of each frequency over "
               f"{st.session_state.rest_samples} Gibbs sweeps of the seating — **stars** with "
               "the fixed base, **circles** in the HDP bigram model on these words (α₁ = α, "
               "α₀ = 3,000, p# = 0.2), whose base P₁ is inferred from the tables. Both are "
               "sampled: a star estimates the solid line and lies on it only within its "
               "sampling error, the bar of ±2 standard errors through it (from "
               f"{table_figure.RUNS} independent chains), which about 9 bars in 10 cross. A "
               "star of one frequent word is the least certain: at α = 100 and 200 sweeps it "
               "is typically 10–15% off the line; more samples per point narrow the bars. "
               "Hover a point for how many words it averages.")
    st.markdown(
        "#### What to look for\n"
        "- **Antoniak's approximation fails when α P(w) < 1.** It is E[t] ≈ a log((n + a)/a) "
        "with a = α P(w); for a ≪ 1 that is ≈ a log(n/a), far below the truth. The first "
        "customer of a dish *always* opens a table, so E[t] ≥ 1 (the note's extreme case: "
        "a = 1, n = 1 gives 1 table, the approximation log 2 ≈ 0.69). NLP models choose α P(w) "
        "< 1 to make the prior sparse — exactly where the dashed lines drop below the solid "
        "ones.\n"
        "- **GGJ06's form drops P(w)** and so counts every word as if it were the whole base: "
        "the dotted lines sit far above the truth.\n"
        "- **The bigram model must track its tables.** In the bigram model (and any HDP) the "
        "base of a bigram restaurant is not fixed: P₁(w) = (t_w + α₀ P₀(w)) / (t + α₀) is "
        "learned from the tables themselves. The circles leave the solid lines: no formula of "
        "the frequency alone gives t_w. So the model keeps the seating (here as a histogram "
        "per word pair) and resamples it with the words.\n"
        "- **Why the bigram model has no TYPE sampler.** Liang et al.'s type-based move (§4.2) "
        "draws how many of a block's sites split, relying on every assignment with the same "
        "count having the same probability (exchangeability). In the bigram model each site's "
        "words are customers of restaurants fixed by their *neighbours* (the previous word is "
        "the context), and their tables are shared with other contexts' seatings: two sites "
        "of the same type do not share their contexts' seatings, so the argument does not hold "
        "as it stands. No paper gives the move, so the lab leaves it out.")


def figure_formulas():
    with st.expander("The expected number of tables", icon=":material/function:"):
        st.markdown("With a fixed base, customer i of dish w opens a table with probability "
                    "a / (a + i − 1), a = α P(w), independently; so after n customers")
        st.latex(r"E[t_w] = \sum_{i=1}^{n} \frac{a}{a + i - 1} = "
                 r"a\,\bigl(\psi(a + n) - \psi(a)\bigr) \quad\text{(exact; the digamma form "
                 r"is } O(1)\text{)}")
        st.latex(r"E[t_w] \approx a \log\frac{n + a}{a}\ \text{(Antoniak)},\qquad "
                 r"E[t_w] \approx \alpha \log\frac{n + \alpha}{\alpha}\ \text{(GGJ06, } "
                 r"P(w)\text{ left out)}")
        st.markdown("In the HDP bigram model a word w following w′ is a customer of w′'s "
                    "restaurant:")
        st.latex(r"P(w \mid w') = \frac{n_{\langle w', w\rangle} + \alpha_1 P_1(w)}"
                 r"{n_{\langle w' \rangle} + \alpha_1},\qquad "
                 r"P_1(w) = \frac{t_w + \alpha_0 P_0(w)}{t + \alpha_0}")
        st.markdown("where t_w counts the tables labelled w in every bigram restaurant: the "
                    "base is learned from the tables, so they must be known. "
                    "`python -m engine tables --alpha A --counts FILE` prints the four "
                    "expectations for a word list.")


# --- the page ---------------------------------------------------------------------------------
prologue("Restaurants",
         "The Chinese restaurant behind the Dirichlet and Pitman-Yor processes, its two seating "
         "representations, and why hierarchical models must count their tables (Blunsom, Cohn, "
         "Goldwater & Johnson 2009).")
SETTINGS.restore()
restaurant_config, word_corpus = settings()
warm_samplers(BigramModel, lesson=True)  # the restaurant, and Figure 2's circles
follow_settings(restaurant_config)
if "rest_race" in st.session_state:
    playback.controls(KEY, on_reset=lambda: start(st.session_state.rest_config), wording=STEP)
    playback.live(KEY, draw_restaurant)
restaurant_formulas()
draw_figure_two(word_corpus)
figure_formulas()
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
