"""The speed suite's floor under TYPE (benchmarks.speed.gather_blocks): it gathers each block
of a sweep once and leaves the chain exactly as it was."""
import numpy as np

from benchmarks.speed import gather_blocks
from engine.core.rng import make_rng
from engine.models.ptsg.model import PtsgModel
from engine.samplers import make_sampler


def tiny_ptsg_cut_everywhere():
    """The tiny treebank with every node cut: its two trees' NP → DT NN and DT, NN sites then
    share types (the NN site's M, U and L are the same in both)."""
    model = PtsgModel.tiny()
    return model, model.new_state(make_rng(3), eta=1.0)


def test_gathering_leaves_the_chain_as_it_was_and_gathers_each_type_once():
    model, state = tiny_ptsg_cut_everywhere()
    values = model.values(state).copy()
    counts = model.counts(state)
    types = {tuple(shape for shape, _ in model.site_type(state, s)) for s in range(model.n_sites)}
    n = model.n_sites
    visited, work = np.zeros(n, np.uint8), np.zeros((3, n), np.int64)

    blocks = gather_blocks(state, visited, work[0], work[1], work[2])

    assert visited.all()
    # the tiny treebank's sites of one type never share a fragment: no conflict splits a type
    assert blocks == len(types) < n
    np.testing.assert_array_equal(model.values(state), values)
    after = model.counts(state)
    assert after.keys() == counts.keys()
    for name, table in counts.items():
        np.testing.assert_array_equal(after[name], table)
    assert np.isclose(model.loglik_running(state), model.loglik(state))
    # the state still samples: a TYPE sweep from it runs and keeps its counts consistent
    make_sampler("type").sweep(make_rng(4), state)
    assert np.isclose(model.loglik_running(state), model.loglik(state))
