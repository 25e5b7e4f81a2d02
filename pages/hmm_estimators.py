"""HMM estimators (Gao & Johnson 2008): EM, variational Bayes and four Gibbs samplers of the
Bayesian HMM side by side from the same start, and their Figures 2–5 on a grid of (α, α′).

Widgets and plots only; every number comes from engine.run (the estimators are registered
samplers) and engine.experiments.gao_johnson; the model's settings are its options (ui/models).
"""
import pandas as pd
import streamlit as st

from engine.experiments import gao_johnson
from engine.models.hmm.model import HmmModel
from ui import charts, exercises, gj_figures, playback, race_page
from ui.kinds.registry import picker_of
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting
from ui.theme import label

KEY = "gj"
MAX_ITERATIONS = 5_000
PICKER = picker_of(HmmModel)
OPTIONS = ModelOptions((HmmModel,))
COMBINATIONS = [f"{a:g}, {b:g}" for a, b in gao_johnson.COMBINATIONS]
AXES = {"sweep": "iterations", "seconds": "engine time"}
MEASURES = (("acc_many_to_one", "many-to-one accuracy", True),
            ("acc_one_to_one", "greedy 1-to-1 accuracy", True),
            ("acc_cross_validation", "cross-validation accuracy", True),
            ("vi", "variation of information (bits)", False))
# the standings' numbers as a Styler writes them: Streamlit's own formats write a missing one
# (EM's and VB's objective at iteration 0) "None", a Styler "—"
FORMATS = {"engine s": "{:.2f}", "ms / iteration": "{:.2f}", "value": "{:,.1f}",
           "log p(tags, words)": "{:,.1f}"}
OBJECTIVES = {"likelihood": "log p(words | θ)", "bound": "bound F",
              "log-probability": "log p(tags, words)"}


# measured on the built-in corpus (2,062 tokens, K = 15) from η = 0 — each state drawn uniformly
# at random, their "randomly jittered" start; each name's claim is checked by
# tests/app/test_preset_claims.py
BUILTIN = dict(source="builtin", n_states=None, eta=0.0, seed=0, alpha=0.1, alpha_emit=0.1,
               decode="posterior", samplers=gao_johnson.ESTIMATORS, passes=200)
PRESETS = {
    # η = 1: VB never leaves state 1 and EM uses 2 states, TOKEN all 15 within 50 iterations
    "EM and VB stay put from one tag (η = 1)": dict(BUILTIN, eta=1.0, passes=50,
                                                    samplers=("em", "vb", "token")),
    # after 200: VB's one-state tagging has VI 3.24 bits, explicit TOKEN's 3.58, though VB's
    # 1-to-1 accuracy is 20.5% against 51.3% (their warning about VI)
    "VI prefers a one-tag tagger (η = 1)": dict(BUILTIN, eta=1.0,
                                                samplers=("vb", "explicit-token", "token")),
    # from η = 0, TOKEN's log p is above explicit TOKEN's at every one of the 200 iterations:
    # −10,429 against −10,494 at the end (their 1-to-1 accuracies, 46.2% and 48.9%, cross over
    # other seeds)
    "TOKEN beats explicit TOKEN on a small corpus": dict(
        BUILTIN, samplers=("explicit-token", "token")),
}
SETTINGS = PageSettings(KEY, (
    *PICKER.settings,
    Setting("samplers", gao_johnson.ESTIMATORS, tuple, "the estimators",
            choices=gao_johnson.ESTIMATORS),
    Setting("eta", 0.0, float, "η", 0.0, 1.0),
    Setting("passes", 200, int, "the number of iterations", 1, MAX_ITERATIONS),
    race_page.seconds_setting(),
    Setting("seed", 0, int, "the seed", 0, race_page.MAX_SEED),
    *OPTIONS.settings(),
    Setting("axis", "sweep", str, "the x axis", choices=tuple(AXES)),
    *playback.SETTINGS,
), PRESETS)


def choose_combination():
    """One of their eight (α, α′) sets both number inputs."""
    picked = st.session_state.get("gj_combination")
    if picked in COMBINATIONS:
        alpha, alpha_emit = (float(x) for x in picked.split(", "))
        SETTINGS.apply({"alpha": alpha, "alpha_emit": alpha_emit})


def settings():
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(KEY)
        st.multiselect("Estimators", gao_johnson.ESTIMATORS, format_func=label, key="gj_samplers")
        st.number_input("η — share of tokens starting in state 1", 0.0, 1.0, step=0.1,
                        key="gj_eta", help="the rest start in uniformly random states; η = 0 "
                                           "gives EM and VB Gao & Johnson's randomly jittered "
                                           "uniform start")
        race_page.length_input(KEY, "Iterations per run", 1, MAX_ITERATIONS)
        st.number_input("Seed", 0, race_page.MAX_SEED, key="gj_seed")
        with st.expander("Model settings (K, α, α′, decoding)", expanded=True):
            st.selectbox("Their eight combinations", COMBINATIONS, index=None,
                         key="gj_combination", on_change=choose_combination,
                         placeholder="(α, α′) from Gao & Johnson's grid…")
            options = OPTIONS.widgets(SETTINGS, HmmModel)
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    config = race_page.race_config(KEY, corpus, hyperparameters=options, skip=True)
    return corpus, config


def make_model(corpus, config):
    return build_model(HmmModel.name, corpus, config["hyperparameters"])


def standings(race):
    """Where each estimator stands now: one row each; accuracies in percent, as the tiles."""
    rows = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        done = max(run.sweeps_done, 1)
        rows.append({"estimator": label(name), "paper": gao_johnson.PAPER_NAMES[name],
                     "iteration": run.sweeps_done, "engine s": run.seconds,
                     "ms / iteration": 1000 * run.seconds / done,
                     "objective": OBJECTIVES[last["objective_kind"]],
                     "value": last["objective"], "log p(tags, words)": last["loglik"],
                     **{column_title(column, title, fraction):
                        last.get(column) * (100 if fraction and column in last else 1)
                        for column, title, fraction in MEASURES if column in last}})
    return pd.DataFrame(rows).set_index("estimator")


def column_title(column, title, fraction):
    """A measure's column in the standings: a fraction is shown in percent, as the tiles do."""
    return f"{title} (%)" if fraction else title


def tile(name, run, has_gold):
    """(label, value, help, what) of an estimator's tile: its greedy 1-to-1 accuracy in percent
    (the standings' column of that name), or its log p(tags, words) without gold tags."""
    last = run.trace[-1]
    help_text = (f"log p(tags, words) = {last['loglik']:,.1f}; engine time "
                 f"{run.seconds:,.2f} s")
    if has_gold:
        return (f"{label(name)} · iteration {run.sweeps_done:,}",
                f"{last['acc_one_to_one']:.1%}", help_text, "1-to-1 accuracy")
    return (f"{label(name)} · iteration {run.sweeps_done:,}", f"{last['loglik']:,.0f}",
            help_text, "log p(tags, words)")


def draw_race(race):
    has_gold = "acc_one_to_one" in next(iter(race.runs.values())).trace[-1]
    race_page.metric_row([tile(name, run, has_gold) for name, run in race.runs.items()])
    x = st.session_state.gj_axis or "sweep"  # a segmented control can be cleared
    x_title = "iterations" if x == "sweep" else "engine time (s)"
    reach = 0.01 if x == "seconds" else None
    left, right = st.columns(2)
    charts.show_traces(left, race, "loglik", "log p(tags, words)",
                       "Log-probability of the tagging", "gj_chart_loglik", x=x,
                       x_title=x_title, x_reach=reach)
    charts.show_traces(right, race, "objective", "objective (natural log)",
                       "Each one's objective", "gj_chart_objective", x=x, x_title=x_title,
                       x_reach=reach)
    right.caption("EM: the likelihood log p(words | θ); VB: its bound F ≤ log p(words); the "
                  "samplers: log p(tags, words), as on the left.")
    if has_gold:
        for row in (MEASURES[:2], MEASURES[2:]):
            for col, (column, title, fraction) in zip(st.columns(2), row):
                charts.show_traces(col, race, column, title, title[0].upper() + title[1:],
                                   f"gj_chart_{column}", x=x, x_title=x_title, x_reach=reach,
                                   y_domain=[0, 1] if fraction else None)
    table = standings(race)
    formats = {**FORMATS, **{column_title(*measure): "{:.1f}" if measure[2] else "{:.3f}"
                             for measure in MEASURES}}
    st.dataframe(table.style.format({c: f for c, f in formats.items() if c in table},
                                    na_rep="—"))


# --- the page ---------------------------------------------------------------------------------
prologue("HMM estimators",
         "Gao & Johnson (2008) compare six ways to fit the Bayesian HMM tagger: EM, variational "
         "Bayes, and Gibbs samplers that are explicit (they sample the probabilities θ, φ) or "
         "collapsed (they integrate them out), pointwise (a token at a time) or blocked (a "
         "sentence at a time). Here all six start from the same tagging. An iteration is one "
         "E- and M-step, or one pass over the corpus.")
SETTINGS.restore()
corpus, config = settings()
warm_samplers(HmmModel, config["samplers"])
race_page.follow_settings(KEY, corpus, config, make_model)

if "gj_race" in st.session_state:
    race = st.session_state.gj_race
    shown = st.session_state.gj_corpus
    model = next(iter(race.runs.values())).model
    st.caption(f"**{shown.name}**: {len(shown.sentences):,} sentences, {shown.n_tokens:,} tokens, "
               f"{len(shown.tag_set):,} gold tags; K = {model.n_states}, "
               f"(α, α′) = ({model.alpha:g}, {model.alpha_emit:g}).")
    playback.controls(KEY, on_reset=lambda: race_page.restart(KEY, make_model),
                      wording=gj_figures.WORDING)
    st.segmented_control("x axis", list(AXES), format_func=AXES.get, key="gj_axis")
    playback.live(KEY, draw_race)
    gj_figures.formulas(model)
    gj_figures.lesson()
    gj_figures.grid_section(model, st.session_state.gj_config)
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
