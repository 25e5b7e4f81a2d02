"""Peng & Gildea's parallel inexact sampler (2014, §4.2): the corpus split into k shards, one per
worker; each worker sweeps its shard with *local* counts (the global counts at the start of the
iteration plus its own changes) and *local bookkeeping* (TYPE's blocks hold only its shard's
sites); after every iteration the shards' analyses are merged and every worker's counts
refreshed. It is not an exact sampler: a shard draws its pairs given the other shards' analyses
of the last iteration, not their current ones. With too many workers each shard holds about one
site of a type and TYPE degrades to TOKEN: the chain ends lower ("too many workers").

A shard is a whole-corpus Run whose state samples only its own units (a model's ``set_shard``):
every worker holds the full analysis, so no table of foreign counts is needed and any prior
works unchanged. An iteration is one sweep on every worker (in parallel on Dask, each worker a
``ShardChain`` actor; in turn in this process without a client), then each worker installs the
other shards' analyses (the model's ``install``). Worker 0's state is then the merged chain's.

With k = 1 nothing is installed and shard 0 keeps the Run's generator: the chain is the serial
``Run(model, sampler, seed)`` draw for draw. Shard j ≥ 1 starts from the same state and draws
from its own generator, seeded with (seed, j).

A model offers the sampler by claiming the ``Shards`` role (engine.models.protocol), whose
members ``@register`` checks: ``shard_weights()``, ``set_shard``, ``shard_values`` and
``install``.
"""
import os
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.grid import BuiltModel, client_for
from engine.models.protocol import Shards
from engine.run import Run


def splits(model):
    """Whether ``model`` (a model class or object; not a recipe) claims the Shards role."""
    return Shards in getattr(model, "roles", ())


def shard_bounds(weights, k):
    """Where k contiguous shards of the units start, balanced by the units' work.

    Parameters
    ----------
    weights : int64[U]
        Each unit's work (a pair's forest nodes).
    k : int
        Shards, 1 ≤ k ≤ U.

    Returns
    -------
    int64[k + 1]
        Shard j holds units bounds[j] … bounds[j + 1] − 1; each holds at least one.
    """
    units = len(weights)
    if not 1 <= k <= units:
        raise ValueError(f"cannot split {units:,} pairs into {k:,} shards: give between 1 and "
                         f"{units:,} workers")
    total = np.cumsum(weights)
    bounds = np.zeros(k + 1, np.int64)
    bounds[k] = units
    for j in range(1, k):
        target = total[-1] * j / k
        at = int(np.searchsorted(total, target))  # the first unit reaching the target
        # end the shard before or after that unit, whichever is nearer the target
        before = total[at - 1] if at > 0 else 0
        end = at if target - before < total[at] - target else at + 1
        bounds[j] = min(max(end, bounds[j - 1] + 1), units - (k - j))
    return bounds


class ShardChain:
    """One worker's chain: a Run of the whole model that samples only units lo … hi − 1.

    Parameters
    ----------
    recipe : engine.grid.ModelRecipe or BuiltModel
        Its model, built once in the worker's process.
    sampler : str
    seed : int
        Every shard starts from this seed's initial state; shard ``index`` ≥ 1 then draws from
        its own generator, seeded with (seed, index).
    bounds : (int, int)
    index : int
    init : tuple of (name, value)
        model.new_state's options.
    skip, total_sweeps
        Run's.
    """

    def __init__(self, recipe, sampler, seed, bounds, index, init=(), skip=True,
                 total_sweeps=None):
        self.model = recipe.build()
        self.run = Run(self.model, sampler, seed, init=dict(init), skip=skip,
                       total_sweeps=total_sweeps)
        self.lo, self.hi = (int(b) for b in bounds)
        self.units = len(self.model.shard_weights())
        self.model.set_shard(self.run.state, self.lo, self.hi)
        if index:
            self.run.rng = np.random.default_rng([int(seed), int(index)])
        # load the merge's kernels now, not in the first iteration's time (nothing changes)
        self.install(self.model.shard_values(self.run.state, 0, self.units))

    def sweep(self):
        """One sweep of the shard: (its units' analysis, the sweep's engine seconds, the
        processor seconds of its thread in them: less when other processes took the core).
        Not Run.sweep: a shard's trace row (its log-likelihood before the merge) would cost
        time and mean nothing."""
        run = self.run
        t0, cpu0 = time.perf_counter(), time.thread_time()
        run.sampler.sweep(run.rng, run.state)
        seconds, cpu = time.perf_counter() - t0, time.thread_time() - cpu0
        run.seconds += seconds
        return self.model.shard_values(run.state, self.lo, self.hi), seconds, cpu

    def install(self, values):
        """Take the other shards' analyses from the merged ``values`` (the whole corpus's);
        return how many units changed."""
        state = self.run.state
        return (self.model.install(state, values, 0, self.lo)
                + self.model.install(state, values, self.hi, self.units))

    def loglik(self):
        """The log-likelihood from the state's running counts."""
        return self.model.loglik_running(self.run.state)

    def state(self):
        """The chain's state (for tests and pages: a copy when it comes from a worker)."""
        return self.run.state


class ParallelChain:
    """The parallel inexact sampler with k workers, iteration by iteration.

    Parameters
    ----------
    model : a model claiming Shards, or a ModelRecipe / BuiltModel of one
    sampler : str
    k : int
        Workers (shards), 1 … the corpus's units.
    seed : int
    client : distributed.Client or None
        None: every shard in this process, in turn (the same chain as on Dask for the same
        seed); else each shard is an actor on a worker of the client's cluster (round robin).
    init, skip, total_sweeps
        As Run's.

    ``iterate()`` runs one iteration and returns its trace row; use it as a context manager,
    which closes the actors.
    """

    def __init__(self, model, sampler, k, seed, client=None, init=None, skip=True,
                 total_sweeps=None):
        recipe = model if hasattr(model, "build") and not splits(model) else BuiltModel(model)
        built = recipe.build()
        if not splits(built):
            raise ValueError(f"the {built.name} model cannot be split over workers: the "
                             "parallel sampler needs a corpus of units it can shard")
        self.k, self.client = int(k), client
        self.bounds = shard_bounds(built.shard_weights(), self.k)
        settings = (sampler, int(seed))
        options = dict(init=tuple((init or {}).items()), skip=skip, total_sweeps=total_sweeps)
        shards = [(self.bounds[j], self.bounds[j + 1]) for j in range(self.k)]
        if client is None:
            self._futures = []
            self.shards = [ShardChain(recipe, *settings, b, j, **options)
                           for j, b in enumerate(shards)]
        else:
            workers = sorted(client.scheduler_info()["workers"])
            shared = client.scatter(recipe, broadcast=True, hash=False)
            self._futures = [client.submit(ShardChain, shared, *settings, b, j, **options,
                                           actor=True, workers=[workers[j % len(workers)]],
                                           allow_other_workers=False, pure=False)
                             for j, b in enumerate(shards)]
            self.shards = [future.result() for future in self._futures]
        self.iteration = 0
        self.trace = [self._row(0.0, (0.0, 0.0))]

    def _all(self, method, *args):
        """Call ``method`` on every shard: in parallel on actors, in turn in this process."""
        calls = [getattr(shard, method)(*args) for shard in self.shards]
        return calls if self.client is None else [call.result() for call in calls]

    def _row(self, seconds, slowest):
        loglik = self.shards[0].loglik()
        if self.client is not None:
            loglik = loglik.result()
        return {"workers": self.k, "iteration": self.iteration, "loglik": loglik,
                "seconds": seconds, "sweep_seconds": slowest[0], "sweep_cpu_share":
                slowest[1] / slowest[0] if slowest[0] > 0 else 1.0}

    def iterate(self):
        """One iteration: every shard sweeps, then installs the others' analyses. Its row:
        iteration, log-likelihood of the merged analysis, seconds (the iteration's wall time
        as this process sees it), sweep_seconds (the slowest shard's engine time) and
        sweep_cpu_share (the share of it that shard's thread ran: below 1 when other
        processes took its core; shards sharing a Dask worker sweep one after another)."""
        t0 = time.perf_counter()
        swept = self._all("sweep")
        if self.k > 1:
            merged = tuple(np.concatenate(parts) for parts in zip(*(v for v, _, _ in swept)))
            self._all("install", merged)
        seconds = time.perf_counter() - t0
        self.iteration += 1
        slowest = max((wall, cpu) for _, wall, cpu in swept)
        self.trace.append(self._row(seconds, slowest))
        return self.trace[-1]

    def state(self):
        """The merged chain's state (worker 0's)."""
        state = self.shards[0].state()
        return state if self.client is None else state.result()

    def trace_frame(self):
        """The trace, a row per iteration (row 0: the initial state)."""
        return pd.DataFrame(self.trace)

    def close(self):
        """Let the cluster drop the actors."""
        if self._futures:
            self.client.cancel(self._futures)
        self._futures, self.shards = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass(frozen=True)
class ParallelTask:
    """The parallel sampler's chains with k workers for each k of ``ks``, ``iterations``
    iterations each, as a grid task (``run(recipe)`` → their traces, a row per iteration): the
    app runs it in a process of its own (engine.live.grid_job, with one grid worker: the task
    starts its own cluster, one for every k), on a local cluster of this machine's cores or
    the cluster at ``scheduler``."""

    sampler: str
    ks: tuple
    iterations: int
    seed: int
    init: tuple = ()
    skip: bool = True
    scheduler: str = None

    def run(self, recipe):
        frames = []
        with client_for(os.cpu_count() or 1, self.scheduler) as client:
            for k in self.ks:
                with ParallelChain(recipe, self.sampler, k, self.seed, client=client,
                                   init=dict(self.init), skip=self.skip,
                                   total_sweeps=self.iterations) as chain:
                    for _ in range(self.iterations):
                        chain.iterate()
                    frames.append(chain.trace_frame())
        return pd.concat(frames, ignore_index=True)
