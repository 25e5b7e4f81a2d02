"""Mixtures (engine/samplers/mixture.py): whole sweeps of their parts in turn, registered like
any sampler and offered by every model that offers their parts. Their exactness is the
conformance suite's (tests/conformance: every model × every sampler it offers)."""
import math

import pytest

from engine.core.rng import make_rng
from engine.models.toy.model import ToyModel
from engine.run import Run
from engine.samplers import entry, label, make_sampler, offered
from engine.samplers.mixture import MixtureSampler
from engine.samplers.token import TokenSampler
from engine.samplers.type_based import TypeSampler


def test_a_mixture_alternates_whole_sweeps_of_its_parts():
    model = ToyModel(30)
    rng = make_rng(4)
    state = model.new_state(rng, m=30)
    mixture = make_sampler("type-token", skip=False)
    assert isinstance(mixture, MixtureSampler)
    kinds = []
    for sweep in range(4):
        part = mixture.current
        kinds.append(type(part))
        info = mixture.sweep(rng, state)
        assert info.sweep == sweep and mixture.sweeps_done == sweep + 1
        figures = mixture.sweep_figures()
        # TYPE reports its mean block size; after TOKEN's sweep that column is NaN, not gone
        assert set(figures) == {"mean_block_size"}
        assert math.isnan(figures["mean_block_size"]) == (part is mixture.parts[1])
    assert kinds == [TypeSampler, TokenSampler] * 2


def test_single_moves_finish_a_parts_sweep_before_the_next_part_begins():
    model = ToyModel(5)
    rng = make_rng(5)
    state = model.new_state(rng, m=5)
    mixture = make_sampler("type-token", skip=False)
    kinds = [mixture.step(rng, state).kind for _ in range(10)]  # a toy sweep: 5 positions
    assert kinds == ["type"] * 5 + ["token"] * 5
    assert mixture.sweeps_done == 2 and mixture.position == 0


def test_mixtures_are_registered_with_their_parts_needs_and_offered_where_their_parts_are():
    mix = entry("type-sentence")
    assert label("type-token") == "TYPE + TOKEN" and mix.parts == ("type", "sentence")
    assert set(mix.needs) == set(entry("type").needs) | set(entry("sentence").needs)
    assert offered(("token", "type")) == ("token", "type", "type-token")
    assert "type-sentence" not in offered(ToyModel.samplers)  # the toy has no sentences
    with pytest.raises(ValueError, match="at least two"):
        MixtureSampler([TokenSampler()])


def test_a_run_of_a_mixture_traces_every_sweep():
    run = Run(ToyModel(40), "type-token", seed=6, init={"m": 40}, total_sweeps=6)
    run.run_for(float("inf"), 6)
    assert [row["sweep"] for row in run.trace] == list(range(7))
    assert run.trace[-1]["loglik"] == pytest.approx(run.model.loglik(run.state))
