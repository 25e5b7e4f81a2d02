"""The Restaurants lesson's pictures and views: a restaurant drawn as HTML (tables as coloured
rounds, a dot per customer), its two representations as text, the number of tables as
customers arrive, and the note's Figure 2 (the lesson's views draw them: ``draw_restaurant``,
``draw_figure_two``).

The restaurant is HTML, not a chart: Streamlit replaces a markdown element's content in place,
so the picture changes on every tick without being mounted anew (no blank frame).
"""
import html

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from plotly.colors import qualitative

from engine.core.table_expectations import expected_tables_digamma
from engine.experiments import table_figure
from engine.models.bigram.model import BigramModel
from engine.report.plots import style
from ui import prose
from ui.charts import show

ALPHA_NAMES = tuple(f"{a:g}" for a in table_figure.ALPHAS)  # as the address writes them
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


def draw_restaurant(arrivals, config, names, chart_key):
    """The restaurant ``arrivals`` fills (``config``: its α, d and customers; ``names``: its
    dishes): its counts, the picture, both representations, and its tables as customers
    arrived."""
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
         chart_key)


@st.cache_data(max_entries=8, show_spinner="Sampling seatings for Figure 2…")
def figure_data(corpus, samples):
    """Figure 2's lines (the expectations) and points (sampled tables: a fixed base, and the
    HDP bigram model's) on ``corpus``, ``samples`` sweeps a point."""
    counts = table_figure.word_counts(corpus.sentences)
    return (table_figure.lines(counts),
            table_figure.points(BigramModel, corpus.sentences, samples=samples))


def draw_figure_two(corpus, samples, alphas_key, chart_key, look_for):
    """The note's Figure 2 on ``corpus``: E[t_w] by each approximation against the sampled
    tables (``samples`` sweeps a point), for the α chosen in the multiselect keyed
    ``alphas_key``, and under it what to look for (Markdown)."""
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
                            format_func=lambda a: f"{float(a):,.0f}", key=alphas_key)
    lines, points = figure_data(corpus, samples)
    if not alphas:
        st.info("Choose at least one α.")
        return
    show(st, figure_two(lines, points, [float(a) for a in alphas]), chart_key)
    st.caption("Lines: E[t_w] for a restaurant with a fixed base — **solid** exact "
               "(α P(w) (ψ(α P(w) + n_w) − ψ(α P(w))), the same as the exact sum), **dashed** "
               "Antoniak's approximation, **dotted** GGJ06's approximation (Antoniak's without "
               "P(w)). Points: mean tables of the words of each frequency over "
               f"{samples} Gibbs sweeps of the seating — **stars** with "
               "the fixed base, **circles** in the HDP bigram model on these words (α₁ = α, "
               "α₀ = 3,000, p# = 0.2), whose base P₁ is inferred from the tables. Both are "
               "sampled: a star estimates the solid line and lies on it only within its "
               "sampling error, the bar of ±2 standard errors through it (from "
               f"{table_figure.RUNS} independent chains), which about 9 bars in 10 cross. A "
               "star of one frequent word is the least certain: at α = 100 and 200 sweeps it "
               "is typically 10–15% off the line; more samples per point narrow the bars. "
               "Hover a point for how many words it averages.")
    prose.show(look_for)
