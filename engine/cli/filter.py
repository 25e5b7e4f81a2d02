"""The particle filter on the command line (Börschinger & Johnson 2011): ``filter`` and
``table1``.

    python -m engine filter --model {unigram,bigram} [--data FILE] --particles N
        [--threshold N|N/2|F] [--resampling multinomial|systematic] [--baseline dpm|dps]
        [--rejuvenate R [--rejuvenation-sampler token|type] [--rejuvenate-every K]]
        --seed S --trace FILE.csv [--output FILE] [--runs R --runs-out FILE.csv]

One trace row per utterance read (``utterance,seconds,ess,resampled,log_z,distinct_particles``,
with a leading ``run`` column when --runs > 1, and ``acceptance`` — the rejuvenation moves' —
with --rejuvenate), then §6.1's weighted scores as JSON on stdout.
"""
import csv
import json
import argparse
import os
import sys

import numpy as np

from datasets import standard
from datasets.errors import CorpusError
from engine import samplers
from engine.cli.args import (FULL_PRECISION, MAX_SWEEPS, SEED, Help, add_cluster_arguments,
                             add_input, add_output, bounded, int_in,
                             name_list, option_type)
from engine.cli.models import (add_model_arguments, checked_model, in_file, load_model,
                               model_epilog)
from engine.experiments import table1
from engine.cli.rows import grid_rows
from engine.grid import ModelRecipe, client_for
from engine.models.protocol import Population
from engine.core.resampling import SCHEMES
from engine.samplers.particle import Rejuvenation, threshold_fraction

TRACE_COLUMNS = ("utterance", "seconds", "ess", "resampled", "log_z", "distinct_particles")
BRENT = "br-phono.txt"  # their corpus, as datasets.standard names it
# N particles are N copies of the lexicon and counts: 100,000 on br-phono take gigabytes
PARTICLES = int_in(1, 100_000)
MAX_RUNS = 100_000  # independent filters, one after another: a summary row each
BASELINES = {"dps": "DPS: one particle, each utterance's segmentation drawn from Q",
             "dpm": "DPM: one particle, each utterance's most probable segmentation under Q"}



def add_particle_options(parser, model):
    """The flags of ``model``'s particle-filter options (its ``particle_options``), if a model
    was named."""
    if model is None:
        return
    group = parser.add_argument_group("the particle filter's model")
    for option in model.particle_options:
        group.add_argument(option.flag, dest=option.name, type=option_type(option),
                           default=option.default,
                           help=f"{option.help} (default {option.default})")


def population_of(model, args):
    """The model's side of the particle filter with the options the command line gave."""
    return model.particles(**{o.name: getattr(args, o.name) for o in model.particle_options})

def threshold_text(text):
    """An argparse type: N, N/2 or a fraction in (0, 1], kept as given."""
    try:
        threshold_fraction(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def add_filter_parser(new_parser, model):
    """The ``filter`` subcommand (its model options once --model is known)."""
    parser = new_parser(epilog=model_epilog(model, Population), formatter_class=Help)
    add_model_arguments(parser, model, role=Population)
    add_particle_options(parser, model)
    parser.add_argument("--particles", type=PARTICLES, default=None,
                        help="N, the number of particles (required unless --baseline)")
    parser.add_argument("--threshold", type=threshold_text, default="N/2",
                        help="resample when ESS falls to this: N (every utterance), N/2, or a "
                             "fraction of N in (0, 1] (default N/2)")
    parser.add_argument("--resampling", choices=SCHEMES, default="multinomial",
                        help="multinomial (their §5: N draws with replacement) or systematic "
                             "(one uniform, lower variance) (default multinomial)")
    parser.add_argument("--baseline", choices=tuple(BASELINES),
                        help="; ".join(f"{k}: {v}" for k, v in BASELINES.items()))
    parser.add_argument("--rejuvenate", type=int_in(1, MAX_SWEEPS), metavar="R",
                        help="rejuvenation (Börschinger & Johnson 2012): R MCMC moves in each "
                             "particle on what it has read, after every K-th utterance")
    parser.add_argument("--rejuvenation-sampler", choices=("token", "type"), default="token",
                        help="the moves: token (one site) or type (every read site of the "
                             "pivot's type) (default token)")
    parser.add_argument("--rejuvenate-every", type=int_in(1, MAX_SWEEPS), default=1, metavar="K",
                        help="rejuvenate after every K-th utterance (default 1)")
    parser.add_argument("--seed", type=SEED, default=0, help="run r's seed is SEED + r")
    add_output(parser, "--trace", required=True, help="CSV file for the per-utterance trace")
    add_output(parser, "--output", help="file for the heaviest final particle's §6.1 "
                                        "segmentation (plain segmented text)")
    parser.add_argument("--runs", type=int_in(1, MAX_RUNS), default=1,
                        help="independent filters, seeds SEED, SEED + 1, … (default 1)")
    add_output(parser, "--runs-out", help="CSV file for one summary row per run "
                                          "(run,seed,log_z,final_ess,… §6.1 scores)")
    parser.add_argument("--threads", type=int_in(1, 256), default=os.cpu_count() or 1,
                        help="threads sharing the particles (default: the machine's cores)")
    return parser


def filter_settings(args):
    """(N, the ParticleFilter's settings) from the arguments; a ValueError for a bad mix."""
    if args.baseline:
        if args.particles not in (None, 1):
            raise ValueError(f"--baseline {args.baseline} runs one particle: leave out "
                             f"--particles (got {args.particles})")
        if args.rejuvenate:
            raise ValueError(f"--baseline {args.baseline} is the paper's learner as it is: "
                             "leave out --rejuvenate")
        return 1, {"greedy": args.baseline == "dpm"}
    if args.particles is None:
        raise ValueError("give --particles N (or --baseline dpm|dps)")
    rejuvenation = None
    if args.rejuvenate:
        rejuvenation = Rejuvenation(args.rejuvenate, args.rejuvenation_sampler,
                                    args.rejuvenate_every)
    return args.particles, {"threshold": args.threshold, "resampling": args.resampling,
                            "rejuvenation": rejuvenation}


def run_filter(args):
    """The filter command (--model offers only the models with a particle filter)."""
    run_filters(load_model(checked_model(args), args), args)


def run_filters(model, args):
    """Run --runs filters; write the trace, the summary rows and --output; print the scores."""
    n, settings = filter_settings(args)
    if args.runs > 1 and not args.runs_out:
        raise ValueError("--runs R writes one summary row per run: give --runs-out FILE.csv")
    population = population_of(model, args)
    columns = TRACE_COLUMNS + (("acceptance",) if settings.get("rejuvenation") else ())
    summaries, last = [], None
    with open(args.trace, "w", newline="", encoding="utf-8") as trace_file:
        trace = csv.writer(trace_file)
        trace.writerow((("run",) if args.runs > 1 else ()) + columns)
        for r in range(args.runs):
            seed = args.seed + r
            particle_filter = samplers.entry("particle").build(
                population, n, seed, threads=args.threads, **settings)
            for row in run_one(particle_filter, columns):
                trace.writerow(((r,) if args.runs > 1 else ()) + row)
            scores = particle_filter.evaluate()
            summaries.append({"run": r, "seed": seed, "log_z": particle_filter.log_z,
                              "final_ess": particle_filter.trace[-1]["ess"], **scores})
            if args.output and r == 0:
                write_analysis(model, particle_filter, args.output)
            last = scores
    if args.runs_out:
        write_rows(args.runs_out, summaries)
    print(json.dumps(last if args.runs == 1 else summary_of(summaries)))


def run_one(particle_filter, columns):
    """The filter's trace rows, one per utterance, as it reads them."""
    while not particle_filter.finished:
        particle_filter.step()
        row = particle_filter.trace[-1]
        yield tuple(FULL_PRECISION % row[c] if isinstance(row[c], float) else row[c]
                    for c in columns)


def write_analysis(model, particle_filter, path):
    bound = particle_filter.analysis()
    with open(path, "w", encoding="utf-8") as out:
        out.write(model.write_analysis(model.state_from_bound(bound)))


def write_rows(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: FULL_PRECISION % v if isinstance(v, float) else v
                             for k, v in row.items()})


def summary_of(rows):
    """Mean and standard deviation over runs of every figure."""
    keys = [k for k in rows[0] if k not in ("run", "seed")]
    values = {k: np.array([row[k] for row in rows], float) for k in keys}
    return {"runs": len(rows), **{f"{k}_mean": float(v.mean()) for k, v in values.items()},
            **{f"{k}_sd": float(v.std(ddof=1)) for k, v in values.items()}}


def add_table1_parser(new_parser, model):
    """The ``table1`` subcommand: their Table 1 grid on Dask."""
    parser = new_parser()
    add_input(parser, "--data", what="the corpus", help="the corpus (plain segmented text; theirs is the "
                                       "Bernstein corpus, e.g. br-phono.txt; default: the "
                                       "built-in corpus)")
    parser.add_argument("--models", type=name_list(tuple(table1.MODELS)),
                        default=list(table1.MODELS), help="comma-separated (default "
                                                          "unigram,bigram)")
    parser.add_argument("--sizes", type=size_list, default=list(table1.SIZES),
                        help="comma-separated numbers of particles (default 1,50,100,500,1000)")
    parser.add_argument("--runs", type=int_in(1, 1000),
                        help="runs per cell (default theirs: 10 for N ≤ 100, 2 above)")
    parser.add_argument("--seed", type=SEED, default=0, help="run r's seed is SEED + r")
    add_output(parser, "--out", help="CSV file for every run's row")
    add_cluster_arguments(parser, "filters")
    return parser


def corpus_note(data):
    """A line above the table saying whether ours and theirs come from the same corpus: theirs
    is the Bernstein-Ratner corpus, br-phono.txt as published (told by its SHA-256)."""
    theirs = f"theirs are on the Bernstein-Ratner corpus ({BRENT}, 9,790 utterances)"
    if data is None:
        return (f"Ours are on the built-in corpus (nursery talk); {theirs}. The corpora differ, "
                f"so the figures are not comparable: give --data {BRENT} to compare "
                "(python -m engine corpora list says where to get it).")
    if standard.sha256(data) == standard.checksums()[BRENT]:
        return f"Ours and theirs are on the same corpus: {data} is {BRENT} as published."
    return (f"Ours are on {data}; {theirs}, and {data} is not that file as published (python "
            "-m engine corpora check tells): the figures compare only as far as the corpora do.")


def size_list(text):
    """An argparse type: comma-separated numbers of particles (1 to 100,000)."""
    return [PARTICLES(part) for part in text.split(",")]


bounded(size_list, *PARTICLES.bounds)  # each of them


def run_table1(args):
    """Run the grid, report progress on stderr, print the table and the issue's checks."""
    try:  # a bad corpus fails here, once, with its message
        # the corpus's bytes travel with every task: a cluster's workers need no copy of the file
        recipes = {model: ModelRecipe(table1.MODELS[model], args.data) for model in args.models}
        for recipe in recipes.values():
            recipe.build()
    except CorpusError as err:
        raise in_file(args.data, err) from None
    tasks = table1.grid(recipes, args.sizes, args.runs, args.seed)

    def progress(frame, done, total):
        row = frame.iloc[0]
        print(f"table1: {done}/{total}  {row['model']} {row['learner']} {row['particles']} "
              f"{row['threshold']}  log-prob {row['log_prob'] / 1000:.2f} ×10³  "
              f"({row['seconds']:.1f} s)", file=sys.stderr, flush=True)

    with client_for(args.workers, args.scheduler) as client:
        rows = grid_rows(None, tasks, client, args.out, "runs", progress, FULL_PRECISION)
    summary = table1.table(rows)
    print(corpus_note(args.data))
    print(table1.layout(summary))
    print()
    for check, value in table1.shape_checks(summary).items():
        print(f"{check}: {value if isinstance(value, bool) else f'{100 * value:.2f}%'}")

