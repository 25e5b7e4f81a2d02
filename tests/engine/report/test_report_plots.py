"""The race charts' data (engine.report.plots): medians over chains, thinning, the η bands;
and how every chart reads (readable): plain titles, tick labels of few digits that never touch."""
import re

import numpy as np
import pandas as pd
import pytest

from engine.report.plots import (TIME_POINTS, chain_medians, chain_traces_data,
                                   chain_traces_spec, final_bands, on_one_grid, plain, readable,
                                   render)
from ui.charts import traces_spec

# em widths of sans-serif's characters in tick labels (Helvetica's, as Vega measures them)
CHAR_EM = {".": 0.278, ",": 0.278, "\u2212": 0.584}
DIGIT_EM = 0.556


def chains_frame():
    # sampler "token": 3 chains at sweeps 0..4 (chain 2 stops at sweep 3); "type": 2 chains
    rows = []
    for sampler, chains in (("token", 3), ("type", 2)):
        for c in range(chains):
            for sweep in range(4 if (sampler, c) == ("token", 2) else 5):
                rows.append({"sampler": sampler, "chain": c, "sweep": sweep,
                             "seconds": 0.1 * sweep * (c + 1), "loglik": 10.0 * c + sweep})
    return pd.DataFrame(rows)


def test_the_median_against_sweeps_is_taken_where_every_chain_has_a_row():
    found = chain_medians(chains_frame(), "loglik", "sweep")
    token = found[found.sampler == "TOKEN"]
    assert list(token.sweep) == [0, 1, 2, 3]  # sweep 4: chain 2 has not got there
    assert list(token.loglik) == [10.0, 11.0, 12.0, 13.0]  # the middle chain's values
    type_ = found[found.sampler == "TYPE"]
    assert list(type_.loglik) == [5.0, 6.0, 7.0, 8.0, 9.0]  # the mean of two


def test_the_median_against_time_interpolates_each_chain_up_to_the_slowest():
    found = chain_medians(chains_frame(), "loglik", "seconds")
    token = found[found.sampler == "TOKEN"]
    assert len(token) == TIME_POINTS
    assert token.seconds.max() == pytest.approx(0.4)  # chain 0 ends at 0.4 s
    at = token.seconds.to_numpy()
    expected = np.median([np.interp(at, 0.1 * np.arange(5) * (c + 1), 10.0 * c + np.arange(5))
                          for c in (0, 1)] + [np.interp(at, 0.3 * np.arange(4),
                                                        20.0 + np.arange(4))], axis=0)
    assert token.loglik.to_numpy() == pytest.approx(expected)


def test_chains_are_thinned_to_the_same_sweeps_and_keep_their_last_row():
    rows = [{"sampler": "token", "chain": c, "sweep": s} for c, n in ((0, 1000), (1, 731))
            for s in range(n)]
    shown = on_one_grid(pd.DataFrame(rows), limit=100)
    by_chain = shown.groupby("chain").sweep.apply(list)
    assert by_chain[0][:5] == [0, 10, 20, 30, 40] and by_chain[0][-1] == 999
    assert by_chain[1][-2:] == [720, 730]
    assert set(by_chain[1][:-1]) <= set(by_chain[0]) and len(by_chain[0]) == 101


def test_the_bands_are_the_median_lowest_and_highest_final_values():
    rows = [{"sampler": "type", "eta": eta, "chain": c, "iteration": i, "loglik": i * eta + c}
            for eta in (0.0, 1.0) for c in range(3) for i in range(3)]
    bands = final_bands(pd.DataFrame(rows), "loglik")
    assert bands.to_dict("records") == [
        {"sampler": "type", "eta": 0.0, "median": 1.0, "low": 0.0, "high": 2.0},
        {"sampler": "type", "eta": 1.0, "median": 3.0, "low": 2.0, "high": 4.0}]


def axis_labels(svg, axis=0):
    """(anchor, x, font size, text) of the visible tick labels of the svg's ``axis``-th axis
    (Vega draws the x axis first)."""
    group = re.findall(r'<g class="mark-text role-axis-label"[^>]*>(.*?)</g>', svg)[axis]
    return [(anchor, float(x), float(size), text) for anchor, x, size, opacity, text in
            re.findall(r'text-anchor="(\w+)" transform="translate\(([-\d.]+),[-\d.]+\)"[^>]*'
                       r'font-size="([\d.]+)px"[^>]*opacity="([\d.]+)">([^<]*)<', group)
            if float(opacity) > 0]


def label_gaps(labels):
    """The px between each two neighbouring labels' boxes."""
    boxes = []
    for anchor, x, size, text in labels:
        width = sum(CHAR_EM.get(c, DIGIT_EM) for c in text) * size
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        boxes.append((left, left + width))
    return [b[0] - a[1] for a, b in zip(boxes, boxes[1:])]


def one_pass(values, x="sweep"):
    """A race's frame at pass 0: a chain per value, every chain at its start."""
    return pd.DataFrame({"sampler": "token", "chain": range(len(values)), "sweep": 0,
                         "seconds": 0.0, "v": values})


@pytest.mark.parametrize("start", [0.205141, 6.96556, 0.0, -51234.567])
def test_at_pass_zero_a_flat_line_gets_ticks_of_few_digits(start):
    # every chain at the shared start: an axis of one value was one tick of six digits
    spec = chain_traces_spec(("token",), "v", "v", "v against passes")
    svg = render(spec, chain_traces_data(one_pass([start] * 3), "v"), "svg")
    ticks = [t for *_, t in axis_labels(svg, axis=1)]
    assert len(ticks) >= 3, ticks
    for tick in ticks:
        assert len(re.sub(r"\D", "", tick).strip("0")) <= 3, ticks
    values = [float(t.replace("\u2212", "-").replace(",", "")) for t in ticks]
    assert min(values) <= start <= max(values)  # around the start


def test_live_traces_of_one_point_get_ticks_of_few_digits_too():
    spec = traces_spec(("token", "type"), "m", "m", "m against passes")
    frame = pd.DataFrame({"sweep": [0, 0], "m": [1000, 1000], "sampler": ["TOKEN", "TYPE"]})
    svg = render(spec, {"traces": frame, "newest": frame}, "svg")
    assert [t for *_, t in axis_labels(svg, axis=1)] == ["960", "980", "1,000", "1,020", "1,040"]


def test_tick_labels_of_engine_time_never_touch_at_any_width():
    # the word segmentation's chart read "0.000.01" at its origin: two labels abutting
    spec = traces_spec(("token",), "loglik", "log p", "log p over time", x="seconds",
                       x_title="engine time (s)", x_reach=0.01)
    frame = pd.DataFrame({"seconds": [0.0, 0.0023], "loglik": [-1234.5, -1100.2],
                          "sampler": "TOKEN"})
    for width in range(440, 480, 7):  # 459 and 466 touched
        svg = render(spec, {"traces": frame, "newest": frame.tail(1)}, "svg", width=width)
        assert min(label_gaps(axis_labels(svg))) >= 3, width  # px: apart at a glance


def test_markdown_in_a_label_becomes_plain_text():
    assert plain("m, the copies analysed as `a b`") == "m, the copies analysed as ‘a b’"
    assert plain("Toy posterior (n copies of `ab`)") == "Toy posterior (n copies of ‘ab’)"
    assert plain("the **bold** and *light* part") == "the bold and light part"
    assert plain("p(m | x) * 2") == "p(m | x) * 2"  # a lone star is no emphasis


def test_a_readable_spec_has_plain_titles_and_a_format_on_every_quantitative_axis():
    spec = {"title": {"text": ["m as `a b`", "**bold**"]},
            "layer": [{"mark": "line", "encoding": {
                "x": {"field": "sweep", "type": "quantitative", "axis": {"format": "d"}},
                "y": {"field": "m", "type": "quantitative", "title": "m as `a b`"},
                "color": {"field": "s", "type": "nominal", "legend": {"title": "`s`"}}}},
                {"mark": "point", "encoding": {"x": {"field": "sweep", "type": "quantitative"},
                                               "y": {"field": "p", "type": "quantitative",
                                                     "scale": {"type": "log"}},
                                               "x2": {"field": "to"}}}],
            "hconcat": [{"mark": "bar", "encoding": {
                "y": {"field": "n", "type": "quantitative", "axis": None},
                "x": {"field": "w", "type": "nominal"}}}]}
    shown = readable(spec)
    assert shown["title"]["text"] == ["m as ‘a b’", "bold"]
    line, point = shown["layer"]
    assert line["encoding"]["y"]["title"] == "m as ‘a b’"
    assert line["encoding"]["color"]["legend"]["title"] == "‘s’"
    assert point["encoding"]["x"]["axis"]["format"] == "d"  # as its layer's other x axis
    assert line["encoding"]["y"]["axis"]["format"] == ",~f"
    assert point["encoding"]["y"]["axis"]["format"] == ",~g"  # a log scale's
    assert "axis" not in point["encoding"]["x2"]
    assert shown["hconcat"][0]["encoding"]["y"]["axis"] is None  # no axis stays none
    assert "axis" not in shown["hconcat"][0]["encoding"]["x"]
    assert spec["title"]["text"][0] == "m as `a b`"  # a copy
    assert readable(shown) == shown  # the same each tick
