"""One chain at a time: ``run`` (a chain's trace, samples and final analysis), ``score`` (an
analysis's log-probability and measures), ``bench`` (a sampler's sweep times) and ``warm``
(every kernel compiled or loaded now, which the app's server otherwise does in the background)."""
import contextlib
import json
import os
import sys
import time

from datasets.errors import CorpusError
from engine import samplers
from engine.cli.args import (FULL_PRECISION, MAX_SWEEPS, SEED, Help, add_input, add_output,
                             float_in, int_in)
from engine.cli.bench import bench_sweeps
from engine.cli.models import (add_model_arguments, checked_model, in_file, initialisation,
                               load_model, model_epilog)
from engine.live.compiler import compile_kernels, prepare, warm_model
from engine.models import registry
from engine.run import Run


def add_sampling_arguments(parser, sweeps_required, model=None):
    """--sampler, --sweeps, --seed and --eta of one chain; the help lists the samplers that
    run a chain (``model``'s, once it is known): the particle filter is ``filter``'s."""
    offered = samplers.names() if model is None else samplers.offered(model.samplers)
    parser.add_argument("--sampler", choices=samplers.names(), required=True, metavar="NAME",
                        help="; ".join(f"{name}: {samplers.label(name)}" for name in offered))
    parser.add_argument("--sweeps", "--iters", dest="sweeps",
                        type=int_in(0 if sweeps_required else 1, MAX_SWEEPS),
                        required=sweeps_required, default=None if sweeps_required else 30,
                        help="sweeps to run (a sweep visits every site once)"
                             + ("" if sweeps_required else "; default 30 timed"))
    parser.add_argument("--seed", type=SEED, default=0,
                        help="the chain's random seed (default 0)"
                             + ("; same seed, data and settings → the same trace"
                                if sweeps_required else ""))
    parser.add_argument("--eta", type=float_in(0.0, 1.0), default=None,
                        help="initialisation (Liang et al. §5.2): each site starts a boundary "
                             "(segmentation), a token in state 1 (HMM) or a fragment's root "
                             "(PTSG) with probability η; "
                             "default: the model's")


def add_run_parser(new_parser, model):
    """The ``run`` subcommand (its model options once --model is known)."""
    parser = new_parser(epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(parser, model, initialisation=True)
    add_sampling_arguments(parser, sweeps_required=True, model=model)
    parser.add_argument("--no-skip", action="store_true",
                        help="TYPE: turn the skip approximation off (exact, slower)")
    add_output(parser, "--trace", required=True, help="CSV file for the per-sweep trace")
    add_output(parser, "--samples", help="file for every site's value after each sweep, a line "
                                         "per sweep")
    add_output(parser, "--output", help="file for the final analysis in the model's format")
    for output in getattr(model, "outputs", ()):
        add_output(parser, output.flag, help=output.help)


def run_chain(args):
    """The run command: one chain, its trace (and samples, final analysis) written."""
    model_class = checked_model(args, [args.sampler])
    model = load_model(model_class, args)
    prepare(model_class, [args.sampler])
    chain = Run(model, args.sampler, args.seed, init=initialisation(model_class, args),
                total_sweeps=max(args.sweeps, 1), skip=not args.no_skip)
    written = {args.output: model.write_analysis} if args.output else {}
    per_sweep = {}
    for output in model.outputs:
        path = getattr(args, output.flag.lstrip("-").replace("-", "_"))
        if path:
            (per_sweep if output.every_sweep else written)[path] = getattr(model, output.method)
    with open_or_none(args.samples) as samples, \
            contextlib.ExitStack() as files:
        every = {files.enter_context(open(path, "w", encoding="utf-8")): write
                 for path, write in per_sweep.items()}
        for sweep, _ in enumerate(chain.advance(args.sweeps), 1):
            if samples:
                samples.write(" ".join(map(str, model.values(chain.state))) + "\n")
            for out, write in every.items():
                out.write(f"# sweep {sweep}\n{write(chain.state)}")
    write_trace(chain.trace_frame(), args.trace)
    for path, write in written.items():
        with open(path, "w", encoding="utf-8") as out:
            out.write(write(chain.state))


def write_trace(frame, out):
    """A trace frame as CSV in ``out`` (a path or a text buffer), every float exact: what
    ``--trace`` writes, and the pages' "Traces (CSV)" button."""
    frame.to_csv(out, index=False, float_format=FULL_PRECISION)


class open_or_none:
    """``with open_or_none(path) as f``: f is the open file, or None when path is None."""

    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8") if path else None

    def __enter__(self):
        return self.file

    def __exit__(self, *exc):
        if self.file:
            self.file.close()


def add_score_parser(new_parser, model):
    """The ``score`` subcommand."""
    parser = new_parser(epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(parser, model)
    add_input(parser, "--analysis", required=True,
                        help="an analysis of the same corpus in the model's format (what run "
                             "--output writes)")


def score(args):
    """The score command: the analysis's log-probability and measures, as JSON."""
    model = load_model(checked_model(args), args)
    try:
        state = model.read_analysis(args.analysis)
    except CorpusError as err:
        raise in_file(args.analysis, err) from None
    print(json.dumps({"loglik": model.loglik(state), **model.measures(state)}))


def add_bench_parser(new_parser, model):
    """The ``bench`` subcommand."""
    parser = new_parser(epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(parser, model, initialisation=True)
    add_sampling_arguments(parser, sweeps_required=False, model=model)
    parser.add_argument("--warmup", type=int_in(0, MAX_SWEEPS), default=10,
                        help="untimed sweeps first (default 10)")
    parser.add_argument("--no-skip", action="store_true",
                        help="TYPE: turn the skip approximation off")


def bench(args):
    """The bench command: the sweep times as JSON."""
    model_class = checked_model(args, [args.sampler])
    model = load_model(model_class, args)
    prepare(model_class, [args.sampler])
    result = bench_sweeps(model, args.sampler, sweeps=args.sweeps, warmup=args.warmup,
                          seed=args.seed, init=initialisation(model_class, args),
                          skip=not args.no_skip)
    data = args.data or ("built-in" if model_class.needs_data else None)
    print(json.dumps({"model": model.name, "data": data, **result}))


def add_warm_parser(new_parser, model):
    """The ``warm`` subcommand (``model`` is unused: it takes --model itself)."""
    parser = new_parser()
    parser.add_argument("--model", choices=list(registry.models()), action="append",
                        help="only this model (repeatable; default: every model)")
    parser.add_argument("--jobs", type=int_in(1, 64), default=os.cpu_count() or 1,
                        help="processes compiling at once (default: the machine's cores)")


def warm_kernels(args):
    """The warm command: every kernel compiled into Numba's cache (engine.live.compiler, a
    line per job on stderr), then loaded here from it."""
    names = args.model or list(registry.models())
    started = time.perf_counter()
    compile_kernels(names, args.jobs)
    for name in names:  # from the cache now: what every page and run will use
        warm_model(registry.get(name))
    print(f"engine ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)
