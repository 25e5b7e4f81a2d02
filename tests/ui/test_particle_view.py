"""The Particle filter's pictures (ui.particle_view): the weights axis always holds the bars and
never changes; the genealogy stays readable with many particles."""
import json

import numpy as np
import pytest

from ui.particle_view import (GENEALOGY_PARTICLES, genealogy_chart, lineage_rows,
                              traced_particles, weights_chart)


def normalised(log_w):
    return log_w - np.logaddexp.reduce(log_w)


def y_of(log_w, log_scale):
    spec = weights_chart(log_w, log_scale).to_dict()
    values = next(iter(spec["datasets"].values()))
    return spec["encoding"]["y"]["scale"], [row["value"] for row in values]


@pytest.mark.parametrize("n", [1, 7, 100, 1000])
def test_the_weights_axes_hold_every_weight_and_never_change(n):
    rng = np.random.default_rng(n)
    specs = set()
    for spread in np.linspace(0.0, 40.0, 30):  # from uniform weights to one particle's all
        log_w = normalised(spread * rng.standard_normal(n))
        for log_scale in (False, True):
            scale, values = y_of(log_w, log_scale)
            low, high = scale["domain"]
            assert low <= min(values) and max(values) <= high
            specs.add(json.dumps(scale))
        assert y_of(log_w, False)[1] == pytest.approx(np.exp(log_w))
    assert len(specs) == 2  # one linear-weight scale, one log scale, whatever the weights
    scale, values = y_of(normalised(np.zeros(100)), False)
    assert scale["type"] == "sqrt"  # the uniform 1/N stands a tenth of the height
    assert np.sqrt(values[0]) == pytest.approx(0.1)


def history_of(n, steps, seed=0):
    """A filter's history (bounds, ancestors) resampling multinomially after every step."""
    rng = np.random.default_rng(seed)
    return [(None, np.sort(rng.integers(0, n, n))) for _ in range(steps)]


@pytest.mark.parametrize("n", [100, 1000])
def test_many_particles_draw_the_ancestry_of_a_few(n):
    history, window = history_of(n, 60), 40
    traced = traced_particles(n)
    assert len(traced) == GENEALOGY_PARTICLES and traced[0] == 0 and traced[-1] == n - 1
    rows = lineage_rows(history, window, traced)
    assert len(rows) <= GENEALOGY_PARTICLES * window  # not N lines per utterance
    assert not rows.duplicated(["ago", "child"]).any()
    # the lines are lineages: each parent a step back is a child drawn there
    for ago in range(0, -window + 1, -1):
        parents = set(rows.loc[rows["ago"] == ago, "parent"])
        assert parents == set(rows.loc[rows["ago"] == ago - 1, "child"]) or ago == -window + 1
    ancestors = history[-1][1]
    now = rows[rows["ago"] == 0]
    assert list(now["child"]) == list(traced)
    assert list(now["parent"]) == list(ancestors[traced])


def test_few_particles_draw_every_line_and_the_title_says_which():
    history = history_of(10, 5)
    assert genealogy_chart(history, 10, 40).to_dict()["title"]["text"] == (
        "Genealogy (dark: lines that reach now)")
    many = genealogy_chart(history_of(100, 5), 100, 40).to_dict()
    assert many["title"]["text"] == (
        f"Ancestry of {GENEALOGY_PARTICLES} of the 100 particles")
