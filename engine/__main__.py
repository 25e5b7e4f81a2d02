"""The command line: the engine without a browser, for diagnosing mixing.

    python -m engine run --model MODEL [--data FILE] --sampler NAME --sweeps N --seed S
                         --trace FILE.csv [--eta E] [--output FILE] [--samples FILE] [--no-skip]
                         [the model's options]
    python -m engine score --model MODEL [--data GOLD] --analysis FILE [the model's options]
    python -m engine bench --model MODEL [--data FILE] --sampler NAME [--sweeps N] [--warmup W]
                           [--eta E] [the model's options]
    python -m engine race --model MODEL [--data FILE] --samplers A,B,… [--chains C]
                          (--sweeps N | --seconds T) [--eta E | --eta-sweep 0:1:0.1] --out DIR
                          [--workers W | --scheduler ADDRESS] [the model's options]
    python -m engine filter --model {unigram,bigram} [--data FILE] --particles N
                            [--threshold N|N/2|F] [--resampling multinomial|systematic]
                            [--baseline dpm|dps] [--seed S] --trace FILE.csv [--output FILE]
                            [--runs R --runs-out FILE.csv] [--phi PHI] [the model's options]
    python -m engine table1 [--data FILE] [--models unigram,bigram] [--sizes 1,50,…] [--runs R]
                            [--seed S] [--out FILE.csv] [--workers W | --scheduler ADDRESS]
    python -m engine gj-grid [--data FILE] [--states K] --iters T [--starts S] [--window W]
                             [--estimators em,vb,…] [--decode posterior|viterbi] [--seed S]
                             [--out FILE.csv] [--workers W | --scheduler ADDRESS]
    python -m engine toy-posterior --n N --out FILE.csv
    python -m engine tables --alpha A --counts FILE
    python -m engine warm [--model MODEL]

Models and their options come from the model registry (``python -m engine run --model NAME
--help`` lists a model's); samplers from the sampler registry. Without --data a model runs on
its built-in corpus. Invalid arguments and unreadable files give a one-line error and exit
status 2. docs/command-line.md is the user guide.
"""
import argparse
import contextlib
import csv
import json
import math
import os
import sys
from pathlib import Path

from datasets.errors import CorpusError
from datasets.text import decode, read_bytes
from engine import samplers
from engine.samplers import particle
from engine.cli.bench import bench_sweeps
from engine.cli.filter import add_filter_parser, add_table1_parser, run_filters, run_table1
from engine.cli.gao_johnson import add_gj_grid_parser, run_gj_grid
from engine.cli.args import (FULL_PRECISION, OneLineParser, add_cluster_arguments,
                             check_writable, eta_range, float_in, int_in, name_list, option_type)
from engine.models import registry
from engine.models.toy.model import MAX_N, ToyModel
from engine.run import Run, warm



def build_parser(model=None):
    """The parser; with a model class, its options are added to run, score and bench."""
    parser = OneLineParser(prog="python -m engine",
                           description="Typeblocks engine: run samplers and exact posteriors "
                                       "without a browser (docs/command-line.md).")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser,
                                     metavar="{run,score,bench,race,filter,table1,gj-grid,toy-posterior,"
                                             "tables,warm}")
    run = commands.add_parser("run", help="run one chain and write its trace",
                              epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(run, model, initialisation=True)
    add_sampling_arguments(run, sweeps_required=True)
    run.add_argument("--no-skip", action="store_true",
                     help="TYPE: turn the skip approximation off (exact, slower)")
    run.add_argument("--trace", required=True, help="CSV file for the per-sweep trace")
    run.add_argument("--samples", help="file for every site's value after each sweep, a line "
                                       "per sweep")
    run.add_argument("--output", help="file for the final analysis in the model's format")

    score = commands.add_parser("score", help="log-probability and measures of an analysis",
                                epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(score, model)
    score.add_argument("--analysis", required=True,
                       help="an analysis of the same corpus in the model's format (what run "
                            "--output writes)")

    bench = commands.add_parser("bench", help="time a sampler's sweeps; print JSON",
                                epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(bench, model, initialisation=True)
    add_sampling_arguments(bench, sweeps_required=False)
    bench.add_argument("--warmup", type=int_in(0), default=10,
                       help="untimed sweeps first (default 10)")
    bench.add_argument("--no-skip", action="store_true",
                       help="TYPE: turn the skip approximation off")

    add_race_parser(commands, model)
    add_filter_parser(commands, model, add_model_arguments, Help)
    add_table1_parser(commands)
    add_gj_grid_parser(commands)

    warm_up = commands.add_parser(
        "warm", help="compile (or load) every model's kernels now, showing progress (make run "
                     "does this first, so the app opens ready)")
    warm_up.add_argument("--model", choices=list(registry.models()), action="append",
                         help="only this model (repeatable; default: every model)")
    warm_up.add_argument("--jobs", type=int_in(1, 64), default=os.cpu_count() or 1,
                         help="processes compiling at once (default: the machine's cores)")

    post = commands.add_parser("toy-posterior", help="exact log p(m | x) of the toy (eq. 2)")
    post.add_argument("--n", type=int_in(1, MAX_N), required=True, help="copies of `ab`")
    post.add_argument("--out", required=True, help="CSV file to write (columns m,log_p)")

    tables = commands.add_parser(
        "tables", help="expected tables per word of a Chinese restaurant with a uniform base: "
                       "exact, digamma and two approximations (Blunsom et al. 2009 §3); CSV")
    tables.add_argument("--alpha", type=positive_number, required=True,
                        help="α, the DP concentration (> 0); each word's a = α/V")
    tables.add_argument("--counts", required=True,
                        help="a file of `word count` lines; its V distinct words are the base")
    return parser


def positive_number(text):
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text}")
    return value


def add_race_parser(commands, model):
    race = commands.add_parser(
        "race", help="several chains of several samplers (and η values) on Dask; traces, "
                     "R-hat and ESS as CSV", epilog=model_epilog(model), formatter_class=Help)
    add_model_arguments(race, model, initialisation=True)
    race.add_argument("--samplers", type=name_list(samplers.names()), required=True,
                      help="comma-separated, e.g. token,type,type-token")
    race.add_argument("--chains", type=int_in(2, 1000), default=4,
                      help="chains per sampler (and η), chain c from seed SEED + c (default 4)")
    length = race.add_mutually_exclusive_group(required=True)
    length.add_argument("--sweeps", type=int_in(2), help="sweeps per chain")
    length.add_argument("--seconds", type=float_in(0.001, 10**6),
                        help="engine seconds per chain (sweeps until then)")
    start = race.add_mutually_exclusive_group()
    start.add_argument("--eta", type=float_in(0.0, 1.0), default=None,
                       help="initialisation η of every chain (default: the model's)")
    start.add_argument("--eta-sweep", type=eta_range,
                       help="START:STOP:STEP: a grid over η (Liang et al. Fig. 5 d-f)")
    race.add_argument("--seed", type=int_in(0), default=0, help="chain c's seed is SEED + c")
    race.add_argument("--no-skip", action="store_true",
                      help="TYPE: turn the skip approximation off (exact, slower)")
    race.add_argument("--measure-share", type=float_in(0.0, 1.0), default=None,
                      help="score the measures (accuracy, F) only while they cost at most "
                           "this share of the engine time, e.g. 0.05 (the last row always "
                           "has them); default: every sweep")
    race.add_argument("--out", dest="out_dir", required=True,
                      help="folder for traces.csv and summary.csv (made if missing)")
    add_cluster_arguments(race, "chains")


class Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the epilog's line breaks (the list of models)."""


def model_epilog(model):
    if model is not None:
        return None
    lines = ["models (give --model NAME --help for a model's options):"]
    lines += [f"  {name:<6} {cls.label}" for name, cls in registry.models().items()]
    return "\n".join(lines)


def add_model_arguments(parser, model, initialisation=False):
    parser.add_argument("--model", choices=model_names(), required=True,
                        help="the model (its options follow once it is given)")
    parser.add_argument("--data", help="the corpus file (default: the model's built-in corpus)")
    if model is None:
        return
    group = parser.add_argument_group(f"{model.name} options")
    for option in model.options + (model.init_options if initialisation else ()):
        if option.kind is bool:
            group.add_argument(option.flag, dest=option.name, action="store_true",
                               help=option.help)
        else:
            default = "" if option.default is None else f" (default {option.default})"
            group.add_argument(option.flag, dest=option.name, type=option_type(option),
                               default=option.default, help=option.help + default,
                               metavar=option.flag.lstrip("-").upper().replace("-", "_"))


def add_sampling_arguments(parser, sweeps_required):
    parser.add_argument("--sampler", choices=samplers.names(), required=True,
                        help="; ".join(f"{e.name}: {e.label}" for e in samplers.SAMPLERS.values()))
    parser.add_argument("--sweeps", "--iters", dest="sweeps",
                        type=int_in(0 if sweeps_required else 1),
                        required=sweeps_required, default=None if sweeps_required else 30,
                        help="sweeps to run (a sweep visits every site once)"
                             + ("" if sweeps_required else "; default 30 timed"))
    parser.add_argument("--seed", type=int_in(0), default=0,
                        help="the chain's random seed (default 0)"
                             + ("; same seed, data and settings → the same trace"
                                if sweeps_required else ""))
    parser.add_argument("--eta", type=float_in(0.0, 1.0), default=None,
                        help="initialisation (Liang et al. §5.2): each site starts a boundary "
                             "(segmentation) or a token in state 1 (HMM) with probability η; "
                             "default: the model's")


def model_names():
    """Every model's registered name and its aliases (the unigram model is also `unigram`)."""
    return [n for name, cls in registry.models().items() for n in (name, *getattr(cls, "aliases", ()))]


def model_named(argv):
    """The model class that argv's --model names, if it names a registered one."""
    for i, arg in enumerate(argv):
        name = arg.split("=", 1)[1] if arg.startswith("--model=") else (
            argv[i + 1] if arg == "--model" and i + 1 < len(argv) else None)
        if name in model_names():
            return registry.get(name)
    return None


def run_filter(model_class, args):
    if "particle" not in getattr(model_class, "populations", ()):
        offering = [n for n, c in registry.models().items() if getattr(c, "populations", ())]
        raise ValueError(f"the {model_class.name} model has no particle filter: choose one of "
                         f"{', '.join(offering)}")
    run_filters(load_model(model_class, args), args)


def load_model(model, args):
    """The model of --data (or its built-in corpus), reporting what the loader skipped."""
    options = {o.name: getattr(args, o.name) for o in model.options}
    if args.data is None and model.needs_data:
        print(f"no --data: using the {model.name} model's built-in corpus", file=sys.stderr)
    try:
        built = model.build(args.data, **options)
    except CorpusError as err:  # name the file: score reads two
        raise CorpusError(f"{args.data}: {err}") from None
    for note in built.notes:
        print(f"{args.data}: {note}", file=sys.stderr)
    return built


def initialisation(model, args):
    init = {o.name: getattr(args, o.name) for o in model.init_options
            if getattr(args, o.name, None) is not None}
    if args.eta is not None:
        init["eta"] = args.eta
    return init


def run_chain(model_class, args):
    model = load_model(model_class, args)
    chain = Run(model, args.sampler, args.seed, init=initialisation(model_class, args),
                total_sweeps=max(args.sweeps, 1), skip=not args.no_skip)
    with open_or_none(args.samples) as samples:
        for _ in chain.advance(args.sweeps):
            if samples:
                samples.write(" ".join(map(str, model.values(chain.state))) + "\n")
    chain.trace_frame().to_csv(args.trace, index=False, float_format=FULL_PRECISION)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(model.write_analysis(chain.state))


def score(model_class, args):
    model = load_model(model_class, args)
    try:
        state = model.read_analysis(args.analysis)
    except CorpusError as err:
        raise CorpusError(f"{args.analysis}: {err}") from None
    print(json.dumps({"loglik": model.loglik(state), **model.measures(state)}))


def bench(model_class, args):
    model = load_model(model_class, args)
    result = bench_sweeps(model, args.sampler, sweeps=args.sweeps, warmup=args.warmup,
                          seed=args.seed, init=initialisation(model_class, args),
                          skip=not args.no_skip)
    data = args.data or ("built-in" if model_class.needs_data else None)
    print(json.dumps({"model": model.name, "data": data, **result}))


def _warm_one(name, sampler):
    """Compile (or load) one model's kernels for one sampler in this process (sampler None: its
    lesson's own kernels); the seconds."""
    import time
    t0 = time.perf_counter()
    model = registry.get(name).tiny()
    if sampler is None:
        model.warm_lesson()
    elif samplers.entry(sampler).kind == "population":
        particle.warm(type(model))
    else:
        warm(model, sampler)
    return time.perf_counter() - t0


def warm_kernels(args):
    """Load or compile each registered model's kernels, one line of progress per sampler.

    Samplers whose kernels differ (by the interface functions they call) compile in ``--jobs``
    processes at once; Numba's cache then serves every process, the rest included."""
    import time
    from concurrent.futures import ProcessPoolExecutor, as_completed
    names = args.model or list(registry.models())
    started = time.perf_counter()
    distinct = {}  # one sampler per (model, needed functions): the others reuse its kernels
    for name in names:
        for sampler in registry.get(name).samplers:
            distinct.setdefault((name, samplers.entry(sampler).needs), (name, sampler))
        for population in getattr(registry.get(name), "populations", ()):
            distinct[(name, population)] = (name, population)
    # a lesson's own kernels compile beside the samplers' too
    lessons = [(name, None) for name in names if hasattr(registry.get(name), "warm_lesson")]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {pool.submit(_warm_one, *pair): pair for pair in [*distinct.values(), *lessons]}
        for job in as_completed(jobs):
            name, sampler = jobs[job]
            what = "lesson" if sampler is None else samplers.label(sampler)
            # "ready": compiled now, or loaded from the cache (a warm cache takes milliseconds)
            print(f"  {name} {what} ready in {job.result():.1f} s", file=sys.stderr, flush=True)
    for name in names:  # from the cache now: loads what every page and run will use
        model = registry.get(name).tiny()
        for sampler in model.samplers:
            warm(model, sampler)
        if getattr(model, "populations", ()):
            particle.warm(type(model))
        if hasattr(model, "warm_lesson"):
            model.warm_lesson()
    print(f"engine ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def toy_posterior(args):
    import numpy as np
    import pandas as pd
    log_p = ToyModel(args.n).log_posterior()
    frame = pd.DataFrame({"m": np.arange(args.n + 1), "log_p": log_p})
    frame.to_csv(args.out, index=False, float_format=FULL_PRECISION)


MAX_COUNT = 10**9  # the exact sum takes a step per customer: a billion takes a few seconds


def read_counts(path):
    """The words and counts of a `word count` file, in order (blank lines skipped); a
    CorpusError saying what is wrong, on which line, and what to do."""
    data = read_bytes(Path(path))  # its errors name the path
    words, lines = [], {}
    try:
        for number, line in enumerate(decode(data).splitlines(), start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise CorpusError(f"expected a word and its count, got {len(fields)} field(s) "
                                  f"{line.strip()!r}: give one `word count` per line", number)
            word, count = fields
            if not (count.isascii() and count.isdigit() and len(count.lstrip("0")) <= 10
                    and 1 <= int(count) <= MAX_COUNT):
                raise CorpusError(f"the count of {word!r} is {count!r}: give a whole number "
                                  f"from 1 to {MAX_COUNT:,}", number)
            if word in lines:
                raise CorpusError(f"{word!r} is also on line {lines[word]}: give each word once, "
                                  "with its total count", number)
            lines[word] = number
            words.append((word, int(count)))
        if not words:
            raise CorpusError("no `word count` lines: give one word and its count per line")
    except CorpusError as err:
        raise CorpusError(f"{path}: {err}") from None
    return words


def tables(args):
    """The tables command: each word's expected table count, under a uniform base over the
    file's V words (a = α/V), as CSV on stdout."""
    import numpy as np
    from engine.core import table_expectations as te
    words = read_counts(args.counts)
    counts = np.array([count for _, count in words])
    a = args.alpha / len(words)
    columns = (te.expected_tables_exact(a, counts), te.expected_tables_digamma(a, counts),
               te.expected_tables_antoniak(a, counts),
               te.expected_tables_flawed(args.alpha, counts))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["word", "count", "exact", "digamma", "antoniak", "flawed"])
    for (word, count), *values in zip(words, *columns):
        out.writerow([word, count, *(repr(float(v)) for v in values)])  # repr: round-trips


class open_or_none:
    """``with open_or_none(path) as f``: f is the open file, or None when path is None."""

    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8") if path else None

    def __enter__(self):
        return self.file

    def __exit__(self, *exc):
        if self.file:
            self.file.close()


def race(model_class, args):
    """The race command: a grid of chains, then traces.csv and summary.csv in --out."""
    from engine.grid import ModelRecipe, client_for, run_grid, summary, tasks
    from engine.cli.race_output import measure_columns, write_race
    load_model(model_class, args)  # a bad corpus or option is refused here, before any worker
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
        traces = run_grid(recipe, grid, client, on_result=progress)
    table = summary(traces, measures=measure_columns(traces, args.samplers))
    write_race(args.out_dir, traces, table, plots=plot_labels(model_class, traces))
    print(table.to_string(index=False))


def plot_labels(model_class, traces):
    """What the race's pictures show: the log-probability, and the model's headline measure
    when the corpus has gold."""
    labels = {"loglik": "log-probability"}
    headline = next((c for c in model_class.trace_labels if c in traces), None)
    if headline is not None:
        labels[headline] = model_class.trace_labels[headline]
    return labels


COMMANDS = {"run": run_chain, "score": score, "bench": bench, "race": race, "filter": run_filter}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    model = model_named(argv)
    parser = build_parser(model)
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    check_writable(parser, *(getattr(args, name, None)
                             for name in ("out", "trace", "samples", "output", "runs_out")))
    try:
        if args.command == "toy-posterior":
            toy_posterior(args)
            return 0
        if args.command == "warm":
            warm_kernels(args)
            return 0
        if args.command == "tables":
            tables(args)
            return 0
        if args.command == "table1":
            run_table1(args)
            return 0
        if args.command == "gj-grid":
            run_gj_grid(args)
            return 0
        if args.data is not None and not model.needs_data:
            parser.error(f"the {model.name} model reads no corpus: leave out --data")
        for option in model.options + model.init_options:
            option.check(getattr(args, option.name, None))
        if args.command == "race":
            wanted = args.samplers
        else:
            wanted = [] if args.command in ("score", "filter") else [args.sampler]
        for name in wanted:
            if name not in samplers.offered(model.samplers):
                parser.error(f"the {model.name} model has no {name} sampler: choose one of "
                             f"{', '.join(samplers.offered(model.samplers))}")
        COMMANDS[args.command](model, args)
    except (CorpusError, ValueError) as err:  # a corpus's or a model's refusal of a setting
        parser.error(str(err))
    except OSError as err:
        parser.error(f"cannot write output: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
