"""Labelled bracket scoring as EVALB does it with COLLINS.prm (Sekine & Collins 1997), the
standard parsing measure (Liang et al. 2010 §5 score their PTSG with it).

A tree is a nested tuple ``(label, child, …)``; a word is a ``str`` and a preterminal is
``(tag, word)``. COLLINS.prm's settings, as its README gives them:

- ``DELETE_LABEL TOP``, ``-NONE-``, ``,``, ``:``, ````````, ``''``, ``.``: a preterminal with one
  of these tags is deleted with its word (so span positions skip it), a bracket with one of
  these labels is not counted, and a bracket left over no word is dropped. ``ROOT`` and the
  empty label of a ``( …)`` wrapper are deleted as ``TOP`` is (the treebank's root is named
  ``ROOT`` here).
- ``DELETE_LABEL_FOR_LENGTH -NONE-``: a sentence's length, for the ``max_length`` cut, counts
  every word but traces — punctuation included.
- ``EQ_LABEL ADVP PRT``: the two labels are the same label.
- Labels are cut at the first ``-`` or ``=`` (``NP-SBJ-1`` is ``NP``, ``NP=2`` is ``NP``), except
  labels that start with ``-`` (``-NONE-``, ``-LRB-``).
- Preterminals are not brackets. Matching is one-to-one: a gold bracket matches at most one
  test bracket, so two equal brackets (a unary ``X → X``) count twice on each side.
- Precision, recall and F1 are corpus-level: sums of matched, test and gold brackets.

One departure, on purpose: which words are punctuation is read from the *gold* tree's tags and
applied to both trees (as disco-dop's evaluator does). EVALB reads each tree's own tags, so a
parser that tags ``--`` as ``:`` where the gold says ``HYPH`` makes a "length mismatch" error
sentence that EVALB leaves out of its totals; here the sentence is scored. Words that differ
after the deletions are still an error (EVALB's "length unmatch" / "words unmatch").
"""
from collections import Counter

from engine.scoring.metrics import precision_recall_f

PUNCTUATION = frozenset({",", ":", "``", "''", "."})  # COLLINS.prm DELETE_LABEL preterminals
TRACE = "-NONE-"  # deleted everywhere, and not counted in a sentence's length
UNCOUNTED = frozenset({"TOP", "ROOT", "", TRACE} | PUNCTUATION)  # bracket labels not scored
EQUIVALENT = {"PRT": "ADVP"}  # COLLINS.prm EQ_LABEL ADVP PRT


def is_preterminal(node):
    """Whether ``node`` is a ``(tag, word)`` pair."""
    return len(node) == 2 and isinstance(node[1], str)


def scored_label(label):
    """The label EVALB compares: cut at the first ``-`` or ``=`` (not a leading ``-``), with
    PRT written as ADVP."""
    if not label.startswith("-"):
        label = label.split("-", 1)[0].split("=", 1)[0]
    return EQUIVALENT.get(label, label)


def terminals(tree):
    """The ``(tag, word)`` pairs of a tree, left to right, traces (``-NONE-``) left out."""
    found = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if is_preterminal(node):
            if node[0] != TRACE:
                found.append(node)
            continue
        if len(node) < 2 or any(isinstance(child, str) for child in node[1:]):
            raise ValueError(f"a node labelled {node[0]!r} has a word beside other children or "
                             "no child: every word needs its own (tag word) preterminal")
        stack.extend(reversed(node[1:]))
    return found


def brackets(tree, deleted=None):
    """The multiset of labelled spans ``(label, start, end)`` EVALB scores in ``tree``.

    Parameters
    ----------
    tree : tuple
        ``(label, child, …)`` with ``(tag, word)`` preterminals.
    deleted : sequence of bool, optional
        One per word of ``terminals(tree)``: True for a word the scorer deletes (positions skip
        it). Default: the words whose own tag is punctuation.

    Returns
    -------
    collections.Counter
        ``(label, start, end) → count``; ``end`` is exclusive, positions count kept words.
    """
    if deleted is None:
        deleted = [tag in PUNCTUATION for tag, _ in terminals(tree)]
    found = Counter()
    word = 0      # index into terminals(tree)
    position = 0  # index among kept words
    # An explicit stack of (node, start): a node is pushed once to open it and once (with its
    # start) to close it, so deep trees need no recursion.
    stack = [(tree, None)]
    while stack:
        node, start = stack.pop()
        if start is not None:
            label = scored_label(node[0])
            if position > start and label not in UNCOUNTED:
                found[(label, start, position)] += 1
        elif is_preterminal(node):
            if node[0] != TRACE:
                position += not deleted[word]
                word += 1
        else:
            stack.append((node, position))
            stack.extend((child, None) for child in reversed(node[1:]))
    return found


def sentence_counts(number, gold, test):
    """(matched, gold, test) bracket counts of one sentence; a ValueError naming sentence
    ``number`` when its words differ after the deletions."""
    gold_words, test_words = terminals(gold), terminals(test)
    if len(gold_words) != len(test_words):
        raise ValueError(f"sentence {number}: length mismatch: the gold tree has "
                         f"{len(gold_words)} words, the test tree {len(test_words)} "
                         "(traces left out): give the test trees in the gold file's order, "
                         "one per gold tree, over the same words")
    deleted = [tag in PUNCTUATION for tag, _ in gold_words]
    for index, ((_, expected), (_, got), gone) in enumerate(zip(gold_words, test_words, deleted)):
        if expected != got and not gone:
            raise ValueError(f"sentence {number}: word mismatch at word {index + 1}: gold "
                             f"{expected!r}, test {got!r}: the test tree must be over the gold "
                             "tree's words")
    gold_brackets, test_brackets = brackets(gold, deleted), brackets(test, deleted)
    matched = sum((gold_brackets & test_brackets).values())  # min of the counts: one-to-one
    return matched, sum(gold_brackets.values()), sum(test_brackets.values())


def sentence_length(tree):
    """A sentence's length for the ``max_length`` cut: its words but traces (punctuation
    counts, as DELETE_LABEL_FOR_LENGTH lists only ``-NONE-``)."""
    return len(terminals(tree))


def score(gold_trees, test_trees, max_length=None):
    """Labelled bracket precision, recall and F1 of ``test_trees`` against ``gold_trees``.

    Parameters
    ----------
    gold_trees, test_trees : sequence of tuple
        Paired trees, the same number of each.
    max_length : int, optional
        Score only the sentences of at most this many words (``sentence_length``).

    Returns
    -------
    dict
        ``precision``, ``recall``, ``f1`` (fractions; 0 when nothing is counted), corpus totals
        ``matched``, ``gold``, ``test``, the number of ``sentences`` scored, and ``per_sentence``:
        a list of ``(number, matched, gold, test)`` for each scored sentence (1-based numbers in
        the input's order).

    Raises
    ------
    ValueError
        When the counts of trees differ, or a sentence's words differ (naming it).
    """
    if len(gold_trees) != len(test_trees):
        raise ValueError(f"{len(gold_trees)} gold trees but {len(test_trees)} test trees: give "
                         "one test tree per gold tree, in order")
    per_sentence = []
    for number, (gold, test) in enumerate(zip(gold_trees, test_trees), start=1):
        if max_length is None or sentence_length(gold) <= max_length:
            per_sentence.append((number, *sentence_counts(number, gold, test)))
    matched, gold, test = (sum(row[k] for row in per_sentence) for k in (1, 2, 3))
    precision, recall, f1 = precision_recall_f(matched, test, gold)
    return {"precision": precision, "recall": recall, "f1": f1, "matched": matched,
            "gold": gold, "test": test, "sentences": len(per_sentence),
            "per_sentence": per_sentence}
