"""The command line: the engine without a browser, for diagnosing mixing.

    python -m engine toy-posterior --n N --out FILE.csv
    python -m engine run --model toy --n N --init-m M --sampler {token,type,anneal,greedy}
                         --iters T --seed S --trace FILE.csv [--samples FILE] [--no-skip]

Invalid arguments give a one-line error and exit status 2.
"""
import os
import sys

import numpy as np
import pandas as pd

from engine.cli_args import OneLineParser, int_in
from engine.models.toy import MAX_N, ToyModel
from engine.run import Run
from engine.samplers import NAMES


def build_parser():
    parser = OneLineParser(prog="python -m engine",
                           description="Typeblocks engine: run samplers and exact posteriors.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    post = commands.add_parser("toy-posterior", help="exact log p(m | x) of the toy (eq. 2)")
    post.add_argument("--n", type=int_in(1, MAX_N), required=True, help="copies of `ab`")
    post.add_argument("--out", required=True, help="CSV file to write (columns m,log_p)")

    run = commands.add_parser("run", help="run one chain and write its trace")
    run.add_argument("--model", choices=["toy"], required=True)
    run.add_argument("--n", type=int_in(1, MAX_N), default=1000, help="toy: copies of `ab`")
    run.add_argument("--init-m", type=int_in(0), default=None,
                     help="toy: initial number of split copies (default n)")
    run.add_argument("--sampler", choices=NAMES, required=True)
    run.add_argument("--iters", type=int_in(0), required=True, help="sweeps to run")
    run.add_argument("--seed", type=int_in(0), required=True)
    run.add_argument("--no-skip", action="store_true",
                     help="TYPE: turn the skip approximation off (exact, slower)")
    run.add_argument("--trace", required=True, help="CSV file for the per-sweep trace")
    run.add_argument("--samples", help="file for every site's value after each sweep")
    return parser


def toy_posterior(args):
    log_p = ToyModel(args.n).log_posterior()
    frame = pd.DataFrame({"m": np.arange(args.n + 1), "log_p": log_p})
    frame.to_csv(args.out, index=False, float_format="%.10g")


def run_chain(args, parser):
    if args.init_m is not None and args.init_m > args.n:
        parser.error(f"--init-m must be at most --n = {args.n:,}, got {args.init_m:,}")
    model = ToyModel(args.n)
    chain = Run(model, args.sampler, args.seed, init={"m": args.init_m},
                total_sweeps=max(args.iters, 1), skip=not args.no_skip)
    with open_or_none(args.samples) as samples:
        for _ in chain.advance(args.iters):
            if samples:
                samples.write(" ".join(map(str, model.values(chain.state))) + "\n")
    chain.trace_frame().to_csv(args.trace, index=False, float_format="%.10g")


class open_or_none:
    """``with open_or_none(path) as f``: f is the open file, or None when path is None."""

    def __init__(self, path):
        self.file = open(path, "w") if path else None

    def __enter__(self):
        return self.file

    def __exit__(self, *exc):
        if self.file:
            self.file.close()


def check_writable(parser, *paths):
    """Fail before any work when an output file's folder does not exist."""
    for path in paths:
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"cannot write {path}: its folder does not exist")


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    check_writable(parser, getattr(args, "out", None), getattr(args, "trace", None),
                   getattr(args, "samples", None))
    try:
        if args.command == "toy-posterior":
            toy_posterior(args)
        else:
            run_chain(args, parser)
    except OSError as err:
        parser.error(f"cannot write output: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
