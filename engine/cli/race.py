"""``python -m engine race``: a grid of chains — samplers × chains × η — on Dask, then the
traces, the R-hat/ESS summary and their pictures in a folder (engine.report.race_files)."""
import os
import sys

from engine import samplers
from engine.cli.args import (MAX_SECONDS, MAX_SWEEPS, SEED, Help, add_cluster_arguments,
                             add_output, eta_range, float_in, int_in, name_list)
from engine.cli.models import (add_model_arguments, checked_model, initialisation, load_model,
                               model_epilog)
from engine.cli.rows import grid_rows
from engine.grid import ModelRecipe, client_for, summary, tasks
from engine.live.compiler import prepare

RACE_FILES = ("traces.csv", "summary.csv", "*.png")  # what engine.report.race_files writes


def add_race_parser(new_parser, model):
    """The ``race`` subcommand (its model options once --model is known)."""
    parser = new_parser(epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(parser, model, initialisation=True)
    parser.add_argument("--samplers", type=name_list(samplers.names()), required=True,
                        help="comma-separated, e.g. token,type,type-token")
    parser.add_argument("--chains", type=int_in(2, 1000), default=4,
                        help="chains per sampler (and η), chain c from seed SEED + c (default 4)")
    length = parser.add_mutually_exclusive_group(required=True)
    length.add_argument("--sweeps", type=int_in(2, MAX_SWEEPS), help="sweeps per chain")
    length.add_argument("--seconds", type=float_in(0.001, MAX_SECONDS),
                        help="engine seconds per chain (sweeps until then)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--eta", type=float_in(0.0, 1.0), default=None,
                       help="initialisation η of every chain (default: the model's)")
    start.add_argument("--eta-sweep", type=eta_range,
                       help="START:STOP:STEP: a grid over η (Liang et al. Fig. 5 d-f)")
    parser.add_argument("--seed", type=SEED, default=0, help="chain c's seed is SEED + c")
    parser.add_argument("--no-skip", action="store_true",
                        help="TYPE: turn the skip approximation off (exact, slower)")
    parser.add_argument("--measure-share", type=float_in(0.0, 1.0), default=None,
                        help="score the measures (accuracy, F) only while they cost at most "
                             "this share of the engine time, e.g. 0.05 (the last row always "
                             "has them); default: every sweep")
    add_output(parser, "--out", dest="out_dir", required=True, folder=True, writes=RACE_FILES,
               help="folder for traces.csv and summary.csv (made if missing)")
    add_cluster_arguments(parser, "chains")


def race(args):
    """The race command: a grid of chains, then traces.csv and summary.csv in --out."""
    from engine.report.race_files import TRACES, measure_columns, write_summary  # Altair: slow
    model_class = checked_model(args, args.samplers)
    load_model(model_class, args)  # a bad corpus or option is refused here, before any worker
    prepare(model_class, args.samplers)  # compiled once here (or waited for): workers load them
    # the corpus's bytes travel with the grid: a cluster's workers need no copy of the file
    recipe = ModelRecipe(model_class.name, args.data,
                         tuple((o.name, getattr(args, o.name)) for o in model_class.options))
    init = initialisation(model_class, args)
    init.pop("eta", None)
    grid = tasks(args.samplers, args.chains, args.eta_sweep or (args.eta,), args.seed,
                 args.sweeps, args.seconds, not args.no_skip, tuple(init.items()),
                 args.measure_share)

    def progress(frame, done, total):
        print(f"  {done}/{total} chains done", file=sys.stderr, flush=True)

    with client_for(args.workers, args.scheduler) as client:
        traces = grid_rows(recipe, grid, client, os.path.join(args.out_dir, TRACES), "chains",
                           progress)
    table = summary(traces, measures=measure_columns(traces, args.samplers))
    write_summary(args.out_dir, traces, table, plots=plot_labels(model_class, traces))
    print(table.to_string(index=False))


def plot_labels(model_class, traces):
    """What the race's pictures show: the log-probability, and the model's headline measure
    when the corpus has gold."""
    labels = {"loglik": "log-probability"}
    headline = next((c for c in model_class.trace_labels if c in traces), None)
    if headline is not None:
        labels[headline] = model_class.trace_labels[headline]
    return labels
