"""The command line: the engine without a browser, for diagnosing mixing.

    python -m engine toy-posterior --n N --out FILE.csv
    python -m engine run --model toy --n N [--init-m M] --sampler {token,type,anneal,greedy}
                         --iters T --seed S --trace FILE.csv [--samples FILE] [--no-skip]
    python -m engine run --model usm --data FILE --sampler {token,type,anneal,greedy,sentence}
                         --iters T --seed S [--eta E] [--alpha A] [--p-boundary P] [--rho R]
                         --trace FILE.csv [--output FILE] [--samples FILE] [--no-skip]
    python -m engine score --model usm --data GOLD --analysis SEGMENTED [--alpha A] …
    python -m engine run --model hmm --data FILE [--format conllu|conllu-xpos|wordtag|wordtag-lines]
                         [--states K] --sampler {token,type,anneal,greedy,sentence} --iters T
                         --seed S [--eta E] [--alpha A] [--alpha-emit A2] --trace FILE.csv
                         [--output FILE] [--samples FILE] [--no-skip] [--lowercase]
    python -m engine score --model hmm --data GOLD --analysis TAGGED [--states K] …

Invalid arguments and unreadable files give a one-line error and exit status 2.
"""
import json
import os
import sys

import numpy as np
import pandas as pd

from datasets.errors import CorpusError
from datasets.segmented import format_segmented, load_segmented
from datasets.tagged import FORMATS as TAGGED_FORMATS
from datasets.tagged import format_wordtag, load_tagged
from engine.cli_args import OneLineParser, float_in, int_in
from engine.metrics import score_words
from engine.models.hmm import HmmModel
from engine.models.toy import MAX_N, ToyModel
from engine.models.usm import UsmModel
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
    run.add_argument("--model", choices=["toy", "usm", "hmm"], required=True)
    run.add_argument("--n", type=int_in(1, MAX_N), default=1000, help="toy: copies of `ab`")
    run.add_argument("--init-m", type=int_in(0), default=None,
                     help="toy: initial number of split copies (default n)")
    run.add_argument("--data", help="usm, hmm: the corpus file")
    run.add_argument("--eta", type=float_in(0.0, 1.0), default=1.0,
                     help="usm: each site starts a boundary with this probability; hmm: each "
                          "token starts in state 1 with this probability, else a random state "
                          "(default 1)")
    add_corpus_options(run)
    run.add_argument("--sampler", choices=NAMES, required=True)
    run.add_argument("--iters", type=int_in(0), required=True, help="sweeps to run")
    run.add_argument("--seed", type=int_in(0), required=True)
    run.add_argument("--no-skip", action="store_true",
                     help="TYPE: turn the skip approximation off (exact, slower)")
    run.add_argument("--trace", required=True, help="CSV file for the per-sweep trace")
    run.add_argument("--samples", help="file for every site's value after each sweep")
    run.add_argument("--output", help="usm: the final segmentation (plain format); hmm: the "
                                      "final tagging as word/STATE tokens")

    score = commands.add_parser("score", help="log-probability and measures of an analysis")
    score.add_argument("--model", choices=["usm", "hmm"], required=True)
    score.add_argument("--data", required=True, help="the gold corpus")
    score.add_argument("--analysis", required=True,
                       help="usm: a segmentation of the same utterances; hmm: a tagging of the "
                            "same sentences as word/STATE tokens (states 1 … K)")
    add_corpus_options(score)
    return parser


def add_corpus_options(parser):
    parser.add_argument("--alpha", type=float_in(1e-9, 1e9), default=None,
                        help="usm: α₀, the DP concentration (default 20); hmm: α, the "
                             "transition prior (default 0.1)")
    parser.add_argument("--p-boundary", type=float_in(1e-9, 1 - 1e-9), default=0.5,
                        help="usm: p#, the base distribution's word-end probability (default 0.5)")
    parser.add_argument("--rho", type=float_in(1e-9, 1e9), default=2.0,
                        help="usm: ρ, the utterance-end prior (default 2)")
    parser.add_argument("--alpha-emit", type=float_in(1e-9, 1e9), default=0.1,
                        help="hmm: α′, the emission prior (default 0.1)")
    parser.add_argument("--states", type=int_in(2, 1000), default=None,
                        help="hmm: K, the number of hidden states (default: the gold tags')")
    parser.add_argument("--format", choices=TAGGED_FORMATS, default="conllu",
                        help="hmm: the corpus format (default conllu, UPOS)")
    parser.add_argument("--lowercase", action="store_true", help="hmm: lowercase the words")


def usm_model(corpus, args):
    alpha = 20.0 if args.alpha is None else args.alpha
    return UsmModel.from_corpus(corpus, alpha0=alpha, p_boundary=args.p_boundary, rho=args.rho)


def hmm_model(corpus, args):
    alpha = 0.1 if args.alpha is None else args.alpha
    return HmmModel.from_corpus(corpus, args.states, alpha=alpha, alpha_emit=args.alpha_emit)


def load_model(args, parser):
    """The usm or hmm model of --data, reporting what the loader skipped."""
    if not args.data:
        parser.error(f"--data is required with --model {args.model}: give a corpus file")
    if args.model == "usm":
        corpus = load_segmented(args.data)
        skipped = f"{corpus.blank_lines:,} blank lines"
        model = usm_model(corpus, args)
    else:
        corpus = load_tagged(args.data, format=args.format, lowercase=args.lowercase)
        skipped = f"{corpus.skipped:,} multiword-token or empty-node lines"
        model = hmm_model(corpus, args)
    if skipped[0] != "0":
        print(f"{args.data}: skipped {skipped}", file=sys.stderr)
    return model


def toy_posterior(args):
    log_p = ToyModel(args.n).log_posterior()
    frame = pd.DataFrame({"m": np.arange(args.n + 1), "log_p": log_p})
    frame.to_csv(args.out, index=False, float_format="%.10g")


def run_chain(args, parser):
    if args.model == "toy":
        if args.init_m is not None and args.init_m > args.n:
            parser.error(f"--init-m must be at most --n = {args.n:,}, got {args.init_m:,}")
        model, init = ToyModel(args.n), {"m": args.init_m}
    else:
        model, init = load_model(args, parser), {"eta": args.eta}
    chain = Run(model, args.sampler, args.seed, init=init, total_sweeps=max(args.iters, 1),
                skip=not args.no_skip)
    with open_or_none(args.samples) as samples:
        for _ in chain.advance(args.iters):
            if samples:
                samples.write(" ".join(map(str, model.values(chain.state))) + "\n")
    chain.trace_frame().to_csv(args.trace, index=False, float_format="%.10g")
    if args.output:
        with open(args.output, "w") as out:
            out.write(write_analysis(model, chain.state))


def write_analysis(model, state):
    """The final analysis in a readable format: segmented text, or word/STATE tokens."""
    if model.name == "usm":
        return format_segmented(model.words(state))
    states = [[str(k) for k in state.tag[a:b]]
              for a, b in zip(model.sent_start[:-1], model.sent_start[1:])]
    return format_wordtag(model.sentences, states)


def score(args, parser):
    model = load_model(args, parser)
    if args.model == "usm":
        analysis = load_segmented(args.analysis)
        result = score_words(model.words(model.state_from_bound(model.gold_bound)),
                             analysis.utterances)
        state = model.state_from_bound(usm_model(analysis, args).gold_bound)
    else:
        state = model.state_from_tags(read_states(model, load_tagged(args.analysis, "wordtag")))
        result = model.measures(state)
    print(json.dumps({"loglik": model.loglik(state), **result}))


def read_states(model, analysis):
    """The states of a word/STATE tagging of the model's sentences, checked token by token."""
    if analysis.sentences != model.sentences:
        raise ValueError("the analysis's words differ from the gold corpus's: give a tagging of "
                         "the same sentences")
    try:
        states = [int(k) for tags in analysis.tags for k in tags]
    except ValueError:
        raise ValueError("the analysis's tags must be state numbers 1 … K") from None
    return states


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
    check_writable(parser, *(getattr(args, name, None)
                             for name in ("out", "trace", "samples", "output")))
    try:
        if args.command == "toy-posterior":
            toy_posterior(args)
        elif args.command == "run":
            run_chain(args, parser)
        else:
            score(args, parser)
    except CorpusError as err:
        parser.error(str(err))
    except ValueError as err:  # a model's or sampler's refusal of a setting
        parser.error(str(err))
    except OSError as err:
        parser.error(f"cannot write output: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
