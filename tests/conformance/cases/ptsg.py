"""The PTSG's conformance case and its exact oracle: every fragmentation of a tiny treebank
scored by drawing its fragments one after another from their Chinese restaurants (the
predictive form of eq. 3), with the base recomputed from a PCFG counted in plain dictionaries.

Every binarised tree has an odd number of nodes (each inner node has two children), so its sites
— the nodes below its root — are even in number: the tiny treebank has two copies of one tree
(2 × 6 = 12 sites, 4,096 fragmentations), the larger one 14 sites (16,384) with a chain of three
identical VPs, where a fragment's upper and lower parts are often one fragment."""
import math
from collections import Counter
from functools import cache

import numpy as np

from engine.models.ptsg.model import PtsgModel
from tests.conformance.case import Case
from tests.statistical.exact import binary_assignments, normalised, z_index

DOG = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")),
                ("VP", ("VBZ", "sees"), ("NP", ("PRP", "it")))))
CHAIN = ("ROOT", ("S", ("NP", ("PRP", "we")),
                  ("VP", ("VB", "try"), ("VP", ("VB", "try"), ("VP", ("VB", "try"), (
                      "VP", ("TO", "to"), ("VP", ("VB", "run"))))))))
SHORT = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VB", "run"))))
PRIOR = dict(alpha=0.7, stop=0.4)


def tiny_model():
    return PtsgModel([DOG, DOG], rare=1, **PRIOR)


def large_model():
    return PtsgModel([CHAIN, SHORT], rare=1, **PRIOR)


def preorder(tree):
    """The nodes of a binarised tree in preorder (the model's site order once the root is
    left out), each as (its subtree, the preorder indices of its children)."""
    nodes = []

    def visit(subtree):
        i = len(nodes)
        nodes.append(None)
        children = () if isinstance(subtree[1], str) else \
            tuple(visit(child) for child in subtree[1:])
        nodes[i] = (subtree, children)
        return i

    visit(tree)
    return nodes


def rule_of(subtree):
    if isinstance(subtree[1], str):
        return subtree[0], subtree[1]
    return subtree[0], subtree[1][0], subtree[2][0]


def fragments(trees, values, stop):
    """The fragments of binarised ``trees`` whose sites (preorder, roots left out) are cut where
    ``values`` says, in order: (the tree's index, the fragment as nested tuples, its log μ under
    the base, its root label, its depth — 1 for a lone rule)."""
    forest = [preorder(tree) for tree in trees]
    rules = Counter(rule_of(subtree) for nodes in forest for subtree, _ in nodes)
    lhs = Counter()
    for rule, n in rules.items():
        lhs[rule[0]] += n
    # a preterminal's word follows its tag (a collapsed chain VP+VB's is VB's): pooled counts
    tag_words, tag_total = Counter(), Counter()
    for rule, n in rules.items():
        if len(rule) == 2:
            tag = rule[0].split("+")[-1]
            tag_words[tag, rule[1]] += n
            tag_total[tag] += n

    def rule_p(rule):
        if len(rule) == 2:
            tag = rule[0].split("+")[-1]
            return tag_words[tag, rule[1]] / tag_total[tag]
        return rules[rule] / lhs[rule[0]]

    values = iter(values)
    cuts = [[True] + [bool(next(values)) for _ in nodes[1:]] for nodes in forest]

    def fragment(nodes, cut, i):
        """(the fragment rooted at node i as nested tuples, its log μ, its depth)."""
        subtree, children = nodes[i]
        rule = rule_of(subtree)
        log_mu = math.log(rule_p(rule))
        if not children:
            return rule, log_mu, 1
        parts, depth = [subtree[0]], 1
        for c in children:
            if cut[c]:
                parts.append(nodes[c][0][0])
                log_mu += math.log(stop)
            else:
                shape, child_mu, child_depth = fragment(nodes, cut, c)
                parts.append(shape)
                log_mu += math.log(1 - stop) + child_mu
                depth = max(depth, 1 + child_depth)
        return tuple(parts), log_mu, depth

    for t, (nodes, cut) in enumerate(zip(forest, cuts)):
        for i, (subtree, _) in enumerate(nodes):
            if cut[i]:
                shape, log_mu, depth = fragment(nodes, cut, i)
                yield t, shape, log_mu, subtree[0], depth


def ptsg_log_p(trees, values, alpha, stop):
    """log p(fragmentation) of binarised ``trees`` whose sites (preorder, roots left out) are
    cut where ``values`` says: the fragments drawn in order, each from its root label's
    restaurant, (n_f + α μ_f) / (n_X + α)."""
    n_f, n_x, total = Counter(), Counter(), 0.0
    for _, shape, log_mu, label, _ in fragments(trees, values, stop):
        total += math.log((n_f[shape] + alpha * math.exp(log_mu)) / (n_x[label] + alpha))
        n_f[shape] += 1
        n_x[label] += 1
    return total


def ptsg_exact_p(model, power=1.0):
    """p(cuts | trees)^power normalised over every fragmentation of ``model``'s binarised
    trees, indexed like ``z_index``."""
    return normalised([ptsg_log_p(model.trees, values, **PRIOR)
                       for values in binary_assignments(model.n_sites)], power)


CASE = Case(
    PtsgModel,
    tiny=tiny_model,
    exact_p=cache(lambda power=1.0: ptsg_exact_p(tiny_model(), power)),
    analyses=lambda: binary_assignments(tiny_model().n_sites),
    row=z_index,
    large=large_model,
    # TOKEN flips one node at a time between two copies of one tree: measured, its chain
    # thinned every 2 sweeps fails the exact test (p ~ 1e-15), every 8 passes (p = 0.07)
    thin=10)
