"""``python -m engine gj-grid``: Gao & Johnson's six estimators × eight (α, α′) × starts on the
Dask grid, printed in the layout of their Figures 2–5 (engine.experiments.gao_johnson)."""
import sys

from datasets.errors import CorpusError
from datasets.tagged import AUTO, FORMATS
from engine.experiments import gao_johnson
from engine.cli.args import (FULL_PRECISION, MAX_SWEEPS, SEED, add_cluster_arguments, add_input,
                             add_output, int_in, name_list)
from engine.cli.models import in_file
from engine.cli.rows import grid_rows
from engine.grid import ModelRecipe, client_for
from engine.models.hmm.kernels.layout import DECODINGS


def add_gj_grid_parser(new_parser, model):
    """The ``gj-grid`` subcommand."""
    parser = new_parser()
    add_input(parser, "--data", what="the corpus", help="a tagged corpus (CoNLL-U or word/TAG; theirs is the "
                                       "WSJ, e.g. en_ewt-ud-dev.conllu is the size of their "
                                       "24K column; default: the built-in sentences)")
    parser.add_argument("--states", type=int_in(2, 1000),
                        help="K, the number of hidden states (default: the number of gold tags)")
    parser.add_argument("--iters", type=int_in(2, MAX_SWEEPS), required=True,
                        help="iterations (sweeps) per run; theirs ≥ 1,000")
    parser.add_argument("--starts", type=int_in(1, 1000), default=3,
                        help="starts per estimator and combination (theirs ≥ 10; default 3)")
    parser.add_argument("--window", type=int_in(1, MAX_SWEEPS),
                        help="iterations the objective must stay within 0.5%% for a run to "
                             "count as converged (default: a quarter of --iters; theirs 2,000)")
    parser.add_argument("--estimators", type=name_list(gao_johnson.ESTIMATORS),
                        default=list(gao_johnson.ESTIMATORS),
                        help="comma-separated (default all six: " +
                             ",".join(gao_johnson.ESTIMATORS) + ")")
    parser.add_argument("--decode", choices=tuple(DECODINGS), default="posterior",
                        help="how EM and VB tag the corpus from their parameters")
    parser.add_argument("--format", choices=(AUTO,) + FORMATS, default=AUTO,
                        help="the corpus format (default: told from the text)")
    parser.add_argument("--seed", type=SEED, default=0,
                        help="start r's seed is SEED + r (the same for every estimator)")
    add_output(parser, "--out", help="CSV file for every run's row")
    add_cluster_arguments(parser, "runs")
    return parser


def run_gj_grid(args):
    """Run the grid, report progress on stderr, print the figures and their three findings."""
    try:  # a bad corpus fails here, once, with its message
        # the corpus's bytes travel with the grid: a cluster's workers need no copy of the file
        recipe = ModelRecipe("hmm", args.data, (("n_states", args.states),
                                                ("decode", args.decode), ("format", args.format)))
        recipe.build()
    except CorpusError as err:
        raise in_file(args.data, err) from None
    tasks = gao_johnson.grid(args.iters, args.starts, args.estimators, seed=args.seed,
                         window=args.window)

    def progress(frame, done, total):
        row = frame.iloc[0]
        print(f"gj-grid: {done}/{total}  {row['sampler']} α={row['alpha']:g} "
              f"α′={row['alpha_emit']:g} start {row['start']}  "
              f"1-to-1 {row.get('acc_one_to_one', float('nan')):.3f}  "
              f"({1000 * row['seconds_per_iteration']:.1f} ms/iteration)",
              file=sys.stderr, flush=True)

    with client_for(args.workers, args.scheduler) as client:
        rows = grid_rows(recipe, tasks, client, args.out, "runs", progress, FULL_PRECISION)
    table = gao_johnson.means(rows)
    window = tasks[0].window
    print(gao_johnson.layout(table, args.starts, args.iters, window))
    print()
    for claim, (ours, theirs) in gao_johnson.claims(table).items():
        print(f"{claim}: ours {'yes' if ours else 'no'}, theirs {'yes' if theirs else 'no'}")
