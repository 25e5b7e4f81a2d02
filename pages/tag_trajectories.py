"""HMM tag trajectories (Liang et al. §5, Fig. 5a; Gao & Johnson 2008): five samplers of the
Bayesian HMM race from the same tagging; TYPE moves whole word types at once.

Widgets and plots only; every number comes from engine.models.hmm.model and engine.run; the
model's settings are its options (ui/models), the corpus choice its kind's (ui/kinds).
"""
import numpy as np
import streamlit as st

from engine.models.hmm.model import HmmModel
from engine.samplers import offered
from engine.run import thinned
from ui import charts, exercises, playback, race_page
from ui.kinds.registry import picker_of
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting, echo
from ui.theme import label

KEY = "hmm"
MAX_PASSES = 5_000
WINDOW = 60  # tokens in the trajectory heatmaps
LIANG_SAMPLERS = ("token", "type", "anneal", "greedy", "sentence")
PICKER = picker_of(HmmModel)
OPTIONS = ModelOptions((HmmModel,))

# regimes measured on the built-in corpus (2,062 tokens, K = 15 — its gold tags, the default —
# from η = 1); the claim each name makes is checked by tests/app/test_preset_claims.py
BUILTIN = dict(source="builtin", n_states=None, eta=1.0, passes=200, seed=0, alpha=0.1,
               skip=True)
PRESETS = {
    # a sparse emission prior (Gao & Johnson's grid) couples a word's tokens strongly: moving
    # them together pays, and TYPE leads at every pass. At equal engine time it leads only
    # early (TOKEN passes it after ~1,500 passes, about 0.5 s), so the preset counts passes
    "TYPE wins on large word types (α′ = 0.0001)": dict(
        BUILTIN, alpha_emit=0.0001, samplers=("token", "type"), clock="passes", word="the"),
    "TYPE-greedy collapses": dict(BUILTIN, alpha_emit=0.1, samplers=("type", "greedy"),
                                  word="the"),
    "SENTENCE ≈ TOKEN (blocked ≈ pointwise)": dict(BUILTIN, alpha_emit=0.1,
                                                   samplers=("token", "sentence")),
}
SETTINGS = PageSettings(KEY, (
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


def settings():
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(KEY)
        st.multiselect("Samplers", offered(HmmModel.samplers), format_func=label,
                       key="hmm_samplers")
        st.number_input("η — share of tokens starting in state 1", 0.0, 1.0, step=0.1,
                        key="hmm_eta", help="the rest start in uniformly random states")
        race_page.length_input(KEY, "Passes per run", 1, MAX_PASSES)
        st.number_input("Seed", 0, race_page.MAX_SEED, key="hmm_seed")
        with st.expander("Model settings (K, α, α′)", expanded=True):
            options = OPTIONS.widgets(SETTINGS, HmmModel)
        st.checkbox("TYPE: skip approximation", key="hmm_skip",
                    help="skip pivots already sampled in a block this pass (§4.4): faster, "
                         "but the chain's law is then only close to the posterior")
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    config = race_page.race_config(KEY, corpus, hyperparameters=options,
                                   skip=bool(st.session_state.hmm_skip))
    return corpus, config


def make_model(corpus, config):
    return build_model(HmmModel.name, corpus, config["hyperparameters"])


def draw_race(race):
    has_gold = "acc_many_to_one" in next(iter(race.runs.values())).trace[-1]
    items = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        value = f"{last['acc_many_to_one']:.1%}" if has_gold else f"{last['loglik']:,.0f}"
        items.append((f"{label(name)} · pass {run.sweeps_done:,}", value,
                      f"log p = {last['loglik']:,.1f}; engine time {run.seconds:,.2f} s"
                      + (f"; 1-to-1 {last['acc_one_to_one']:.1%}, VI {last['vi']:.2f} bits"
                         if has_gold else "")))
    race_page.metric_row(items)
    left, right = st.columns(2)
    measures = [("loglik", "log-probability", "Log-probability over time (Fig. 5a)")]
    if has_gold:
        measures.append(("acc_many_to_one", "many-to-one accuracy", "Accuracy over time"))
    for col, (column, y_title, title) in zip((left, right), measures):
        race_page.over_time(col, race, column, y_title, title, f"hmm_chart_{column}")


def trajectories(race):
    """Tokens × passes coloured by state, for TOKEN and TYPE side by side."""
    shown = [name for name in ("token", "type") if name in race.runs] or list(race.runs)[:2]
    model = next(iter(race.runs.values())).model
    start = min(st.session_state.get("hmm_window", 0), max(0, model.n_sites - WINDOW))
    tokens = np.arange(start, min(start + WINDOW, model.n_sites))
    words = [model.vocabulary[w] for w in model.words[tokens]]
    for col, name in zip(st.columns(len(shown)), shown):
        spec, data, cells = charts.state_trajectories(
            race.runs[name].values, tokens, words,
            f"{label(name)}: each token's state, pass by pass")
        charts.show_live(col, spec, data, f"hmm_heat_{name}", table=cells)


def word_and_confusion(race):
    model = next(iter(race.runs.values())).model
    name = st.session_state.hmm_shown
    run = race.runs[name]
    word = st.session_state.hmm_word
    positions = np.flatnonzero(model.words == model.vocabulary.index(word))
    passes = thinned(len(run.values), charts.AREA_ROWS)
    shares = np.array([np.bincount(run.values[p][positions], minlength=model.n_states + 1)[1:]
                       for p in passes]) / len(positions)
    left, right = st.columns(2)
    title = f"{label(name)}: states of the {len(positions):,} tokens of “{word}”"
    charts.show_live(left, *charts.state_shares(passes, shares, model.n_states, title),
                     "hmm_word_chart")
    if model.gold is not None:
        charts.show_live(right, *charts.confusion(model.confusion(run.state), model.n_states,
                                                  list(model.tag_set),
                                                  f"{label(name)}: states against gold tags"),
                         "hmm_confusion")


def default_word(model, frequent):
    """The most frequent word with a letter in it: punctuation like "." is one flat band."""
    return next((w for w in frequent if any(c.isalpha() for c in w)), frequent[0])


def frequent_words(model):
    """The corpus's 200 most frequent words, most frequent first: the words one may follow."""
    counts = np.bincount(model.words, minlength=len(model.vocabulary))
    return [model.vocabulary[i] for i in np.argsort(-counts, kind="stable")[:200]]


def check_view(race):
    """A followed word, sampler or window this race does not have (a link, another corpus)
    falls back to one it has."""
    model = next(iter(race.runs.values())).model
    s = st.session_state
    frequent = frequent_words(model)
    if s.hmm_word not in frequent:
        why = "it is not among this corpus's 200 most frequent words"
        if s.hmm_word and "word" not in SETTINGS.linked():  # a link's is said in its notice
            st.warning(f"{echo(s.hmm_word)}: {why}; following another.")
        SETTINGS.fit("word", default_word(model, frequent), why)
    if s.hmm_shown not in race.runs:
        SETTINGS.fit("shown", next(iter(race.runs)), "this race does not run that sampler")
    SETTINGS.fit("window", min(s.hmm_window, max(0, model.n_sites - 1)),
                 f"the corpus has {model.n_sites:,} tokens")


def draw_views(race):
    trajectories(race)
    word_and_confusion(race)


def view_controls(race):
    """Below the charts over time, above the views they choose: on a phone the charts come
    first."""
    model = next(iter(race.runs.values())).model
    frequent = frequent_words(model)
    cols = st.columns(3)
    cols[0].selectbox("Word and confusion of", list(race.runs), format_func=label,
                      key="hmm_shown")
    cols[1].selectbox("Word to follow", frequent, key="hmm_word")
    cols[2].number_input("Heatmap from token", 0, max(0, model.n_sites - 1), step=WINDOW,
                         key="hmm_window")


def formulas(model):
    """The HMM (Gao & Johnson §2; Liang et al. §3) and TOKEN's and TYPE's equations, with the
    current numbers."""
    k, v = model.n_states, len(model.vocabulary)
    with st.expander("The model and its equations", icon=":material/function:"):
        st.markdown("Each sentence is a path of hidden states 1 … K between two boundary "
                    "states 0; state k emits word x. With symmetric Dirichlet priors on every "
                    "transition row (α) and emission row (α′) integrated out, a tagging z of "
                    "words x has probability (Liang et al. eq. 3)")
        st.latex(r"p(z, x) = \prod_{j=0}^{K}\frac{\prod_{k=0}^{K}\alpha^{(n_{jk})}}"
                 r"{((K+1)\alpha)^{(n_{j\cdot})}}\;\prod_{k=1}^{K}"
                 r"\frac{\prod_{x}\alpha'^{(n_{kx})}}{(V\alpha')^{(n_{k\cdot})}}")
        st.markdown(f"where a⁽ⁿ⁾ = a(a+1)…(a+n−1), n_jk counts transitions j → k and n_kx "
                    f"emissions. Here K = {k}, V = {v:,} word types, α = {model.alpha:g}, "
                    f"α′ = {model.alpha_emit:g}.")
        st.markdown("**TOKEN** (Gao & Johnson's Fig. 1; eq. 4) resamples token i between "
                    "states j = z_{i−1} and l = z_{i+1}, with every other token counted; the "
                    "indicators correct for the two transitions that share state k:")
        st.latex(r"p(z_i = k \mid z_{-i}, x) \propto (n_{jk} + \alpha)\,"
                 r"\frac{n_{kl} + \alpha + I[j = k = l]}{n_{k\cdot} + (K+1)\alpha + I[j = k]}"
                 r"\,\frac{n_{k x_i} + \alpha'}{n_{k\cdot} + V\alpha'}")
        st.markdown("**TYPE** takes the tokens of one type (j, l, word) that are not adjacent, "
                    "keeps those in the pivot's state k or a random other state k′ (a binary "
                    "slice), removes them and draws how many m go to k′ (eqs. 7 and 9):")
        st.latex(r"p(m \mid \text{rest}) \propto \binom{|S|}{m}\,"
                 r"\frac{(n_{jk'} + \alpha)^{(m)}(n_{k'l} + \alpha)^{(m)}"
                 r"(n_{k'x} + \alpha')^{(m)}}{(n_{k'\cdot} + (K+1)\alpha)^{(m)}"
                 r"(n_{k'\cdot} + V\alpha')^{(m)}}\,"
                 r"\frac{(n_{jk} + \alpha)^{(|S|-m)}(n_{kl} + \alpha)^{(|S|-m)}"
                 r"(n_{kx} + \alpha')^{(|S|-m)}}{(n_{k\cdot} + (K+1)\alpha)^{(|S|-m)}"
                 r"(n_{k\cdot} + V\alpha')^{(|S|-m)}}")
        st.markdown("with the counts n of the tokens outside the block (j, l ≠ k, k′; the "
                    "engine handles the cases where they coincide exactly, term by term).")


# --- the page ---------------------------------------------------------------------------------
prologue("HMM tag trajectories",
         "The Bayesian HMM for part-of-speech induction (Gao & Johnson 2008), sampled five ways "
         "from the same tagging (Liang, Jordan & Klein 2010, §5, Fig. 5a). A pass visits every "
         "token once (SENTENCE: every sentence once).")
SETTINGS.restore()
corpus, config = settings()
warm_samplers(HmmModel, config["samplers"])
race_page.follow_settings(KEY, corpus, config, make_model, record_values=True)

if "hmm_race" in st.session_state:
    race = st.session_state.hmm_race
    shown = st.session_state.hmm_corpus
    model = next(iter(race.runs.values())).model
    st.caption(f"**{shown.name}**: {len(shown.sentences):,} sentences, {shown.n_tokens:,} tokens, "
               f"{len(shown.tag_set):,} gold tags; K = {model.n_states}.")
    playback.controls(KEY, on_reset=lambda: race_page.restart(KEY, make_model,
                                                              record_values=True))
    check_view(race)
    playback.live(KEY, draw_race)
    view_controls(race)
    playback.live(KEY, draw_views, advances=False)
    formulas(model)
    st.markdown(
        "#### What to look for\n"
        "- **TOKEN** changes one token's state at a time (Gao & Johnson's Fig. 1): in the "
        "heatmap, columns of the same word change colour one by one.\n"
        "- **TYPE** takes every token of a word between the same two states, and moves a random "
        "number of them between the pivot's state k and another state k′ (eq. 7, binary "
        "slices): whole columns of a frequent word flip together.\n"
        "- **SENTENCE** draws a whole sentence's tags by forward filtering, backward sampling "
        "from the other sentences' counts and accepts by Metropolis-Hastings.\n"
        "- Accuracy maps each state to the gold tag it meets most (many-to-one).\n"
        "- **Who is ahead depends on the corpus.** TYPE wins where TOKEN is stuck: many tokens "
        "per word, as on the paper's million words. On a few thousand tokens TOKEN is rarely "
        "stuck, and a TYPE move weighs only 2 of the K states where TOKEN weighs all K, so "
        "TOKEN can stay ahead for a long time (on 25,000 tokens of English it leads for "
        "minutes of engine time; after five minutes the two are about even in log-probability "
        "and TOKEN is still the more accurate).")
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
