"""Train a grammar on treebank trees, parse held-out sentences from their words, score with EVALB.

Each grammar the ``parse`` command offers is one entry of ``GRAMMARS``: how it is learnt from
the training trees (as read) and how its parses are turned back into treebank trees. A new
grammar (the tree-substitution grammar's) is one more entry.

Preprocessing follows Liang et al. (2010, fn. 5): trees cleaned as EVALB reads them, unary
chains collapsed, right-binarised with horizontal Markovisation, words seen once mapped to
unknown-word classes (``datasets.trees``).
"""
import time
from dataclasses import dataclass
from typing import Callable

from datasets.trees import (binarise, clean, debinarise, leaves, map_rare, map_unknown,
                            preterminals)
from engine import evalb
from engine.parsing.cky import Parser, flat_tree
from engine.parsing.pcfg import Grammar, annotate_parents, pcfg, strip_parents


@dataclass(frozen=True)
class Trained:
    """A grammar learnt from trees, ready to parse.

    Attributes
    ----------
    grammar : Grammar
    vocabulary : frozenset of str
        The words the grammar knows; other words are mapped to their unknown-word classes.
    restore : callable
        A parse (binarised, in the grammar's labels) → the treebank tree it stands for.
    """

    grammar: Grammar
    vocabulary: frozenset
    restore: Callable


@dataclass(frozen=True)
class GrammarKind:
    """A grammar the ``parse`` command offers: ``train(trees, markov, **settings)`` →
    ``Trained``, from the training trees as read; ``settings`` names the command's options it
    takes beyond the Markovisation (a sampled grammar's sampler, sweeps and seed)."""

    name: str
    help: str
    train: Callable
    settings: tuple = ()


def train_pcfg(trees, markov=1, parent=False):
    """The maximum-likelihood PCFG of ``trees`` (as read), optionally parent-annotated."""
    cleaned = [clean(tree) for tree in trees]
    if parent:
        cleaned = [annotate_parents(tree) for tree in cleaned]
    binarised, vocabulary = map_rare(binarise(tree, markov) for tree in cleaned)
    classes = {word for tree in binarised for word in leaves(tree)} - vocabulary
    restore = (lambda tree: debinarise(strip_parents(tree))) if parent else debinarise
    return Trained(pcfg(binarised, unknown_words=classes), vocabulary, restore)


def train_ptsg(trees, markov=1, sampler="type", iters=100, seed=0, average=10):
    """The tree-substitution grammar of the last ``average`` samples of ``iters`` sweeps of
    ``sampler`` (engine.models.ptsg.grammar: the posterior mean of Liang et al.'s fn. 6)."""
    from engine.models.ptsg import grammar
    model, _, flattened = grammar.train(trees, markov, sampler, iters, seed, average)
    return Trained(flattened, model.vocabulary, debinarise)


GRAMMARS = {kind.name: kind for kind in (
    GrammarKind("pcfg", "the treebank PCFG (maximum likelihood)",
                lambda trees, markov: train_pcfg(trees, markov)),
    GrammarKind("pcfg-parent", "the parent-annotated treebank PCFG (Johnson 1998)",
                lambda trees, markov: train_pcfg(trees, markov, parent=True)),
    GrammarKind("ptsg", "the tree-substitution grammar of a chain's samples (--sampler, "
                "--iters, --seed, --average; Liang et al. 2010, fn. 6)", train_ptsg,
                settings=("sampler", "iters", "seed", "average")),
)}


def parse_sentences(trained, gold_trees, max_length=None):
    """Viterbi parses of the sentences of ``gold_trees`` of at most ``max_length`` words.

    Returns
    -------
    parses : list of tree
        One per kept sentence, in order: the parse as a treebank tree, or for a sentence the
        grammar cannot parse the flat tree ``(ROOT (X (tag word) …))`` over its gold tags.
    kept : list of tree
        The gold trees of those sentences, as given.
    failed : int
        How many sentences had no parse.
    """
    parser = Parser(trained.grammar)
    parses, kept, failed = [], [], 0
    for gold in gold_trees:
        tagged = preterminals(clean(gold))
        if max_length is not None and len(tagged) > max_length:
            continue
        words = [word for _, word in tagged]
        parse, _ = parser.parse(map_unknown(words, trained.vocabulary), words)
        failed += parse is None
        parses.append(flat_tree(tagged) if parse is None else trained.restore(parse))
        kept.append(gold)
    return parses, kept, failed


def evaluate(kind, train_trees, test_trees, max_length=40, markov=1, **settings):
    """Train grammar ``kind`` (a ``GRAMMARS`` name), parse the test sentences of at most
    ``max_length`` words and score them; ``settings``: the grammar's own (its kind's
    ``settings``).

    Returns
    -------
    parses : list of tree
        As ``parse_sentences``.
    result : dict
        EVALB's ``f1``, ``precision``, ``recall`` and ``sentences``; ``seconds`` to parse (the
        kernel compiled beforehand), ``train_seconds``, ``failed`` (sentences without a parse,
        scored as flat trees) and the grammar's sizes.
    """
    started = time.perf_counter()
    trained = GRAMMARS[kind].train(train_trees, markov, **settings)
    trained_at = time.perf_counter()
    Parser(trained.grammar).parse(["."])  # compile (or load) the kernel outside the timing
    parsing = time.perf_counter()
    parses, kept, failed = parse_sentences(trained, test_trees, max_length)
    seconds = time.perf_counter() - parsing
    scored = evalb.score(kept, parses)
    result = {key: scored[key] for key in ("f1", "precision", "recall", "sentences")}
    return parses, {**result, "seconds": seconds, "train_seconds": trained_at - started,
                    "failed": failed, **trained.grammar.sizes()}
