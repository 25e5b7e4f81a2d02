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
from plotly.colors import qualitative

from engine.report.plots import style
from engine.core.table_expectations import expected_tables_digamma

DISH_COLOURS = qualitative.Pastel + qualitative.Set3
DOTS_SHOWN = 30  # customers drawn at one table; a bigger table says how many more
ALPHA_COLOURS = {100.0: "#1f77b4", 1_000.0: "#2ca02c", 10_000.0: "#ff7f0e", 100_000.0: "#d62728"}
DASHES = {"exact": [1, 0], "antoniak": [6, 3], "flawed": [1, 3]}  # solid, dashed, dotted
LINE_NAMES = {"exact": "exact (digamma)", "antoniak": "Antoniak", "flawed": "GGJ06"}
# Vega has no star symbol: a five-pointed one as an SVG path in the unit square
STAR = ("M0,-1L0.24,-0.32L0.95,-0.31L0.38,0.12L0.59,0.81L0,0.4L-0.59,0.81L-0.38,0.12"
        "L-0.95,-0.31L-0.24,-0.32Z")
# each kind of sampled point: its name in the legend and its shape
SHAPES = {"fixed base": ("fixed base", STAR),
          "inferred base (bigram)": ("bigram model", "circle")}


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
    chart = alt.Chart(frame).mark_line(interpolate="step-after").encode(
        x=alt.X("customers:Q", scale=alt.Scale(domain=[0, total]), title="customers n"),
        y=alt.Y("tables:Q", title="tables T"),
        color=alt.Color("what:N", title=None, scale=alt.Scale(domain=lines, range=colours),
                        legend=alt.Legend(orient="bottom-right", labelLimit=400)),
        strokeDash=alt.StrokeDash("what:N", legend=None,
                                  scale=alt.Scale(domain=lines, range=dashes)),
    )
    return style(chart, "Tables against customers so far", 230)


def figure_two(lines, points, alphas):
    """Log–log: expected tables against frequency; a colour per α, a dash per formula, a shape
    per kind of sampled point, each of the three explained in a legend."""
    names = {alpha: f"{alpha:,.0f}" for alpha in alphas}
    colour = alt.Color("alpha:N", title="α", sort=list(names.values()), scale=alt.Scale(
        domain=list(names.values()), range=[ALPHA_COLOURS.get(a, "#333") for a in alphas]),
        legend=alt.Legend(columns=4, orient="top"))
    x = alt.X("frequency:Q", title="word frequency n_w", scale=alt.Scale(type="log", nice=False),
              axis=decade_axis(1, lines.frequency.max()))
    tables = pd.concat([lines.tables, points.tables])
    y = alt.Y("tables:Q", title="tables t_w", scale=alt.Scale(type="log", nice=False),
              axis=decade_axis(tables[tables > 0].min(), tables.max()))
    shown = lines[lines.alpha.isin(alphas)]
    curves = alt.Chart(shown.assign(alpha=shown.alpha.map(names),
                                    formula=shown.formula.map(LINE_NAMES))).mark_line(
        strokeWidth=1.8).encode(
        x=x, y=y, color=colour,
        strokeDash=alt.StrokeDash("formula:N", title="lines: E[t_w]",
                                  scale=alt.Scale(domain=[LINE_NAMES[f] for f in DASHES],
                                                  range=list(DASHES.values())),
                                  legend=alt.Legend(columns=1, symbolStrokeWidth=2,
                                                    symbolSize=400)),
        tooltip=[alt.Tooltip("alpha:N", title="α"), "formula:N",
                 alt.Tooltip("frequency:Q", format=","),
                 alt.Tooltip("tables:Q", format=",.2f")])
    sampled = points[points.alpha.isin(alphas)]
    kinds = {kind: name for kind, (name, _) in SHAPES.items()}
    dots = alt.Chart(sampled.assign(alpha=sampled.alpha.map(names),
                                    kind=sampled.kind.map(kinds))).mark_point(
        size=60, strokeWidth=1.6).encode(
        x=x, y=y, color=colour,
        shape=alt.Shape("kind:N", title="points: sampled",
                        scale=alt.Scale(domain=[name for name, _ in SHAPES.values()],
                                        range=[shape for _, shape in SHAPES.values()]),
                        legend=alt.Legend(columns=1, symbolStrokeColor="#333")),
        tooltip=[alt.Tooltip("alpha:N", title="α"), "kind:N",
                 alt.Tooltip("frequency:Q", format=","),
                 alt.Tooltip("tables:Q", format=",.2f", title="mean tables"),
                 alt.Tooltip("words:Q", format=",", title="words averaged")])
    # α's legend above the plot, the other two below it: three side by side ran past a
    # phone's edge, and inside the plot they hid curves
    return style(alt.layer(curves, error_bars(sampled, names, x, colour), dots),
                 "Tables against frequency (log–log)", 380)


def error_bars(sampled, names, x, colour):
    """±2 standard errors around each point that has one (the stars), in its α's colour; on
    the log axis a bar's lower end stays above 0."""
    bars = sampled.loc[sampled.error > 0, ["alpha", "frequency", "tables", "error"]]
    bars = bars.assign(alpha=bars.alpha.map(names),
                       low=np.maximum(bars.tables - 2 * bars.error, bars.tables / 10),
                       high=bars.tables + 2 * bars.error)
    return alt.Chart(bars).mark_rule(strokeWidth=1.2).encode(
        x=x, y=alt.Y("low:Q", title="tables t_w", scale=alt.Scale(type="log", nice=False)),
        y2="high:Q", color=colour,
        tooltip=[alt.Tooltip("frequency:Q", format=","),
                 alt.Tooltip("tables:Q", format=",.2f", title="mean tables"),
                 alt.Tooltip("error:Q", format=",.3f", title="standard error")])


def decade_axis(low, high):
    """A log axis labelled at its powers of ten only (1, 10, 100, 1,000, …): every tick
    labelled showed leading digits alone ("2, 100, 5, 2, 10")."""
    decades = 10.0 ** np.arange(np.floor(np.log10(low)), np.ceil(np.log10(high)) + 1)
    return alt.Axis(values=decades.tolist(), format=",~g")
