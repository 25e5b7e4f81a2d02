"""``python -m engine parallel``: Peng & Gildea's parallel inexact sampler (2014, §4.2;
engine.samplers.parallel) with k = each of --workers, a CSV row per (workers, iteration), and
the paper's Fig. 5 as a table: per k, the mean time per iteration, the speed-up over k = 1 and the
log-likelihood at the last iteration.

    python -m engine parallel --model scfg [--data PAIRS --alignments ALIGN] --sampler type
                              --workers 1,2,4 --iterations 60 [--seed S] [--no-skip]
                              [--scheduler ADDRESS] --out FILE.csv [the model's options]
"""
import argparse
import os
import sys

import pandas as pd

from engine import samplers
from engine.cli.args import (FULL_PRECISION, MAX_SWEEPS, MAX_WORKERS, SEED, Help, add_output,
                             bounded, float_in, int_in)
from engine.cli.models import (add_model_arguments, checked_model, initialisation, load_model,
                               model_epilog)
from engine.cli.rows import GrowingCsv
from engine.grid import BuiltModel, client_for
from engine.live.compiler import prepare
from engine.samplers.parallel import ParallelChain, splits


def worker_counts(text):
    """An argparse type: comma-separated worker counts, each ≥ 1, no repeats, in the order
    given."""
    parse = int_in(1, MAX_WORKERS)
    counts = [parse(part.strip()) for part in text.split(",") if part.strip()]
    if not counts:
        raise argparse.ArgumentTypeError("give at least one number of workers, e.g. 1,2,4")
    if len(set(counts)) < len(counts):
        raise argparse.ArgumentTypeError(f"a number of workers is repeated in {text!r}")
    return counts


bounded(worker_counts, 1, MAX_WORKERS)  # each of them


def add_parallel_parser(new_parser, model):
    """The ``parallel`` subcommand (its model options once --model is known)."""
    parser = new_parser(epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(parser, model, initialisation=True)
    offered = samplers.names() if model is None else samplers.offered(model.samplers)
    parser.add_argument("--sampler", choices=samplers.names(), required=True, metavar="NAME",
                        help="every worker's sampler: " + ", ".join(offered))
    parser.add_argument("--workers", type=worker_counts, required=True, metavar="K,K,…",
                        help="the numbers of workers (shards of the corpus) to run, e.g. "
                             "1,2,4; each k is its own chain from the same start")
    parser.add_argument("--iterations", type=int_in(1, MAX_SWEEPS), required=True,
                        help="iterations of each chain (a sweep on every worker, then the merge)")
    parser.add_argument("--seed", type=SEED, default=0,
                        help="the chains' seed (default 0): k = 1 is `run`'s chain of that seed")
    parser.add_argument("--eta", type=float_in(0.0, 1.0), default=None,
                        help="initialisation η (default: the model's)")
    parser.add_argument("--no-skip", action="store_true",
                        help="TYPE: turn the skip approximation off (exact, slower)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. "
                                            "tcp://10.0.0.5:8786, whose workers hold the shards "
                                            "(default: a local cluster of as many processes as "
                                            "the most workers asked, at most the cores; every "
                                            "shard in this process when that is one)")
    add_output(parser, "--out", required=True, metavar="FILE.csv",
               help="CSV: workers, iteration, loglik, seconds (the iteration's wall time), "
                    "sweep_seconds (the slowest worker's sweep), sweep_cpu_share (the share "
                    "of it that worker ran)")


def run_parallel(args):
    """The parallel command: a chain per number of workers, the CSV, the Fig. 5 table."""
    model_class = checked_model(args, [args.sampler])
    if not splits(model_class):
        raise ValueError(f"the {model_class.name} model cannot be split over workers: the "
                         "parallel sampler runs on a corpus of sentence pairs (--model scfg)")
    model = load_model(model_class, args)
    prepare(model_class, [args.sampler])
    units = len(model.shard_weights())
    if max(args.workers) > units:
        raise ValueError(f"--workers {max(args.workers):,} is more workers than pairs: the "
                         f"corpus has {units:,}, and a worker needs at least one")
    init = initialisation(model_class, args)
    processes = min(max(args.workers), os.cpu_count() or 1)
    with client_for(processes, args.scheduler) as client, \
            GrowingCsv(args.out, "chains", len(args.workers), FULL_PRECISION) as rows:
        for k in args.workers:  # each chain's rows are on disk as soon as it ends
            with ParallelChain(BuiltModel(model), args.sampler, k, args.seed, client=client,
                               init=init, skip=not args.no_skip,
                               total_sweeps=args.iterations) as chain:
                for _ in range(args.iterations):
                    chain.iterate()
                rows.add(chain.trace_frame())
            print(f"  {k} workers: done", file=sys.stderr, flush=True)
        trace = pd.concat(rows.frames, ignore_index=True)
        rows.finish(trace)
    print(fig5_table(trace).to_string(index=False))


def fig5_table(trace):
    """Per number of workers: the mean time per iteration (wall, and the slowest worker's
    sweep, and the share of that sweep its thread ran), the speed-up over one worker (when it
    ran) and the log-likelihood at the last iteration."""
    iterations = trace[trace.iteration > 0]
    table = iterations.groupby("workers", sort=False).agg(
        seconds_per_iteration=("seconds", "mean"), sweep_seconds=("sweep_seconds", "mean"),
        cpu_share=("sweep_cpu_share", "mean"))
    table["last_loglik"] = trace.groupby("workers", sort=False).loglik.last()
    if 1 in table.index:
        table["speed_up"] = table.loc[1, "seconds_per_iteration"] / table.seconds_per_iteration
    return table.reset_index()
