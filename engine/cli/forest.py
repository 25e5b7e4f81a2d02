"""``python -m engine forest``: the phrase decomposition forest of every sentence pair
(Peng & Gildea 2014, §2.1; engine.models.scfg.forest), one CSV row a pair, and one pair's
forest printed for inspection.

    python -m engine forest --data PAIRS [--alignments ALIGN] --out FILE.csv [--pair I]

PAIRS has ``source ||| target`` a line (or ``source ||| target ||| links`` without
--alignments); ALIGN a line of Pharaoh links (``i-j``, 0-based) per pair. The CSV's columns:
``pair`` (its 0-based line), ``nodes`` (phrase pairs, all reachable from the root), ``hyperedges``
(a leaf's empty edge counted), ``trees`` (the exact number of trees in the forest) and
``tree_nodes`` (the nodes of each of its trees: every tree of a forest has as many).
"""
import csv

from datasets import aligned
from engine.cli.args import add_input, add_output, int_in
from engine.models.scfg.forest import corpus_forests, refuse_without_phrase_pairs


def add_forest_parser(new_parser, model):
    """The ``forest`` subcommand (``model`` is unused: it takes no --model)."""
    parser = new_parser()
    add_input(parser, "--data", required=True, metavar="PAIRS", what="the corpus",
                        help="sentence pairs, 'source ||| target' a line (a third field: the "
                             "pair's links, when --alignments is not given)")
    add_input(parser, "--alignments", metavar="ALIGN",
                        help="the pairs' alignments, one line of 0-based Pharaoh links 'i-j' a "
                             "pair")
    add_output(parser, "--out", required=True, metavar="FILE.csv",
               help="the CSV to write: pair, nodes, hyperedges, trees, tree_nodes")
    parser.add_argument("--pair", type=int_in(0, aligned.MAX_PAIRS - 1), metavar="I",
                        help="also print pair I's forest (0-based: its line number − 1)")


def run_forest(args):
    """The forest command."""
    corpus = aligned.read_files(args.data, args.alignments)
    if args.pair is not None and args.pair >= len(corpus):
        raise ValueError(f"--pair {args.pair} is past the last pair ({len(corpus) - 1}: "
                         f"{args.data} has {len(corpus):,})")
    forests = corpus_forests(corpus)
    refuse_without_phrase_pairs(forests)
    with open(args.out, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["pair", "nodes", "hyperedges", "trees", "tree_nodes"])
        for i, fo in enumerate(forests):
            writer.writerow([i, fo.n_nodes, fo.n_edges, fo.n_trees(), fo.tree_size()])
    print(f"{len(forests):,} pairs: {sum(fo.n_nodes for fo in forests):,} nodes, "
          f"{sum(fo.n_edges for fo in forests):,} hyperedges → {args.out}")
    if args.pair is not None:
        print(describe(forests[args.pair], corpus.source[args.pair], corpus.target[args.pair]))


def describe(fo, source, target):
    """A forest as text: each node bottom-up — its spans, its words, its incoming edges."""
    lines = [f"{' '.join(source)} ||| {' '.join(target)}",
             f"{fo.n_nodes} nodes, {fo.n_edges} hyperedges, {fo.n_trees():,} trees of "
             f"{fo.tree_size()} nodes"]
    for n in range(fo.n_nodes):
        f_lo, f_hi, e_lo, e_hi = (int(fo.f_lo[n]), int(fo.f_hi[n]), int(fo.e_lo[n]),
                                  int(fo.e_hi[n]))
        name = "root" if n == fo.root else f"node {n}"
        edges = fo.edges(n)
        ways = "; ".join("(" + " ".join(f"node {t}" for t in tails) + ")" if tails else "(leaf)"
                         for tails in edges)
        lines.append(f"{name} ([{f_lo} {f_hi}], [{e_lo} {e_hi}]) "
                     f"{' '.join(source[f_lo:f_hi])} ||| {' '.join(target[e_lo:e_hi])}"
                     f"  deg {len(edges)}: {ways}")
    return "\n".join(lines)
