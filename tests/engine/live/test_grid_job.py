"""A grid in its own process (engine.live.grid_job), as the Sampler race page runs its η sweep: the
same traces as the grid run here, progress as chains finish, cancel, and errors reported."""
import time

import pandas as pd

from engine.grid import BuiltModel, run_grid, tasks
from engine.live.grid_job import GridJob
from engine.models.toy.model import ToyModel

WAIT = 300.0  # a local cluster starts and its workers load the kernels


def finish(job, seconds=WAIT):
    deadline = time.monotonic() + seconds
    while job.running and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not job.running, "the job did not finish in time"


def test_the_job_gives_the_grids_traces_and_its_summary():
    model = ToyModel(60)
    grid = tasks(["token", "type"], chains=2, etas=(0.0, 1.0), seed=4, sweeps=12)
    job = GridJob(BuiltModel(model), grid, workers=2)
    finish(job)
    assert job.error is None and job.done == job.total == 8 and job.state == "finished"
    traces, table = job.result()
    here = run_grid(BuiltModel(model), grid)
    pd.testing.assert_frame_equal(traces.drop(columns="seconds"), here.drop(columns="seconds"),
                                  check_dtype=False)
    assert list(table[["sampler", "eta"]].itertuples(index=False, name=None)) == [
        ("token", 0.0), ("type", 0.0), ("token", 1.0), ("type", 1.0)]


def test_a_cancelled_job_stops_at_once_and_has_no_result():
    grid = tasks(["token"], chains=2, etas=(0.5,), seed=0, seconds=600.0)
    job = GridJob(BuiltModel(ToyModel(1000)), grid, workers=1)
    time.sleep(2.0)
    started = time.monotonic()
    job.cancel()
    assert time.monotonic() - started < 10 and not job.running
    assert job.cancelled and job.state == "cancelled" and job.error is None
    assert job.done == 0 and job.result() is None and job.rows() is None


def test_a_cancelled_job_keeps_the_chains_it_finished():
    grid = (tasks(["token", "type"], chains=2, etas=(0.0,), seed=3, sweeps=6)
            + tasks(["token"], chains=1, etas=(1.0,), seed=0, seconds=600.0))
    model = ToyModel(80)
    job = GridJob(BuiltModel(model), grid, workers=1)  # in order: four short chains, one long
    deadline = time.monotonic() + WAIT
    while job.done < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert job.done == 4 and job.state == "running" and job.result() is None
    job.cancel()
    assert job.state == "cancelled" and job.error is None and job.done == 4
    traces, table = job.result()
    here = run_grid(BuiltModel(model), grid[:4])
    pd.testing.assert_frame_equal(traces.drop(columns="seconds"), here.drop(columns="seconds"),
                                  check_dtype=False)
    assert list(table[["sampler", "eta", "chains"]].itertuples(index=False, name=None)) == [
        ("token", 0.0, 2), ("type", 0.0, 2)]
    assert len(job.rows()) == len(traces)


def test_a_failing_job_says_why():
    grid = tasks(["token"], chains=2, etas=(2.0,), seed=0, sweeps=3)  # η outside [0, 1]
    job = GridJob(BuiltModel(ToyModel(10)), grid, workers=1)
    finish(job)
    assert job.result() is None and job.state == "failed"
    assert "η must be in [0, 1]" in job.error
