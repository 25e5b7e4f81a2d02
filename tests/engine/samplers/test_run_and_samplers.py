"""Run, Race and the samplers' bookkeeping: determinism, step = sweep, Infos, traces, schedules."""
import numpy as np
import pandas as pd
import pytest

from engine.core.rng import make_rng
from engine.models.toy.model import ToyModel
from engine.run import Race, Run, thinned
from engine.samplers import make_sampler, schedule
from tests.conformance.cases.toy import toy_log_g


def frame_without_time(run):
    return run.trace_frame().drop(columns="seconds")


@pytest.mark.parametrize("sampler", ToyModel.samplers)
def test_same_seed_same_trace_and_state(sampler):
    runs = [Run(ToyModel(200), sampler, seed=3, total_sweeps=20) for _ in range(2)]
    for run in runs:
        for _ in run.advance(20):
            pass
    pd.testing.assert_frame_equal(frame_without_time(runs[0]), frame_without_time(runs[1]))
    assert np.array_equal(runs[0].state.z, runs[1].state.z)
    starts = [Run(ToyModel(200), sampler, seed, init={"m": 100}, total_sweeps=20).state.z
              for seed in (3, 4)]
    assert not np.array_equal(*starts)  # another seed, another chain


@pytest.mark.parametrize("sampler", ["token", "type"])
def test_a_sweep_of_single_moves_equals_one_sweep(sampler):
    by_move, by_sweep = (Run(ToyModel(50), sampler, seed=5, init={"m": 25}) for _ in range(2))
    infos = list(by_move.advance(3, by="move"))
    for _ in by_sweep.advance(3):
        pass
    assert np.array_equal(by_move.state.z, by_sweep.state.z)
    assert by_move.rng.random() == by_sweep.rng.random()  # the same draws were consumed
    assert sum(info.sweep_done for info in infos) == 3
    assert len(by_move.trace) == len(by_sweep.trace) == 4


def test_token_move_info_describes_one_site():
    run = Run(ToyModel(10), "token", seed=6)
    for s in range(10):
        info = run.step()
        assert info.kind == "token" and info.pivot == s and list(info.block) == [s]
        assert info.after[0] == run.state.z[s] == info.drawn
        assert np.exp(info.log_p).sum() == pytest.approx(1.0)
        assert len(info.changed) == int(info.before[0] != info.after[0])
    assert info.sweep_done


def test_type_move_info_on_the_toy_is_one_block_of_every_site():
    n = 40
    run = Run(ToyModel(n), "type", seed=7, skip=False)
    info = run.step()
    assert info.kind == "type" and sorted(info.block) == list(range(n))
    assert info.block[0] == info.pivot
    assert len(info.log_p) == n + 1 and np.exp(info.log_p).sum() == pytest.approx(1.0)
    assert info.drawn == run.state.z.sum() == info.after.sum()
    assert np.array_equal(info.changed, info.block[info.before != info.after])
    # eq. 7 on the toy is eq. 2: the move's distribution over m is the exact posterior
    np.testing.assert_allclose(info.log_p, ToyModel(n).log_posterior(), atol=1e-9)


def test_trace_has_row_0_for_the_start_and_one_row_per_sweep():
    run = Run(ToyModel(30), "type", seed=8, total_sweeps=5)
    for _ in run.advance(5):
        pass
    frame = run.trace_frame()
    assert list(frame.sweep) == list(range(6))
    assert {"sweep", "seconds", "loglik", "temperature", "m", "mean_block_size"} <= set(frame)
    assert frame.m.iloc[0] == 30
    assert frame.seconds.is_monotonic_increasing
    assert (frame.mean_block_size.iloc[1:] == 30).all()  # the block is all 30 sites
    assert "mean_block_size" not in Run(ToyModel(30), "token", seed=8).trace_frame()


def test_pausing_and_resuming_changes_nothing():
    whole, paused = (Run(ToyModel(100), "anneal", seed=9, total_sweeps=10) for _ in range(2))
    for _ in whole.advance(5):
        pass
    for chunk in (3, 2):
        for _ in paused.advance(chunk):
            pass
    pd.testing.assert_frame_equal(frame_without_time(whole), frame_without_time(paused))


def test_peng_and_gildeas_schedule_warms_beta_to_1_3_and_settles_at_1():
    """§5.1: β from 0.1 up to 1.3 by 0.1 every 3 iterations, then back down to 1."""
    temp = schedule.peng_gildea()
    betas = [round(1.0 / temp(s), 9) for s in range(60)]
    assert betas[:7] == [0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3]
    assert betas[36:48] == [1.3, 1.3, 1.3, 1.2, 1.2, 1.2, 1.1, 1.1, 1.1, 1.0, 1.0, 1.0]
    assert set(betas[45:]) == {1.0}


def test_anneal_schedule_cools_from_10_to_1_over_the_first_half():
    temp = schedule.anneal(100)
    assert [temp(s) for s in (0, 25, 50, 99)] == pytest.approx([10.0, 5.5, 1.0, 1.0])
    run = Run(ToyModel(20), "anneal", seed=10, total_sweeps=8)
    for _ in run.advance(8):
        pass
    # row k was made by sweep k − 1, at the temperature of that sweep
    assert list(run.trace_frame().temperature[1:]) == pytest.approx([10, 7.75, 5.5, 3.25, 1, 1, 1, 1])
    with pytest.raises(ValueError, match="total_sweeps"):
        schedule.anneal(0)


def test_unknown_sampler_names_the_choices():
    with pytest.raises(ValueError, match="unknown sampler 'gibbs': choose one of token, type"):
        make_sampler("gibbs")
    with pytest.raises(ValueError, match="needs the run's length"):
        make_sampler("anneal")


@pytest.mark.parametrize("n", [1, 3, 10, 100])
@pytest.mark.parametrize("init_m", [0, 1, "n"])
def test_greedy_sets_the_block_to_the_more_probable_of_all_0_and_all_1(n, init_m):
    """TYPE-greedy (§5.1): all-`ab` if g(0) > g(n), else all `a b`; it never draws."""
    m0 = n if init_m == "n" else init_m
    run = Run(ToyModel(n), "greedy", seed=11, init={"m": m0})
    run.sweep()
    expected = 0 if toy_log_g(n, 0) > toy_log_g(n, n) else n
    assert run.state.z.sum() == expected


def test_race_starts_every_sampler_from_the_same_state_and_stops_at_its_length():
    race = Race(ToyModel(60), ToyModel.samplers, seed=12, init={"m": 30}, total_sweeps=4)
    starts = {tuple(run.model.values(run.state)) for run in race.runs.values()}
    assert len(starts) == 1
    race.sweep(10)
    assert race.finished and all(run.sweeps_done == 4 for run in race.runs.values())
    frame = race.trace_frame()
    assert sorted(frame.sampler.unique()) == sorted(ToyModel.samplers)
    assert len(frame) == (4 + 1) * len(ToyModel.samplers)  # each sampler: passes 0 … 4
    with pytest.raises(ValueError, match="at least one sampler"):
        Race(ToyModel(5), [], seed=0)


@pytest.mark.parametrize("n, limit", [(0, 5), (1, 5), (5, 5), (6, 5), (1001, 300), (5001, 80)])
def test_thinned_rows_are_evenly_spaced_end_at_the_last_and_stay_near_the_limit(n, limit):
    rows = thinned(n, limit)
    assert len(rows) <= limit + 1 and len(set(rows)) == len(rows)
    if n:
        assert rows[0] == 0 and rows[-1] == n - 1
        assert len(set(np.diff(rows[:-1]))) <= 1  # one stride, but for the last step
    if n <= limit:
        assert list(rows) == list(range(n))


def test_a_thinned_trace_frame_holds_the_kept_rows_of_each_run():
    race = Race(ToyModel(40), ["token", "type"], seed=5, total_sweeps=50)
    race.sweep(50)
    frame = race.trace_frame(limit=10)
    for name, run in race.runs.items():
        rows = frame[frame.sampler == name]
        assert list(rows.sweep) == [run.trace[i]["sweep"] for i in thinned(51, 10)]
        assert rows.loglik.iloc[-1] == run.trace[-1]["loglik"]


def test_run_for_spends_its_time_budget_in_whole_sweeps():
    run = Run(ToyModel(1000), "token", seed=13)
    assert run.run_for(0.0, max_sweeps=5) == 1  # at least one sweep
    assert run.run_for(10.0, max_sweeps=5) == 5  # never more than max_sweeps


def test_sweeping_together_keeps_every_run_at_equal_passes_within_the_budget():
    race = Race(ToyModel(1000), ("token", "type"), seed=3, init={"m": 1000}, total_sweeps=12)
    assert race.sweep_together(5, seconds=10.0) == 5  # the pass limit, not the time
    assert [run.sweeps_done for run in race.runs.values()] == [5, 5]
    assert race.sweep_together(5, seconds=0.0) == 1  # no time left: one round, still equal
    assert [run.sweeps_done for run in race.runs.values()] == [6, 6]
    assert race.sweep_together(100, seconds=10.0) == 6  # stops at the race's length
    assert race.finished and race.sweep_together(1, seconds=10.0) == 0


def test_kernels_refuse_python_callers_of_the_interface():
    from engine.kernels import interface
    with pytest.raises(TypeError, match="model-interface function"):
        interface.n_sites(ToyModel(3).new_state(make_rng(0)))


def test_recorded_values_follow_the_trace_rows():
    run = Run(ToyModel(20), "token", seed=3, init={"m": 20}, record_values=True)
    for _ in run.advance(4):
        pass
    assert len(run.values) == len(run.trace) == 5
    assert [int(v.sum()) for v in run.values] == [row["m"] for row in run.trace]
    assert Run(ToyModel(20), "token", seed=3).values is None


def test_a_measure_share_scores_only_what_it_pays_for_and_always_the_last_row(monkeypatch):
    from engine.models.usm.model import UsmModel
    model = UsmModel.build(None)
    run = Run(model, "token", seed=0, init={"eta": 1.0}, measure_share=0.05)
    spent_when_measuring = []  # (measure seconds so far, engine seconds) as each measure starts
    measures = model.measures
    monkeypatch.setattr(model, "measures", lambda state: (
        spent_when_measuring.append((run.measure_seconds, run.seconds)), measures(state))[1])
    for _ in range(60):
        run.sweep()
    measured = ["token_f" in row for row in run.trace]
    assert measured[0] and not all(measured)  # the start, and not every row
    assert len(spent_when_measuring) == sum(measured) - 1  # row 0 was scored before the patch
    # a measure starts only while the measures have cost at most their share of the engine time
    # (how long one measure takes varies with the machine's load, so the bound is on the decision)
    assert all(spent <= 0.05 * seconds for spent, seconds in spent_when_measuring)
    monkeypatch.undo()
    run.measure_last()
    assert "token_f" in run.trace[-1]
    every = Run(model, "token", seed=0, init={"eta": 1.0})
    for _ in range(60):
        every.sweep()
    assert run.trace[-1]["token_f"] == every.trace[-1]["token_f"]  # the same chain, scored
    assert all("token_f" in row for row in every.trace)
    assert [row["loglik"] for row in run.trace] == [row["loglik"] for row in every.trace]


def test_a_race_of_engine_seconds_ends_every_run_at_that_engine_time():
    """Equal engine time: each run stops with the first pass that reaches the race's seconds,
    so every line ends there (within one pass), however many passes each needed."""
    limit = 0.05
    race = Race(ToyModel(3000), ("token", "type"), seed=1, init={"m": 3000},
                total_seconds=limit)
    while not race.finished:
        race.tick("time", 1, budget=0.01)
    for run in race.runs.values():
        passes = np.diff([row["seconds"] for row in run.trace])
        assert limit <= run.seconds < limit + passes[-1] + 1e-9  # stopped at the limit
        assert run.trace[-2]["seconds"] < limit                  # and not before it
    race.tick("time", 1, budget=0.01)
    race.sweep(3)
    assert [run.seconds >= limit for run in race.runs.values()] == [True, True]
    assert len({len(run.trace) for run in race.runs.values()}) == 2  # unequal passes
    with pytest.raises(ValueError, match="not both"):
        Run(ToyModel(20), "token", seed=0, total_sweeps=5, total_seconds=1.0)


def test_finish_runs_every_run_to_its_length():
    race = Race(ToyModel(500), ("token", "type"), seed=2, init={"m": 500}, total_seconds=0.02)
    race.finish()
    assert race.finished and all(run.seconds >= 0.02 for run in race.runs.values())
    with pytest.raises(ValueError, match="no length"):
        Race(ToyModel(50), ("token",), seed=0).finish()


def test_anneal_over_engine_time_cools_over_the_first_half_of_the_seconds():
    temp = schedule.anneal(lambda sweep: share[0])
    share = [0.0]
    for done, expected in ((0.0, 10.0), (0.25, 5.5), (0.5, 1.0), (0.9, 1.0)):
        share[0] = done
        assert temp(7) == pytest.approx(expected)  # the sweep number plays no part
    run = Run(ToyModel(2000), "anneal", seed=4, init={"m": 2000}, total_seconds=0.05)
    while not run.finished:
        run.sweep()
    rows = run.trace_frame()
    # each row's temperature is that of the sweep that made it, set by the time before it
    shares = rows.seconds.shift().iloc[1:] / 0.05
    assert rows.temperature.iloc[1:].to_numpy() == pytest.approx(
        np.where(shares >= 0.5, 1.0, 10 - 9 * shares / 0.5))
