"""Run: one chain of one sampler on one model, advanced sweep by sweep or move by move.

A run's length is a number of sweeps or a number of engine seconds: a run limited by engine
time ends with the first sweep that reaches it, so runs of different samplers given the same
seconds end together on a chart against engine time (within one sweep).

The trace has one row per completed sweep (row 0 = the initial state): sweep, engine
seconds (processor time spent inside the sampler only, never measuring or drawing), log-likelihood,
temperature, the model's measures and the sampler's figures. A Run is paused simply by not
advancing it; it keeps its state, RNG and trace, so it resumes where it stopped.
"""
import math
import time
from functools import cache

import numpy as np
import pandas as pd

from engine.core.rng import make_rng
from engine.samplers import make_sampler, offered

# Engine time is the sweeping thread's processor time, not the wall clock: while the machine
# runs something else (the app server drawing a page, another session's chains, a test run
# beside), wall time would be charged to whichever chain was mid-sweep, and a race at equal
# engine time would give its verdict by chance. Every sweep runs on the calling thread.
engine_clock = time.thread_time


def thinned(n, limit):
    """Indices of ``n`` rows: every k-th, k the smallest stride giving at most ``limit`` (and
    one more), and the last row always (so a thinned trace ends where the run is)."""
    stride = max(1, -(-n // limit))
    rows = np.arange(0, n, stride)
    if n and rows[-1] != n - 1:
        rows = np.append(rows, n - 1)
    return rows


@cache
def _warm(model_class, sampler):
    """Load (or compile) the kernels of this model and sampler once per process, on the
    model's tiny instance: a first sweep would otherwise count the loading as engine time."""
    run = Run(model_class.tiny(), sampler, seed=0, total_sweeps=2, warm_kernels=False)
    run.step()
    run.sweep()


@cache
def warm_shared(model_class):
    """Load (or compile) once per process the kernels every sampler of this model uses — its
    initial state, and a trace row's log-likelihood and measures — on its tiny instance. The
    background compiler runs it before the samplers' own, so that their jobs, in parallel, do
    not each compile these again."""
    tiny = model_class.tiny()
    Run(tiny, tiny.samplers[0], seed=0, total_sweeps=2, warm_kernels=False)


def warm(model, sampler=None):
    """Warm the kernels a Run of ``sampler`` on ``model`` uses (every sampler it offers when
    sampler is None)."""
    for name in [sampler] if sampler else model.samplers:
        _warm(type(model), name)


class Run:
    def __init__(self, model, sampler, seed, init=None, total_sweeps=None, skip=True,
                 record_values=False, warm_kernels=True, measure_share=None,
                 total_seconds=None):
        """model: a model object; sampler: a registered sampler's name; init: keyword
        arguments of model.new_state (e.g. {"m": 1000} or {"eta": 0.5}); total_sweeps or
        total_seconds: the run's length in sweeps or in engine seconds (not both; neither: no
        end), over whose first half TOKEN-anneal cools; record_values: keep
        every site's value at each trace row in ``values`` (for trajectory plots);
        warm_kernels: load the kernels first, so the first sweep's time is the sweep's;
        measure_share: at most this share of the engine time goes to the model's measures
        (a row beyond it has none; ``measure_last`` completes the last row), else every row
        has them."""
        if sampler not in offered(model.samplers):
            raise ValueError(f"the {model.name} model has no {sampler} sampler: choose one of "
                             f"{', '.join(offered(model.samplers))}")
        if warm_kernels:
            _warm(type(model), sampler)
        self.model = model
        self.sampler_name = sampler
        self.seed = int(seed)
        if total_sweeps is not None and total_seconds is not None:
            raise ValueError("give the run's length in sweeps or in engine seconds, not both")
        self.total_sweeps = math.inf if total_sweeps is None else total_sweeps
        self.total_seconds = math.inf if total_seconds is None else total_seconds
        self.seconds = 0.0
        self.rng = make_rng(self.seed)
        length = total_sweeps if total_seconds is None else self._share_of_time
        self.sampler = make_sampler(sampler, total_sweeps=length, skip=skip)
        self.state = model.new_state(self.rng, **(init or {}))
        self.measure_share = measure_share
        self.measure_seconds = 0.0  # processor time spent on the measures (never engine time)
        self.values = [] if record_values else None
        self.trace = [self._row(0, None)]

    @property
    def sweeps_done(self):
        return self.sampler.sweeps_done

    def _share_of_time(self, sweep):
        """The share of a run limited by engine time that is done (its annealing's clock)."""
        return self.seconds / self.total_seconds

    @property
    def finished(self):
        """Whether the run has reached its length (never, when it has none)."""
        return self.sweeps_done >= self.total_sweeps or self.seconds >= self.total_seconds

    @property
    def mid_sweep(self):
        """Whether single moves have left the current sweep unfinished."""
        return self.sampler.position != 0

    def advance(self, sweeps=1, by="sweep"):
        """Generator: advance ``sweeps`` sweeps, yielding a SweepInfo after each sweep
        (by="sweep") or a MoveInfo after each move (by="move")."""
        target = self.sweeps_done + sweeps
        while self.sweeps_done < target:
            if by == "move":
                yield self.step()
            else:
                yield self.sweep()

    def step(self):
        """One move; records a trace row when it completes a sweep."""
        t0 = engine_clock()
        info = self.sampler.step(self.rng, self.state)
        self.seconds += engine_clock() - t0
        if info.sweep_done:
            self.trace.append(self._row(self.sweeps_done, info))
        return info

    def sweep(self):
        """The rest of the current sweep (a whole sweep when none is under way)."""
        t0 = engine_clock()
        info = self.sampler.sweep(self.rng, self.state)
        self.seconds += engine_clock() - t0
        self.trace.append(self._row(self.sweeps_done, info))
        return info

    def run_for(self, seconds, max_sweeps):
        """Sweep until ``seconds`` of engine time have passed, ``max_sweeps`` are done or the
        run has reached its length (at least one sweep before that); return how many were
        done. Used by the pages' play ticks."""
        start, done = self.seconds, 0
        while done < max_sweeps and not self.finished and (
                done == 0 or self.seconds - start < seconds):
            self.sweep()
            done += 1
        return done

    def _row(self, sweep, info):
        """A trace row; info is the SweepInfo or MoveInfo that ended the sweep (None for row 0)."""
        # the log-likelihood from the running counts: as exact as the one from scratch (the
        # conformance suite checks they agree) and ~100 times cheaper (br-phono: 0.04 against
        # 5 ms, more than a TOKEN sweep)
        row = {"sweep": sweep, "seconds": self.seconds,
               "loglik": self.model.loglik_running(self.state),
               "temperature": info.temperature if info else self.sampler.temperature()}
        row["objective"] = self.sampler.objective(self.state, row["loglik"])
        row["objective_kind"] = self.sampler.objective_kind
        self._last_measured = (self.measure_share is None or
                               self.measure_seconds <= self.measure_share * self.seconds)
        if self._last_measured:
            row.update(self._measures())
        row.update(self.model.scalars(self.state))
        row.update(self.sampler.sweep_figures())
        if self.values is not None:
            self.values.append(self.model.values(self.state).astype(np.int16))
        return row

    def _measures(self):
        t0 = engine_clock()
        measures = self.model.measures(self.state)
        self.measure_seconds += engine_clock() - t0
        return measures

    def measure_last(self):
        """Give the last trace row the model's measures if ``measure_share`` left them out."""
        if not self._last_measured:
            self.trace[-1] = {**self.trace[-1], **self._measures()}
            self._last_measured = True

    def trace_frame(self, limit=None):
        """The trace as a frame; with ``limit``, at most that many rows spread evenly over it
        (a chart of a long run redrawn on every tick needs no more)."""
        if limit is None:
            return pd.DataFrame(self.trace)
        return pd.DataFrame([self.trace[i] for i in thinned(len(self.trace), limit)])


class Race:
    """Several samplers on one model from the same initial state, advanced side by side.

    Every Run draws its initial state first from a Generator seeded with ``seed``, so runs
    with the same seed and init start from the identical state and then go their own ways.
    The race's length is ``total_sweeps`` passes or ``total_seconds`` engine seconds of every
    run (Run's).
    """

    def __init__(self, model, samplers, seed, init=None, total_sweeps=None, skip=True,
                 record_values=False, total_seconds=None):
        if not samplers:
            raise ValueError("choose at least one sampler")
        self.total_sweeps, self.total_seconds = total_sweeps, total_seconds
        self.runs = {name: Run(model, name, seed, init=init, total_sweeps=total_sweeps, skip=skip,
                               record_values=record_values, total_seconds=total_seconds)
                     for name in samplers}

    @property
    def finished(self):
        """Whether every run has reached the race's length (never, when it has none)."""
        return all(run.finished for run in self.runs.values())

    @staticmethod
    def _sweeps_left(run, wanted):
        if run.finished:
            return 0
        return max(0, min(wanted, run.total_sweeps - run.sweeps_done))

    def sweep(self, sweeps=1):
        """Advance every run by up to ``sweeps`` sweeps (never past its length)."""
        for run in self.runs.values():
            for _ in range(self._sweeps_left(run, sweeps)):
                if run.finished:  # a length in seconds, reached on the way
                    break
                run.sweep()

    def finish(self):
        """Advance every run to the race's length."""
        if self.total_sweeps is None and self.total_seconds is None:
            raise ValueError("this race has no length to finish")
        for run in self.runs.values():
            while not run.finished:
                run.sweep()

    def run_for(self, seconds, max_sweeps):
        """Give each run ``seconds`` of engine time (at least one sweep), up to max_sweeps and
        never past its length."""
        for run in self.runs.values():
            left = self._sweeps_left(run, max_sweeps)
            if left:
                run.run_for(seconds, left)

    def sweep_together(self, max_sweeps, seconds):
        """Advance every run one sweep at a time, in turn, until each has done max_sweeps or
        ``seconds`` of wall time have passed (at least one round): runs stay at equal sweeps
        (a finished run drops out). Return the rounds done."""
        start, rounds = time.perf_counter(), 0
        while rounds < max_sweeps and (rounds == 0 or time.perf_counter() - start < seconds):
            active = [run for run in self.runs.values() if self._sweeps_left(run, 1)]
            if not active:
                break
            for run in active:
                run.sweep()
            rounds += 1
        return rounds

    def tick(self, clock, passes, budget):
        """One play tick in about ``budget`` seconds of wall time: ``passes`` passes of every
        run, in turn (clock "passes"; fewer when the budget runs out), or an equal share of the
        budget as engine time each (clock "time")."""
        if clock == "time":
            self.run_for(budget / len(self.runs), self.total_sweeps or math.inf)
        else:
            self.sweep_together(passes, budget)

    def trace_frame(self, limit=None):
        """All traces in one long frame with a ``sampler`` column (``limit``: rows per run, as
        in Run.trace_frame)."""
        frames = [run.trace_frame(limit).assign(sampler=name) for name, run in self.runs.items()]
        return pd.concat(frames, ignore_index=True)
