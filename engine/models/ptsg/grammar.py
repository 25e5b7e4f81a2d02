"""A sampled tree-substitution grammar as a grammar the chart parser reads (Liang et al. fn. 6).

The grammar is the posterior mean given one sample or the mean over several (fn. 6: "a weighted
combination ... of the rule counts from the PTSG samples and the PCFG-derived base"): a fragment
f rooted at X has probability (n̄_f + α μ_X(f)) / (n̄_X + α), n̄ the counts averaged over the
samples (one sample: its own counts). It is flattened into binary and lexical rules over three
kinds of symbol:

- ``X``, the DP of label X: a fragment rooted at X starts here. It rewrites either as a fragment
  seen in the sample (weight n_f: the fragment's root rule, its inner nodes fresh symbols) or
  as a draw from the base (weight α): the PCFG rule X → B C, each child stopping (s: the
  child's own DP symbol, a new fragment) or going on (1 − s: the child's base symbol);
- ``X'``, X inside a fragment drawn from the base: the PCFG rule, children as above;
- ``X#k``, the k-th inner node of the seen fragments: its one rule, weight 1.

Every symbol is written as its label in a parse (``label_of``), so a derivation's tree is the
binarised tree it derives; its probability is the PTSG's probability of that derivation (the
parser finds the most probable derivation, not the most probable tree).
"""
import math
from collections import defaultdict, namedtuple

import numpy as np

from engine.parsing.pcfg import grammar_from_rules

Sample = namedtuple("Sample", "cut h_in")

BASE_MARK = "'"  # X' : X inside a fragment drawn from the base
INNER_MARK = "#"  # X#k : an inner node of a seen fragment


def base_rules(model, binary, lexical, labels):
    """The base's rules: X → … (weight α × PCFG × stop/go) and X' → … (PCFG × stop/go)."""
    packed = model.packed
    # every binary rule of the treebank, and every word of each preterminal's tag
    rule_p = {name: math.exp(packed.log_rule_of[i]) for name, i in packed.rules.items()
              if len(name) == 3}
    rule_p.update(packed.lexicon)
    stop = model.stop
    for name, p in rule_p.items():
        parent = name[0]
        labels[parent], labels[parent + BASE_MARK] = parent, parent
        if len(name) == 2:  # a preterminal's word
            lexical[parent, name[1]] += model.alpha * p
            lexical[parent + BASE_MARK, name[1]] += p
            continue
        left, right = name[1], name[2]
        for left_symbol, left_p in ((left, stop), (left + BASE_MARK, 1 - stop)):
            for right_symbol, right_p in ((right, stop), (right + BASE_MARK, 1 - stop)):
                weight = p * left_p * right_p
                binary[parent, left_symbol, right_symbol] += model.alpha * weight
                binary[parent + BASE_MARK, left_symbol, right_symbol] += weight


def seen_rules(model, samples, binary, lexical, labels):
    """Each fragment in use in any of the samples (states, or ``Sample``s), from one of its
    occurrences: its root rule under its label's DP symbol with weight n̄_f, its inner nodes
    as fresh symbols with weight 1."""
    packed = model.packed
    names = {i: name for name, i in packed.labels.items()}
    words = {i: name[1] for name, i in packed.rules.items() if len(name) == 2}
    fresh = 0

    def symbol_of(node, cut):
        """The symbol a fragment's child node stands for: a frontier's DP, or a fresh one."""
        nonlocal fresh
        label = names[packed.label[node]]
        if cut[node]:
            return label
        fresh += 1
        symbol = f"{label}{INNER_MARK}{fresh}"
        labels[symbol] = label
        expand(node, symbol, 1.0, cut)
        return symbol

    def expand(node, symbol, weight, cut):
        if packed.left[node] < 0:
            lexical[symbol, words[packed.rule[node]]] += weight
        else:
            binary[symbol, symbol_of(packed.left[node], cut),
                   symbol_of(packed.right[node], cut)] += weight

    for sample, root, count in fragments(samples):
        expand(root, names[packed.label[root]], count / len(samples), samples[sample].cut)


def fragments(samples):
    """The fragments in use in ``samples`` (each with ``cut`` and ``h_in``, as a state has),
    one per key: (the sample and the root of one occurrence, its count summed over them)."""
    roots = [np.flatnonzero(sample.cut) for sample in samples]
    keys = np.concatenate([sample.h_in[r] for sample, r in zip(samples, roots)])
    which = np.concatenate([np.full(len(r), i) for i, r in enumerate(roots)])
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    everywhere = np.concatenate(roots)
    return zip(which[first].tolist(), everywhere[first].tolist(), counts.tolist())


def snapshot(state):
    """What the grammar needs of a sample: copies of its cuts and keys."""
    return Sample(state.cut.copy(), state.h_in.copy())


def posterior_grammar(model, samples):
    """The parser's ``Grammar`` of the posterior mean PTSG given ``samples`` (a list of states
    or ``Sample``s; one for the mean given that sample); goal: the roots' DP symbols (labels
    ROOT…)."""
    binary, lexical, labels = defaultdict(float), defaultdict(float), {}
    base_rules(model, binary, lexical, labels)
    seen_rules(model, samples, binary, lexical, labels)
    classes = {word for (_, word) in lexical} - model.vocabulary
    goal = [name for name in model.packed.labels if name.startswith("ROOT")]
    return grammar_from_rules(dict(binary), dict(lexical), labels=labels, goal=goal,
                              unknown_words=classes)


def derivation_parser(grammar):
    """A ``Parser`` of ``grammar`` whose parses name every node by its symbol (``X``, ``X'``,
    ``X#k``), not its label: the derivation, which ``derivation`` reads."""
    from engine.parsing.cky import Parser
    return Parser(grammar._replace(labels=grammar.symbols))


def derivation(parse, grammar):
    """A parse of ``derivation_parser(grammar)`` as the binarised tree it derives and where
    its fragments start.

    A node whose symbol is a label's own DP symbol (``X``) roots a fragment; ``X#k`` (inside a
    seen fragment) and ``X'`` (inside a fragment drawn from the base) do not. The grammar's
    labels decide, not the symbol's spelling: Penn tags such as ``''`` and ``#`` end or
    contain the marks themselves.

    Parameters
    ----------
    parse : tuple
        A binarised tree in the grammar's symbols, ``(symbol, left, right)`` or
        ``(symbol, word)``.
    grammar : Grammar
        The grammar parsed with (``posterior_grammar``'s).

    Returns
    -------
    tree : tuple
        The same tree in plain labels (as ``Parser.parse`` writes it).
    cut : uint8[n_nodes]
        1 where the node, in preorder, roots a fragment (``PtsgState.cut``'s meaning; the
        root always does).
    """
    label_of = dict(zip(grammar.symbols, grammar.labels))
    cut = []

    def plain(node):
        symbol = node[0]
        label = label_of[symbol]
        cut.append(label == symbol)
        if isinstance(node[1], str):
            return (label, node[1])
        return (label, plain(node[1]), plain(node[2]))

    tree = plain(parse)
    return tree, np.array(cut, dtype=np.uint8)
