"""The live charts' data (ui.charts): a heatmap of states drawn as a picture shows each token's
state pass by pass where the pass axis puts it, and a race's newest points are each sampler's
last row."""
import base64
import io
import re

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from engine.report.plots import render
from engine.models.toy.model import ToyModel
from engine.run import Race, thinned
from engine.samplers import colour
from ui import charts
from ui.theme import STATE_COLOURS, state_colour


def decoded(url):
    """A data URL's PNG as an (height, width, 3) array of colours."""
    assert url.startswith("data:image/png;base64,")
    png = base64.b64decode(url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def random_values(passes, sites, states, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(1, states + 1, sites).astype(np.int16) for _ in range(passes)]


@pytest.mark.parametrize("passes", [1, 7, 80, 81, 1000, 5003])
def test_each_pixel_shows_the_state_at_the_last_recorded_pass_before_it(passes):
    # 60 states: past the palette's 48 colours, which repeat as in every chart of states
    values = random_values(passes, 40, 60, seed=passes)
    tokens = np.arange(5, 35)
    _, datasets, cells = charts.state_trajectories(values, tokens, [f"w{i}" for i in tokens],
                                                   "states")
    pixels = decoded(datasets["picture"]["url"][0])
    assert pixels.shape == (charts.PICTURE_HEIGHT, len(tokens), 3)
    rows = thinned(passes, charts.HEATMAP_ROWS)
    for y in range(charts.PICTURE_HEIGHT):
        at = y * passes / charts.PICTURE_HEIGHT  # the pass this pixel row's top stands at
        recorded = rows[rows <= at].max()
        expected = [rgb(state_colour(k)) for k in values[recorded][tokens]]
        assert [tuple(p) for p in pixels[y]] == expected, (y, recorded)
    # the CSV's cells: every recorded pass shown, each spanning the passes up to the next
    assert sorted(set(cells["pass"])) == list(rows)
    first = cells[cells["token"] == "5:w5"]
    assert first["state"].tolist() == [values[r][5] for r in rows]
    assert (first["to"].to_numpy()[:-1] == rows[1:]).all() and first["to"].iloc[-1] == passes


def test_a_palette_colour_for_every_state_as_state_colour_gives():
    k = np.arange(1, 3 * len(STATE_COLOURS) + 1)
    pixels = decoded(charts.states_picture(k[None, :], np.array([0]), 1))
    assert [tuple(p) for p in pixels[0]] == [rgb(state_colour(s)) for s in k]


def test_the_heatmap_renders_as_a_sharp_picture_under_a_token_axis():
    values = random_values(12, 30, 5, seed=3)
    tokens = np.arange(10, 22)
    words = [f"w{i}" for i in tokens]
    spec, datasets, _ = charts.state_trajectories(values, tokens, words, "TOKEN: states")
    picture = render(spec, datasets, kind="svg", width=400)
    image = re.findall(r"<image [^>]*>", picture)
    assert len(image) == 1 and "image-rendering: pixelated" in image[0]
    assert "aria-label" not in image[0]  # no label holding the picture's data
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", picture)
    assert [w for w in labels if w.startswith("w")] == words  # the word alone, in order
    assert {"0", "12"} <= set(labels)  # the pass axis runs over every pass


def test_the_newest_points_are_each_samplers_last_row():
    race = Race(ToyModel(n=40), ("token", "type", "anneal"), seed=3, total_sweeps=400)
    race.sweep(350)  # thinned: 300 rows a sampler at most, the last pass always among them
    data = charts.traces_data(race, "loglik")
    assert data["newest"]["sampler"].tolist() == ["TOKEN", "TYPE", "TOKEN-anneal"]
    for name, newest in zip(race.runs, data["newest"].itertuples()):
        last = race.runs[name].trace[-1]
        assert (newest.sweep, newest.loglik) == (350, last["loglik"])
    assert len(data["traces"]) == 3 * len(thinned(351, charts.MAX_ROWS))


def colour_pixels(png, colour):
    """How many pixels of a PNG are exactly ``colour`` ('#rrggbb')."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3)
    return int((pixels == rgb(colour)).all(axis=1).sum())


def test_a_line_under_an_identical_one_stays_visible():
    # the toy's TYPE and TYPE-greedy often draw the same m, TYPE-greedy's line on top
    spec = charts.traces_spec(("type", "greedy"), "m", "m", "m against passes")
    sweeps = np.arange(40)
    m = np.where(sweeps < 10, 1000 - 90 * sweeps, 100).astype(float)
    both = pd.DataFrame({"sweep": np.tile(sweeps, 2), "m": np.tile(m, 2),
                         "sampler": ["TYPE"] * 40 + ["TYPE-greedy"] * 40})
    alone = both[both.sampler == "TYPE"]
    drawn = {name: render(spec, {"traces": data, "newest": data.tail(1)}, "png")
             for name, data in (("alone", alone), ("under", both))}
    type_colour = colour("type")
    # at least a fifth of its line shows through the gaps of the one on top
    assert colour_pixels(drawn["under"], type_colour) > 0.2 * colour_pixels(drawn["alone"],
                                                                            type_colour)
