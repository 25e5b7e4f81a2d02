"""The SCFG rule sampler's exact oracle: every (tree, cuts) analysis of a tiny corpus of aligned
pairs, its composed rules written out as strings in plain Python, and the DP's probability of
drawing them one after another, (N(r) + α P₀(r)) / (n + α) (eqs. 2–4)."""
import itertools
import math
from collections import Counter
from functools import cache

import numpy as np

from datasets.aligned import RECURRING, read
from engine.models.scfg.model import ScfgModel
from tests.conformance.case import Case
from tests.statistical.exact import normalised

TINY = ("a b c ||| x y z ||| 0-0 1-1 2-2\n"
        "a b ||| x y ||| 0-0 1-1\n"
        "b c ||| z y ||| 0-1 1-0\n")
MONOTONE_4 = "a b c d ||| w x y z ||| 0-0 1-1 2-2 3-3\n"
# for the invariant tests: types recurring within pairs and across them, a 2413 reordering
# (one four-way rule), unaligned words inside and at the edges, and the paper's Fig. 1
LARGE = ("a b c ||| x y z ||| 0-0 1-1 2-2\n" * 4
         + "a b c d ||| x y z w ||| 0-1 1-3 2-0 3-2\n"
         + "a u b ||| x y ||| 0-0 2-1\n"
         + "u a b ||| x y v ||| 1-0 2-1\n"
         + "a a a a ||| x x x x ||| 0-0 1-1 2-2 3-3\n"
         + "我 今天 和 她 有 约会 ||| I have a date with her today ||| 0-0 1-6 2-4 3-5 4-1 5-3\n")
# one word repeated: rules like X1 X2 ||| X1 X2 nest in themselves, so that a TYPE move can
# make a site of its block's type next to a block site (the case ``kernels.crowded`` is for)
REPEATS = ("a a a a a ||| x x x x x ||| 0-0 1-1 2-2 3-3 4-4\n" * 2
           + "a a a ||| x x x ||| 0-0 1-1 2-2\n"
           + "a a a a ||| x x x x ||| 0-3 1-2 2-1 3-0\n")
ALPHA = 0.5


def tiny_model(**options):
    return ScfgModel(read(TINY), alpha=ALPHA, **options)


def twice_model(**options):
    return ScfgModel(read(RECURRING), alpha=5.0, **options)


def large_model(**options):
    return ScfgModel(read(LARGE), alpha=ALPHA, **options)


def repeats_model(**options):
    return ScfgModel(read(REPEATS), alpha=ALPHA, **options)


def monotone_model(**options):
    return ScfgModel(read(MONOTONE_4), alpha=ALPHA, **options)


def trees(fo, n):
    """Every tree under node n: {node: index of its chosen edge}."""
    found = []
    for index, tails in enumerate(fo.edges(n)):
        for parts in itertools.product(*(trees(fo, t) for t in tails)):
            tree = {n: index}
            for part in parts:
                tree.update(part)
            found.append(tree)
    return found


def rule(fo, words, tree, cut, r):
    """The composed rule rooted at r as (source symbols, target symbols), nonterminals written
    X1, X2, … in source order."""
    frontier = []

    def walk(v):
        for t in fo.edges(v)[tree[v]]:
            if cut[t]:
                frontier.append(t)
            else:
                walk(t)
    walk(r)
    f_lo, f_hi, e_lo, e_hi = fo.rule_span(r)
    source = sorted(frontier, key=lambda t: fo.f_lo[t])
    rank = {t: i + 1 for i, t in enumerate(source)}

    def side(lo, hi, spans, sentence):
        symbols, pos = [], lo
        for t in sorted(frontier, key=lambda t: spans[0][t]):
            symbols += sentence[pos:spans[0][t]] + [f"X{rank[t]}"]
            pos = spans[1][t]
        return tuple(symbols + sentence[pos:hi])
    return (side(f_lo, f_hi, (fo.f_lo, fo.f_hi), list(words[0])),
            side(e_lo, e_hi, (fo.e_lo, fo.e_hi), list(words[1])))


def pair_analyses(model, p):
    """Every analysis of pair p: (its rules, its part of ``model.values``: site cuts and node
    edges, −1 where ``values`` writes −1)."""
    fo = model.forests[p]
    words = (model.corpus.source[p], model.corpus.target[p])
    found = []
    for tree in trees(fo, fo.root):
        inner = sorted(n for n in tree if n != fo.root)
        for bits in itertools.product([0, 1], repeat=len(inner)):
            cut = dict(zip(inner, bits))
            cut[fo.root] = 1
            rules = [rule(fo, words, tree, cut, r) for r in sorted(tree) if cut[r]]
            cuts = [cut.get(n, -1) for n in range(fo.n_nodes) if n != fo.root]
            edges = [tree[n] if n in tree and fo.deg(n) > 1 else -1 for n in range(fo.n_nodes)]
            found.append((rules, cuts, edges))
    return found


def analyses(model):
    """Every analysis of the corpus: (its rules in order, ``model.values``)."""
    found = []
    for parts in itertools.product(*(pair_analyses(model, p)
                                     for p in range(len(model.forests)))):
        rules = [r for part in parts for r in part[0]]
        values = [c for part in parts for c in part[1]] + [e for part in parts for e in part[2]]
        found.append((rules, tuple(values)))
    return found


def log_p(model, rules):
    """The DP's probability of drawing ``rules`` in turn."""
    counts, n, total = Counter(), 0, 0.0
    for r in rules:
        p0 = model.v_f ** -len(r[0]) * model.v_e ** -len(r[1])
        total += math.log((counts[r] + model.alpha * p0) / (n + model.alpha))
        counts[r] += 1
        n += 1
    return total


def log_p_pitman_yor(model, rules):
    """The Pitman-Yor prior's probability of the rules, each length l = |r_f| + |r_e| its own
    restaurant (α, d, base P₀) with a Poisson(λ) length prior (eq. 5): every seating of the
    customers summed out by brute force, one customer after another."""
    total = 0.0
    for length in {len(r[0]) + len(r[1]) for r in rules}:
        mine = [r for r in rules if len(r[0]) + len(r[1]) == length]
        total += len(mine) * (length * math.log(model.poisson) - model.poisson
                              - math.lgamma(length + 1))
        total += math.log(seatings(model, mine, {}))
    return total


def seatings(model, rules, tables):
    """Σ over the seatings of ``rules`` (in turn) of their probability, given the tables so far
    ({rule: [customers at each of its tables]})."""
    if not rules:
        return 1.0
    r, rest = rules[0], rules[1:]
    a, d = model.alpha, model.discount
    n = sum(sum(sizes) for sizes in tables.values())
    t = sum(len(sizes) for sizes in tables.values())
    p0 = model.v_f ** -len(r[0]) * model.v_e ** -len(r[1])
    total = 0.0
    for i, size in enumerate(tables.get(r, [])):  # an existing table of r
        grown = {**tables, r: tables[r][:i] + [size + 1] + tables[r][i + 1:]}
        total += (size - d) / (n + a) * seatings(model, rest, grown)
    opened = {**tables, r: tables.get(r, []) + [1]}  # a new table, its dish drawn from P₀
    return total + (a + d * t) * p0 / (n + a) * seatings(model, rest, opened)


def exact(model, power=1.0):
    """(values of every analysis as rows, their exact posterior^power normalised, and each
    analysis's log p)."""
    every = analyses(model)
    score = log_p_pitman_yor if getattr(model, "pitman_yor", False) else log_p
    log_ps = [score(model, rules) for rules, _ in every]
    return np.array([v for _, v in every]), normalised(log_ps, power), np.array(log_ps)


@cache
def tiny_exact():
    """(values of every analysis of the tiny model, {values: row})."""
    rows = exact(tiny_model())[0]
    return rows, {tuple(r): i for i, r in enumerate(rows)}


def written_sites(model, values):
    """The sites on their trees (values ≥ 0 among the first n_sites) and their cuts."""
    sites = np.flatnonzero(values[:model.n_sites] >= 0)
    return sites, values[sites]


CASE = Case(
    ScfgModel,
    tiny=tiny_model,
    exact_p=cache(lambda power=1.0: exact(tiny_model(), power)[1]),
    analyses=lambda: tiny_exact()[0],
    row=lambda values: tiny_exact()[1][tuple(values)],
    large=large_model,
    site_values=written_sites,
    # test_scfg.py's chains pass thinned every 2 sweeps on this corpus (TOKEN p = 0.4, TYPE 0.3)
    thin=3)
