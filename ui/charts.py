"""The charts a race redraws on every tick while it plays.

They are Vega-Lite (Altair) charts, not Plotly: Streamlit keeps a Vega-Lite chart on screen and
swaps its data in place when only the data changed, whereas a Plotly figure's data is part of
the element's identity, so every tick mounted a new chart, blank until drawn (measured in the
browser: 8 of 16 screenshots blank). A chart's spec must therefore not change from tick to tick:
titles and scales here depend on the settings, never on the pass reached.

Long runs are thinned to at most MAX_ROWS rows per line and AREA_ROWS passes per stacked area
(every k-th pass, the last one always kept; engine.run.thinned), so a tick's cost does not grow
with the run.
"""
import base64
import io
from functools import lru_cache

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from PIL import Image

from engine.report.plots import (CHAIN_ROWS, DASHED_LEGEND, FONT, HEIGHT, PASS_AXIS,
                                 VALUE_AXIS, autocorrelations_data, autocorrelations_spec,
                                 bands, chain_traces_data, chain_traces_spec, flat_guard,
                                 sampler_dashes, sampler_scale, style)
from engine.run import thinned
from ui import export
from ui.theme import EXACT_COLOUR, STATE_COLOURS, label, state_colour

# Every mark is an SVG element the browser's Vega evaluates and redraws on each tick (a heatmap
# of 400 passes × 60 tokens as marks kept the HMM page's browser so busy that Pause showed up to
# 1.6 s late; heatmaps are now pictures, states_picture)
MAX_ROWS = 300      # points per sampler's line
AREA_ROWS = 100     # passes per stacked area (a mark per pass and state: up to K of them a pass)
HEATMAP_ROWS = 80   # passes per trajectory heatmap
PICTURE_HEIGHT = 4 * HEATMAP_ROWS  # pixel rows of a heatmap's picture (a pixel column a token)
def show_traces(where, race, column, y_title, title, key, x="sweep", x_title="sweeps (passes)",
                y_domain=None, x_domain=None, x_reach=None, level=None, height=HEIGHT):
    """Draw one line per sampler of ``column`` against ``x`` from a Race's traces in ``where``
    (keyed ``key``), each line's newest point a dot: at pass 0, before Play, every sampler is
    a dot at the shared initial state (a line of one point draws nothing).

    y_domain, x_domain: fixed axis ranges (else from 0 on x, fitted on y); x_reach: the x axis
    runs at least from 0 to this (at pass 0 every run is at 0 s, an axis of one point); level:
    (value, text) of a dotted horizontal line.
    """
    spec = traces_spec(tuple(race.runs), column, y_title, title, x, x_title,
                       _tuple(y_domain), _tuple(x_domain), x_reach, _tuple(level), height)
    datasets = traces_data(race, column, x)
    show_live(where, spec, datasets, key, table=datasets["traces"])


def show_live(where, spec, datasets, key, table=None):
    """``show_spec`` for a chart a tick redraws while a race plays: inside a container keyed
    ``live_<key>``, which ui.theme's CSS keeps from fading while the tick runs."""
    with where.container(key=f"live_{key}"):
        show_spec(st, spec, datasets, key, table)


def _tuple(value):
    return None if value is None else tuple(value)


@lru_cache(maxsize=64)
def traces_spec(names, column, y_title, title, x="sweep", x_title="sweeps (passes)",
                y_domain=None, x_domain=None, x_reach=None, level=None, height=HEIGHT):
    """The Vega-Lite spec of ``show_traces`` for the samplers ``names``; its data are the named
    datasets "traces" and "newest" (``traces_data``). Built once per settings: Altair's building
    and checking of a spec and its inline data took up to 0.1 s a chart, and the HMM estimators'
    six charts made a tick's run outlast the half second after which Streamlit fades what it
    has not redrawn yet (the charts flickered while playing)."""
    x_scale = alt.Scale(domain=list(x_domain)) if x_domain else alt.Scale(zero=True, nice=False)
    y_scale = alt.Scale(domain=list(y_domain)) if y_domain else alt.Scale(zero=False)
    x_enc = alt.X(f"{x}:Q", title=x_title, scale=x_scale,
                  axis=PASS_AXIS if x == "sweep" else alt.Axis())
    y_enc = alt.Y(f"{column}:Q", title=y_title, scale=y_scale, axis=VALUE_AXIS)
    colour_enc = alt.Color("sampler:N", scale=sampler_scale(names), sort=None, title=None,
                           legend=DASHED_LEGEND)
    tooltip = [alt.Tooltip("sampler:N"), alt.Tooltip(f"{x}:Q", format=",.3~f"),
               alt.Tooltip(f"{column}:Q", format=",.4~f")]
    lines = alt.Chart(alt.NamedData("traces")).mark_line(strokeWidth=2.5).encode(
        strokeDash=sampler_dashes(names))
    # the newest rows apart, not found by a filter in the browser: that was an expression
    # evaluated for every point of every line on every tick
    newest = alt.Chart(alt.NamedData("newest")).mark_point(filled=True, size=45, opacity=1)
    chart = alt.layer(*(part.encode(x=x_enc, y=y_enc, color=colour_enc, tooltip=tooltip)
                        for part in (lines, newest)))
    if y_domain is None:  # at pass 0 every sampler is at the shared start: one value
        chart = alt.layer(chart, flat_guard("traces", column))
    if x_reach is not None:  # an invisible point: the spec stays the same as the data grows
        reach = alt.Chart(alt.InlineData(values=[{x: x_reach}])).mark_point(opacity=0)
        chart = alt.layer(chart, reach.encode(x=f"{x}:Q"))
    if level is not None:
        value, text = level
        mark = alt.InlineData(values=[{"y": value, "text": text}])
        rule = alt.Chart(mark).mark_rule(strokeDash=[3, 3], color=EXACT_COLOUR).encode(y="y:Q")
        words = alt.Chart(mark).mark_text(align="right", dy=-7, color=EXACT_COLOUR, x="width",
                                          fontSize=FONT - 1).encode(y="y:Q", text="text:N")
        chart = alt.layer(chart, rule, words)
    return style(chart, title, height).to_dict()


def traces_data(race, column, x="sweep"):
    """The datasets of ``traces_spec``: "traces", ``column`` against ``x`` with each sampler's
    label, and "newest", each sampler's last row of it."""
    data = race.trace_frame(MAX_ROWS)[[x, column, "sampler"]]
    traces = data.assign(sampler=data["sampler"].map(label))
    return {"traces": traces, "newest": traces.groupby("sampler", sort=False).tail(1)}


def state_scale(n_states):
    """One distinct colour per hidden state 1 … n_states, as in every chart of states."""
    states = list(range(1, n_states + 1))
    return alt.Scale(domain=states, range=[state_colour(k) for k in states])


def state_trajectories(values, tokens, words, title, height=300):
    """Tokens (columns) × passes (rows, pass 0 at the top) coloured by hidden state: the spec,
    its datasets ("picture", "tokens") and the frame of its cells (what its CSV holds), for
    ``show_spec``.

    The cells are drawn as one picture, not a mark each: 80 passes × 60 tokens were 4,800 marks
    per heatmap that the browser's Vega evaluated anew every tick, and the page's two heatmaps
    kept its main thread busy 80 % of the time while playing (Pause then answered in 0.8-1.5 s;
    as pictures: 50 %, 0.2-0.6 s). An invisible mark per token keeps the axes and a tooltip.

    values : list of int16 arrays, one per recorded pass, each holding every site's state
        (1, 2, …).
    tokens : int array of the token positions shown; words : their words (str).
    """
    rows = thinned(len(values), HEATMAP_ROWS)
    z = np.array([values[r][tokens] for r in rows])
    # a column's name is unique ("position:word"); its label is the word alone
    names = tuple(f"{i}:{w}" for i, w in zip(tokens, words))
    passes = max(len(values), 1)
    cells = pd.DataFrame({"token": np.tile(names, len(rows)),
                          "pass": np.repeat(rows, len(tokens)),  # until the next row's pass
                          "to": np.repeat(np.append(rows[1:], passes), len(tokens)),
                          "state": z.ravel()})
    columns = pd.DataFrame({"token": names, "from": 0, "to": passes})
    picture = pd.DataFrame({"url": [states_picture(z, rows, passes)]})
    axis_title = f"tokens {tokens[0] + 1:,}–{tokens[-1] + 1:,} of the corpus"
    return (state_trajectories_spec(names, title, axis_title, height),
            {"picture": picture, "tokens": columns}, cells)


def states_picture(z, rows, passes):
    """The heatmap's cells as a PNG data URL, a pixel column per token: pixel row y shows the
    last recorded pass at or before y · passes / PICTURE_HEIGHT (so each row of z is as tall
    as the passes it stands for, as on the chart's pass axis). The chart stretches it without
    smoothing, so cells keep sharp edges at any size.

    z : int array (len(rows), tokens) of hidden states (1, 2, …); rows : int array, the recorded
    passes z's rows show (increasing, from 0); passes : the pass axis' length."""
    at = np.arange(PICTURE_HEIGHT) * passes // PICTURE_HEIGHT
    shown = z[np.searchsorted(rows, at, side="right") - 1]
    # a palette picture (a byte a pixel): entry c - 1 is the c-th state colour, so state k is
    # drawn in state_colour(k), the colours repeating after the last as there
    picture = Image.fromarray(((shown - 1) % len(STATE_COLOURS)).astype(np.uint8))
    picture.putpalette([v for c in STATE_COLOURS for v in _rgb(c)])  # now a palette picture
    png = io.BytesIO()
    picture.save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode("ascii")


def _rgb(colour):
    """'#rrggbb' as [r, g, b]."""
    return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]


@lru_cache(maxsize=32)
def state_trajectories_spec(names, title, axis_title, height):
    """The spec of ``state_trajectories``, built once per window of tokens: the picture
    stretched over the plot, and under it a transparent bar per token spanning every pass,
    which sets both axes and names the token under the pointer."""
    # aria=False: no label holding the picture's data URL (thousands of characters a tick)
    picture = alt.Chart(alt.NamedData("picture")).mark_image(
        aspect=False, smooth=False, aria=False).encode(
        url="url:N", x=alt.value(0), x2=alt.value("width"), y=alt.value(0),
        y2=alt.value("height"))
    columns = alt.Chart(alt.NamedData("tokens")).mark_rect(opacity=0).encode(
        # upright labels, the word alone (its position is in the tooltip): angled labels of
        # "position:word" were cut ("24:..") and collided
        x=alt.X("token:O", sort=list(names), title=axis_title,
                scale=alt.Scale(paddingInner=0, paddingOuter=0),  # a band per picture column
                axis=alt.Axis(labelAngle=-90, labelFontSize=10, labelLimit=90,
                              labelOverlap="greedy", labelPadding=2,
                              labelExpr="substring(datum.label, indexof(datum.label, ':') + 1)")),
        y=alt.Y("from:Q", title="pass", scale=alt.Scale(zero=True, nice=False, reverse=True),
                axis=PASS_AXIS),
        y2="to:Q",
        tooltip=[alt.Tooltip("token:N", title="position:word")])
    return style(alt.layer(picture, columns), title, height).to_dict()


def state_shares(passes, shares, n_states, title, height=HEIGHT):
    """A stacked area of the share of a word's tokens in each state, pass by pass: the spec and
    its dataset "shares", for ``show_spec``.

    passes : int array (n,) of pass numbers; shares : float array (n, n_states), the shares
    at those passes, each row summing to 1.
    """
    used = [k for k in range(n_states) if shares[:, k].any()]
    data = pd.DataFrame({"pass": np.repeat(passes, len(used)),
                         "state": np.tile(np.array(used) + 1, len(passes)),
                         "share": shares[:, used].ravel()})
    return state_shares_spec(n_states, title, height), {"shares": data}


@lru_cache(maxsize=32)
def state_shares_spec(n_states, title, height=HEIGHT):
    """The spec of ``state_shares``."""
    chart = alt.Chart(alt.NamedData("shares")).mark_area(interpolate="step-after").encode(
        x=alt.X("pass:Q", title="pass", scale=alt.Scale(zero=True, nice=False),
                axis=PASS_AXIS),
        y=alt.Y("share:Q", title="share of its tokens", stack="zero",
                scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("state:O", scale=state_scale(n_states), title="state"),
        order=alt.Order("state:O"),
        tooltip=["pass:Q", "state:O", alt.Tooltip("share:Q", format=".1%")])
    return style(chart, title, height, legend="right").to_dict()


def confusion(table, n_states, tags, title, height=HEIGHT):
    """Tokens per (state, gold tag) as a heatmap, the states 1 … n_states as rows: the spec and
    its dataset "counts", for ``show_spec``; table : int array (n_states, len(tags))."""
    states = np.arange(1, n_states + 1)
    data = pd.DataFrame({"state": np.repeat(states, len(tags)),
                         "tag": np.tile(tags, n_states),
                         "tokens": np.asarray(table).ravel()})
    return confusion_spec(n_states, tuple(tags), title, height), {"counts": data}


@lru_cache(maxsize=32)
def confusion_spec(n_states, tags, title, height=HEIGHT):
    """The spec of ``confusion``: a row per state, a column per tag."""
    chart = alt.Chart(alt.NamedData("counts")).mark_rect().encode(
        # tags at an angle and states as bare numbers: horizontal tags ran into each other
        x=alt.X("tag:N", sort=list(tags), title="gold tag",
                axis=alt.Axis(labelAngle=-50, labelOverlap=False, labelFontSize=10)),
        y=alt.Y("state:O", title="state", axis=alt.Axis(labelOverlap=False)),
        color=alt.Color("tokens:Q", scale=alt.Scale(scheme="blues"), title="tokens",
                        legend=alt.Legend(gradientLength=120)),
        tooltip=["state:O", "tag:N", "tokens:Q"])
    return style(chart, title, max(height, 18 * n_states), legend="right").to_dict()


def show(where, chart, key):
    """Draw the Altair ``chart`` in ``where`` inside a container keyed ``key``, with its
    downloads (PNG, SVG, CSV): the container is the chart's stable place on the page (the CSS
    class st-key-<key> finds it; Streamlit gives a Vega-Lite element itself no such class)."""
    spec, datasets, shown = export.altair_parts(chart)
    export.draw(where, spec, datasets, key, shown, width=None)


def show_spec(where, spec, datasets, key, table=None):
    """Draw a Vega-Lite ``spec`` with its named ``datasets`` (frames) in ``where``, inside a
    container keyed ``key``, with its downloads (as ``show``; ``table``: export.draw's)."""
    export.draw(where, spec, datasets, key, table=table)
