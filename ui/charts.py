"""The charts a race redraws on every tick while it plays.

They are Vega-Lite (Altair) charts, not Plotly: Streamlit keeps a Vega-Lite chart on screen and
swaps its data in place when only the data changed, whereas a Plotly figure's data is part of
the element's identity, so every tick mounted a new chart, blank until drawn (measured in the
browser: 8 of 16 screenshots blank). A chart's spec must therefore not change from tick to tick:
titles and scales here depend on the settings, never on the pass reached.

Long runs are thinned to at most MAX_ROWS rows per line (every k-th pass, the last one always
kept; engine.run.thinned), so a tick's cost does not grow with the run.
"""
import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.cli.race_plots import (CHAIN_ROWS, FONT, HEIGHT, PASS_AXIS, autocorrelations_data,
                               autocorrelations_spec, bands, chain_traces_data,
                               chain_traces_spec, sampler_scale, style)
from engine.run import thinned
from ui.theme import EXACT_COLOUR, label, state_colour

# Every mark is an SVG element the browser redraws on each tick: a heatmap of 400 passes × 60
# tokens kept the HMM page's browser so busy that Pause showed up to 1.6 s late
MAX_ROWS = 300      # points per sampler's line, per stacked area
HEATMAP_ROWS = 80   # passes per trajectory heatmap


def traces(race, column, y_title, title, x="sweep", x_title="sweeps (passes)", y_domain=None,
           x_domain=None, x_reach=None, level=None, height=HEIGHT):
    """One line per sampler of ``column`` against ``x`` from a Race's traces.

    y_domain, x_domain: fixed axis ranges (else from 0 on x, fitted on y); x_reach: the x axis
    runs at least from 0 to this (at pass 0 every run is at 0 s, an axis of one point); level:
    (value, text) of a dotted horizontal line.
    """
    names = list(race.runs)
    data = race.trace_frame(MAX_ROWS)[[x, column, "sampler"]]
    data["sampler"] = data["sampler"].map(label)
    x_scale = alt.Scale(domain=x_domain) if x_domain else alt.Scale(zero=True, nice=False)
    y_scale = alt.Scale(domain=y_domain) if y_domain else alt.Scale(zero=False)
    chart = alt.Chart(data).mark_line(strokeWidth=2.5).encode(
        x=alt.X(f"{x}:Q", title=x_title, scale=x_scale),
        y=alt.Y(f"{column}:Q", title=y_title, scale=y_scale, axis=alt.Axis(format=",.6~g")),
        color=alt.Color("sampler:N", scale=sampler_scale(names), sort=None, title=None),
        tooltip=[alt.Tooltip("sampler:N"), alt.Tooltip(f"{x}:Q", format=",.3~f"),
                 alt.Tooltip(f"{column}:Q", format=",.4~f")])
    if x_reach is not None:  # an invisible point: the spec stays the same as the data grows
        reach = alt.Chart(pd.DataFrame({x: [x_reach]})).mark_point(opacity=0)
        chart = alt.layer(chart, reach.encode(x=f"{x}:Q"))
    if level is not None:
        value, text = level
        mark = pd.DataFrame({"y": [value], "text": [text]})
        rule = alt.Chart(mark).mark_rule(strokeDash=[3, 3], color=EXACT_COLOUR).encode(y="y:Q")
        words = alt.Chart(mark).mark_text(align="right", dy=-7, color=EXACT_COLOUR, x="width",
                                          fontSize=FONT - 1).encode(y="y:Q", text="text:N")
        chart = alt.layer(chart, rule, words)
    return style(chart, title, height)


def state_scale(n_states):
    """One distinct colour per hidden state 1 … n_states, as in every chart of states."""
    states = list(range(1, n_states + 1))
    return alt.Scale(domain=states, range=[state_colour(k) for k in states])


def state_trajectories(values, tokens, words, n_states, title, height=300):
    """Tokens (columns) × passes (rows, pass 0 at the top) coloured by hidden state.

    values : list of int16 arrays, one per recorded pass, each holding every site's state
        (1 … n_states).
    tokens : int array of the token positions shown; words : their words (str).
    """
    rows = thinned(len(values), HEATMAP_ROWS)
    stride = int(rows[1] - rows[0]) if len(rows) > 1 else 1
    z = np.array([values[r][tokens] for r in rows])
    names = [f"{i}:{w}" for i, w in zip(tokens, words)]
    data = pd.DataFrame({"token": np.tile(names, len(rows)),
                         "pass": np.repeat(rows, len(tokens)),
                         "to": np.repeat(np.minimum(rows + stride, max(len(values), 1)),
                                         len(tokens)),
                         "state": z.ravel()})
    chart = alt.Chart(data).mark_rect().encode(
        x=alt.X("token:O", sort=names, title="token",
                axis=alt.Axis(labelAngle=-60, labelFontSize=9)),
        y=alt.Y("pass:Q", title="pass", scale=alt.Scale(zero=True, nice=False, reverse=True),
                axis=PASS_AXIS),
        y2="to:Q",
        color=alt.Color("state:O", scale=state_scale(n_states), legend=None),
        tooltip=["token:N", "pass:Q", "state:O"])
    return style(chart, title, height)


def state_shares(passes, shares, n_states, title, height=HEIGHT):
    """A stacked area of the share of a word's tokens in each state, pass by pass.

    passes : int array (n,) of pass numbers; shares : float array (n, n_states), the shares
    at those passes, each row summing to 1.
    """
    used = [k for k in range(n_states) if shares[:, k].any()]
    data = pd.DataFrame({"pass": np.repeat(passes, len(used)),
                         "state": np.tile(np.array(used) + 1, len(passes)),
                         "share": shares[:, used].ravel()})
    chart = alt.Chart(data).mark_area(interpolate="step-after").encode(
        x=alt.X("pass:Q", title="pass", scale=alt.Scale(zero=True, nice=False),
                axis=PASS_AXIS),
        y=alt.Y("share:Q", title="share of its tokens", stack="zero",
                scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("state:O", scale=state_scale(n_states), title="state"),
        order=alt.Order("state:O"),
        tooltip=["pass:Q", "state:O", alt.Tooltip("share:Q", format=".1%")])
    return style(chart, title, height, legend="right")


def confusion(table, states, tags, title, height=HEIGHT):
    """Tokens per (state, gold tag) as a heatmap; table : int array (len(states), len(tags))."""
    data = pd.DataFrame({"state": np.repeat(states, len(tags)), "tag": np.tile(tags, len(states)),
                         "tokens": np.asarray(table).ravel()})
    chart = alt.Chart(data).mark_rect().encode(
        x=alt.X("tag:N", sort=list(tags), title="gold tag", axis=alt.Axis(labelOverlap=False)),
        y=alt.Y("state:N", sort=list(states), title=None, axis=alt.Axis(labelOverlap=False)),
        color=alt.Color("tokens:Q", scale=alt.Scale(scheme="blues"), title="tokens"),
        tooltip=["state:N", "tag:N", "tokens:Q"])
    return style(chart, title, max(height, 16 * len(states)), legend="right")


def show(where, chart, key):
    """Draw ``chart`` in ``where`` inside a container keyed ``key``: the container is the
    chart's stable place on the page (the CSS class st-key-<key> finds it; Streamlit gives a
    Vega-Lite element itself no such class)."""
    with where.container(key=key):
        st.altair_chart(chart, key=f"{key}_plot")


def show_spec(where, spec, datasets, key):
    """Draw a Vega-Lite ``spec`` with its named ``datasets`` (frames) in ``where``, inside a
    container keyed ``key`` (as ``show``)."""
    with where.container(key=key):
        st.vega_lite_chart(spec={**spec, "datasets": datasets}, key=f"{key}_plot",
                           width="stretch")
