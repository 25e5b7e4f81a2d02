"""What parsing with a learnt grammar needs: the grammar trained (``Trained``, and how a kind of
grammar is learnt: ``GrammarKind``), the treebank PCFG, and the Viterbi parses of held-out
sentences from their words. engine.parsing.grammars lists the kinds the ``parse`` command
offers and scores them with EVALB.

Preprocessing follows Liang et al. (2010, fn. 5): trees cleaned as EVALB reads them, unary
chains collapsed, right-binarised with horizontal Markovisation, words seen once mapped to
unknown-word classes (``datasets.trees``).
"""
from dataclasses import dataclass
from typing import Callable

from datasets.trees import (binarise, clean, debinarise, leaves, map_rare, map_unknown,
                            preterminals)
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
