"""``python -m engine parse``: what a grammar learnt from trees is worth — train it, parse
held-out sentences from their words, score the parses with EVALB (COLLINS.prm).

    python -m engine parse --train TREES [TREES …] --test TREES [TREES …] --grammar NAME
                           --output PARSES [--max-length 40] [--markov 1]
                           [--sampler S --iters N --seed R --average K]   (--grammar ptsg)

Prints JSON: ``f1``, ``precision``, ``recall`` (fractions), ``sentences`` scored, ``seconds``
to parse them, and ``train_seconds``, ``failed`` (sentences without a parse, scored as flat
trees) and the grammar's sizes. PARSES gets one tree per line for each test sentence of at most
--max-length words (traces not counted, punctuation counted, as EVALB counts), in order.
"""
import json

from datasets.errors import CorpusError
from engine.cli.args import SEED, add_input, add_output, int_in

MAX_MARKOV = 10  # sibling labels an intermediate label remembers; more is the whole left context
MAX_ITERS = 100_000
MAX_AVERAGE = 1_000  # samples a grammar averages: each is kept in memory until the end


def add_parse_parser(new_parser, model):
    """The ``parse`` subcommand (``model`` is unused: the grammar is named by --grammar)."""
    from engine.parsing.grammars import GRAMMARS
    from datasets.trees import MAX_WORDS
    parser = new_parser()
    add_input(parser, "--train", nargs="+", required=True, metavar="TREES",
                        help="training treebank files (Penn brackets)")
    add_input(parser, "--test", nargs="+", required=True, metavar="TREES",
                        help="held-out treebank files: their sentences are parsed from their "
                             "words and scored against their trees")
    parser.add_argument("--grammar", required=True, choices=list(GRAMMARS),
                        help="; ".join(f"{name}: {kind.help}" for name, kind in GRAMMARS.items()))
    parser.add_argument("--max-length", type=int_in(1, MAX_WORDS), default=40,
                        help="parse the sentences of at most this many words (default 40)")
    parser.add_argument("--markov", type=int_in(0, MAX_MARKOV), default=1,
                        help="order of the horizontal Markovisation when binarising (default 1)")
    add_output(parser, "--output", required=True, metavar="PARSES",
               help="file to write the parses to, one tree per line")
    sampled = parser.add_argument_group("a sampled grammar (--grammar ptsg)")
    sampled.add_argument("--sampler", default="type", choices=("token", "type", "anneal", "greedy"),
                         help="the sampler that learns it (default type)")
    sampled.add_argument("--iters", type=int_in(1, MAX_ITERS), default=100,
                         help="its sweeps over the training trees (default 100)")
    sampled.add_argument("--seed", type=SEED, default=0, help="its seed")
    sampled.add_argument("--average", type=int_in(1, MAX_AVERAGE), default=10,
                         help="the samples whose mean grammar parses (Liang et al. fn. 6), "
                              "spread over the chain's second half (default 10; 1: the last "
                              "sample alone)")


def read_treebank(paths):
    """The trees of several files, in order; a CorpusError naming the file."""
    from datasets.trees import read_file
    trees = []
    for path in paths:
        try:
            trees.extend(read_file(path).trees)
        except CorpusError as err:
            raise CorpusError(str(err) if err.path else f"{path}: {err}") from None
    return trees


def parse(args):
    """The parse command: train, parse, score; the parses to --output, the scores as JSON."""
    from datasets.trees import format_trees
    from engine.parsing.grammars import GRAMMARS, evaluate
    train, test = read_treebank(args.train), read_treebank(args.test)
    settings = {name: getattr(args, name) for name in GRAMMARS[args.grammar].settings}
    parses, result = evaluate(args.grammar, train, test, args.max_length, args.markov,
                              **settings)
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(format_trees(parses))
    print(json.dumps(result))
