"""``python -m engine cluster``: a Dask scheduler and workers for the grids (``race``,
``table1``, ``gj-grid`` and the pages' grid buttons), started from this checkout.

    python -m engine cluster scheduler [--host H] [--port P]
    python -m engine cluster worker ADDRESS [--host H] [--nworkers W] [--nthreads T]

They run distributed's own Scheduler and Nanny (which starts and watches a worker process) in
this process, rather than ``dask scheduler``/``dask worker``: started by ``python -m engine``,
the engine is importable here, and the worker processes the nannies spawn inherit this
process's ``sys.path``, so they unpickle the engine's tasks wherever they were started from.
Each worker process imports this module as its Dask preload, whose ``dask_setup`` loads every
model's kernels before the worker joins, so no task compiles or loads one; the kernels are
compiled into this machine's Numba cache first (engine.live.compiler, on every core), before the
workers start.

Both listen on 127.0.0.1 unless ``--host`` says otherwise: the scheduler and the workers
unpickle what they are sent, so only machines you trust should reach them
(docs/command-line.md, "Grids on a cluster").
"""
import asyncio
import os
import signal
import sys
import time

from engine.cli.args import MAX_WORKERS, OneLineParser, int_in
from engine.grid import CONNECT_SECONDS, ClusterError, glibc_malloc
from engine.live.compiler import compile_kernels, model_jobs, run_job
from engine.models import registry

LOOPBACK = "127.0.0.1"
DASK_PORT = 8786  # Dask's own default scheduler port


def add_cluster_parser(new_parser, model):
    """The ``cluster`` subcommand and its roles (``model`` is unused: it takes none)."""
    parser = new_parser()
    roles = parser.add_subparsers(dest="role", required=True, parser_class=OneLineParser,
                                  metavar="{" + ",".join(ROLES) + "}")
    for add_parser, _ in ROLES.values():
        add_parser(roles)


def add_scheduler_parser(roles):
    """``cluster scheduler``."""
    parser = roles.add_parser("scheduler", help="start a scheduler; it prints its address")
    parser.add_argument("--host", default=LOOPBACK,
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                             "give this machine's address on a network you trust for workers "
                             "and clients elsewhere)")
    parser.add_argument("--port", type=int_in(0, 65535), default=DASK_PORT,
                        help=f"the port (default {DASK_PORT}; 0: any free port)")


def add_worker_parser(roles):
    """``cluster worker``."""
    parser = roles.add_parser("worker", help="start worker processes that join a scheduler")
    parser.add_argument("address", metavar="ADDRESS",
                        help="the scheduler's address, e.g. tcp://10.0.0.5:8786 (what `cluster "
                             "scheduler` printed)")
    parser.add_argument("--host", default=LOOPBACK,
                        help="the address the workers listen on, which the scheduler and the "
                             "other workers must reach (default 127.0.0.1: a cluster on this "
                             "machine only)")
    parser.add_argument("--nworkers", type=int_in(1, MAX_WORKERS), default=os.cpu_count() or 1,
                        help="worker processes (default: the machine's cores; a chain runs on "
                             "one core)")
    parser.add_argument("--nthreads", type=int_in(1, MAX_WORKERS), default=1,
                        help="tasks each worker process runs at once (default 1, as on a local "
                             "cluster: a chain keeps one core busy)")


def serve_scheduler(args):
    """The cluster scheduler command: a scheduler until interrupted."""
    asyncio.run(scheduler(args.host, args.port))


async def scheduler(host, port):
    """Serve a scheduler on ``host``:``port`` until stopped, having printed its address."""
    from distributed import Scheduler
    server = await started(Scheduler(host=host, port=port, dashboard=False),
                           f"a scheduler on {host}:{port}")
    print(f"scheduler at {server.address}; start workers with `python -m engine cluster "
          f"worker {server.address}`", flush=True)
    await until_stopped(server.finished())
    await server.close()


def serve_workers(args):
    """The cluster worker command: fill this machine's kernel cache, then worker processes
    until interrupted."""
    started = time.perf_counter()
    print(f"cluster worker: reaching {args.address}, then compiling this machine's kernels "
          "(a line per job) before the workers start", file=sys.stderr, flush=True)
    asyncio.run(reachable(args.address))  # before a minute of compiling for nothing
    compile_kernels(list(registry.models()), os.cpu_count() or 1)
    print(f"kernels ready in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    asyncio.run(workers(args.address, args.host, args.nworkers, args.nthreads))


async def reachable(address):
    """A ClusterError unless a scheduler answers at ``address``."""
    from distributed.comm import connect
    try:
        comm = await connect(address, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as err:  # refused, timed out, not an address
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {err}") from None
    await comm.close()


async def workers(address, host, count, threads):
    """Serve ``count`` worker processes of ``threads`` threads, listening on ``host``, for the
    scheduler at ``address`` until stopped; each loads the kernels (``dask_setup``) first."""
    from distributed import Nanny
    with glibc_malloc():  # as the local cluster's: scoring runs 3 times slower without
        nannies = [Nanny(address, nthreads=threads, host=host, preload=[__name__],
                         dashboard=False) for _ in range(count)]
        await started(asyncio.gather(*nannies), f"workers on {host}")
    print(f"{count} worker(s) of {threads} thread(s) joined {address}", flush=True)
    await until_stopped(asyncio.gather(*(nanny.finished() for nanny in nannies)))
    await asyncio.gather(*(nanny.close() for nanny in nannies))


async def started(server, what):
    """The started server (awaiting ``server`` starts it); a ClusterError saying why it could
    not start, e.g. a port in use or a --host that is not this machine's."""
    try:
        return await server
    except (OSError, RuntimeError) as err:  # distributed's "… failed to start", from the cause
        raise ClusterError(f"cannot start {what}: {err.__cause__ or err}") from None


async def until_stopped(finished):
    """Wait until ``finished`` completes or the process is told to stop (Ctrl-C, SIGTERM)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    waiting = [asyncio.ensure_future(finished), asyncio.ensure_future(stop.wait())]
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    for task in waiting:
        task.cancel()


def dask_setup(worker):
    """Dask's preload hook, run in each worker process before it joins the scheduler: load
    the kernels of every model's samplers and populations from the cache, once."""
    for model_class in registry.models().values():
        for job in model_jobs(model_class):
            if job.kind != "lesson":  # a grid's tasks never run a lesson's own kernels
                run_job(job)


ROLES = {"scheduler": (add_scheduler_parser, serve_scheduler),
         "worker": (add_worker_parser, serve_workers)}


def run_cluster(args):
    """The cluster command: the role's server, until interrupted."""
    ROLES[args.role][1](args)
