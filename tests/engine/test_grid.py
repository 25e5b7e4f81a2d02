"""Grids of chains (engine/grid.py): seeds and starts, the summary, and the same traces on a
real Dask LocalCluster of two worker processes as in one process."""
import os
import pickle
import shutil

import numpy as np
import pandas as pd
import pytest

from engine.grid import ModelRecipe, local_cluster, run_grid, summary, tasks
from tests.root import ROOT

TOY = ModelRecipe("toy", options=(("n", 200),))
NURSERY = ROOT / "datasets" / "builtin" / "nursery.txt"


def without_time(traces):
    return traces.drop(columns="seconds").reset_index(drop=True)


def test_chain_c_of_every_sampler_starts_from_one_state_and_chains_differ():
    grid = tasks(["token", "type"], chains=3, etas=(0.5,), seed=10, sweeps=6)
    assert [(t.sampler, t.chain, t.seed) for t in grid[:3]] == [
        ("token", 0, 10), ("token", 1, 11), ("token", 2, 12)]
    traces = run_grid(TOY, grid)
    starts = traces[traces.iteration == 0].set_index(["sampler", "chain"])["m"]
    assert (starts["token"] == starts["type"]).all()  # the same start per chain
    assert starts["token"].nunique() == 3               # and different starts across chains
    assert len(traces) == 2 * 3 * 7 and set(traces.eta) == {0.5}


def test_the_length_is_sweeps_or_seconds():
    with pytest.raises(ValueError, match="sweeps or as seconds"):
        tasks(["token"], chains=2, sweeps=5, seconds=1.0)
    traces = run_grid(TOY, tasks(["token"], chains=2, seconds=0.05))
    assert (traces.groupby("chain").seconds.max() >= 0.05).all()


def test_summary_finds_token_stuck_where_type_mixes():
    grid = tasks(["token", "type"], chains=4, etas=(1.0,), sweeps=8)
    found = summary(run_grid(ModelRecipe("toy", options=(("n", 1000),)), grid), measures=("m",))
    by = found.set_index("sampler")
    assert list(found.columns[:4]) == ["sampler", "eta", "chains", "draws"]
    assert by.loc["token", "chains"] == 4 and by.loc["token", "draws"] == 5
    assert by.loc["token", "final_m"] == 0  # every chain from m = n has escaped by pass 8…
    # …but not at the same pass: the last half of the chains still disagree
    assert by.loc["token", "rhat"] > 1.01 and by.loc["token", "verdict"].startswith("not mixed")
    assert by.loc["type", "final_m"] == 0


def test_a_dask_cluster_gives_the_serial_traces():
    grid = tasks(["token", "type-token"], chains=3, etas=(0.2, 0.8), sweeps=5)
    serial = run_grid(TOY, grid)
    seen = []
    with local_cluster(2) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        environ = client.run(lambda: dict(os.environ))
        assert all("MALLOC_TRIM_THRESHOLD_" not in env for env in environ.values())
        spread = run_grid(TOY, grid, client=client,
                          on_result=lambda frame, done, total: seen.append((done, total)))
    pd.testing.assert_frame_equal(without_time(spread), without_time(serial))
    assert seen == [(k, len(grid)) for k in range(1, len(grid) + 1)]
    assert np.isfinite(spread.seconds).all()


def test_a_recipe_carries_its_corpus_so_a_worker_needs_no_file(tmp_path):
    corpus = tmp_path / "corpus.txt"
    shutil.copy(NURSERY, corpus)
    recipe = ModelRecipe("usm", str(corpus), (("alpha0", 5.0),))
    corpus.unlink()  # as on a worker of another machine
    model = pickle.loads(pickle.dumps(recipe)).build()
    assert model.texts == ModelRecipe("usm", str(NURSERY), (("alpha0", 5.0),)).build().texts
    assert model.alpha0 == 5.0
