"""A grammar in flat arrays, and the maximum-likelihood PCFG of binarised trees.

Trees are nested tuples ``(label, child, …)``; a word is a ``str`` and a preterminal is
``(tag, word)``. A *binarised* tree (``datasets.trees.binarise``) has two children at every
node but the preterminals, so its rules are binary ``A → B C`` or lexical ``A → word``: the
grammar has no unary rules.

``grammar_from_rules`` turns rule weights into the ``Grammar`` the CKY parser reads; it is kept
apart from counting rules in trees (``rule_counts``) because a tree-substitution grammar is
flattened into the same form: each fragment becomes a chain of rules through fresh internal
symbols, and ``labels`` says which tree label each fresh symbol stands for, so that a parse is
written in the treebank's labels. Such grammars have 20k–200k symbols with one or two rules
each, which is why nothing here is dense over symbols × symbols.

Parent annotation (Johnson 1998) writes each non-preterminal label below the root with its
parent's label, ``NP^S``; annotating before binarising makes the intermediate ``@`` labels carry
it too. ``strip_parents`` removes it before ``debinarise``.
"""
import re
from collections import Counter, defaultdict
from typing import NamedTuple

import numpy as np

PARENT = "^"  # NP^S: an NP whose parent is an S
CHAIN = "+"  # VP+VBD: a unary chain collapsed by datasets.trees.binarise
PARENT_MARK = re.compile(r"\^[A-Za-z0-9$]+")  # what annotate_parents adds: a clean label
GOAL_PREFIX = "ROOT"  # a parse's root label starts with it (ROOT, ROOT+S after binarising)


class Grammar(NamedTuple):
    """A grammar without unary rules, in flat arrays for the CKY kernel.

    Symbols and words are numbered from 0. Probabilities are natural logs, normalised per
    left-hand side over its binary and lexical rules together.

    Attributes
    ----------
    symbols : tuple of str
        Each symbol's name (unique).
    labels : tuple of str
        The tree label each symbol is written as in a parse (its name, but for fresh symbols).
    symbol_index, word_index : dict
        Name → symbol id; word → word id.
    left_start : int64[n_symbols + 1]
        Binary rules with left child B are ``left_start[B]:left_start[B + 1]``.
    rule_parent, rule_left, rule_right : int32[n_binary]
        A, B, C of each rule A → B C, grouped by B.
    rule_logp : float64[n_binary]
        log p(A → B C | A).
    word_start : int64[n_words + 1]
        The lexical rules of word w are ``word_start[w]:word_start[w + 1]``.
    lexical_symbol : int32[n_lexical]
        A of each lexical rule A → w, grouped by w.
    lexical_logp : float64[n_lexical]
        log p(A → w | A).
    unknown_symbol : int32[n_unknown]
        The symbols a word without any lexical rule may have.
    unknown_logp : float64[n_unknown]
        Their scores (see ``grammar_from_rules``).
    is_goal : uint8[n_symbols]
        1 for the symbols a whole sentence's parse may be rooted at.
    """

    symbols: tuple
    labels: tuple
    symbol_index: dict
    word_index: dict
    left_start: np.ndarray
    rule_parent: np.ndarray
    rule_left: np.ndarray
    rule_right: np.ndarray
    rule_logp: np.ndarray
    word_start: np.ndarray
    lexical_symbol: np.ndarray
    lexical_logp: np.ndarray
    unknown_symbol: np.ndarray
    unknown_logp: np.ndarray
    is_goal: np.ndarray

    def sizes(self):
        """The numbers of symbols, binary rules, lexical rules and words, as a dict."""
        return {"symbols": len(self.symbols), "binary_rules": len(self.rule_parent),
                "lexical_rules": len(self.lexical_symbol), "words": len(self.word_index)}


def grammar_from_rules(binary_counts, lexical_counts, labels=None, goal=None, unknown_words=()):
    """The grammar whose rule probabilities are the given weights normalised per left-hand side.

    Parameters
    ----------
    binary_counts : mapping
        ``(A, B, C) → weight`` for rules A → B C (names are str); weights > 0 (counts, or any
        numbers proportional to the rule probabilities under A).
    lexical_counts : mapping
        ``(A, word) → weight`` for lexical rules A → word, weights > 0.
    labels : mapping, optional
        Symbol name → the tree label it is written as (fresh symbols of a flattened grammar);
        a symbol not in it is written as its name.
    goal : iterable of str, optional
        The symbols a parse may be rooted at; default: every symbol whose label starts with
        ``ROOT``.
    unknown_words : iterable of str
        The unknown-word classes among the lexicon's words. A test word without any lexical
        rule (its class never seen in training) may then be any symbol that emitted a class,
        scored log p(some class | A). Without classes in the lexicon it may be any symbol with
        a lexical rule, each scored 0: every parse holds one such rule, so the constant leaves
        the choice to the rest of the grammar.

    Returns
    -------
    Grammar
    """
    _check_weights(binary_counts, "binary")
    _check_weights(lexical_counts, "lexical")
    names = sorted({name for rule in binary_counts for name in rule}
                   | {tag for tag, _ in lexical_counts})
    symbol_index = {name: k for k, name in enumerate(names)}
    labels = labels or {}
    symbol_labels = tuple(labels.get(name, name) for name in names)
    total = np.zeros(len(names))
    for counts in (binary_counts, lexical_counts):
        lhs = np.array([symbol_index[rule[0]] for rule in counts], dtype=np.int64)
        np.add.at(total, lhs, np.fromiter(counts.values(), float, len(counts)))
    binary = _binary_arrays(binary_counts, symbol_index, total)
    words = sorted({word for _, word in lexical_counts})
    word_index = {word: k for k, word in enumerate(words)}
    lexical = _lexical_arrays(lexical_counts, symbol_index, word_index, total)
    unknown = _unknown_arrays(lexical_counts, symbol_index, total, set(unknown_words))
    is_goal = np.zeros(len(names), dtype=np.uint8)
    goal = ([name for name, label in zip(names, symbol_labels) if label.startswith(GOAL_PREFIX)]
            if goal is None else goal)
    is_goal[[symbol_index[name] for name in goal]] = 1
    return Grammar(tuple(names), symbol_labels, symbol_index, word_index, *binary, *lexical,
                   *unknown, is_goal)


def _check_weights(counts, kind):
    bad = next(((rule, w) for rule, w in counts.items() if not (np.isfinite(w) and w > 0)), None)
    if bad is not None:
        raise ValueError(f"the {kind} rule {bad[0]} has weight {bad[1]}: every rule's weight "
                         "must be a finite number above 0 (leave out rules of weight 0)")


def _binary_arrays(binary_counts, symbol_index, total):
    """left_start, rule_parent, rule_left, rule_right, rule_logp: rules sorted by left child."""
    rules = np.array([[symbol_index[a], symbol_index[b], symbol_index[c]]
                      for a, b, c in binary_counts], dtype=np.int32).reshape(-1, 3)
    weight = np.fromiter(binary_counts.values(), float, len(binary_counts))
    order = np.lexsort((rules[:, 2], rules[:, 1]))  # by left child, then right child
    rules, weight = rules[order], weight[order]
    logp = np.log(weight / total[rules[:, 0]])
    left_start = _group_starts(rules[:, 1], len(symbol_index))
    return left_start, rules[:, 0].copy(), rules[:, 1].copy(), rules[:, 2].copy(), logp


def _lexical_arrays(lexical_counts, symbol_index, word_index, total):
    """word_start, lexical_symbol, lexical_logp: rules sorted by word."""
    symbol = np.array([symbol_index[a] for a, _ in lexical_counts], dtype=np.int32)
    word = np.array([word_index[w] for _, w in lexical_counts], dtype=np.int32)
    weight = np.fromiter(lexical_counts.values(), float, len(lexical_counts))
    order = np.lexsort((symbol, word))
    symbol, word, weight = symbol[order], word[order], weight[order]
    return _group_starts(word, len(word_index)), symbol, np.log(weight / total[symbol])


def _unknown_arrays(lexical_counts, symbol_index, total, unknown_words):
    """unknown_symbol, unknown_logp: see grammar_from_rules's unknown_words."""
    mass = Counter()
    for (tag, word), weight in lexical_counts.items():
        if word in unknown_words:
            mass[symbol_index[tag]] += weight
    if not mass:  # no classes: every symbol with a lexical rule, scored 0
        tags = sorted({symbol_index[tag] for tag, _ in lexical_counts})
        return np.array(tags, dtype=np.int32), np.zeros(len(tags))
    tags = np.array(sorted(mass), dtype=np.int32)
    return tags, np.log(np.array([mass[t] for t in tags]) / total[tags])


def _group_starts(keys, n_groups):
    """int64[n_groups + 1]: group g is ``[starts[g], starts[g + 1])`` of ``keys`` (sorted)."""
    return np.searchsorted(keys, np.arange(n_groups + 1)).astype(np.int64)


def is_preterminal(node):
    """Whether ``node`` is a ``(tag, word)`` pair."""
    return len(node) == 2 and isinstance(node[1], str)


def rule_counts(trees):
    """The binary and lexical rule counts of binarised trees.

    Returns
    -------
    (Counter, Counter)
        ``(A, B, C) → count`` and ``(A, word) → count``.

    Raises
    ------
    ValueError
        For a node that is neither a preterminal nor a node with two children, naming the tree.
    """
    binary, lexical = Counter(), Counter()
    for number, tree in enumerate(trees, start=1):
        stack = [tree]
        while stack:
            node = stack.pop()
            if is_preterminal(node):
                lexical[node] += 1
            elif len(node) == 3 and not isinstance(node[1], str) and not isinstance(node[2], str):
                binary[(node[0], node[1][0], node[2][0])] += 1
                stack.extend(node[1:])
            else:
                raise ValueError(f"tree {number}: the node {node[0]!r} has {len(node) - 1} "
                                 "children: binarise the trees first (every node two children "
                                 "or a preterminal over one word)")
    return binary, lexical


def final_tag(label):
    """The part-of-speech tag a preterminal label ends in: ``NN`` for ``NN``, ``VBD`` for a
    collapsed chain ``VP+VBD``."""
    return label.rsplit(CHAIN, 1)[-1]


def tag_lexicon(lexical):
    """Each preterminal's word probabilities from lexical counts, every preterminal ending in
    one tag sharing that tag's: p(A → w) = n(T, w) / n(T) over all preterminals whose tag is T.
    Collapsing unary chains makes ``VP+VBD`` a preterminal of its own; counted alone, it could
    emit only the words seen under that very chain (“found” under VP+VBD never seen, and a
    sentence needing it had no parse), while its word is the tag's choice.

    Parameters
    ----------
    lexical : mapping
        ``(A, word) → count``.

    Returns
    -------
    dict
        ``(A, word) → p(A → word)`` for every preterminal A and every word of its tag.
    """
    words, totals = defaultdict(Counter), Counter()
    for (symbol, word), n in lexical.items():
        words[final_tag(symbol)][word] += n
        totals[final_tag(symbol)] += n
    return {(symbol, word): n / totals[tag]
            for symbol in {symbol for symbol, _ in lexical}
            for tag in (final_tag(symbol),) for word, n in words[tag].items()}


def pcfg(trees, unknown_words=()):
    """The maximum-likelihood PCFG of binarised trees (``grammar_from_rules`` of their binary
    rule counts and ``tag_lexicon``); ``unknown_words``: the unknown-word classes their words
    were mapped to."""
    binary, lexical = rule_counts(trees)
    return grammar_from_rules(binary, tag_lexicon(lexical), unknown_words=unknown_words)


def annotate_parents(tree, parent=None):
    """``tree`` with each non-preterminal label below the root written ``label^parent`` (the
    parent's own label, unannotated); preterminals and the root keep theirs. Apply it to clean
    trees, before binarising."""
    if is_preterminal(tree):
        return tree
    label = tree[0]
    if PARENT in label:
        raise ValueError(f"the label {label!r} already holds {PARENT!r}: parent annotation "
                         "would be ambiguous; rename it")
    written = label if parent is None else f"{label}{PARENT}{parent}"
    if parent is not None and not PARENT_MARK.fullmatch(PARENT + parent):
        raise ValueError(f"the label {parent!r} is not a clean label (letters, digits, $): "
                         "clean the trees (function tags removed) before annotating")
    return (written, *(annotate_parents(child, label) for child in tree[1:]))


def strip_parents(tree):
    """``tree`` (binarised or not) with every ``^parent`` mark removed from its labels, also
    inside collapsed ``A+B`` and intermediate ``@`` labels."""
    if isinstance(tree, str):
        return tree
    return (PARENT_MARK.sub("", tree[0]), *(strip_parents(child) for child in tree[1:]))
