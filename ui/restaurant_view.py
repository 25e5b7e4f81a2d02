"""The Restaurants lesson's pictures: a restaurant drawn as HTML (tables as coloured rounds, a
dot per customer), its two representations as text, the number of tables as customers arrive,
and the note's Figure 2.

The restaurant is HTML, not a chart: Streamlit replaces a markdown element's content in place,
so the picture changes on every tick without being mounted anew (no blank frame).
"""
import html

import altair as alt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

from engine.core.table_expectations import expected_tables_digamma
from engine.experiments.table_figure import FORMULAS
from ui.theme import layout

DISH_COLOURS = qualitative.Pastel + qualitative.Set3
DOTS_SHOWN = 30  # customers drawn at one table; a bigger table says how many more
ALPHA_COLOURS = {100.0: "#1f77b4", 1_000.0: "#2ca02c", 10_000.0: "#ff7f0e", 100_000.0: "#d62728"}
DASHES = {"exact": "solid", "antoniak": "dash", "flawed": "dot"}


def dish_colour(w):
    return DISH_COLOURS[w % len(DISH_COLOURS)]


def restaurant_html(arrivals, dish_names):
    """Every open table in the order it opened: its dish, its size and a dot per customer (the
    newest customer's dot ringed)."""
    newest = arrivals.customers - 1
    rounds = []
    for dish, customers in arrivals.table_list():
        dots = "".join(
            f"<span class='tb-dot{' tb-new' if c == newest else ''}'></span>"
            for c in customers[:DOTS_SHOWN])
        more = (f"<span class='tb-more'>+{len(customers) - DOTS_SHOWN}</span>"
                if len(customers) > DOTS_SHOWN else "")
        rounds.append(f"<div class='tb-table' style='background:{dish_colour(dish)}'>"
                      f"<b>{html.escape(dish_names[dish])}</b><small>{len(customers)}</small>"
                      f"<div class='tb-dots'>{dots}{more}</div></div>")
    if not rounds:
        rounds.append("<p class='tb-empty'>No one has arrived yet: press Step or Play.</p>")
    return RESTAURANT_CSS + "<div class='tb-room'>" + "".join(rounds) + "</div>"


RESTAURANT_CSS = """<style>
.tb-room { display: flex; flex-wrap: wrap; gap: 10px; min-height: 120px; }
.tb-table { width: 96px; height: 96px; border-radius: 50%; display: flex;
  flex-direction: column; align-items: center; justify-content: center;
  border: 2px solid rgba(0,0,0,0.25); font-size: 0.8rem; line-height: 1.1; }
.tb-table small { color: #333; }
.tb-dots { display: flex; flex-wrap: wrap; justify-content: center; width: 66px; gap: 2px;
  margin-top: 3px; }
.tb-dot { width: 7px; height: 7px; border-radius: 50%; background: #333; }
.tb-dot.tb-new { background: #d62728; box-shadow: 0 0 0 2px #fff, 0 0 0 3px #d62728; }
.tb-more { font-size: 0.65rem; }
.tb-empty { color: #666; }
</style>"""


def histogram_text(arrivals, dish_names):
    """The histogram representation, as the note's Fig. 3 writes it:
    dish: {table size: number of tables}."""
    view = arrivals.histogram_view()
    if not view:
        return "{}"
    return "\n".join(f"{dish_names[w]}: {{{', '.join(f'{s}: {m}' for s, m in bins.items())}}}"
                     for w, bins in view.items())


def explicit_text(arrivals, dish_names, last=8):
    """The explicit representation's two maps for the newest customers: customer → table and
    table → dish (tables numbered in the order they opened, from 1)."""
    tables = arrivals.table_list()
    table_of = {c: i + 1 for i, (_, customers) in enumerate(tables) for c in customers}
    shown = range(max(0, arrivals.customers - last), arrivals.customers)
    seats = ", ".join(f"{c + 1}: {table_of[c]}" for c in shown)
    dishes = ", ".join(f"{i + 1}: {dish_names[dish]}" for i, (dish, _) in enumerate(tables))
    more = "…, " if arrivals.customers > last else ""
    return f"customer → table  {{{more}{seats}}}\ntable → dish      {{{dishes}}}"


def tables_path(history, alpha, discount, total):
    """Tables against customers so far, with E[T] of a DP (fixed base) when d = 0. The spec
    depends on the settings only (``total``, whether d = 0), so play swaps the data in place."""
    n = np.arange(1, len(history) + 1)
    ours = "this restaurant"
    frame = pd.DataFrame({"customers": n, "tables": history, "what": ours})
    lines, colours, dashes = [ours], ["#d62728"], [[1, 0]]
    if discount == 0.0:
        expected = "E[T] of a DP: α(ψ(α+n) − ψ(α))"
        frame = pd.concat([frame, pd.DataFrame({
            "customers": n, "tables": expected_tables_digamma(alpha, n), "what": expected})],
            ignore_index=True)
        lines, colours, dashes = lines + [expected], colours + ["#7f7f7f"], dashes + [[5, 3]]
    return alt.Chart(frame).mark_line(interpolate="step-after").encode(
        x=alt.X("customers:Q", scale=alt.Scale(domain=[0, total]), title="customers n"),
        y=alt.Y("tables:Q", title="tables T"),
        color=alt.Color("what:N", title=None, scale=alt.Scale(domain=lines, range=colours),
                        legend=alt.Legend(orient="bottom-right", labelLimit=400)),
        strokeDash=alt.StrokeDash("what:N", legend=None,
                                  scale=alt.Scale(domain=lines, range=dashes)),
    ).properties(height=230)


def figure_two(lines, points, alphas):
    """Log–log: expected tables against frequency; lines by formula, stars and circles by
    sampler, a colour per α."""
    fig = go.Figure()
    for alpha in alphas:
        colour = ALPHA_COLOURS.get(alpha, "#333")
        for formula, dash in DASHES.items():
            part = lines[(lines.alpha == alpha) & (lines.formula == formula)]
            fig.add_trace(go.Scatter(
                x=part.frequency, y=part.tables, mode="lines", line=dict(color=colour, dash=dash,
                                                                         width=1.6),
                name=f"α = {alpha:,.0f}: {FORMULAS[formula]}", legendgroup=f"{alpha}",
                showlegend=formula == "exact"))
        for kind, symbol in (("fixed base", "star"), ("inferred base (bigram)", "circle-open")):
            part = points[(points.alpha == alpha) & (points.kind == kind)]
            fig.add_trace(go.Scatter(
                x=part.frequency, y=part.tables, mode="markers", legendgroup=f"{alpha}",
                marker=dict(symbol=symbol, color=colour, size=7 if symbol == "star" else 6),
                name=f"α = {alpha:,.0f}: {kind}", showlegend=False,
                customdata=part.words,
                hovertemplate="frequency %{x}: mean tables %{y:.2f} over %{customdata} words"
                              f"<extra>α = {alpha:,.0f}, {kind}</extra>"))
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log")
    layout(fig, x="word frequency n_w", y="tables t_w", height=480)
    # the curves rise to the right: the legend goes where they are low
    return fig.update_layout(legend=dict(yanchor="top", y=0.98, xanchor="left", x=0.01))
