"""The HMM estimators lesson's grid (Gao & Johnson 2008): their Figures 2–5 from a grid of runs
on Dask in the background (engine.experiments.gao_johnson), and the controls' wording for
estimators that iterate. The lesson's text and equations are Markdown beside its page."""
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
