"""Figures for slides: every chart drawn with its downloads — its picture (PNG at slide
resolution, SVG) and its data (CSV) — and a race's traces as CSV.

Nothing is rendered until a button is clicked: Streamlit then calls the download's function on
another thread, so each function holds what it needs (the chart's spec and frames, or the race
object) and reads no session state. A page redraws its charts every 0.5 s while playing; a tick
pays only for registering the buttons, never for a picture.

Every chart is drawn as a Vega-Lite spec with named datasets (``draw``), an Altair chart first
converted so (``altair_parts``): the spec names its data instead of holding it, so it is the same
from tick to tick (Streamlit then swaps the data in place) and presenter mode can restyle it.
"""
import contextlib
import contextvars
import io
import json
from functools import partial

import altair as alt
import pandas as pd
import streamlit as st

from engine.cli.chains import write_trace
from engine.report.plots import readable, render
from engine.grid import KEYS
from ui import presenter
from ui.page import LESSON
from ui.settings import slug

SLIDE_WIDTH = 800  # pixels of a picture's plot; PNG_SCALE makes it 1600, a 16:9 slide's width
PNG_SCALE = 2
COMPOSITIONS = ("layer", "hconcat", "vconcat", "concat")
VALIDATED_LIMIT = 256  # specs checked against Vega-Lite's schema, remembered per process
_validated = set()


def _parts(chart):
    """The chart and every chart inside it (layers, concatenations), depth first."""
    yield chart
    for attr in COMPOSITIONS:
        inner = getattr(chart, attr, None)
        if isinstance(inner, list):
            for part in inner:
                yield from _parts(part)


def _mark_type(chart):
    mark = getattr(chart, "mark", None)
    return mark if isinstance(mark, str) else getattr(mark, "type", None)


def _invisible(chart):
    """Whether the chart's mark is drawn with opacity 0 (a point that only stretches an axis)."""
    return getattr(getattr(chart, "mark", None), "opacity", None) == 0


def altair_parts(chart):
    """An Altair chart as (spec, datasets, shown): the Vega-Lite spec with each data frame
    replaced by a named dataset, {name: frame}, and the names of the datasets drawn visibly
    (what its CSV holds). A dataset is named after its mark ("line", "rule", …).

    Altair's spec check takes most of a conversion's time (about 100 ms a chart on this
    machine), so each distinct spec is checked once per process, not on every tick."""
    datasets, names, shown, swapped = {}, {}, [], []
    try:
        for part in _parts(chart):
            data = getattr(part, "data", None)
            if not isinstance(data, pd.DataFrame):
                continue
            if id(data) not in names:
                stem = _mark_type(part) or "data"
                name = stem if stem not in datasets else f"{stem}_{len(datasets) + 1}"
                names[id(data)] = name
                datasets[name] = data
            if not _invisible(part) and names[id(data)] not in shown:
                shown.append(names[id(data)])
            swapped.append((part, data))
            part.data = alt.NamedData(names[id(data)])
        # not the top level: Altair would apply its global theme (default sizes), which another
        # session's thread may be switching while Streamlit converts its own chart
        spec = chart.to_dict(validate=False, context={"top_level": False})
        text = json.dumps(spec, sort_keys=True)
        if text not in _validated:
            chart.to_dict(validate=True, context={"top_level": False})
            if len(_validated) >= VALIDATED_LIMIT:
                _validated.clear()
            _validated.add(text)
    finally:
        for part, data in swapped:  # the caller's chart as it was
            part.data = data
    return spec, datasets, shown


def file_stem(spec, key, lesson=""):
    """A file's name for a chart: the lesson's and its title's words ("Restaurants", "Tables
    against customers" → "restaurants-tables-against-customers"), else its key's; a folder of
    slides' pictures then tells which lesson and which chart each one is."""
    title = spec.get("title")
    text = title.get("text") if isinstance(title, dict) else title
    if isinstance(text, list):
        text = " ".join(text)
    chart = slug(text) if isinstance(text, str) and slug(text) else slug(key)
    return "-".join(part for part in (slug(lesson), chart) if part)


def picture(spec, datasets, kind):
    """The chart as a PNG (bytes, at PNG_SCALE) or an SVG (text), SLIDE_WIDTH wide."""
    return render(spec, datasets, kind, width=SLIDE_WIDTH, scale=PNG_SCALE)


def chart_csv(datasets, shown):
    """The data a chart draws as CSV text: its one dataset, or its datasets one after the other
    with a first column ``part`` naming each (a chart of chains and their median: "chains",
    "median")."""
    if len(shown) == 1:
        frame = datasets[shown[0]]
    else:
        frame = pd.concat([datasets[name].assign(part=name) for name in shown],
                          ignore_index=True)
        frame = frame[["part", *[c for c in frame.columns if c != "part"]]]
    return frame.to_csv(index=False)


# set while a playing race's tick draws its charts (while_playing)
_PLAYING = contextvars.ContextVar("typeblocks_playing", default=False)


@contextlib.contextmanager
def while_playing():
    """Charts drawn inside leave their download icons out: a tick redraws every live chart
    twice a second, and six icons with three buttons each, sent anew every tick, made the
    browser answer Pause late (0.9-1.3 s against 0.8 s); nobody downloads a moving chart,
    and the icons come back with the page's run on Pause."""
    token = _PLAYING.set(True)
    try:
        yield
    finally:
        _PLAYING.reset(token)


def downloads(spec, datasets, csv, key):
    """A small download icon at the chart's top right opening its three downloads (``csv``:
    the function making the CSV's text)."""
    stem = file_stem(spec, key, st.session_state.get(LESSON, ""))
    with st.container(key=f"downloads_{key}"):  # ui.theme.DOWNLOADS_CSS places it
        if _PLAYING.get():
            # the container stays, empty: the chart after it keeps its place on the page, and
            # Streamlit redraws it in place instead of mounting it anew (blank for a moment)
            return
        with st.popover("", icon=":material/download:", type="tertiary",
                        help="Download this chart: a picture for slides or its data"):
            for label, kind, mime, make in (
                    ("Picture for slides (PNG)", "png", "image/png",
                     partial(picture, spec, datasets, "png")),
                    ("Vector picture (SVG)", "svg", "image/svg+xml",
                     partial(picture, spec, datasets, "svg")),
                    ("Data (CSV)", "csv", "text/csv", csv)):
                st.download_button(label, data=make, file_name=f"{stem}.{kind}", mime=mime,
                                   on_click="ignore", key=f"{key}_{kind}", type="tertiary",
                                   icon=":material/download:")


def draw(where, spec, datasets, key, shown=None, width="stretch", table=None):
    """Draw a Vega-Lite ``spec`` with its named ``datasets`` (frames) in ``where``, inside a
    container keyed ``key`` (the chart's stable place on the page: the CSS class st-key-<key>
    finds it), with its downloads; made readable (engine.report.plots.readable: plain titles, tick
    formats) and in presenter mode restyled (ui.presenter).
    ``shown``: the datasets its CSV holds (all by default); ``table``: a frame it holds instead
    (a heatmap drawn as a picture: its cells); ``width``: Streamlit's (None: Streamlit's choice
    for the kind of chart)."""
    spec = readable(spec)
    if presenter.on():
        spec = presenter.restyle(spec)
    if table is not None:
        csv = partial(chart_csv, {"table": table}, ["table"])
    else:
        csv = partial(chart_csv, datasets, list(datasets) if shown is None else shown)
    with where.container(key=key):
        downloads(spec, datasets, csv, key)
        st.vega_lite_chart(spec={**spec, "datasets": datasets}, key=f"{key}_plot", width=width)


def traces_csv(race):
    """A race's traces as the command line's ``run --trace`` writes a chain's, every row of
    every run, its sampler (chain, η: a race of several chains) first."""
    frame = race.trace_frame()
    first = [c for c in KEYS if c in frame.columns]
    buffer = io.StringIO()
    write_trace(frame[[*first, *[c for c in frame.columns if c not in first]]], buffer)
    return buffer.getvalue()


def traces_button(where, race, key):
    """A button downloading ``race``'s traces (``traces_csv``) as they are when clicked."""
    where.download_button("Traces (CSV)", data=partial(traces_csv, race),
                          file_name=f"{key}-traces.csv", mime="text/csv", on_click="ignore",
                          key=f"{key}_traces_csv", icon=":material/download:",
                          help="every pass of every chain so far: the columns the command "
                               "line's run --trace writes, and the sampler")
