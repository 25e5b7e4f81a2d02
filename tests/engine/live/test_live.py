"""Live races (engine.live.pool): chains in worker processes give the same traces as the same chains
run here, stay together by the clock's rule, stop at their length, and report failures."""
import time

import numpy as np
import pandas as pd
import pytest

from engine.live.pool import ChainPool, LiveRace, plan
from engine.models.toy.model import ToyModel
from engine.models.usm.model import UsmModel
from engine.run import Run

WAIT = 120.0  # a fresh worker may have to load every kernel first


@pytest.fixture(scope="module")
def pool():
    pool = ChainPool(workers=2)
    yield pool
    pool.close()


def wait_until(condition, seconds=WAIT):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def without_time(rows):
    return pd.DataFrame(rows).drop(columns="seconds")


def test_chains_in_workers_equal_the_same_chains_run_here(pool):
    model = UsmModel.build(None)
    tasks = plan(["token", "type"], chains=3, seed=3, total_sweeps=12, eta=1.0)
    race = LiveRace(pool, model, tasks)
    assert race.wait_ready(WAIT)
    race.sweep(12)
    assert race.sweeps() == [12] * 6 and race.finished
    for task, rows in zip(tasks, race.rows):
        serial = Run(model, task.sampler, task.seed, init={"eta": 1.0}, total_sweeps=12)
        for _ in range(12):
            serial.sweep()
        pd.testing.assert_frame_equal(without_time(rows), without_time(serial.trace))
    race.close()


def test_chain_c_of_every_sampler_starts_from_the_same_state(pool):
    race = LiveRace(pool, ToyModel(200), plan(["token", "type"], 3, seed=5, total_sweeps=5,
                                              spread=True))
    assert race.wait_ready(WAIT)
    starts = {(task.sampler, task.chain): rows[0]["m"] for task, rows in zip(race.tasks, race.rows)}
    assert starts[("token", 0)] == starts[("type", 0)] == 0      # η = 0: nothing split
    assert starts[("token", 2)] == starts[("type", 2)] == 200    # η = 1: every copy split
    assert [task.eta for task in race.tasks[:3]] == [0.0, 0.5, 1.0]
    race.close()


def test_equal_passes_keep_the_chains_within_a_tick_and_stop_at_the_length(pool):
    passes, total = 3, 40
    race = LiveRace(pool, ToyModel(300), plan(["token", "type", "greedy"], 2, seed=0,
                                              total_sweeps=total, eta=0.5))
    assert race.wait_ready(WAIT)
    spreads = []
    while not race.finished:
        race.tick("passes", passes, budget=0.2)
        time.sleep(0.02)
        sweeps = race.sweeps()
        spreads.append(max(sweeps) - min(sweeps))
        assert max(sweeps) <= total
    assert max(spreads) <= passes and len(spreads) >= total // passes
    time.sleep(0.2)
    assert race.sweeps() == [total] * 6  # nothing beyond the length, even with ticks left over
    race.tick("passes", passes, budget=0.2)
    time.sleep(0.2)
    assert race.sweeps() == [total] * 6
    race.close()


def test_equal_engine_time_keeps_the_chains_near_the_same_seconds(pool):
    race = LiveRace(pool, UsmModel.build(None), plan(["token", "type"], 2, seed=1,
                                                     total_sweeps=10**6, eta=1.0))
    assert race.wait_ready(WAIT)
    # engine time is processor time: on a loaded machine (make test's workers beside the
    # niced chain workers) it grows slower than the clock, so tick until every chain has some
    deadline = time.monotonic() + WAIT
    while min(race.seconds()) < 0.3 and time.monotonic() < deadline:
        race.tick("time", 1, budget=0.2)
        time.sleep(0.2)
    race.sweep(0)  # aim at where the chains are: they stop
    time.sleep(0.3)
    seconds, sweeps = np.array(race.seconds()), np.array(race.sweeps())
    assert seconds.min() > 0.2
    # at equal passes TYPE's chains would be 2-3 times TOKEN's
    assert seconds.max() < 1.5 * seconds.min(), seconds
    # TOKEN's sweeps are cheaper: its chains did more, each (engine time charges a chain nothing
    # for the moments its worker lost the core; on the wall clock, under make test's load, TOKEN's
    # chains once did 31 and 49 sweeps to TYPE's 117 and 81)
    assert min(sweeps[:2]) > max(sweeps[2:]), sweeps
    race.close()


def test_a_start_the_model_refuses_is_reported_at_once(pool):
    race = LiveRace(pool, ToyModel(50), plan(["token"], 2, seed=0, total_sweeps=5, eta=2.0))
    assert not race.wait_ready(WAIT)
    assert "η must be in [0, 1]" in race.error


def test_thinned_traces_show_every_chain_at_the_same_sweeps(pool):
    race = LiveRace(pool, ToyModel(100), plan(["token", "type"], 2, seed=0, total_sweeps=50,
                                              eta=0.5))
    assert race.wait_ready(WAIT)
    race.sweep(50)
    frame = race.trace_frame(limit=10)
    by_chain = frame.groupby(["sampler", "chain"])["sweep"].apply(tuple)
    assert len(set(by_chain)) == 1 and by_chain.iloc[0][-1] == 50
    assert len(by_chain.iloc[0]) <= 11
    assert list(frame.columns[:3]) == ["sampler", "chain", "eta"]
    race.close()


def test_a_worker_that_dies_is_reported_and_replaced(pool):
    race = LiveRace(pool, ToyModel(100), plan(["token"], 2, seed=0, total_sweeps=10, eta=0.5))
    assert race.wait_ready(WAIT)
    pool._workers[0][0].kill()
    assert wait_until(lambda: race.error is not None, 10)
    assert "worker process stopped" in race.error
    again = LiveRace(pool, ToyModel(100), plan(["token"], 2, seed=0, total_sweeps=10, eta=0.5))
    # its "add" once went to the dead worker, which the system had not reaped yet, and was
    # lost (never ready, in 120 s and in 360 s): a worker whose socket has closed is replaced.
    # The replacement is a fresh process at the workers' lower priority: a long wait (it times
    # nothing)
    assert again.wait_ready(3 * WAIT)
    again.sweep(10)
    assert again.finished


def test_pause_leaves_every_chain_at_the_same_pass(pool):
    """Each worker runs its chains at its own pace and sends rows every 0.2 s, so chains read
    mid-play stand at different passes; Pause holds the workers and levels the chains."""
    race = LiveRace(pool, UsmModel.build(None), plan(["token", "type"], 3, seed=0,
                                                     total_sweeps=10**6, eta=1.0))
    assert race.wait_ready(WAIT)
    for _ in range(4):
        race.tick("passes", 100)
        time.sleep(0.1)
    race.pause()
    sweeps = race.sweeps()
    assert min(sweeps) > 0 and len(set(sweeps)) == 1, sweeps
    time.sleep(0.3)
    assert race.sweeps() == sweeps  # and they stay there
    race.close()


def test_a_race_of_engine_seconds_ends_every_chain_at_that_time(pool):
    limit = 0.1
    race = LiveRace(pool, ToyModel(2000), plan(["token", "type"], 2, seed=0,
                                               total_seconds=limit, eta=1.0))
    assert race.wait_ready(WAIT) and race.total_sweeps is None
    assert race.finish()
    for rows in race.rows:
        assert rows[-1]["seconds"] >= limit > rows[-2]["seconds"]
    race.sweep(1)  # Step on a finished race returns at once and moves nothing
    assert all(rows[-1]["seconds"] >= limit > rows[-2]["seconds"] for rows in race.rows)
    race.close()
