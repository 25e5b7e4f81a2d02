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

Each command is a pair in ``COMMANDS``: a function adding its parser (given the subparsers and
the model class --model names, or None, so a model's options appear in its help) and a
function running it from the parsed arguments (returning an exit status, or None for 0). A
family of commands lives in one module.
"""
import os
import sys

from datasets.errors import CorpusError
from engine.cli import (chains, cluster, corpora, forest, gao_johnson, numbers, online_vs_batch,
                        parallel, parse, race)
from engine.cli import filter as filters  # not the builtin's name
from engine.cli.args import OneLineParser, check_outputs
from engine.cli.models import model_named
from engine.cli.stopping import Stopped, stoppable
from engine.live.compile_lock import name_holder

COMMANDS = {
    "run": (chains.add_run_parser, chains.run_chain),
    "score": (chains.add_score_parser, chains.score),
    "bench": (chains.add_bench_parser, chains.bench),
    "race": (race.add_race_parser, race.race),
    "filter": (filters.add_filter_parser, filters.run_filter),
    "table1": (filters.add_table1_parser, filters.run_table1),
    "gj-grid": (gao_johnson.add_gj_grid_parser, gao_johnson.run_gj_grid),
    "online-vs-batch": (online_vs_batch.add_parser, online_vs_batch.run),
    "warm": (chains.add_warm_parser, chains.warm_kernels),
    "toy-posterior": (numbers.add_toy_posterior_parser, numbers.toy_posterior),
    "tables": (numbers.add_tables_parser, numbers.tables),
    "cluster": (cluster.add_cluster_parser, cluster.run_cluster),
    "corpora": (corpora.add_corpora_parser, corpora.run_corpora),
    "parse": (parse.add_parse_parser, parse.parse),
    "forest": (forest.add_forest_parser, forest.run_forest),
    "parallel": (parallel.add_parallel_parser, parallel.run_parallel),
}


def build_parser(model=None):
    """The parser; with a model class, its options are added to the commands that take one."""
    parser = OneLineParser(prog="python -m engine",
                           description="Typeblocks engine: run samplers and exact posteriors "
                                       "without a browser (docs/command-line.md).")
    parser.set_defaults(inputs=(), outputs=())  # a command's add_input/add_output calls list its own
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser,
                                     metavar="{" + ",".join(COMMANDS) + "}")
    for add_parser, _ in COMMANDS.values():
        add_parser(commands, model)
    return parser


def main(argv=None):
    """Run the command of ``argv`` (default: the process's arguments); the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(model_named(argv))
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    check_outputs(parser, args)
    name_holder(f"`{parser.prog} {args.command}`")  # to a process waiting for its kernels
    try:
        with stoppable():  # Ctrl-C and SIGTERM end it, and every process it started
            status = COMMANDS[args.command][1](args)
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
