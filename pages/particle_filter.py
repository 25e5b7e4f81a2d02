"""Particle filter (Börschinger & Johnson 2011; rejuvenation: Börschinger & Johnson 2012): word
segmentation learned online — N weighted particles read the utterances once, in order.

Widgets and pictures only; every number comes from engine.samplers.particle, the registered
models with a particle filter (engine.models: their populations), engine.experiments.table1 and
engine.experiments.online_vs_batch. A model's settings are its options (ui/models).
"""
import hashlib
import pickle

import numpy as np
import pandas as pd
import streamlit as st

from datasets.errors import CorpusError
from datasets.segmented import SEGMENTATION
from engine.core.resampling import SCHEMES
from engine.experiments import online_vs_batch, table1
from engine.grid import BuiltModel
from engine.models import registry
from engine.models.protocol import Population
from engine.samplers.particle import ParticleFilter, Rejuvenation
from ui import charts, exercises, playback
from ui.cluster import show_where_grids_run, start_grid
from ui.corpus_choice import cap_note, first_units
from ui.grid_progress import GridShelf
from ui.kinds.segmentation import VIEW, legend
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.particle_view import (GENEALOGY_PARTICLES, ess_chart, genealogy_chart, particle_cards,
                              versus_chart, weights_chart, z_chart)
from ui.settings import PageSettings, Setting, plain, start_anew

KEY = "pf"
MAX_PARTICLES = 1000
MAX_UTTERANCES = 3000  # a longer corpus is cut (the genealogy and traces live in the session)
GENEALOGY_WINDOW = 40
MODELS = {name: cls for name, cls in registry.models(Population).items()
          if cls.display == SEGMENTATION.name}
OPTIONS = ModelOptions(tuple(MODELS.values()))
PARTICLE_OPTIONS = ModelOptions(tuple(MODELS.values()), "particle_options")
PICKER = VIEW.picker
TABLE_ONE = GridShelf("pf_t1")
THRESHOLDS = {"N": "N (resample after every utterance)", "N/2": "N/2",
              "fraction": "a fraction of N"}
REJUVENATION = {"off": "off", "token": "TOKEN moves", "type": "TYPE moves"}
STEP = playback.Wording(
    step="utterance", step_help="every particle reads the next utterance",
    speed="Speed: utterances per second",
    finished="Every particle has read the corpus's {total:,} utterances: see §6.1's scores "
             "below, or **Reset**.", clock=False)

PRESETS = {
    "N = 1 collapses: one particle is DPS": dict(model="usm", particles=1, threshold="N/2",
                                                 rejuvenation="off", seed=0),
    "Resampling only at ESS ≤ 1: one particle takes all the weight": dict(
        model="usm", particles=100, threshold="fraction", fraction=0.01, rejuvenation="off",
        seed=0),
    "Rejuvenation rescues 100 particles": dict(model="usm", particles=100, threshold="N/2",
                                               rejuvenation="type", moves=2, seed=0),
}
SETTINGS = PageSettings(KEY, (
    *PICKER.settings,
    Setting("model", next(iter(MODELS)), str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    Setting("particles", 50, int, "the number of particles", 1, MAX_PARTICLES),
    Setting("threshold", "N/2", str, "the threshold", choices=tuple(THRESHOLDS),
            words=THRESHOLDS.get),
    Setting("fraction", 0.3, float, "the threshold's fraction of N", 0.01, 1.0),
    Setting("resampling", "multinomial", str, "the resampling", choices=SCHEMES),
    Setting("rejuvenation", "off", str, "the rejuvenation", choices=tuple(REJUVENATION)),
    Setting("moves", 2, int, "the moves per utterance", 1, 100),
    *OPTIONS.settings(),
    *PARTICLE_OPTIONS.settings(),
    Setting("seed", 0, int, "the seed", 0, 2**32 - 1),
    Setting("logw", False, bool, "the log scale"),
    *playback.SETTINGS,
), PRESETS)


@st.cache_resource(max_entries=6, show_spinner="Numbering the corpus's substrings…")
def population(model_name, corpus, options, particle_options):
    return build_model(model_name, corpus, options).particles(**dict(particle_options))


def first_utterances(corpus):
    """The corpus the filter reads: at most MAX_UTTERANCES utterances (None stays None)."""
    if corpus is None or len(corpus.utterances) <= MAX_UTTERANCES:
        return corpus
    return corpus.head(MAX_UTTERANCES)


def moves_offered(model_name, corpus, options, particle_options):
    """The rejuvenation moves the model's particles take (none while it cannot be built: its
    filter then says why)."""
    try:
        return population(model_name, first_utterances(corpus), options,
                          particle_options).rejuvenation_moves
    except ValueError:
        return ()


# --- settings ---------------------------------------------------------------------------------
def settings():
    """Sidebar widgets; return the filter's config, or None when the corpus is unusable."""
    s = st.session_state
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(KEY)
        cap_note(KEY, f"{MAX_UTTERANCES:,} utterances")
        st.radio("Model", list(MODELS), format_func=lambda n: MODELS[n].label, key="pf_model")
    model_class = MODELS[s.pf_model]
    warm_samplers(model_class, ("particle",))  # before its population is built below
    with st.sidebar:
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, model_class)
            particle_options = PARTICLE_OPTIONS.widgets(SETTINGS, model_class)
        moves = moves_offered(s.pf_model, corpus, options, particle_options) if corpus else ()
        st.number_input("N — particles", 1, MAX_PARTICLES, step=10, key="pf_particles")
        st.radio("Resample when ESS ≤", list(THRESHOLDS), format_func=THRESHOLDS.get,
                 key="pf_threshold", horizontal=True)
        if s.pf_threshold == "fraction":
            st.slider("Fraction of N", 0.01, 1.0, step=0.01, key="pf_fraction")
        st.radio("Resampling", SCHEMES, key="pf_resampling", horizontal=True,
                 help="multinomial: N draws with replacement (their §5); systematic: one "
                      "uniform, ⌊N w⌋ or ⌈N w⌉ copies of each particle (less noise)")
        st.radio("Rejuvenation (2012)", list(REJUVENATION), format_func=REJUVENATION.get,
                 key="pf_rejuvenation", horizontal=True, disabled=not moves,
                 help="after every utterance, MCMC moves inside each particle on what it has "
                      "read; only for a model whose particles take them")
        if s.pf_rejuvenation in moves:
            st.number_input("Moves per particle and utterance", 1, 100, key="pf_moves")
        st.number_input("Seed", 0, 2**32 - 1, key="pf_seed",
                        help="same seed, same settings → the same run")
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    if corpus is None:
        return None
    first_units(PICKER.data, corpus, MAX_UTTERANCES, "the command line's `filter` reads any "
                "corpus")  # said here; first_utterances cuts it
    threshold = s.pf_threshold if s.pf_threshold != "fraction" else str(s.pf_fraction)
    rejuvenation = (int(s.pf_moves), s.pf_rejuvenation) if s.pf_rejuvenation in moves else None
    return dict(corpus=first_utterances(corpus), model=s.pf_model, options=options,
                particle_options=particle_options, particles=int(s.pf_particles),
                threshold=threshold, resampling=s.pf_resampling, moves=rejuvenation,
                seed=int(s.pf_seed))


def follow_settings(config):
    """A new filter when the settings changed; refused settings keep the old one."""
    if config is not None and start_anew(KEY, config):
        start(config)


def population_of(config):
    return population(config["model"], config["corpus"], config["options"],
                      config["particle_options"])


def start(config):
    try:
        pop = population_of(config)
        moves = config["moves"]
        st.session_state.pf_race = ParticleFilter(
            pop, config["particles"], config["seed"], threshold=config["threshold"],
            resampling=config["resampling"], record_history=True,
            rejuvenation=Rejuvenation(*moves) if moves else None)
    except ValueError as err:
        st.error(f"Cannot start this filter: {err}. The filter below keeps its settings.")
        return
    st.session_state.pf_config = config
    st.session_state.pf_info = None
    st.session_state.pf_scores = None
    st.session_state.pf_playing = False


# --- the live view ----------------------------------------------------------------------------
def draw_filter(filter_):
    n, total = filter_.n, filter_.total_sweeps
    trace = filter_.trace
    last = trace[-1] if trace else None
    cols = st.columns(5)
    cols[0].metric("Utterances read", f"{filter_.read:,} / {total:,}")
    cols[1].metric("ESS", f"{last['ess']:.1f}" if last else f"{n}",
                   help="eq. 12: 1 / Σ w², before resampling")
    cols[2].metric("Resamplings", f"{sum(r['resampled'] for r in trace):,}")
    cols[3].metric("Distinct parents", f"{last['distinct_particles']:,}" if last else f"{n}",
                   help="particles with offspring at the last utterance (N when it did not "
                        "resample)")
    cols[4].metric("log Ẑ", f"{filter_.log_z:,.1f}",
                   help="Π over utterances of the mean unnormalised weight: an unbiased "
                        "estimate of P(utterances read)")
    left, right = st.columns(2)
    charts.show(left, weights_chart(filter_.log_w_read, st.session_state.pf_logw), "pf_weights")
    charts.show(right, ess_chart([(r["utterance"], r["ess"], r["resampled"]) for r in trace],
                                 n, filter_.threshold, total), "pf_ess")
    left, right = st.columns(2)
    charts.show(left, genealogy_chart(filter_.history, n, GENEALOGY_WINDOW), "pf_genealogy")
    charts.show(right, z_chart([(r["utterance"], r["log_z"]) for r in trace], total), "pf_z")
    if n > GENEALOGY_PARTICLES:
        st.caption(f"The genealogy traces {GENEALOGY_PARTICLES} of the {n:,} particles of now "
                   "(evenly spaced) back to their ancestors: where lines merge, resampling "
                   "gave them a common ancestor. All N lines would fill the chart.")
    if filter_.history:
        st.markdown(f"**The heaviest particles on utterance {filter_.read:,}**",
                    help="by their weight after reading it, before resampling: each one's "
                         "segmentation of the utterance, and its most frequent words (count "
                         "after each)")
        st.markdown(legend(), unsafe_allow_html=True)
        st.markdown(particle_cards(filter_, filter_.read - 1), unsafe_allow_html=True)


def evaluation(filter_):
    """§6.1's scores once the corpus is read (a button: it segments every utterance again)."""
    if not filter_.finished:
        st.caption("When every utterance is read, §6.1's evaluation scores the particles here.")
        return
    if st.button("Score the particles (§6.1)", icon=":material/fact_check:", key="pf_score",
                 help="each particle frozen, every utterance segmented by a draw from Q, the "
                      "scores weighted by the particles' weights"):
        st.session_state.pf_scores = filter_.evaluate()
    scores = st.session_state.get("pf_scores")
    if scores:
        cols = st.columns(4)
        for col, (key, name) in zip(cols, (("token_f", "token F"), ("boundary_f", "boundary F"),
                                           ("lexicon_f", "lexicon F"),
                                           ("log_prob", "log-prob ×10³"))):
            value = scores[key] / 1000 if key == "log_prob" else 100 * scores[key]
            col.metric(name, f"{value:,.2f}")


def formulas():
    with st.expander("The model and the filter: eqs. 3–12", icon=":material/function:"):
        st.markdown("**The learned lexical model** (eqs. 3–4): symbols (and the word end #) "
                    "from a Dirichlet(φ) learned from the words labelling the tables of state s")
        st.latex(r"P_c(k \mid s, \phi) = \frac{cc_{s,k} + \phi}{\sum_j cc_{s,j} + "
                 r"|\mathrm{chars}|\,\phi},\qquad P_0(k_{1:n} \mid s, \phi) = "
                 r"\prod_{i=1}^{n} P_c(k_i \mid s, \phi)\;P_c(\# \mid s, \phi)")
        st.markdown("**Adding a word and its table** (eq. 5), a segmentation in order (eq. 6) "
                    "and the proposal with the state frozen (eq. 7):")
        st.latex(r"P_{\mathrm{add}}(\langle w, t\rangle \mid s) = \begin{cases} "
                 r"\frac{ct_{s,t}}{ct_{s,\cdot} + \alpha} & t \in s \\ "
                 r"\frac{\alpha P_0(w \mid s)}{ct_{s,\cdot} + \alpha} & t \text{ new}"
                 r"\end{cases}")
        st.latex(r"P_\sigma(\sigma \mid s) = \prod_{i=1}^{n} P_{\mathrm{add}}(\sigma_i \mid "
                 r"s \cup \sigma_1 \cup \dots \cup \sigma_{i-1}),\qquad "
                 r"Q_\sigma(\sigma \mid s) = \prod_{i=1}^{n} P_{\mathrm{add}}(\sigma_i \mid s)")
        st.markdown("**Weights** (eqs. 10–12): Q's normaliser Q(o | s) is the forward "
                    "algorithm's sum over the utterance's segmentations")
        st.latex(r"w^{*(l)}_{i+1} = w^{(l)}_i\,\frac{P_\sigma(\sigma^{(l)}_{i+1} \mid "
                 r"s^{(l)}_i)}{Q_\sigma(\sigma^{(l)}_{i+1} \mid s^{(l)}_i, o_{i+1})},\quad "
                 r"w^{(l)}_{i+1} = \frac{w^{*(l)}_{i+1}}{\sum_j w^{*(j)}_{i+1}},\quad "
                 r"\widehat{\mathrm{ESS}}_i = \frac{1}{\sum_j (w^{(j)}_i)^2}")
        st.latex(r"\hat Z = \prod_i \sum_l w^{(l)}_{i-1} \frac{w^{*(l)}_i}{w^{(l)}_{i-1}}"
                 r"\quad\text{(unbiased for } P(o_{1:i})\text{)}")
        st.markdown(
            "Where the lab departs from the print, and why:\n"
            "- **P₀ in the target counts as it goes.** Integrating θ out exactly, a word's "
            "symbols update the counts one by one (a Dirichlet-multinomial), so a word with a "
            "repeated symbol differs slightly from eq. 4. The proposal keeps eq. 4 (prefix "
            "sums: fast); the weights correct for the difference.\n"
            "- **Seats are drawn in order.** Eq. 7 seats every word against the frozen s, so "
            "the second token of a word new in this utterance could never join the table its "
            "first token opened: the proposal would miss part of P's support and Ẑ would be "
            "biased. Here Q draws the *segmentation* with s frozen, and each word's table from "
            "its exact conditional given the words before it; the seating's probability then "
            "cancels from eq. 10. The tests check Ẑ against exact enumeration.\n"
            "- **Which concentration is which (bigram).** They give α₀ = 100, α₁ = 3000 "
            "(Goldwater et al.'s values). Here α₀ is the unigram restaurant's and α₁ each "
            "bigram restaurant's; measured on the Brent corpus with 100 particles, N/2: with "
            "α₀ = 3000, α₁ = 100 the final states' log-probability is −257.0 × 10³ (theirs "
            "−254.66 ± 1.47), with α₀ = 100, α₁ = 3000 it is −330.7 × 10³. So their α₀ is our "
            "α₁: the defaults are α₀ = 3000, α₁ = 100.")


def lesson_text():
    st.markdown(
        "#### What to look for\n"
        "- **Weights degenerate.** Every utterance multiplies each weight by how well that "
        "particle's lexicon predicted it; after a few utterances a handful of particles carry "
        "almost all the weight (switch on the log scale). The ESS falls with them.\n"
        "- **Resampling copies the heavy particles** and drops the light ones: the genealogy's "
        "lines merge. Resampling after *every* utterance (threshold N) merges them more often, "
        "and the particles that survive are copies of fewer ancestors. On the Brent corpus "
        "N/2 ended more probable than N for 50, 100 and 500 particles, in their Table 1 and in "
        "ours (`python -m engine table1`; at 1,000 the two are within the runs' spread). On "
        "the built-in corpus of 408 utterances the difference is smaller than the spread "
        "between seeds — try a few seeds and see.\n"
        "- **One particle is DPS**: it never reconsiders a segmentation, so its early mistakes "
        "stay in its lexicon. More particles keep more hypotheses alive, but a particle still "
        "cannot revise what it has read.\n"
        "- **Rejuvenation lets it revise.** TOKEN or TYPE moves inside each particle resample "
        "boundaries of utterances already read, leaving the posterior unchanged. TYPE moves "
        "(which no published filter used) change every occurrence of a word pair at once: "
        "on the Brent corpus 100 particles with one TYPE move per utterance (7× the plain "
        "filter's time) end at −207.8 × 10³, far above 1,000 plain particles' −229.6 × 10³ — "
        "and above their batch sampler's −209.6 × 10³, with a lower token F: the unigram "
        "model's most probable segmentations under-segment.")


# --- Table 1 ----------------------------------------------------------------------------------
def table_one(config):
    st.markdown("Their Table 1 on this page's corpus: N particles × threshold N, N/2, and the "
                "DPM learner, several runs each, on Dask in the background, each model with its "
                "default settings, their §6's. "
                "Their numbers are on the Brent (Bernstein) corpus: upload `br-phono.txt` to "
                "compare like with like (the command line's `python -m engine table1 --data "
                "br-phono.txt` runs the whole grid).")
    cols = st.columns(3)
    sizes = cols[0].multiselect("N", table1.SIZES, default=[1, 50, 100], key="pf_t1_sizes")
    runs = cols[1].number_input("Runs per cell", 1, 20, value=3, key="pf_t1_runs")
    models = cols[2].multiselect("Models", list(table1.MODELS), default=["unigram"],
                                 key="pf_t1_models")
    show_where_grids_run()
    settings, words = table_one_settings(config, sizes, int(runs), models)
    row = st.container(horizontal=True)
    if TABLE_ONE.run_button(row, "Run the grid", settings, icon=":material/grid_on:",
                            ready=bool(sizes and models) and config is not None):
        recipes = {m: BuiltModel(build_model(table1.MODELS[m], config["corpus"], ()))
                   for m in models}
        TABLE_ONE.add(settings, words, start_grid(
            None, table1.grid(recipes, sorted(sizes), int(runs), config["seed"]), rows=True))
        st.rerun()
    TABLE_ONE.cancel_button(row)
    TABLE_ONE.show(settings, draw_table_one)


def table_one_settings(config, sizes, runs, models):
    """What a Table 1 grid runs with, as a key (the corpus digested) and in words; None
    without a corpus."""
    if config is None:
        return None, ""
    corpus = hashlib.sha256(pickle.dumps(config["corpus"])).hexdigest()
    sizes, models = tuple(sorted(sizes)), tuple(models)
    words = (f"N = {', '.join(map(str, sizes))} × {runs} run{'s' if runs > 1 else ''}, "
             f"{', '.join(models)}; {config['corpus'].name}, seed {config['seed']}")
    return (corpus, sizes, runs, models, config["seed"]), words


def draw_table_one(grid, slot):
    """The rows ``grid`` has finished, as their Table 1."""
    rows = grid.job.rows()
    if rows is not None:
        st.table(table_frame(table1.table(rows)))


def table_frame(summary):
    """Ours (mean ± sd over runs) beside theirs, in their units."""
    rows = []
    for _, r in summary.iterrows():
        key = (r["model"], r["learner"], None if r["learner"] == "DPM" else int(r["particles"]),
               None if r["learner"] == "DPM" or r["particles"] == 1 else r["threshold"])
        theirs = table1.PAPER.get(key, (None, None))[0]
        row = {"model": r["model"], "learner": r["learner"] if r["learner"] == "DPM" else
               f"PF {int(r['particles'])}", "threshold": "" if key[3] is None else key[3],
               "runs": int(r["runs"])}
        for i, (figure, name) in enumerate(zip(table1.FIGURES, ("TF", "BF", "LF",
                                                                   "log-prob ×10³"))):
            sd = r[f"{figure}_sd"]
            row[name] = f"{r[figure]:.2f}" + ("" if np.isnan(sd) else f" ± {sd:.2f}")
            row[f"{name} theirs"] = "" if theirs is None else f"{theirs[i]:.2f}"
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = frame["learner"].map(lambda name: -1 if name == "DPM" else int(name.split()[1]))
    frame = frame.assign(order=order).sort_values(["model", "order", "threshold"])
    return frame.drop(columns="order").set_index(["model", "learner", "threshold"])


# --- online against batch -----------------------------------------------------------------------
def online_against_batch(config):
    st.markdown("What reading once costs, and what rejuvenation buys: the filter (as set in "
                f"the sidebar, at most {online_vs_batch.PARTICLES} particles, then with TOKEN "
                "and with TYPE rejuvenation) against batch TOKEN and TYPE chains of the *same* "
                "model — one particle holding the whole corpus from a random segmentation "
                "(η = 0.5), moved over and over. Log-probability and token F against engine "
                "seconds. `python -m engine online-vs-batch` runs the same on any corpus.")
    problem = comparison_problem(config)
    if problem:
        st.info(problem)
    elif st.button("Run the comparison", icon=":material/compare_arrows:", key="pf_compare"):
        with st.spinner("Running filters and batch chains…"):
            st.session_state.pf_versus = online_vs_batch.compare(
                population_of(config), min(config["particles"], online_vs_batch.PARTICLES),
                config["seed"], threshold=config["threshold"], resampling=config["resampling"])
            st.session_state.pf_versus_label = comparison_label(config)
    result = st.session_state.get("pf_versus")
    if result is None:
        return
    points, lines = result
    st.caption(f"The last comparison: {st.session_state.pf_versus_label}.")
    for column, title in (("log_prob", "log-probability of the final state"),
                          ("token_f", "token F")):
        charts.show(st, versus_chart(points, lines, column, title), f"pf_versus_{column}")
    st.dataframe(points, hide_index=True, width="stretch", column_config={
        "seconds": st.column_config.NumberColumn("engine seconds", format="%.3f"),
        "log_prob": st.column_config.NumberColumn("log-probability", format="%.1f"),
        "token_f": st.column_config.NumberColumn("token F", format="%.3f")})


def comparison_label(config):
    """What a comparison ran with, in words."""
    return (f"{MODELS[config['model']].label} on {config['corpus'].name}, "
            f"{min(config['particles'], online_vs_batch.PARTICLES)} particles, threshold "
            f"{config['threshold']}, {config['resampling']} resampling, seed {config['seed']}")


def corpus_problem():
    """Why the sidebar gives no corpus, in words: no file uploaded yet, or what is wrong with
    the uploaded one, and the format expected (the other sources say why in the sidebar)."""
    kind = PICKER.data
    expected = (f"The comparison needs a corpus. Upload {' or '.join(kind.formats.values())} "
                f"(a .{' or .'.join(kind.suffixes)} file), or choose another corpus in the "
                "sidebar.")
    file = st.session_state.get(f"{KEY}_upload")
    if st.session_state.get(f"{KEY}_source") != "upload":
        return "The corpus chosen in the sidebar cannot be used: its message there says why."
    if file is None:
        return f"No file has been uploaded yet. {expected}"
    try:
        kind.read(file.getvalue(), file.name)
    except CorpusError as err:
        return f"{plain(file.name)} cannot be read: {plain(str(err).rstrip('.'))}. {expected}"
    return f"{plain(file.name)} cannot be used: its message in the sidebar says why. {expected}"


def comparison_problem(config):
    """Why the comparison cannot run with the sidebar's settings, in words (None: it can)."""
    if config is None:
        return corpus_problem()
    try:
        moves = population_of(config).rejuvenation_moves
    except ValueError as err:
        return (f"{MODELS[config['model']].label} cannot be built on {config['corpus'].name}: "
                f"{err}.")
    if not moves:
        return (f"{MODELS[config['model']].label}: its particles take no moves, and the batch "
                "chains are made of such moves. Choose a model whose particles take them in "
                "the sidebar.")
    return None


# --- the page ---------------------------------------------------------------------------------
prologue("Particle filter",
         "Word segmentation learned online: N weighted particles read the utterances once, in "
         "order, each drawing a segmentation from its own frozen model (Börschinger & Johnson "
         "2011; rejuvenation: 2012).")
SETTINGS.restore()
filter_config = settings()
follow_settings(filter_config)
live_tab, table_tab, versus_tab = st.tabs(["The filter", "Table 1", "Online against batch"])
with live_tab:
    if "pf_race" in st.session_state:
        playback.controls(KEY, on_reset=lambda: start(st.session_state.pf_config), wording=STEP)
        st.checkbox("Weights on a log scale", key="pf_logw")
        playback.live(KEY, draw_filter)
        evaluation(st.session_state.pf_race)
    formulas()
    lesson_text()
with table_tab:
    table_one(filter_config)
with versus_tab:
    online_against_batch(filter_config)
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
