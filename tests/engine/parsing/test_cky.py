"""The grammar in flat arrays and the Viterbi CKY parser (engine/parsing/)."""
import itertools
import math

import numpy as np
import pytest

from datasets.trees import binarise, debinarise, leaves, preterminals
from engine.parsing.cky import Parser
from engine.parsing.pcfg import (annotate_parents, grammar_from_rules, pcfg, rule_counts,
                                 strip_parents)
from engine.parsing.pipeline import parse_sentences, train_pcfg

# Binarised trees: "the dog barks", "a cat sees the dog".
BARKS = ("ROOT+S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP+VBZ", "barks"))
SEES = ("ROOT+S", ("NP", ("DT", "a"), ("NN", "cat")),
        ("VP", ("VBZ", "sees"), ("NP", ("DT", "the"), ("NN", "dog"))))


def test_maximum_likelihood_rule_probabilities():
    g = pcfg([BARKS, SEES])
    # ROOT+S → NP VP+VBZ and → NP VP once each: 1/2; DT → the 2 of 3; NN → cat 1 of 3.
    root, np_, vp = (g.symbol_index[s] for s in ("ROOT+S", "NP", "VP+VBZ"))
    rules = range(g.left_start[np_], g.left_start[np_ + 1])
    found = {(g.rule_parent[r], g.rule_right[r]): g.rule_logp[r] for r in rules}
    assert found[(root, vp)] == pytest.approx(math.log(1 / 2))
    the = g.word_index["the"]
    lexical = dict(zip(g.lexical_symbol[g.word_start[the]:g.word_start[the + 1]],
                       g.lexical_logp[g.word_start[the]:g.word_start[the + 1]]))
    assert lexical == {g.symbol_index["DT"]: pytest.approx(math.log(2 / 3))}
    assert g.is_goal[root] == 1 and g.is_goal[np_] == 0


def test_hand_worked_best_parse():
    # "the cat sees a dog": the only analysis is ROOT+S(NP(the cat), VP(sees, NP(a dog))), of
    # probability P(ROOT+S → NP VP) · P(DT→the) P(NN→cat) · P(DT→a) P(NN→dog) · P(VBZ→sees)
    # = 1/2 · 2/3 · 1/3 · 1/3 · 2/3 · 1/2 = 1/81 (NP → DT NN, VP → VBZ NP: 1; VBZ's words are
    # its own "sees" and the collapsed VP+VBZ's "barks", which a preterminal's tag shares).
    tree, score = Parser(pcfg([BARKS, SEES])).parse("the cat sees a dog".split())
    assert tree == ("ROOT+S", ("NP", ("DT", "the"), ("NN", "cat")),
                    ("VP", ("VBZ", "sees"), ("NP", ("DT", "a"), ("NN", "dog"))))
    assert score == pytest.approx(math.log(1 / 81))


def test_no_parse_gives_none():
    tree, score = Parser(pcfg([BARKS, SEES])).parse("dog the".split())
    assert tree is None and score == -math.inf


def test_one_word_sentence_is_a_goal_preterminal():
    g = pcfg([("ROOT+NP+NN", "Introduction"), BARKS])
    assert Parser(g).parse(["Introduction"])[0] == ("ROOT+NP+NN", "Introduction")


# --- brute force: the maximum over every labelled binary tree ----------------------------------
def random_grammar(rng, nonterminals, words, keep=0.6):
    """Random weights for a random subset of all rules over ``nonterminals`` and ``words``;
    every word has a lexical rule (the last symbol's), so none is unknown."""
    binary = {rule: rng.uniform(0.1, 1.0) for rule in itertools.product(nonterminals, repeat=3)
              if rng.random() < keep}
    lexical = {(tag, word): rng.uniform(0.1, 1.0) for tag in nonterminals for word in words
               if rng.random() < keep or tag == nonterminals[-1]}
    return binary, lexical


def log_probabilities(binary, lexical):
    """Each rule's log probability: its weight over its left-hand side's total, by hand."""
    total = {}
    for (lhs, *_), weight in [*binary.items(), *lexical.items()]:
        total[lhs] = total.get(lhs, 0.0) + weight
    return {rule: math.log(weight / total[rule[0]])
            for rule, weight in [*binary.items(), *lexical.items()]}


def every_tree(words, symbols):
    """Every binary tree over ``words`` with every symbol at every node."""
    if len(words) == 1:
        for symbol in symbols:
            yield (symbol, words[0])
        return
    for split in range(1, len(words)):
        for left in every_tree(words[:split], symbols):
            for right in every_tree(words[split:], symbols):
                for symbol in symbols:
                    yield (symbol, left, right)


def tree_logp(tree, logp):
    if isinstance(tree[1], str):
        return logp.get(tree, -math.inf)
    rule = (tree[0], tree[1][0], tree[2][0])
    return logp.get(rule, -math.inf) + tree_logp(tree[1], logp) + tree_logp(tree[2], logp)


@pytest.mark.parametrize("seed", range(6))
def test_viterbi_equals_the_brute_force_maximum(seed):
    rng = np.random.default_rng(seed)
    symbols = ("ROOT", "A", "B")
    binary, lexical = random_grammar(rng, symbols, ("x", "y"))
    logp = log_probabilities(binary, lexical)
    parser = Parser(grammar_from_rules(binary, lexical))
    for n in range(1, 6):
        words = [str(word) for word in rng.choice(["x", "y"], size=n)]
        best = max((tree_logp(tree, logp) for tree in every_tree(words, symbols)
                    if tree[0] == "ROOT"), default=-math.inf)
        tree, score = parser.parse(words)
        if best == -math.inf:
            assert tree is None
            continue
        assert score == pytest.approx(best, abs=1e-12)
        assert tree[0] == "ROOT" and tree_logp(tree, logp) == pytest.approx(best, abs=1e-12)


def test_a_small_pool_grows():
    rng = np.random.default_rng(7)
    binary, lexical = random_grammar(rng, ("ROOT", "A", "B", "C"), ("x",), keep=1.0)
    parser = Parser(grammar_from_rules(binary, lexical))
    expected = parser.parse(["x"] * 12)
    parser.chart = parser._allocated(12, 5)  # far too small: the chart must double it until it fits
    assert parser.parse(["x"] * 12) == expected
    assert len(parser.chart.pool_symbol) > 5


# --- unknown words, fresh symbols, goals --------------------------------------------------------
def test_unknown_word_takes_the_tags_of_the_classes():
    # UNK was emitted by NN (1 of NN's 2 words) only: an unseen word is an NN, scored log 1/2.
    lexical = {("DT", "the"): 1, ("NN", "dog"): 1, ("NN", "UNK"): 1}
    binary = {("ROOT", "DT", "NN"): 1}
    g = grammar_from_rules(binary, lexical, unknown_words={"UNK"})
    tree, score = Parser(g).parse(["the", "zebra"])
    assert tree == ("ROOT", ("DT", "the"), ("NN", "zebra"))
    assert score == pytest.approx(math.log(1 / 2))


def test_unknown_word_without_classes_may_be_any_tag():
    # No classes: the unseen word may be DT or NN at score 0, and the rules decide.
    g = grammar_from_rules({("ROOT", "DT", "NN"): 1}, {("DT", "the"): 1, ("NN", "dog"): 1})
    assert Parser(g).parse(["the", "zebra"])[0] == ("ROOT", ("DT", "the"), ("NN", "zebra"))


def test_fresh_symbols_are_written_as_their_labels_and_goals_are_given():
    # A flattened fragment NP → (DT the) NN through a fresh symbol F1 standing for DT, and a
    # second root symbol ROOT' that is not a goal although its label starts with ROOT.
    binary = {("ROOT", "F1", "NN"): 1, ("ROOT'", "F1", "NN"): 5}
    lexical = {("F1", "the"): 1, ("NN", "dog"): 1}
    g = grammar_from_rules(binary, lexical, labels={"F1": "DT", "ROOT'": "ROOT"}, goal=["ROOT"])
    tree, score = Parser(g).parse(["the", "dog"])
    assert tree == ("ROOT", ("DT", "the"), ("NN", "dog")) and score == 0.0


def test_a_100k_symbol_grammar_parses():
    # 100,000 fresh symbols, one rule each: a chain F_k → x F_{k+1} of which a sentence of
    # 6 x's uses the first five; the chart stays sparse (a handful of entries per cell).
    n = 100_000
    binary = {(f"F{k}", "X", f"F{k + 1}"): 1 for k in range(n)}
    binary[("ROOT", "X", "F0")] = 1
    lexical = {("X", "x"): 1, (f"F{n}", "x"): 1, ("F4", "x"): 1}
    g = grammar_from_rules(binary, lexical)
    parser = Parser(g)
    tree, score = parser.parse(["x"] * 6)
    # ROOT → X F0, F0 → X F1, …, F3 → X F4, F4 → x: F4's two rules make each 1/2.
    assert score == pytest.approx(math.log(1 / 2))
    assert tree[0] == "ROOT" and leaves(tree) == ("x",) * 6
    assert parser.chart_of(["x"] * 6) < 100


# --- trees: parent annotation, the pipeline ----------------------------------------------------
TREES = [("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBZ", "barks")),
                   (".", "."))),
         ("ROOT", ("S", ("NP", ("DT", "a"), ("JJ", "big"), ("NN", "cat")),
                   ("VP", ("VBZ", "sees"), ("NP", ("DT", "the"), ("NN", "dog"))), (".", "."))),
         ("ROOT", ("NP", ("NN", "dog")))]


def test_parent_annotation_and_stripping():
    annotated = annotate_parents(TREES[1])
    assert annotated[1][0] == "S^ROOT" and annotated[1][1][0] == "NP^S"
    assert annotated[1][1][1] == ("DT", "a")  # preterminals keep their tags
    binarised = binarise(annotated)
    labels = {label for label in _labels(binarised)}
    assert "ROOT+S^ROOT" in labels and "@S^ROOT|<NP^S>" in labels  # @ labels carry it too
    assert debinarise(strip_parents(binarised)) == TREES[1]


def _labels(tree):
    yield tree[0]
    for child in tree[1:]:
        if not isinstance(child, str):
            yield from _labels(child)


def test_rule_counts_refuse_a_tree_not_binarised():
    with pytest.raises(ValueError, match="tree 1: the node 'S' has 3 children"):
        rule_counts([TREES[0][1]])


@pytest.mark.parametrize("parent", [False, True])
def test_parses_are_treebank_trees_over_the_same_words(parent):
    trained = train_pcfg(TREES * 2, markov=1, parent=parent)  # twice: no word is rare
    parses, kept, failed = parse_sentences(trained, TREES)
    assert failed == 0 and kept == TREES
    for parse, gold in zip(parses, TREES):
        assert leaves(parse) == leaves(gold) and parse[0] == "ROOT"
    assert parses == TREES  # the grammar has seen each sentence's tree and no rival


def test_a_sentence_without_parse_gets_the_flat_tree_over_its_gold_tags():
    trained = train_pcfg(TREES * 2, markov=1)
    gold = ("ROOT", ("S", ("VP", ("VBZ", "barks")), ("NP", ("DT", "the"), ("NN", "dog"))))
    parses, _, failed = parse_sentences(trained, [gold])
    assert failed == 1
    assert parses == [("ROOT", ("X", *preterminals(gold)))]


def test_max_length_keeps_the_short_sentences_in_order():
    trained = train_pcfg(TREES * 2, markov=1)
    parses, kept, _ = parse_sentences(trained, TREES, max_length=4)
    assert kept == [TREES[0], TREES[2]] and len(parses) == 2
