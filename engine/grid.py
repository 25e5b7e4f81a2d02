"""Grids of chains — samplers × chains × η — for diagnosing mixing (Liang et al. §5.2, Fig. 5).

Every chain is an independent task: it builds the model from a ``ModelRecipe`` (a registered
model, its corpus file and options: a few bytes to send, and each worker process builds the
model once), runs one sampler from its own seed and returns its trace. Any task with a
``run(recipe) -> DataFrame`` method runs the same way (engine.experiments.table1's particle filters). ``run_grid`` runs the
tasks one after another, or on a Dask cluster (``dask.distributed``): a ``LocalCluster`` of
processes on this machine, or any cluster's scheduler, without a change to the tasks. Results
come back as the chains finish.

Chain c of every sampler starts from the same state (seed ``seed + c``), so samplers are
compared from identical starts and chains differ only in where they start and their draws.
"""
import contextlib
import math
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from engine.diagnostics import diagnose_chains
from engine.models import registry
from engine.run import Run

# what each trace row says about its chain, ahead of the Run's own columns
KEYS = ("sampler", "chain", "eta")


@dataclass(frozen=True)
class ModelRecipe:
    """How to build a model in any process: a registered model's name, its corpus file (None:
    the built-in corpus) and its options as ((name, value), …)."""

    name: str
    data: str = None
    options: tuple = ()

    def build(self):
        return _built(self)


@dataclass(frozen=True)
class BuiltModel:
    """A recipe for a model already built in memory (an upload, a synthetic corpus): the model
    itself travels to the workers, pickled."""

    model: object

    def build(self):
        return self.model


@lru_cache(maxsize=4)
def _built(recipe):
    return registry.get(recipe.name).build(recipe.data, **dict(recipe.options))


@dataclass(frozen=True)
class ChainTask:
    """One chain: ``sweeps`` sweeps, or sweeps until ``seconds`` of engine time have passed.
    ``init``: the model's other initialisation options as ((name, value), …)."""

    sampler: str
    chain: int
    seed: int
    eta: float = None
    sweeps: int = None
    seconds: float = None
    skip: bool = True
    init: tuple = field(default=())
    measure_share: float = None  # Run's: the measures' most share of the engine time

    def run(self, recipe):
        return run_chain(recipe, self)


def tasks(samplers, chains, etas=(None,), seed=0, sweeps=None, seconds=None, skip=True,
          init=(), measure_share=None):
    """Every (η, sampler, chain) of a grid; chain c starts from seed ``seed + c``."""
    if (sweeps is None) == (seconds is None):
        raise ValueError("give the chains' length as sweeps or as seconds, not both")
    if chains < 1:
        raise ValueError("the grid needs at least one chain per sampler")
    return [ChainTask(sampler, c, seed + c, eta, sweeps, seconds, skip, tuple(init),
                      measure_share)
            for eta in etas for sampler in samplers for c in range(chains)]


def start_run(model, task):
    """The Run of ``task`` on ``model``, at its initial state."""
    init = dict(task.init)
    if task.eta is not None:
        init["eta"] = task.eta
    return Run(model, task.sampler, task.seed, init=init, total_sweeps=task.sweeps,
               skip=task.skip, measure_share=task.measure_share)


def run_chain(recipe, task):
    """Run one chain; its trace as a frame, with the KEYS columns first."""
    run = start_run(recipe.build(), task)
    if task.sweeps is not None:
        run.run_for(math.inf, task.sweeps)
    else:
        while run.seconds < task.seconds:
            run.sweep()
    run.measure_last()
    frame = run.trace_frame().rename(columns={"sweep": "iteration"})
    eta = math.nan if task.eta is None else task.eta
    return frame.assign(sampler=task.sampler, chain=task.chain, eta=eta)[
        [*KEYS, *frame.columns]]


@contextlib.contextmanager
def local_cluster(workers):
    """A Dask client of a local cluster of ``workers`` processes, a thread each, closed
    afterwards.

    Dask starts its workers with MALLOC_TRIM_THRESHOLD_=65536 (to give memory back to the
    system sooner). The scoring after every sweep allocates and frees arrays of the corpus's
    size, and with that setting it took 3 times as long: a 1-second br-phono TOKEN chain took
    2.8 s instead of 1.6 s. The workers here keep glibc's default."""
    import dask
    from distributed import Client, LocalCluster
    environ = {key: value for key, value in
               dask.config.get("distributed.nanny.pre-spawn-environ").items()
               if key != "MALLOC_TRIM_THRESHOLD_"}
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


@contextlib.contextmanager
def client_for(workers, scheduler=None):
    """A Dask client for the cluster at ``scheduler``, or for a local cluster of ``workers``
    processes (closed afterwards); None (every task in this process) for one worker."""
    if scheduler:
        from distributed import Client
        with Client(scheduler) as client:
            yield client
    elif workers and workers > 1:
        with local_cluster(workers) as client:
            yield client
    else:
        yield None


def run_grid(recipe, grid, client=None, on_result=None):
    """Every task of ``grid``: in this process (client None) or on a Dask client's workers.

    on_result(frame, done, total) is called as each chain finishes. Returns the traces of
    every chain in one long frame, in the grid's order."""
    frames = [None] * len(grid)
    for done, (index, frame) in enumerate(_results(recipe, grid, client), 1):
        frames[index] = frame
        if on_result is not None:
            on_result(frame, done, len(grid))
    return pd.concat(frames, ignore_index=True)


def _results(recipe, grid, client):
    """(index in grid, trace) pairs, as the chains finish."""
    if client is None:
        for index, task in enumerate(grid):
            yield index, task.run(recipe)
        return
    from distributed import as_completed
    futures = client.map(_run_task, [recipe] * len(grid), grid, pure=False)
    where = {future.key: index for index, future in enumerate(futures)}
    for future in as_completed(futures):
        yield where[future.key], future.result()


def _run_task(recipe, task):
    return task.run(recipe)


def summary(traces, measures=()):
    """Per sampler and η: R̂ and bulk/tail ESS of the log-likelihood (last half of every
    chain, chains cut to one length), ESS per second of engine time, and the final
    log-likelihood and ``measures``, medians over the chains."""
    rows = []
    for (sampler, eta), group in traces.groupby(["sampler", "eta"], sort=False, dropna=False):
        chains = [chain for _, chain in group.groupby("chain", sort=True)]
        length = min(len(chain) for chain in chains)
        finals = pd.DataFrame([chain.iloc[length - 1] for chain in chains])
        try:
            found = diagnose_chains(chains)
            figures = {"draws": found.draws, "rhat": found.rhat, "ess_bulk": found.ess_bulk,
                       "ess_tail": found.ess_tail, "ess_per_second": found.ess_per_second}
            verdict = found.verdict()
        except ValueError as err:  # chains too short (or too few) for R̂: say so in its place
            figures = dict.fromkeys(("draws", "rhat", "ess_bulk", "ess_tail",
                                     "ess_per_second"), math.nan)
            verdict = str(err)
        rows.append({"sampler": sampler, "eta": eta, "chains": len(chains), **figures,
                     "final_loglik": finals["loglik"].median(),
                     **{f"final_{m}": finals[m].median() for m in measures if m in finals},
                     "verdict": verdict})
    return pd.DataFrame(rows)
