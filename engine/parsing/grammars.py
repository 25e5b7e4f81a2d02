"""The grammars the ``parse`` command offers, by name, and what one is worth: trained on
treebank trees, held-out sentences parsed from their words (engine.parsing.pipeline), the
parses scored with EVALB. Each is a ``GrammarKind``: how it is learnt from the training trees
(as read) and how its parses are turned back into treebank trees; a new grammar is one more
entry, declared where it is learnt (the PTSG's in engine.models.ptsg.training).
"""
import time

from engine.scoring import evalb
from engine.models.ptsg.training import PTSG
from engine.parsing.cky import Parser
from engine.parsing.pipeline import GrammarKind, parse_sentences, train_pcfg

GRAMMARS = {kind.name: kind for kind in (
    GrammarKind("pcfg", "the treebank PCFG (maximum likelihood)",
                lambda trees, markov: train_pcfg(trees, markov)),
    GrammarKind("pcfg-parent", "the parent-annotated treebank PCFG (Johnson 1998)",
                lambda trees, markov: train_pcfg(trees, markov, parent=True)),
    PTSG,
)}


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
