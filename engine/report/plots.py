"""Vega-Lite (Altair) charts of many chains: each chain thin and each sampler's median bold,
autocorrelations, and the η sweep's bands (Liang et al. Fig. 5 d–f). Built here, without
Streamlit, so the Sampler race page (ui/charts.py) and ``python -m engine race`` (PNG files)
draw the same pictures.
"""
import json
import re
import textwrap
from functools import lru_cache
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd

from engine.samplers import colour, label, look

HEIGHT = 230        # pixels of plot, without title, axes and legend
FONT = 13
PASS_AXIS = alt.Axis(format="d", tickMinStep=1)  # passes are whole numbers
# a value axis' format names no precision: Vega then takes it from the tick step, so from the
# data's range ("−1,240", "0.05"); ",.6~g" gave every tick six digits ("0.205141", "6.96556")
VALUE_FORMAT, LOG_FORMAT = ",~f", ",~g"
VALUE_AXIS = alt.Axis(format=VALUE_FORMAT)
LABEL_GAP = 6  # px at least between two tick labels: abutting ones read as one ("0.000.01")
FLAT_SPAN, FLAT_ZERO_SPAN = 0.05, 0.5  # what a flat line's axis spans (flat_guard)
TITLE_CHARS = 40    # a title's characters per line: a phone's chart is about 330 px wide


def title_lines(title):
    """``title`` as plain text broken into lines of at most TITLE_CHARS characters (Vega-Lite
    draws a list as lines; it cannot wrap a title itself): on a phone longer titles were cut.
    A list is taken as lines already."""
    if isinstance(title, list):
        return [plain(line) for line in title]
    lines = textwrap.wrap(plain(title), TITLE_CHARS)
    return lines[0] if len(lines) == 1 else lines
EXACT_COLOUR = "#3d3d3d"  # reference lines (zero, an exact value)
CHAIN_ROWS = 120   # points per chain's line (5 samplers × 4 chains: 2,400 points a chart)
TIME_POINTS = 60   # engine times at which a sampler's median over its chains is taken


def style(chart, title, height, legend="bottom"):
    """The lab's look; ``height`` is the plot's own (fit-x: the legend and axes add to it, so
    a legend never squeezes the plot)."""
    return (chart.properties(title=alt.Title(title_lines(title), anchor="start", fontSize=15),
                             height=height, width="container",
                             autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
            .configure_axis(labelFontSize=FONT - 1, titleFontSize=FONT,
                            labelSeparation=LABEL_GAP)
            .configure_legend(labelFontSize=FONT, titleFontSize=FONT, orient=legend,
                              # two columns: a third was cut at a phone's width ("TOKEN-ann…")
                              columns=2 if legend == "bottom" else 1, symbolStrokeWidth=3))


# Markdown's code and emphasis marks: a chart draws its text as it is
MARKDOWN = re.compile(r"`([^`]*)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*")
COMPOSITIONS = ("layer", "hconcat", "vconcat", "concat")
AXIS_CHANNELS = ("x", "y")


def plain(text):
    """A title as plain text: the models' and pages' labels are Markdown (`a b` in code, **x**
    bold), which Vega would draw with its marks. Code becomes quoted (‘a b’), emphasis plain."""
    return MARKDOWN.sub(lambda m: f"‘{m[1]}’" if m[1] is not None else m[2] or m[3], text)


def _plain_titles(node):
    """Every title in a spec (the chart's, its axes', legends', tooltips') as plain text, in
    place; the data are not titles."""
    if isinstance(node, list):
        for item in node:
            _plain_titles(item)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in ("data", "datasets", "values"):
            continue
        if key in ("title", "text", "subtitle") and isinstance(value, str):
            node[key] = plain(value)
        elif key in ("title", "text", "subtitle") and isinstance(value, list) and all(
                isinstance(v, str) for v in value):
            node[key] = [plain(v) for v in value]
        else:
            _plain_titles(value)


def _explicit_formats(view, found):
    """{channel: format} of the axes a view and its layers set themselves."""
    for channel, enc in view.get("encoding", {}).items():
        axis = enc.get("axis") if isinstance(enc, dict) else None
        if channel in AXIS_CHANNELS and isinstance(axis, dict) and "format" in axis:
            found.setdefault(channel, axis["format"])
    for inner in view.get("layer", []):
        _explicit_formats(inner, found)
    return found


def _fill_formats(view, shared):
    """Give every quantitative x and y axis without a format one, in place: the format its
    layers share (layers share an axis: two formats would conflict), else VALUE_FORMAT (or
    LOG_FORMAT on a log scale)."""
    if "layer" in view:
        shared = {**_explicit_formats(view, {}), **shared}
    for channel, enc in view.get("encoding", {}).items():
        if (channel not in AXIS_CHANNELS or not isinstance(enc, dict)
                or enc.get("type") != "quantitative" or enc.get("axis", {}) is None):
            continue
        log = enc.get("scale", {}).get("type") == "log"
        axis = enc.setdefault("axis", {})
        if "format" not in axis and "formatType" not in axis:
            axis["format"] = shared.get(channel, LOG_FORMAT if log else VALUE_FORMAT)
    for key in COMPOSITIONS:
        for inner in view.get(key, []):
            _fill_formats(inner, shared if key == "layer" else {})
    if isinstance(view.get("spec"), dict):
        _fill_formats(view["spec"], {})


def readable(spec):
    """A copy of a Vega-Lite spec as a class reads it: plain-text titles, a tick format on
    every quantitative axis (its precision from the data's range) and tick labels kept
    apart. Every chart passes here (ui.export.draw, render), whoever built it. The same spec
    gives the same copy, so a live chart still only swaps its data."""
    spec = json.loads(json.dumps(spec))
    _plain_titles(spec)
    _fill_formats(spec, {})
    config = spec.setdefault("config", {})
    config["axis"] = {"labelSeparation": LABEL_GAP, **config.get("axis", {})}
    return spec


def flat_guard(dataset, column):
    """An invisible layer that keeps a y axis from collapsing onto one value: at pass 0 every
    chain is at the shared start, and Vega labels an axis of one value with one tick to six
    digits ("0.205141"). A flat line's axis then spans its value ± FLAT_SPAN of it (± 0.5 at
    0); a line that moves, its own range (the layer's two points are its lowest and highest).
    """
    field = f"datum[{json.dumps(column)}]"
    return (alt.Chart(alt.NamedData(dataset))
            .transform_filter(f"isValid({field})")
            .transform_aggregate([alt.AggregatedFieldDef(op="min", field=column, **{"as": "low"}),
                                  alt.AggregatedFieldDef(op="max", field=column,
                                                         **{"as": "high"})])
            .transform_calculate(pad=f"datum.high > datum.low ? 0 : datum.high != 0 ? "
                                     f"abs(datum.high) * {FLAT_SPAN} : {FLAT_ZERO_SPAN}")
            .transform_calculate(bottom="datum.low - datum.pad", top="datum.high + datum.pad")
            .transform_fold(["bottom", "top"], as_=["end", column])
            .mark_point(opacity=0).encode(y=f"{column}:Q"))


def sampler_scale(names):
    """Each sampler's label in its colour, the same on every page."""
    return alt.Scale(domain=[label(n) for n in names], range=[colour(n) for n in names])


# a legend of dashed lines shows each sampler's dash, not a dot
DASHED_LEGEND = alt.Legend(symbolType="stroke", symbolSize=400)


def sampler_dashes(names):
    """Each sampler's line in its own dash (its Look's, as presenter mode draws it): two
    samplers' lines often coincide (TYPE and TYPE-greedy on the toy), and a solid line on top
    hid the other; through a dash's gaps the line under it shows."""
    # the colour's field, sort and title: the two share one legend, its lines dashed
    return alt.StrokeDash("sampler:N", sort=None, title=None, scale=alt.Scale(
        domain=[label(n) for n in names], range=[list(look(n).dash) for n in names]))


def chain_medians(frame, column, x):
    """Each sampler's median of ``column`` over its chains against ``x``: at every sweep all
    its chains have reached (x "sweep"; the frame's chains thinned to the same sweeps), or at
    TIME_POINTS engine times up to where its slowest chain has got, each chain interpolated
    (x "seconds"). Labels the samplers as the charts do."""
    parts = []
    for sampler, group in frame.groupby("sampler", sort=False):
        xs, ys = group[x].to_numpy(), group[column].to_numpy(dtype=float)
        chain = group["chain"].to_numpy()
        if x == "sweep":
            at, ys = _median_at_shared(xs, ys, len(np.unique(chain)))
        else:
            at, ys = _median_interpolated(xs, ys, chain)
        parts.append(pd.DataFrame({x: at, column: ys, "sampler": label(sampler)}))
    return pd.concat(parts, ignore_index=True)


def _median_at_shared(xs, ys, n_chains):
    """The median of ys at every x that all n_chains chains have."""
    order = np.argsort(xs, kind="stable")
    xs, ys = xs[order], ys[order]
    at, counts = np.unique(xs, return_counts=True)
    shared = np.repeat(counts == n_chains, counts)
    return at[counts == n_chains], np.median(ys[shared].reshape(-1, n_chains), axis=1)


def _median_interpolated(xs, ys, chain):
    """The median over chains at TIME_POINTS xs up to the shortest chain's end, each chain
    interpolated (its rows in order of x)."""
    each = [(xs[chain == c], ys[chain == c]) for c in np.unique(chain)]
    grid = np.linspace(0, min(x[-1] for x, _ in each), TIME_POINTS)
    return grid, np.median([np.interp(grid, x, y) for x, y in each], axis=0)


@lru_cache(maxsize=64)
def chain_traces_spec(names, column, y_title, title, x="sweep", x_title="sweeps (passes)",
                      x_reach=None, height=HEIGHT):
    """The Vega-Lite spec of every chain of every sampler as a thin line and each sampler's
    median over its chains bold; its data are the named datasets of ``chain_traces_data``.

    Built once per settings (Altair's building and checking of a spec took 80 ms a chart,
    four charts a tick); each tick then only sends the new data, as Arrow."""
    x_enc = alt.X(f"{x}:Q", title=x_title, scale=alt.Scale(zero=True, nice=False),
                  axis=PASS_AXIS if x == "sweep" else alt.Axis())
    y_enc = alt.Y(f"{column}:Q", title=y_title, scale=alt.Scale(zero=False), axis=VALUE_AXIS)
    colour_enc = alt.Color("sampler:N", scale=sampler_scale(names), sort=None, title=None,
                           legend=DASHED_LEGEND)
    chains = alt.Chart(alt.NamedData("chains")).mark_line(strokeWidth=1, opacity=0.45).encode(
        x=x_enc, y=y_enc, color=colour_enc, detail="chain:N",
        tooltip=["sampler:N", "chain:N", alt.Tooltip(f"{x}:Q", format=",.3~f"),
                 alt.Tooltip(f"{column}:Q", format=",.4~f")])
    bold = alt.Chart(alt.NamedData("median")).mark_line(strokeWidth=3.5).encode(
        x=x_enc, y=y_enc, color=colour_enc, strokeDash=sampler_dashes(names),
        tooltip=["sampler:N", alt.Tooltip(f"{column}:Q", format=",.4~f", title="median")])
    # each median's newest point a dot: at sweep 0 a line of one point draws nothing
    newest = (alt.Chart(alt.NamedData("median")).mark_point(filled=True, size=45, opacity=1)
              .encode(x=x_enc, y=y_enc, color=colour_enc)
              .transform_joinaggregate(newest=f"max({x})", groupby=["sampler"])
              .transform_filter(f"datum['{x}'] === datum.newest"))
    chart = alt.layer(chains, bold, newest, flat_guard("chains", column))
    if x_reach is not None:  # an invisible point: the axis spans at least [0, x_reach]
        reach = alt.Chart(alt.InlineData(values=[{x: x_reach}])).mark_point(opacity=0)
        chart = alt.layer(chart, reach.encode(x=f"{x}:Q"))
    return style(chart, title, height).to_dict()


def chain_traces_data(frame, column, x="sweep"):
    """The named datasets of ``chain_traces_spec``: frame is a LiveRace.trace_frame (sampler
    and chain columns)."""
    names = {name: label(name) for name in frame["sampler"].unique()}
    chains = pd.DataFrame({x: frame[x].to_numpy(), column: frame[column].to_numpy(),
                           "sampler": frame["sampler"].map(names).to_numpy(),
                           "chain": frame["chain"].to_numpy()})
    return {"chains": chains, "median": chain_medians(frame, column, x)}


@lru_cache(maxsize=64)
def autocorrelations_spec(names, y_title, title, height=HEIGHT):
    """The spec of autocorrelation against lag, a line per sampler; its data is the dataset
    "acf" (``autocorrelations_data``). Built once per settings, as ``chain_traces_spec``."""
    lines = alt.Chart(alt.NamedData("acf")).mark_line(
        strokeWidth=2.5, point=alt.OverlayMarkDef(size=18)).encode(
        x=alt.X("lag:Q", title="lag (sweeps)", axis=PASS_AXIS, scale=alt.Scale(nice=False)),
        y=alt.Y("acf:Q", title=y_title, scale=alt.Scale(domain=[-0.5, 1], clamp=True)),
        color=alt.Color("sampler:N", scale=sampler_scale(names), sort=None, title=None),
        tooltip=["sampler:N", "lag:Q", alt.Tooltip("acf:Q", format=".3f")])
    zero = alt.Chart(alt.InlineData(values=[{"y": 0}])).mark_rule(color=EXACT_COLOUR,
                                                                   strokeDash=[3, 3])
    return style(alt.layer(lines, zero.encode(y="y:Q")), title, height).to_dict()


def autocorrelations_data(data):
    """The dataset of ``autocorrelations_spec`` (data: sampler, lag, acf columns)."""
    return {"acf": data.assign(sampler=data["sampler"].map(label))}


def bands(data, names, y_title, title, height=HEIGHT):
    """A sampler's median against η with a band from its lowest to its highest chain
    (data: sampler, eta, median, low, high columns; Liang et al. Fig. 5 d–f)."""
    data = data.assign(sampler=data["sampler"].map(label))
    x_enc = alt.X("eta:Q", title="η (initial share of sites with value 1)",
                  scale=alt.Scale(domain=[0, 1]))
    colour_enc = alt.Color("sampler:N", scale=sampler_scale(names), sort=None, title=None)
    band = alt.Chart(data).mark_area(opacity=0.2).encode(
        x=x_enc, y=alt.Y("low:Q", title=y_title, scale=alt.Scale(zero=False)), y2="high:Q",
        color=colour_enc)
    line = alt.Chart(data).mark_line(strokeWidth=2.5, point=True).encode(
        x=x_enc, y="median:Q", color=colour_enc,
        tooltip=["sampler:N", "eta:Q", alt.Tooltip("median:Q", format=",.4~f"),
                 alt.Tooltip("low:Q", format=",.4~f"), alt.Tooltip("high:Q", format=",.4~f")])
    return style(alt.layer(band, line), title, height)


def first_up(text):
    """``text`` with its first letter in capitals ("token F" → "Token F", not "Token f"),
    unless its first word is a variable of one letter ("m, the copies …": M is not m)."""
    if re.match(r"\w\b", text):
        return text
    return text[:1].upper() + text[1:]


def final_bands(traces, column):
    """Each sampler's median, lowest and highest final ``column`` over its chains, per η
    (traces: long, with sampler, eta, chain and iteration columns), for ``bands``."""
    finals = traces.sort_values("iteration").groupby(["sampler", "eta", "chain"]).last()
    return (finals[column].groupby(["sampler", "eta"], sort=False).agg(["median", "min", "max"])
            .rename(columns={"min": "low", "max": "high"}).reset_index())


# --- pictures for the command line ----------------------------------------------------------
PNG_WIDTH = 720  # pixels of plot (the pages fit their container instead)


def on_one_grid(traces, limit=CHAIN_ROWS):
    """Every chain's rows at the same sweeps, at most about ``limit`` per chain, and its last
    (traces: long, with sampler, chain and sweep columns)."""
    stride = max(1, -(-int(traces["sweep"].max() + 1) // limit))
    last = traces.groupby(["sampler", "chain"])["sweep"].transform("max")
    return traces[(traces["sweep"] % stride == 0) | (traces["sweep"] == last)]


def render(spec, datasets, kind="png", width=PNG_WIDTH, scale=2):
    """A spec with named datasets (frames) as a picture ``width`` pixels of plot wide: PNG
    bytes (``scale`` pixels a unit) or SVG text (vl-convert renders Vega-Lite without a
    browser). The spec's own width ("container" on a page) gives way to ``width``, except in a
    concatenation, whose parts have their own."""
    import vl_convert
    spec = readable(spec)
    data = {name: json.loads(frame.to_json(orient="records")) for name, frame in datasets.items()}
    data = {**spec.get("datasets", {}), **data}  # a spec with inline data keeps its own
    sized = {**spec, "datasets": data}
    if not any(part in spec for part in ("hconcat", "vconcat", "concat")):
        sized["width"] = width
    if kind == "svg":
        return vl_convert.vegalite_to_svg(sized)
    return vl_convert.vegalite_to_png(sized, scale=scale)


def write_png(spec, datasets, path):
    """A spec with named datasets (frames) as a PNG file at ``path``."""
    path.write_bytes(render(spec, datasets))


def race_pngs(folder, traces, labels):
    """The pictures of a race's traces in ``folder``; returns their names. One η: each
    ``labels`` column ({column: axis title}) against engine time and against sweeps
    (``{column}_time.png``, ``{column}_sweeps.png``); several (an η sweep): its final value
    against η (``eta_{column}.png``)."""
    folder = Path(folder)
    traces = traces.rename(columns={"iteration": "sweep"})
    names = tuple(dict.fromkeys(traces["sampler"]))
    written = []
    for column, title in labels.items():
        if traces["eta"].nunique(dropna=False) > 1:
            frame = final_bands(traces.rename(columns={"sweep": "iteration"}), column)
            chart = bands(frame, names, title, f"{first_up(title)} at the end, against η")
            path = folder / f"eta_{column}.png"
            write_png(chart.to_dict(), {}, path)
            written.append(path.name)
            continue
        shown = on_one_grid(traces.dropna(subset=[column]))
        for x, x_title, suffix in (("seconds", "engine time (s)", "time"),
                                   ("sweep", "sweeps (passes)", "sweeps")):
            spec = chain_traces_spec(names, column, title, f"{first_up(title)} against "
                                     f"{x_title.split(' (')[0]}", x=x, x_title=x_title)
            path = folder / f"{column}_{suffix}.png"
            write_png(spec, chain_traces_data(shown, column, x), path)
            written.append(path.name)
    return written

