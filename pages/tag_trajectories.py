"""HMM tag trajectories (Liang et al. §5, Fig. 5a; Gao & Johnson 2008): five samplers of the
Bayesian HMM race from the same tagging; TYPE moves whole word types at once.

Widgets and plots only; every number comes from engine.models.hmm and engine.run.
"""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine.models.hmm import HmmModel
from ui import playback, race_page
from ui.corpus_choice import choose_tagged_corpus
from ui.entry import through_app
from ui.theme import label, layout
from ui.warmup import warm_engine

KEY = "hmm"
MAX_PASSES = 5_000
MAX_SEED = 2**32 - 1
WINDOW = 60  # tokens in the trajectory heatmaps


@st.cache_resource(max_entries=8, show_spinner="Preparing the corpus…")
def build_model(corpus, n_states, alpha, alpha_emit):
    return HmmModel.from_corpus(corpus, n_states, alpha=alpha, alpha_emit=alpha_emit)


def settings():
    with st.sidebar:
        st.header("Settings")
        corpus = choose_tagged_corpus(KEY)
        default_k = max(2, len(corpus.tag_set)) if corpus is not None and corpus.tags else 10
        st.number_input("K — hidden states", 2, 200, default_k, key="hmm_k",
                        help="default: the number of gold tags")
        st.multiselect("Samplers", HmmModel.samplers, default=list(HmmModel.samplers),
                       format_func=label, key="hmm_samplers")
        st.number_input("η — share of tokens starting in state 1", 0.0, 1.0, 1.0, step=0.1,
                        key="hmm_eta", help="the rest start in uniformly random states")
        st.number_input("Passes per run", 1, MAX_PASSES, 200, step=50, key="hmm_passes")
        st.number_input("Seed", 0, MAX_SEED, 0, key="hmm_seed")
        with st.expander("Priors (α, α′)"):
            st.number_input("α — transitions", 0.0001, 100.0, 0.1, format="%.4f", key="hmm_alpha")
            st.number_input("α′ — emissions", 0.0001, 100.0, 0.1, format="%.4f",
                            key="hmm_alpha_emit")
        st.checkbox("TYPE: skip approximation", True, key="hmm_skip",
                    help="skip pivots already sampled in a block this pass (§4.4): faster, "
                         "but the chain's law is then only close to the posterior")
    s = st.session_state
    config = dict(corpus=corpus, k=int(s.hmm_k), samplers=tuple(s.hmm_samplers),
                  eta=float(s.hmm_eta), passes=int(s.hmm_passes), seed=int(s.hmm_seed),
                  alpha=float(s.hmm_alpha), alpha_emit=float(s.hmm_alpha_emit),
                  skip=bool(s.hmm_skip))
    return corpus, config


def make_model(corpus, config):
    return build_model(corpus, config["k"], config["alpha"], config["alpha_emit"])


def draw_race(race):
    frame = race.trace_frame()
    has_gold = "acc_many_to_one" in frame
    cols = st.columns(len(race.runs))
    for col, (name, run) in zip(cols, race.runs.items()):
        last = run.trace[-1]
        value = f"{last['acc_many_to_one']:.1%}" if has_gold else f"{last['loglik']:,.0f}"
        col.metric(f"{label(name)} · pass {run.sweeps_done:,}", value,
                   help=f"log p = {last['loglik']:,.1f}; engine time {run.seconds:,.2f} s"
                        + (f"; 1-to-1 {last['acc_one_to_one']:.1%}, VI {last['vi']:.2f} bits"
                           if has_gold else ""))
    left, right = st.columns(2)
    charts = [("loglik", "log-probability", "Log-probability over time (Fig. 5a)")]
    if has_gold:
        charts.append(("acc_many_to_one", "many-to-one accuracy", "Accuracy over time"))
    for col, (column, y_title, title) in zip((left, right), charts):
        race_page.over_time(col, frame, column, y_title, title, f"hmm_chart_{column}")
    trajectories(race)
    word_and_confusion(race)


def trajectories(race):
    """Tokens × passes coloured by state, for TOKEN and TYPE side by side."""
    shown = [name for name in ("token", "type") if name in race.runs] or list(race.runs)[:2]
    model = next(iter(race.runs.values())).model
    start = min(st.session_state.get("hmm_window", 0), max(0, model.n_sites - WINDOW))
    tokens = np.arange(start, min(start + WINDOW, model.n_sites))
    words = [model.vocabulary[w] for w in model.words[tokens]]
    cols = st.columns(len(shown))
    for col, name in zip(cols, shown):
        run = race.runs[name]
        z = np.array([values[tokens] for values in run.values])
        fig = go.Figure(go.Heatmap(z=z, x=[f"{i}:{w}" for i, w in zip(tokens, words)],
                                   colorscale="Turbo", zmin=1, zmax=model.n_states,
                                   colorbar=dict(title="state"),
                                   hovertemplate="%{x}<br>pass %{y}: state %{z}<extra></extra>"))
        layout(fig, f"{label(name)}: each token's state, pass by pass", "token", "pass",
               height=420)
        fig.update_xaxes(tickangle=-60, tickfont=dict(size=9))
        col.plotly_chart(fig, key=f"hmm_heat_{name}")


def word_and_confusion(race):
    model = next(iter(race.runs.values())).model
    name = st.session_state.get("hmm_shown")
    if name not in race.runs:
        name = next(iter(race.runs))
    run = race.runs[name]
    word = st.session_state.get("hmm_word")
    if word not in model.vocabulary:
        word = max(model.vocabulary, key=lambda w: (model.words == model.vocabulary.index(w)).sum())
    positions = np.flatnonzero(model.words == model.vocabulary.index(word))
    shares = np.array([np.bincount(values[positions], minlength=model.n_states + 1)[1:]
                       for values in run.values]) / len(positions)
    left, right = st.columns(2)
    fig = go.Figure([go.Scatter(x=np.arange(len(shares)), y=shares[:, k], stackgroup="one",
                                name=f"state {k + 1}", mode="lines")
                     for k in range(model.n_states) if shares[:, k].any()])
    layout(fig, f"{label(name)}: states of the {len(positions):,} tokens of “{word}”", "pass",
           "share of its tokens", height=380)
    left.plotly_chart(fig, key="hmm_word_chart")
    if model.gold is not None:
        table = model.confusion(run.state)
        fig = go.Figure(go.Heatmap(z=table, x=list(model.tag_set),
                                   y=[f"state {k + 1}" for k in range(model.n_states)],
                                   colorscale="Blues",
                                   hovertemplate="%{y} × %{x}: %{z} tokens<extra></extra>"))
        layout(fig, f"{label(name)}: states against gold tags", "gold tag", None, height=380)
        fig.update_yaxes(autorange="reversed")
        right.plotly_chart(fig, key="hmm_confusion")


def view_controls(race):
    model = next(iter(race.runs.values())).model
    cols = st.columns(3)
    cols[0].selectbox("Word and confusion of", list(race.runs), format_func=label,
                      key="hmm_shown")
    counts = np.bincount(model.words, minlength=len(model.vocabulary))
    frequent = [model.vocabulary[i] for i in np.argsort(-counts)[:200]]
    cols[1].selectbox("Word to follow", frequent, key="hmm_word")
    cols[2].number_input("Heatmap from token", 0, max(0, model.n_sites - 1), 0, step=WINDOW,
                         key="hmm_window")


# --- the page ---------------------------------------------------------------------------------
through_app()
st.title("HMM tag trajectories")
st.caption("The Bayesian HMM for part-of-speech induction (Gao & Johnson 2008), sampled five ways "
           "from the same tagging (Liang, Jordan & Klein 2010, §5, Fig. 5a). A pass visits every "
           "token once (SENTENCE: every sentence once).")
warm_engine()
corpus, config = settings()
race_page.follow_settings(KEY, corpus, config, make_model, record_values=True)

if "hmm_race" in st.session_state:
    race = st.session_state.hmm_race
    shown = st.session_state.hmm_corpus
    st.caption(f"**{shown.name}**: {len(shown.sentences):,} sentences, {shown.n_tokens:,} tokens, "
               f"{len(shown.tag_set):,} gold tags; K = {st.session_state.hmm_config['k']}.")
    speed = playback.controls(
        KEY, on_reset=lambda: race_page.restart(KEY, make_model, record_values=True))
    view_controls(race)
    playback.live(KEY, speed, draw_race)
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
