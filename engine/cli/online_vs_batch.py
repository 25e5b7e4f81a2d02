"""``python -m engine online-vs-batch``: what reading the corpus once costs and what rejuvenation
buys — the particle filter, plain and with each kind of rejuvenation move, against batch chains
of the same model (engine.experiments.online_vs_batch; the Particle filter page's last tab).

    python -m engine online-vs-batch --model unigram [--data FILE] [--particles N]
        [--threshold N|N/2|F] [--resampling multinomial|systematic] [--seed S]
        [--out FILE.csv] [--phi PHI] [the model's options]

Prints each learner's engine seconds, final log-probability and token F; --out writes the online
learners' rows and every batch chain's trace rows, a ``learner`` column naming each.
"""
import pandas as pd

from engine.cli.args import FULL_PRECISION, SEED, Help, add_output
from engine.cli.filter import PARTICLES, add_particle_options, population_of, threshold_text
from engine.cli.models import add_model_arguments, checked_model, load_model, model_epilog
from engine.core.resampling import SCHEMES
from engine.experiments import online_vs_batch
from engine.models.protocol import Population


def add_parser(new_parser, model):
    """The ``online-vs-batch`` subcommand (its model's options once --model is known)."""
    parser = new_parser(epilog=model_epilog(model, Population), formatter_class=Help)
    add_model_arguments(parser, model, role=Population)
    add_particle_options(parser, model)
    parser.add_argument("--particles", type=PARTICLES,
                        default=online_vs_batch.PARTICLES,
                        help=f"N, the particles of every filter (default "
                             f"{online_vs_batch.PARTICLES})")
    parser.add_argument("--threshold", type=threshold_text, default="N/2",
                        help="resample when ESS falls to this: N, N/2, or a fraction of N in "
                             "(0, 1] (default N/2)")
    parser.add_argument("--resampling", choices=SCHEMES, default="multinomial",
                        help="multinomial or systematic (default multinomial)")
    parser.add_argument("--seed", type=SEED, default=0,
                        help="the seed of every filter and batch chain (default 0)")
    add_output(parser, "--out", help="CSV file for the online learners' rows and the batch "
                                     "chains' traces")
    return parser


def run(args):
    """Run the comparison; print its table, write --out."""
    model = load_model(checked_model(args), args)  # --model offers the particle filter's
    population = population_of(model, args)
    points, lines = online_vs_batch.compare(population, args.particles, args.seed,
                                            threshold=args.threshold,
                                            resampling=args.resampling)
    finals = [{"learner": name, "seconds": trace["seconds"].iloc[-1],
               "log_prob": trace["log_prob"].iloc[-1], "token_f": trace["token_f"].iloc[-1]}
              for name, trace in lines.items()]
    table = pd.concat([points[["learner", "seconds", "log_prob", "token_f"]],
                       pd.DataFrame(finals)], ignore_index=True)
    print(table.to_string(index=False, float_format=lambda v: f"{v:,.3f}"))
    if args.out:
        traces = [trace.assign(learner=name) for name, trace in lines.items()]
        pd.concat([points, *traces], ignore_index=True).to_csv(
            args.out, index=False, float_format=FULL_PRECISION)
