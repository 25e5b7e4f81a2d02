"""The HMM estimators lesson's text, equations and grid (Gao & Johnson 2008): what each estimator
is, their update equations with the page's numbers, and their Figures 2–5 from a grid of runs
on Dask in the background (engine.experiments.gao_johnson)."""
import hashlib
import pickle

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.report.plots import style
from engine.experiments import gao_johnson
from engine.grid import BuiltModel
from ui import charts, playback
from ui.cluster import show_where_grids_run, start_grid
from ui.grid_progress import GridShelf
from ui.theme import EXACT_COLOUR, label

WORDING = playback.Wording(
    step="iteration", step_help="one iteration of every estimator",
    speed="Speed: iterations per second, each estimator",
    finished="The run has reached its {total:,} iterations: raise **Iterations per run** to "
             "go on, or **Reset** to watch it again.")
GRID_ESTIMATORS = gao_johnson.ESTIMATORS


def formulas(model):
    """Each estimator's update (their eqs. 2–7 and Fig. 1) with the page's K, V, α, α′."""
    k, v = model.n_states, len(model.vocabulary)
    with st.expander("The six estimators' equations", icon=":material/function:"):
        st.markdown(f"The HMM (their eq. 1): state t_i follows t_(i−1) with probability "
                    f"θ_(t_i | t_(i−1)) and emits word w_i with probability φ_(w_i | t_i); every "
                    f"sentence starts and ends in the boundary state 0. Priors θ_t ~ Dir(α) "
                    f"over the K + 1 = {k + 1} next states, φ_t ~ Dir(α′) over the V = {v:,} "
                    f"words; here α = {model.alpha:g}, α′ = {model.alpha_emit:g}.")
        st.markdown("**EM** (eq. 2): forward-backward gives the expected counts under the "
                    "current parameters; the new parameters are their ratios.")
        st.latex(r"\theta^{(\ell+1)}_{t'\mid t} = \frac{E[n_{t',t}]}{E[n_t]}\qquad"
                 r"\phi^{(\ell+1)}_{w\mid t} = \frac{E[n'_{w,t}]}{E[n_t]}")
        st.markdown("**Variational Bayes** (eq. 4): the same E-step, and an M-step through "
                    "f(v) = exp ψ(v), ψ the digamma function: the weights no longer sum to 1, "
                    "and rare events are pushed down harder than by EM.")
        st.latex(r"\tilde\theta^{(\ell+1)}_{t'\mid t} = \frac{f(E[n_{t',t}] + \alpha)}"
                 r"{f(E[n_t] + m\alpha)}\qquad\tilde\phi^{(\ell+1)}_{w\mid t} = "
                 r"\frac{f(E[n'_{w,t}] + \alpha')}{f(E[n_t] + m'\alpha')}")
        st.markdown(f"(m = K + 1 = {k + 1} outcomes of a transition here, the boundary "
                    f"included; m′ = V.) The trace's objective for VB is the bound it raises "
                    "(eq. 3), log p(words) ≥ F = log Z̃ − KL(q(θ, φ) ‖ p(θ, φ)), with Z̃ the "
                    "forward algorithm's sum under θ̃, φ̃: it never falls.")
        st.latex(r"\log P(w) \;\ge\; F = \log \tilde Z - \mathrm{KL}\big(\mathrm{Dir}(E[n]+"
                 r"\alpha)\,\big\|\,\mathrm{Dir}(\alpha)\big)")
        st.markdown("**Explicit Gibbs** (eqs. 5–6): each iteration first draws the parameters "
                    "from their Dirichlet posteriors given the current tags, then, holding them "
                    "fixed, each tag given its neighbours (pointwise, GSe,p) or each sentence's "
                    "tags by forward filtering, backward sampling (blocked, GSe,b).")
        st.latex(r"\theta_t \mid n_t \sim \mathrm{Dir}(n_t + \alpha)\quad"
                 r"\phi_t \mid n'_t \sim \mathrm{Dir}(n'_t + \alpha')\qquad"
                 r"P(t_i \mid w_i, t_{-i}, \theta, \phi) \propto \theta_{t_i\mid t_{i-1}}\,"
                 r"\phi_{w_i\mid t_i}\,\theta_{t_{i+1}\mid t_i}")
        st.markdown("**Collapsed Gibbs** integrates θ and φ out. Pointwise (GSc,p = TOKEN, "
                    "their Fig. 1) with the counts n of every other token:")
        st.latex(r"P(t_i \mid w, t_{-i}) \propto \frac{n'_{w_i,t_i} + \alpha'}{n_{t_i} + "
                 r"m'\alpha'}\;\frac{n_{t_i,t_{i-1}} + \alpha}{n_{t_{i-1}} + m\alpha}\;"
                 r"\frac{n_{t_{i+1},t_i} + I(t_{i-1} = t_i = t_{i+1}) + \alpha}"
                 r"{n_{t_i} + I(t_{i-1} = t_i) + m\alpha}")
        st.markdown("Blocked (GSc,b = SENTENCE) proposes a sentence's tags from the proposal "
                    "HMM of the other sentences' counts (eq. 7) by forward filtering, backward "
                    "sampling, and accepts by Metropolis-Hastings.")
        st.latex(r"\theta'_{t'\mid t} = \frac{n_{t',t} + \alpha}{n_t + m\alpha}\qquad"
                 r"\phi'_{w\mid t} = \frac{n'_{w,t} + \alpha'}{n_t + m'\alpha'}")


def lesson():
    st.markdown(
        "#### What to look for\n"
        "- **EM and VB are deterministic.** From a start they climb to the nearest fixed point "
        "and stay; only the start (η, the seed) changes where. From η = 1 (every token in "
        "state 1) the K − 1 empty states have identical parameters and no E-step can tell them "
        "apart: EM and VB stay with a handful of states (the preset *EM and VB stay put*). "
        "η = 0 draws every token's state at random, which gives them Gao & Johnson's "
        "randomly jittered uniform start.\n"
        "- **VB converges fastest** (their Fig. 5: 20 iterations against EM's 125 and the "
        "collapsed samplers' thousands). exp ψ(n + α) is about n + α − ½: VB's M-step "
        "subtracts about half a count from every event, so rare transitions and emissions "
        "die at once and the parameters lock into a sparse solution within a few iterations. "
        "The samplers keep moving by design: they sample the posterior, they do not climb it.\n"
        "- **Explicit samplers are cheaper per iteration on large data**; on small data the "
        "draw is much of their cost. An explicit iteration draws the K × V emission "
        "probabilities (a Gamma variate each) and then needs only products per token; a "
        "collapsed one updates counts and divides at every token. Measured on 25,147 tokens "
        "of English (EWT, K = 17, V = 5,494) from η = 0, per iteration: TOKEN 1.5 ms, "
        "explicit TOKEN 2.0 ms, of which 1.0 ms drawing the 94,000 probabilities; SENTENCE "
        "4.3 ms, explicit SENTENCE 3.9 ms; EM 7.5 ms, VB 10.0 ms (docs/benchmarks.md). The "
        "vocabulary grows more slowly than the corpus, so on their 1.2 million words the draw "
        "is a small share and the explicit samplers win (4.4 s against 7.5 s per iteration, "
        "their Fig. 6).\n"
        "- **What the measures reward.** Many-to-one maps each state to its most frequent gold "
        "tag (more states never hurt it); greedy 1-to-1 allows one state per tag; "
        "cross-validation learns the many-to-one map on the first half of the sentences and "
        "scores the second. Variation of information needs no map at all — and, as they warn, "
        "a tagger that gives every word the same tag scores disturbingly well on it: one "
        "state is one cluster, and VI then only pays the gold tags' entropy.\n"
        "- **The conclusions depend on corpus size and the number of states.** On 24,000 "
        "words every Bayesian estimator beat EM on every measure; on the whole WSJ EM was "
        "competitive in cross-validation accuracy, and which estimator won changed with K "
        "(their Figs. 2–5). The grid below runs their comparison on this page's corpus.\n"
        "- **Measured on a corpus of their 24K × 17 size** (EWT, 25,147 tokens of English, "
        "UPOS, K = 17; 1,000 iterations × 3 starts × their eight (α, α′), `python -m engine "
        "gj-grid`): two of their findings hold — VB converges in the fewest iterations (18; EM "
        "48, the samplers 32–84) and EM has the worst VI (5.83 bits; the others 4.08–4.24). "
        "The third does not as they state it: TOKEN has the best cross-validation accuracy "
        "(48.5%), but all four samplers lie within 0.7 points of one another, where theirs put "
        "the collapsed samplers 22–25 points above the explicit ones. Both Bayesian families "
        "beat EM and VB there by 7–9 points. Corpus and tags differ (EWT's universal tags "
        "against the WSJ's 17 coarse ones), and their collapsed samplers ran for tens of "
        "thousands of iterations.")


# --- their Figures 2–5 on a grid ----------------------------------------------------------------
GRIDS = GridShelf("gj_grid")
OURS_COLOUR, THEIRS_COLOUR = "#00798c", "#b0b0b0"
FIGURE_HEIGHT = 220


def grid_settings(model, config, iterations, starts, chosen):
    """What a grid runs with, as a key (its corpus and model settings digested) and in words."""
    corpus = hashlib.sha256(pickle.dumps((config["corpus"], config["hyperparameters"])))
    key = (corpus.hexdigest(), iterations, starts, tuple(chosen), config["seed"])
    words = (f"{iterations:,} iterations × {starts} start{'s' if starts > 1 else ''}, "
             f"{', '.join(gao_johnson.PAPER_NAMES[e] for e in chosen)}; "
             f"{config['corpus'].name}, K = {model.n_states}, seed {config['seed']}")
    return key, words


def grid_section(model, config):
    st.subheader("Their Figures 2–5 on this corpus")
    st.caption("Every estimator × their eight (α, α′) × several starts (η = 0, seeds from the "
               "page's), on Dask in the background; for each estimator and figure the best "
               "combination's mean over starts, beside their 24K-word × 17-state column (WSJ, 17 "
               "coarse tags). The command line runs the full grid: `python -m engine gj-grid "
               "--data FILE --iters 1000 --starts 3`.")
    cols = st.columns(3)
    iterations = int(cols[0].number_input("Iterations per run", 10, 5_000, value=100, step=50,
                                          key="gj_grid_iters"))
    starts = int(cols[1].number_input("Starts", 1, 10, value=1, key="gj_grid_starts"))
    chosen = cols[2].multiselect("Estimators", GRID_ESTIMATORS, default=list(GRID_ESTIMATORS),
                                 format_func=label, key="gj_grid_estimators")
    show_where_grids_run()
    settings, words = grid_settings(model, config, iterations, starts, chosen)
    total = len(chosen) * len(gao_johnson.COMBINATIONS) * starts
    row = st.container(horizontal=True)
    if GRIDS.run_button(row, f"Run the grid: {total} runs", settings, ready=bool(chosen),
                        icon=":material/grid_on:"):
        st.session_state.gj_playing = False  # the grid measures engine time: leave it the cores
        tasks = gao_johnson.grid(iterations, starts, tuple(chosen), seed=config["seed"])
        GRIDS.add(settings, words, start_grid(BuiltModel(model), tasks, rows=True),
                  context=(starts, iterations, tasks[0].window))
        st.rerun()
    GRIDS.cancel_button(row)
    GRIDS.show(settings, draw_grid)


def draw_grid(grid, slot):
    """What ``grid`` has finished, as Figures 2–5."""
    rows = grid.job.rows()
    if rows is not None:
        draw_figures(gao_johnson.means(rows), *grid.context, slot=slot)


def draw_figures(table, starts, iterations, window, slot="current"):
    """Figures 2–5, each a chart of ours beside theirs per estimator and its table, and their
    three findings; ``slot`` keeps the charts' keys apart when two grids are shown."""
    st.caption(f"Means over {starts} start(s) of {iterations:,} iterations. Converged: the "
               f"objective within 0.5% over the next {window:,} iterations (theirs: 2,000; a "
               "run that never did counts as its length, marked *).")
    for number, frame in gao_johnson.figures(table).items():
        _, title, larger = gao_johnson.FIGURES[number]
        left, right = st.columns([3, 2], vertical_alignment="center")
        charts.show(left, figure_chart(number, frame), f"gj_figure_{number}_{slot}")
        right.dataframe(figure_table(number, frame), hide_index=True)
    lines = [f"- {claim}: ours **{'yes' if ours else 'no'}**, theirs {'yes' if theirs else 'no'}"
             for claim, (ours, theirs) in gao_johnson.claims(table).items()]
    if lines:
        st.markdown("Their findings on 24K × 17, here:\n" + "\n".join(lines))


def figure_table(number, frame):
    """One figure's numbers: ours (its best (α, α′)) and theirs, per estimator."""
    def shown(value, unconverged=False):
        return f"{value:,.0f}" + ("*" if unconverged else "") if number == 5 else f"{value:.4f}"

    return pd.DataFrame({
        "estimator": frame["estimator"],
        "ours": [shown(v, u) for v, u in zip(frame["ours"], frame["unconverged"])],
        "(α, α′)": [f"({a:g}, {b:g})" for a, b in zip(frame["alpha"], frame["alpha_emit"])],
        "theirs": [shown(v) for v in frame["theirs"]]})


def figure_domain(number, values):
    """A y range holding every bar: accuracies in [0, 1]; VI from 0 to the next whole bit
    above the largest; iterations (log scale, thousands apart) a factor 2 around them."""
    column = gao_johnson.FIGURES[number][0]
    if column.startswith("acc_"):
        return [0.0, 1.0]
    if number == 5:
        return [max(float(np.min(values)) / 2, 0.5), float(np.max(values)) * 2]
    return [0.0, float(np.floor(np.max(values)) + 1)]


def figure_chart(number, frame, height=FIGURE_HEIGHT):
    """Grouped bars per estimator, ours beside theirs, titled with what is better; in Figure
    5 an unconverged mean of ours carries a *, as in its table."""
    _, title, larger = gao_johnson.FIGURES[number]
    log = number == 5
    data = pd.concat([
        pd.DataFrame({"estimator": frame["estimator"], "source": "ours", "value": frame["ours"],
                      "mark": np.where(log & (frame["unconverged"] > 0), "*", "")}),
        pd.DataFrame({"estimator": frame["estimator"], "source": "theirs (WSJ 24K × 17)",
                      "value": frame["theirs"], "mark": ""})], ignore_index=True)
    domain = figure_domain(number, data["value"])
    y = alt.Y("value:Q", title=title + (" (log scale)" if log else ""),
              scale=alt.Scale(type="log" if log else "linear", nice=False, domain=domain))
    x = alt.X("estimator:N", sort=list(frame["estimator"]), title=None,
              axis=alt.Axis(labelAngle=0))
    sources = ["ours", "theirs (WSJ 24K × 17)"]
    bars = alt.Chart(data).mark_bar().encode(
        x=x, xOffset=alt.XOffset("source:N", sort=sources), y=y,
        y2=alt.datum(domain[0]),  # on a log scale a bar has no 0 to stand on: the axis's foot
        color=alt.Color("source:N", title=None, sort=sources,
                        scale=alt.Scale(domain=sources, range=[OURS_COLOUR, THEIRS_COLOUR])),
        tooltip=["estimator:N", "source:N",
                 alt.Tooltip("value:Q", format=",.0f" if log else ".4f")])
    stars = alt.Chart(data).mark_text(dy=-8, color=EXACT_COLOUR, fontSize=14).encode(
        x=x, xOffset=alt.XOffset("source:N", sort=sources), y=y, text="mark:N")
    better = "higher" if larger else "lower"
    return style(alt.layer(bars, stars), f"Figure {number}: {title} ({better} is better)",
                 height)
