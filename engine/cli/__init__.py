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
    python -m engine online-vs-batch --model {unigram,bigram} [--data FILE] [--particles N]
                                     [--seed S] [--out FILE.csv] [the model's options]
    python -m engine toy-posterior --n N --out FILE.csv
    python -m engine tables --alpha A --counts FILE
    python -m engine warm [--model MODEL]
    python -m engine cluster scheduler [--host H] [--port P]
    python -m engine cluster worker ADDRESS [--host H] [--nworkers W] [--nthreads T]
    python -m engine corpora list
    python -m engine corpora check FILE [FILE …]
    python -m engine forest --data PAIRS [--alignments ALIGN] --out FILE.csv [--pair I]
    python -m engine parallel --model scfg [--data PAIRS --alignments ALIGN] --sampler NAME
                              --workers K,K,… --iterations N [--seed S] [--no-skip]
                              [--scheduler ADDRESS] --out FILE.csv [the model's options]
    python -m engine parse --train TREES [TREES …] --test TREES [TREES …] --grammar NAME
                           --output PARSES [--max-length 40] [--markov 1]

Models and their options come from the model registry (``python -m engine run --model NAME
--help`` lists a model's); samplers from the sampler registry. Without --data a model runs on
its built-in corpus. Invalid arguments, unreadable files and outputs that cannot be written give
a one-line error and exit status 2, the outputs before any work (``corpora check``: status 1
when a file is not the published one). Ctrl-C or SIGTERM stops any command at any stage: the
processes it started end with it, the grids keep the rows of the tasks that finished, and it
exits with status 130 (Ctrl-C) or 143 (SIGTERM). docs/command-line.md is the user guide.

Each command is a row of ``COMMANDS``: the module (a family of commands lives in one) holding
a function adding its parser's arguments (given a function making its parser and the model
class --model names, or None, so a model's options appear in its help) and a function running
it from the parsed arguments (returning an exit status, or None for 0), and its one line in the
overview. Only the module of the command that runs is imported: ``--help`` alone imports no
model and no Numba.
"""
import importlib
import os
import sys
from collections import namedtuple

from datasets.errors import CorpusError
from engine.cli.args import OneLineParser, check_outputs
from engine.cli.stopping import Stopped, stoppable
from engine.live.compile_lock import name_holder

Command = namedtuple("Command", "module add run summary")
COMMANDS = {
    "run": Command("chains", "add_run_parser", "run_chain",
                   "run one chain and write its trace"),
    "score": Command("chains", "add_score_parser", "score",
                     "log-probability and measures of an analysis"),
    "bench": Command("chains", "add_bench_parser", "bench",
                     "time a sampler's sweeps; print JSON"),
    "race": Command("race", "add_race_parser", "race",
                    "several chains of several samplers (and η values) on Dask; traces, R-hat "
                    "and ESS as CSV"),
    "filter": Command("filter", "add_filter_parser", "run_filter",
                      "the particle filter: one pass over the utterances (a trace row per "
                      "utterance), then §6.1's weighted scores as JSON"),
    "table1": Command("filter", "add_table1_parser", "run_table1",
                      "Börschinger & Johnson's Table 1: the particle filter for N particles × "
                      "threshold N, N/2 × unigram/bigram, and DPM, several runs each, on Dask; "
                      "prints their layout, ours beside theirs"),
    "gj-grid": Command("gao_johnson", "add_gj_grid_parser", "run_gj_grid",
                       "Gao & Johnson's six HMM estimators × their eight (α, α′) × several "
                       "starts, on Dask; prints their Figures 2–5, ours beside theirs"),
    "online-vs-batch": Command("online_vs_batch", "add_parser", "run",
                               "the particle filter, plain and rejuvenated, against batch TOKEN "
                               "and TYPE chains of the same model given twice the slowest "
                               "filter's engine time"),
    "warm": Command("chains", "add_warm_parser", "warm_kernels",
                    "compile (or load) every model's kernels now, showing progress (the app's "
                    "server compiles them in the background; warmed first, every page opens "
                    "ready)"),
    "toy-posterior": Command("numbers", "add_toy_posterior_parser", "toy_posterior",
                             "exact log p(m | x) of the toy (eq. 2)"),
    "tables": Command("numbers", "add_tables_parser", "tables",
                      "expected tables per word of a Chinese restaurant with a uniform base: "
                      "exact, digamma and two approximations (Blunsom et al. 2009 §3); CSV"),
    "cluster": Command("cluster", "add_cluster_parser", "run_cluster",
                       "start a Dask scheduler or workers from this checkout, for the grids' "
                       "--scheduler (docs/command-line.md, \"Grids on a cluster\")"),
    "corpora": Command("corpora", "add_corpora_parser", "run_corpora",
                       "the standard corpora: where to get them, and check a downloaded file"),
    "parse": Command("parse", "add_parse_parser", "parse",
                     "learn a grammar from trees, parse held-out sentences, EVALB F1 (JSON)"),
    "forest": Command("forest", "add_forest_parser", "run_forest",
                      "the phrase decomposition forest of each word-aligned sentence pair, as "
                      "CSV"),
    "parallel": Command("parallel", "add_parallel_parser", "run_parallel",
                        "the parallel inexact sampler (Peng & Gildea §4.2) with k workers each: "
                        "time per iteration and log-likelihood (Fig. 5), as CSV"),
}


def command_function(name, role):
    """A command's ``add`` or ``run`` function, its module imported now."""
    command = COMMANDS[name]
    module = importlib.import_module(f"engine.cli.{command.module}")
    return getattr(module, getattr(command, role))


def model_named(argv):
    """The model class argv's --model names, if it names a registered one; without --model,
    none, and no model is imported."""
    if not any(arg == "--model" or arg.startswith("--model=") for arg in argv):
        return None
    return importlib.import_module("engine.cli.models").model_named(argv)


def build_parser(model=None, only=None):
    """The parser; with a model class, its options are added to the commands that take one.
    With ``only`` (a command's name), only that command gets its arguments (the others are
    listed, so the overview and a mistyped command's message still name them all)."""
    parser = OneLineParser(prog="python -m engine",
                           description="Typeblocks engine: run samplers and exact posteriors "
                                       "without a browser (docs/command-line.md).")
    parser.set_defaults(inputs=(), outputs=())  # a command's add_input/add_output calls list its own
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser,
                                     metavar="{" + ",".join(COMMANDS) + "}")
    for name, command in COMMANDS.items():
        def new_parser(name=name, summary=command.summary, **settings):
            return commands.add_parser(name, help=summary, description=summary, **settings)
        if only is None or name == only:
            command_function(name, "add")(new_parser, model)
        else:
            new_parser()
    return parser


def main(argv=None):
    """Run the command of ``argv`` (default: the process's arguments); the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(model_named(argv), only=next(iter(argv), ""))
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    check_outputs(parser, args)
    name_holder(f"`{parser.prog} {args.command}`")  # to a process waiting for its kernels
    try:
        with stoppable():  # Ctrl-C and SIGTERM end it, and every process it started
            status = command_function(args.command, "run")(args)
    except KeyboardInterrupt as stop:  # what it kept, it has said (engine.cli.rows)
        stop = stop if isinstance(stop, Stopped) else Stopped()
        print(f"{parser.prog}: stopped by {stop}", file=sys.stderr, flush=True)
        return stop.status
    except (CorpusError, ValueError) as err:  # a corpus's, a model's or a cluster's refusal
        parser.error(str(err))
    except OSError as err:
        parser.error(os_error(args, err))
    return status or 0


def os_error(args, err):
    """The one line of an OSError of a command: the file and whether the command was writing
    it (one of its outputs, or in an output folder) or reading it (any other: an input)."""
    path = os.path.realpath(err.filename) if err.filename else None
    outputs = [os.path.realpath(path) for output in args.outputs for path in output.paths(args)]
    writing = path is None or any(path == out or path.startswith(out + os.sep)
                                  for out in outputs)
    return (f"cannot {'write' if writing else 'read'} {err.filename or 'an output'}: "
            f"{err.strerror or err}")
