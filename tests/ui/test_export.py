"""Figures for slides (ui.export) and presenter mode's restyling (ui.presenter): a chart's
picture and data, a race's traces as the command line writes them, and sampler styles that do
not rely on hue alone."""
import io
import itertools
import json
import re
import xml.etree.ElementTree as ET

import altair as alt
import numpy as np
import pandas as pd
import pytest

from engine.report.plots import chain_traces_data, chain_traces_spec, style
from engine.models.toy.model import ToyModel
from engine.run import Race
from engine.samplers import SAMPLERS, label, look
from tests.command import engine
from ui import export, presenter
from ui.restaurant_view import tables_path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def race_frame():
    rows = [{"sampler": s, "chain": c, "sweep": k, "seconds": 0.01 * k, "loglik": -50.0 + k + c}
            for s in ("token", "explicit-token") for c in (0, 1) for k in range(6)]
    return pd.DataFrame(rows)


def layered_chart():
    """A line per sampler, an invisible point stretching the x axis, a labelled level."""
    data = pd.DataFrame({"sweep": [0, 1, 2] * 2, "loglik": [-3.0, -2.0, -1.5, -3.0, -2.5, -2.2],
                         "sampler": ["TOKEN"] * 3 + ["SENTENCE"] * 3})
    lines = alt.Chart(data).mark_line(strokeWidth=2.5).encode(
        x="sweep:Q", y="loglik:Q",
        color=alt.Color("sampler:N", scale=alt.Scale(domain=["TOKEN", "SENTENCE"],
                                                     range=["#d1495b", "#6a4c93"])))
    reach = alt.Chart(pd.DataFrame({"sweep": [10]})).mark_point(opacity=0).encode(x="sweep:Q")
    level = pd.DataFrame({"y": [-1.0], "text": ["exact"]})
    rule = alt.Chart(level).mark_rule().encode(y="y:Q")
    words = alt.Chart(level).mark_text().encode(y="y:Q", text="text:N")
    return style(alt.layer(lines, reach, rule, words), "log p against passes", 200)


def png_size(data):
    """(width, height) from a PNG's IHDR chunk."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_an_altair_chart_names_its_data_and_its_csv_leaves_out_invisible_marks():
    chart = layered_chart()
    spec, datasets, shown = export.altair_parts(chart)
    assert set(datasets) == {"line", "point", "rule"}  # the rule and its words share a frame
    assert shown == ["line", "rule"]                    # the opacity-0 point is not data
    assert "values" not in json.dumps(spec)             # the spec holds names, not data
    # the caller's chart keeps its frames
    assert isinstance(chart.layer[0].data, pd.DataFrame)
    table = pd.read_csv(io.StringIO(export.chart_csv(datasets, shown)))
    assert list(table["part"]) == ["line"] * 6 + ["rule"]
    assert table.loc[table.part == "line", "loglik"].tolist() == [-3.0, -2.0, -1.5, -3.0,
                                                                 -2.5, -2.2]


def test_the_same_chart_with_new_data_gives_the_same_spec():
    # a tick swaps the data: the spec must stay (Streamlit then keeps the chart on screen)
    first, _, _ = export.altair_parts(layered_chart())
    later = layered_chart()
    later.layer[0].data = later.layer[0].data.assign(loglik=lambda d: d.loglik - 1)
    assert export.altair_parts(later)[0] == first


def test_a_chart_downloads_as_a_slide_sized_png_and_an_svg():
    spec = chain_traces_spec(("token", "explicit-token"), "loglik", "log p", "log p against passes")
    datasets = chain_traces_data(race_frame(), "loglik")
    png = export.picture(spec, datasets, "png")
    assert png.startswith(PNG_SIGNATURE)
    width, height = png_size(png)
    assert width >= 2 * export.SLIDE_WIDTH and 300 < height < width  # a slide's landscape
    svg = ET.fromstring(export.picture(spec, datasets, "svg"))
    assert svg.tag.endswith("svg")
    assert export.file_stem(spec, "race_loglik_sweeps") == "log-p-against-passes"


def test_a_download_is_named_after_its_lesson_and_its_chart_and_its_picture_titled():
    chart = tables_path(np.array([1, 2, 2, 3]), 1.0, 0.0, 10)
    spec, datasets, _ = export.altair_parts(chart)
    assert export.file_stem(spec, "rest_path_chart", "Restaurants") == (
        "restaurants-tables-against-customers-so-far")
    assert export.file_stem({}, "rest_path_chart", "Restaurants") == "restaurants-rest-path-chart"
    words = re.findall(r"<text[^>]*>([^<]*)</text>", export.picture(spec, datasets, "svg"))
    assert "Tables against customers so far" in words


def test_a_race_csv_is_its_trace_as_the_command_line_writes_it(tmp_path):
    race = Race(ToyModel(n=40), ("token", "type"), seed=3, total_sweeps=4)
    race.sweep(4)
    table = pd.read_csv(io.StringIO(export.traces_csv(race)))
    trace = race.trace_frame()
    assert table.columns[0] == "sampler"
    pd.testing.assert_frame_equal(table[trace.columns], trace, check_dtype=False)
    # the same seed's chain from `run --trace`: the same columns and rows (engine time aside)
    path = tmp_path / "trace.csv"
    assert engine("run", "--model", "toy", "--n", 40, "--sampler", "token", "--sweeps", 4,
                  "--seed", 3, "--trace", path).returncode == 0
    command = pd.read_csv(path)
    token = (table[table.sampler == "token"].drop(columns="sampler").reset_index(drop=True)
             .dropna(axis=1, how="all"))  # TYPE's own figures (mean block size) are not TOKEN's
    assert list(token.columns) == list(command.columns)
    pd.testing.assert_frame_equal(token.drop(columns="seconds"), command.drop(columns="seconds"))


def test_presenter_mode_draws_every_sampler_pair_apart_without_hue():
    # every two chain samplers differ in line dash and in point shape, so no pair relies on
    # hue; Gao & Johnson's six estimators, shown together, differ in colour (Okabe–Ito's) too
    chains = [name for name, e in SAMPLERS.items() if e.kind == "chain"]
    for a, b in itertools.combinations(chains, 2):
        assert look(a).dash != look(b).dash and look(a).shape != look(b).shape, (a, b)
    gao_johnson = ("token", "sentence", "explicit-token", "explicit-sentence", "em", "vb")
    assert len({look(n).colour for n in gao_johnson}) == len(gao_johnson)
    assert look("token").colour != look("explicit-token").colour
    assert look("em").colour != look("sentence").colour


def test_presenter_restyling_enlarges_and_adds_dashes_by_sampler():
    names = ("token", "explicit-token", "em", "sentence")
    spec = chain_traces_spec(names, "loglik", "log p", "log p against passes")
    shown = presenter.restyle(spec)
    assert spec == chain_traces_spec(names, "loglik", "log p", "log p against passes")  # a copy
    chains, median = shown["layer"][:2]  # every chain thin, each median bold
    assert chains["mark"]["strokeWidth"] > spec["layer"][0]["mark"]["strokeWidth"]
    assert median["mark"]["strokeWidth"] > spec["layer"][1]["mark"]["strokeWidth"]
    colour_scale = median["encoding"]["color"]["scale"]
    assert colour_scale["range"] == [look(n).colour for n in names]
    dashes = median["encoding"]["strokeDash"]["scale"]
    assert dashes["domain"] == [label(n) for n in names]
    assert len({json.dumps(d) for d in dashes["range"]}) > 1
    assert shown["config"]["axis"]["labelFontSize"] > spec["config"]["axis"]["labelFontSize"]
    assert presenter.restyle(spec) == shown  # the same every tick


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_a_restyled_chart_still_renders(kind):
    spec = presenter.restyle(chain_traces_spec(("token", "em"), "loglik", "log p", "log p"))
    frame = race_frame().replace({"explicit-token": "em"})
    picture = export.picture(spec, chain_traces_data(frame, "loglik"), kind)
    assert picture.startswith(PNG_SIGNATURE) if kind == "png" else "<svg" in picture
