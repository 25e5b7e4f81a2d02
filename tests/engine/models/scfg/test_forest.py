"""The phrase decomposition forest against its definitions (Peng & Gildea §2.1), by brute force
on random small alignments, and on the paper's own example (Figs. 1 and 2)."""
from itertools import combinations, product

import numpy as np
import pytest

from engine.models.scfg.forest import forest


def random_alignment(rng):
    f_len, e_len = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    cells = [(i, j) for i in range(f_len) for j in range(e_len)]
    k = int(rng.integers(1, min(7, len(cells)) + 1))
    picked = rng.choice(len(cells), size=k, replace=False)
    return f_len, e_len, sorted(cells[p] for p in picked)


def random_permutation(rng):
    """A one-to-one alignment (many binary splits: monotone and inverted chains), with a word
    left unaligned on either side now and then."""
    n = int(rng.integers(2, 7))
    order = rng.permutation(n)
    f_gap, e_gap = int(rng.integers(0, n + 2)), int(rng.integers(0, n + 2))  # n + 1: none
    links = [(i + (i >= f_gap), int(order[i]) + (order[i] >= e_gap)) for i in range(n)]
    return n + (f_gap <= n), n + (e_gap <= n), links


ALIGNMENTS = ([random_alignment(np.random.default_rng(seed)) for seed in range(200)]
              + [random_permutation(np.random.default_rng(seed)) for seed in range(100)])


def phrase_pairs(f_len, e_len, links):
    """Every tight consistent phrase pair, from the definition: (i₁, j₁, i₂, j₂)."""
    f_aligned = {i for i, _ in links}
    e_aligned = {j for _, j in links}
    found = set()
    for i1, j1, i2, j2 in product(range(f_len), range(1, f_len + 1), range(e_len),
                                  range(1, e_len + 1)):
        if i1 >= j1 or i2 >= j2:
            continue
        inside = [(i, j) for i, j in links if i1 <= i < j1 or i2 <= j < j2]
        consistent = inside and all(i1 <= i < j1 and i2 <= j < j2 for i, j in inside)
        tight = {i1, j1 - 1} <= f_aligned and {i2, j2 - 1} <= e_aligned
        if consistent and tight:
            found.add((i1, j1, i2, j2))
    return found


def within(a, b):
    """Phrase pair a lies inside b."""
    return b[0] <= a[0] and a[1] <= b[1] and b[2] <= a[2] and a[3] <= b[3]


def disjoint(a, b):
    return a[1] <= b[0] or b[1] <= a[0]


def minimal_edges(node, nodes):
    """Every minimal edge of ``node`` by the definition: sets of disjoint nodes strictly inside
    it that no other such set covers."""
    inner = [m for m in nodes if m != node and within(m, node)]
    candidates = [set(c) for k in range(len(inner) + 1) for c in combinations(inner, k)
                  if all(disjoint(a, b) for a, b in combinations(c, 2))]

    def covers(big, small):
        return big != small and all(any(within(t, u) for u in big) for t in small)
    return {frozenset(t) for t in candidates if not any(covers(u, t) for u in candidates)}


def spans(fo):
    return [(int(fo.f_lo[n]), int(fo.f_hi[n]), int(fo.e_lo[n]), int(fo.e_hi[n]))
            for n in range(fo.n_nodes)]


def trees(fo, n=None):
    """Every tree under node n (the root by default), each a frozenset of its nodes."""
    n = fo.root if n is None else n
    found = []
    for tails in fo.edges(n):
        for parts in product(*(trees(fo, t) for t in tails)):
            found.append(frozenset({n}).union(*parts))
    return found


@pytest.mark.parametrize("f_len, e_len, links", ALIGNMENTS)
def test_nodes_are_every_tight_consistent_phrase_pair(f_len, e_len, links):
    fo = forest(f_len, e_len, links)
    assert sorted(spans(fo)) == sorted(phrase_pairs(f_len, e_len, links))
    assert len(set(spans(fo))) == fo.n_nodes


@pytest.mark.parametrize("f_len, e_len, links", ALIGNMENTS)
def test_edges_are_every_minimal_edge(f_len, e_len, links):
    fo = forest(f_len, e_len, links)
    nodes = spans(fo)
    for n, node in enumerate(nodes):
        built = {frozenset(nodes[t] for t in tails) for tails in fo.edges(n)}
        assert built == minimal_edges(node, nodes), node
        for tails in fo.edges(n):
            assert all(t < n for t in tails)  # bottom-up
            assert [nodes[t][0] for t in tails] == sorted(nodes[t][0] for t in tails)


@pytest.mark.parametrize("f_len, e_len, links", ALIGNMENTS)
def test_every_tree_has_as_many_nodes_and_the_count_is_right(f_len, e_len, links):
    fo = forest(f_len, e_len, links)
    every = trees(fo)
    assert len({len(t) for t in every}) == 1
    assert fo.n_trees() == len(every) == len(set(every))


@pytest.mark.parametrize("f_len, e_len, links", ALIGNMENTS)
def test_each_word_is_a_terminal_of_one_minimal_rule(f_len, e_len, links):
    """In every tree, cut everywhere, each word of the pair is a terminal of exactly one
    rule: the lowest node whose rule span holds it."""
    fo = forest(f_len, e_len, links)
    for tree in trees(fo):
        f_owner, e_owner = np.zeros(f_len, int), np.zeros(e_len, int)
        for n in tree:
            f_lo, f_hi, e_lo, e_hi = fo.rule_span(n)
            f_owner[f_lo:f_hi] += 1
            e_owner[e_lo:e_hi] += 1
            children = next(tails for tails in fo.edges(n) if set(tails) <= tree)
            for t in children:
                f_owner[fo.f_lo[t]:fo.f_hi[t]] -= 1
                e_owner[fo.e_lo[t]:fo.e_hi[t]] -= 1
        assert (f_owner == 1).all() and (e_owner == 1).all()


def test_the_papers_example_has_its_twelve_nodes_and_two_trees():
    """Fig. 1: 我 今天 和 她 有 约会 ||| I have a date with her today, "a" unaligned; Fig. 2
    draws 12 nodes, one of them ([1 6], [1 7]) with two incoming edges."""
    links = [(0, 0), (1, 6), (2, 4), (3, 5), (4, 1), (5, 3)]
    fo = forest(6, 7, links)
    assert fo.n_nodes == 12
    assert sum(fo.deg(n) for n in range(fo.n_nodes)) == 13
    assert [spans(fo)[n] for n in range(fo.n_nodes) if fo.deg(n) == 2] == [(1, 6, 1, 7)]
    assert fo.n_trees() == 2
    assert {len(t) for t in trees(fo)} == {11}
    have_a_date = spans(fo).index((4, 6, 1, 4))
    assert [[spans(fo)[t] for t in tails] for tails in fo.edges(have_a_date)] == [
        [(4, 5, 1, 2), (5, 6, 3, 4)]]  # "a" (target word 2) is this rule's terminal


def test_monotone_pairs_have_catalan_many_trees():
    catalan = [1, 1, 2, 5, 14, 42, 132, 429]
    for n in range(1, 8):
        assert forest(n, n, [(i, i) for i in range(n)]).n_trees() == catalan[n - 1]
    long = forest(146, 146, [(i, i) for i in range(146)]).n_trees()
    assert long > 10 ** 80  # a Python int: far past 64 bits


def test_a_pair_without_links_is_one_rule():
    fo = forest(3, 2, [])
    assert fo.n_nodes == 1 and fo.edges(0) == [()] and fo.rule_span(0) == (0, 3, 0, 2)
    assert fo.n_trees() == 1


def test_words_at_the_edges_belong_to_the_root_rule():
    fo = forest(3, 3, [(1, 0), (2, 1)])  # u a b ||| x y v
    assert fo.rule_span(fo.root) == (0, 3, 0, 3)
    assert (fo.f_lo[fo.root], fo.f_hi[fo.root]) == (1, 3)
