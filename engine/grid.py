"""Grids of chains — samplers × chains × η — for diagnosing mixing (Liang et al. §5.2, Fig. 5).

Every chain is an independent task: it builds the model from a ``ModelRecipe`` (a registered
model, its corpus's bytes — read here, so a cluster's machines need no copy of the file — and
its options; each worker process builds the model once) or takes a ``BuiltModel``, runs one
sampler from its own seed and returns its trace. Any task with a ``run(recipe) -> DataFrame``
method runs the same way (engine.experiments.table1's particle filters). ``run_grid`` runs the
tasks one after another, or on a Dask cluster (``dask.distributed``): a ``LocalCluster`` of
processes on this machine, or the cluster at a scheduler's address (started with ``python -m
engine cluster``, docs/command-line.md), without a change to the tasks. Results come back as
the chains finish.

A cluster's scheduler and workers unpickle what they are sent, and a client what they send
back: use only a cluster you trust. Which cluster a server's pages use is therefore chosen by
whoever starts the server (``server_scheduler``), never by a visitor.

Chain c of every sampler starts from the same state (seed ``seed + c``), so samplers are
compared from identical starts and chains differ only in where they start and their draws.
"""
import contextlib
import logging
import math
import os
import socket
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pandas as pd

import engine
from datasets.text import read_bytes
from engine.models import registry
from engine.run import Run

# what each trace row says about its chain, ahead of the Run's own columns
KEYS = ("sampler", "chain", "eta")


SCHEDULER_VARIABLE = "TYPEBLOCKS_SCHEDULER"
CONNECT_SECONDS = 10  # to reach a scheduler
WORKER_WAIT_SECONDS = 30  # for a cluster's first worker to join


class ClusterError(ValueError):
    """A cluster that cannot run the engine's grids: unreachable, without workers, or running
    another engine (or none)."""


@dataclass(frozen=True)
class ModelRecipe:
    """How to build a model in any process: a registered model's name, its corpus file (None:
    the built-in corpus) and its options as ((name, value), …).

    The file's bytes are read when the recipe is made and travel with it (``corpus``), so a
    worker on another machine builds the same model without the file."""

    name: str
    data: str = None
    options: tuple = ()
    corpus: bytes = field(default=None, repr=False)

    def __post_init__(self):
        if self.data is not None and self.corpus is None:  # a CorpusError naming the path
            object.__setattr__(self, "corpus", read_bytes(Path(self.data)))

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
    """The recipe's model, built once per process. A model builds from a file, so the corpus's
    bytes are written to a private temporary one under the original file's name."""
    model = registry.get(recipe.name)
    if recipe.data is None:
        return model.build(None, **dict(recipe.options))
    with tempfile.TemporaryDirectory(prefix="typeblocks-corpus-") as folder:
        path = Path(folder) / Path(recipe.data).name
        path.write_bytes(recipe.corpus)
        return model.build(str(path), **dict(recipe.options))


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
               total_seconds=task.seconds, skip=task.skip, measure_share=task.measure_share)


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


def glibc_malloc():
    """Dask's configuration for the worker processes it spawns from here on, with glibc's
    default memory trimming (a context manager).

    Dask starts its workers with MALLOC_TRIM_THRESHOLD_=65536 (to give memory back to the
    system sooner). The scoring after every sweep allocates and frees arrays of the corpus's
    size, and with that setting it took 3 times as long: a 1-second br-phono TOKEN chain took
    2.8 s instead of 1.6 s."""
    import dask
    environ = {key: value for key, value in
               dask.config.get("distributed.nanny.pre-spawn-environ").items()
               if key != "MALLOC_TRIM_THRESHOLD_"}
    return dask.config.set({"distributed.nanny.pre-spawn-environ": environ})


@contextlib.contextmanager
def local_cluster(workers):
    """A Dask client of a local cluster of ``workers`` processes, a thread each, closed
    afterwards (its workers keep glibc's memory trimming: ``glibc_malloc``).

    Dask's own log lines are silenced below CRITICAL: a command stopped mid-race (Ctrl-C,
    SIGTERM) otherwise printed Dask's warnings about the cancelled tasks and, at times, a
    worker's traceback from a heartbeat to the closed scheduler; what a command says on
    stopping is its own ("stopped after 1 of 4 chains: kept …"), and a task's error still
    reaches it as the task's exception."""
    from distributed import Client, LocalCluster
    with glibc_malloc(), LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None,
                                      silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:
        yield client


def server_scheduler():
    """The scheduler whose cluster a server's pages run their grids on: the address in the
    environment variable TYPEBLOCKS_SCHEDULER (``make run TYPEBLOCKS_SCHEDULER=tcp://…``), or
    None for a local cluster. Whoever starts the server chooses it, never a visitor: a Dask
    client unpickles what a scheduler sends back, so a scheduler of a visitor's choosing could
    run code on the server."""
    return os.environ.get(SCHEDULER_VARIABLE) or None


@contextlib.contextmanager
def cluster_client(scheduler):
    """A Dask client of the cluster at ``scheduler``, once it is checked (``check_cluster``);
    a ClusterError saying what to do when it cannot run the grids."""
    from distributed import Client
    try:
        knock(scheduler)
        client = Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as err:  # refused, timed out, not an address
        raise ClusterError(f"cannot reach a Dask scheduler at {scheduler}: {err}") from None
    with client:
        check_cluster(client, scheduler)
        yield client


def knock(scheduler):
    """Connect to a tcp:// scheduler's port and hang up: a refused connection raises at once
    (OSError), where Dask's client would retry it for CONNECT_SECONDS before saying so."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    scheme, location = parse_address(scheduler)
    if scheme == "tcp":
        with socket.create_connection(parse_host_port(location), timeout=CONNECT_SECONDS):
            pass


def check_cluster(client, scheduler):
    """A ClusterError unless the cluster has a worker and its scheduler and every worker run
    this checkout's engine (``engine.version``): they unpickle the engine's tasks, and another
    version could give other traces."""
    start = "start it from this checkout with `python -m engine cluster scheduler`"
    try:
        theirs = client.run_on_scheduler(engine.version)
    except Exception as err:  # whatever the scheduler failed with, it cannot run the engine
        raise ClusterError(f"the scheduler at {scheduler} cannot run the engine ({err!r}): "
                           f"{start}") from None
    if theirs != engine.version():
        raise ClusterError(f"the scheduler at {scheduler} runs engine version {theirs}, this "
                           f"checkout is {engine.version()}: {start}")
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
    except TimeoutError:
        raise ClusterError(f"no worker joined the scheduler at {scheduler} in "
                           f"{WORKER_WAIT_SECONDS} s: start one with `python -m engine cluster "
                           f"worker {scheduler}`") from None
    problems = worker_problems(client.run(engine.version, on_error="return"))
    if problems:
        raise ClusterError(f"{'; '.join(problems)}: start them from this checkout with "
                           f"`python -m engine cluster worker {scheduler}`")


def worker_problems(versions):
    """What is wrong with the workers, given each one's engine version or the error it
    raised asked for it ({address: version or exception}): one phrase per kind of fault."""
    faults = {}
    for address, version in sorted(versions.items()):
        if isinstance(version, BaseException):
            fault = f"cannot run the engine ({version})"
        elif version != engine.version():
            fault = f"run engine version {version}, this checkout is {engine.version()}"
        else:
            continue
        faults.setdefault(fault, []).append(address)
    return [f"the workers at {', '.join(addresses)} {fault}"
            for fault, addresses in faults.items()]


@contextlib.contextmanager
def client_for(workers, scheduler=None):
    """A Dask client for the cluster at ``scheduler`` (checked: ``cluster_client``), or for a
    local cluster of ``workers`` processes (closed afterwards); None (every task in this
    process) for one worker."""
    if scheduler:
        with cluster_client(scheduler) as client:
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
    # the recipe (a corpus, a model) goes to the cluster once, not once per task
    shared = None if recipe is None else client.scatter(recipe, hash=False)
    futures = client.map(_run_task, [shared] * len(grid), grid, pure=False)
    where = {future.key: index for index, future in enumerate(futures)}
    for future in as_completed(futures):
        yield where[future.key], future.result()


def _run_task(recipe, task):
    return task.run(recipe)


def summary(traces, measures=()):
    """Per sampler and η: R̂ and bulk/tail ESS of the log-likelihood (last half of every
    chain, chains cut to one length), ESS per second of engine time, and the final
    log-likelihood and ``measures``, medians over the chains."""
    from engine.diagnostics import diagnose_chains  # ArviZ takes a second to import
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
