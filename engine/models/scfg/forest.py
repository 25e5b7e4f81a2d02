"""The phrase decomposition forest of a word-aligned sentence pair (Peng & Gildea 2014, §2.1,
after Chung et al. 2014): every way to build the pair out of smaller phrase pairs.

A *phrase pair* n = ([i₁, j₁), [i₂, j₂)) holds source words i₁ … j₁−1 and target words
i₂ … j₂−1; it is *consistent* when it holds at least one link and every link with an end inside
it has both ends inside, and *tight* when the first and last words of both spans are aligned.
The forest's nodes are the tight consistent pairs. A hyperedge T → n is a set of disjoint nodes
strictly inside n; T′ *covers* T when every node of T lies inside one of T′; an edge is
*minimal* when no other edge of n covers it. The forest holds every minimal edge: each is a
minimal SCFG rule (n's words outside its tails are the rule's terminals), and every rule
consistent with the alignment is a fragment of some tree of the forest.

Construction: unaligned words are set aside first (in the *compacted* pair every word is
aligned, so a node is a source span whose target hull sends no link outside it); then, by
increasing span, a node's edges are every binary split into two nodes when there is one (a
monotone or inverted chain: any longer edge is covered by a split), and otherwise the one edge
of its maximal proper sub-nodes, taken greedily left to right (they are disjoint then). Words
set aside are put back as terminals of the lowest node whose span holds them; words at the
sentence's edges, outside every tight span, belong to the root, whose rule spans the whole pair.
``tests/engine/models/scfg/test_forest.py`` checks all of it against the definitions by brute force.
"""
import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Forest:
    """The forest of one sentence pair, nodes bottom-up (a node's tails come before it; the
    root is the last node).

    Attributes
    ----------
    f_len, e_len : int
        The source and target sentences' lengths in words.
    f_lo, f_hi, e_lo, e_hi : int64[N]
        Each node's tight source and target spans, [f_lo, f_hi) and [e_lo, e_hi), in the
        sentences' own word positions. The root's *rule* spans the whole pair (``rule_span``).
    edge_start : int64[N + 1]
        Node n's incoming edges are edges edge_start[n] … edge_start[n+1] − 1 (a leaf has one,
        with no tails: deg(leaf) = 1).
    tail_start : int64[E + 1]
        Edge e's tails are tails[tail_start[e] : tail_start[e+1]], in source order.
    tails : int64[Σ tails]
    """

    f_len: int
    e_len: int
    f_lo: np.ndarray
    f_hi: np.ndarray
    e_lo: np.ndarray
    e_hi: np.ndarray
    edge_start: np.ndarray
    tail_start: np.ndarray
    tails: np.ndarray

    @property
    def n_nodes(self):
        return len(self.f_lo)

    @property
    def n_edges(self):
        return len(self.tail_start) - 1

    @property
    def root(self):
        return self.n_nodes - 1

    def deg(self, n):
        """The number of incoming edges of node n."""
        return int(self.edge_start[n + 1] - self.edge_start[n])

    def edges(self, n):
        """Node n's incoming edges, each a tuple of its tails."""
        return [tuple(int(t) for t in self.tails[self.tail_start[e]:self.tail_start[e + 1]])
                for e in range(self.edge_start[n], self.edge_start[n + 1])]

    def trees(self, n=None):
        """Every tree under node n (default the root), each {node: its edge's index}: for the
        lab's tiny corpora, where they can be listed (``n_trees`` counts them)."""
        n = self.root if n is None else n
        found = []
        for index, tails in enumerate(self.edges(n)):
            for parts in itertools.product(*(self.trees(t) for t in tails)):
                tree = {n: index}
                for part in parts:
                    tree.update(part)
                found.append(tree)
        return found

    def rule_span(self, n):
        """(f_lo, f_hi, e_lo, e_hi) of the words node n's rules span: its tight spans, or the
        whole pair for the root (so that unaligned words at the edges belong to a rule)."""
        if n == self.root:
            return 0, self.f_len, 0, self.e_len
        return int(self.f_lo[n]), int(self.f_hi[n]), int(self.e_lo[n]), int(self.e_hi[n])

    def tree_size(self):
        """The nodes of each tree of the forest (every tree has as many): the root and, below
        each node, the tails of its first edge."""
        size, todo = 0, [self.root]
        while todo:
            n = todo.pop()
            size += 1
            todo += self.edges(n)[0]
        return size

    def n_trees(self):
        """The number of trees in the forest, by dynamic programming: trees(n) = Σ over n's
        edges of the product of its tails' trees. A Python int: a long monotone pair has
        Catalan-many trees, far beyond 64 bits."""
        trees = []
        for n in range(self.n_nodes):
            total = 0
            for tails in self.edges(n):
                product = 1
                for t in tails:
                    product *= trees[t]
                total += product
            trees.append(total)
        return trees[-1]


def corpus_forests(corpus):
    """The forest of every pair of an AlignedCorpus (datasets.aligned)."""
    return [forest(len(f), len(e), links)
            for f, e, links in zip(corpus.source, corpus.target, corpus.links)]


def refuse_without_phrase_pairs(forests):
    """A ValueError when no forest has a phrase pair below its root (pairs without links):
    such a corpus has no rule to choose. The SCFG built from a corpus refuses it, and so does
    the forest command."""
    if all(fo.n_nodes == 1 for fo in forests):
        raise ValueError("no pair has a phrase pair inside it: there is no rule to choose "
                         "(do the pairs have links?)")


def forest(f_len, e_len, links):
    """The phrase decomposition forest of a sentence pair.

    Parameters
    ----------
    f_len, e_len : int
        The sentences' lengths.
    links : iterable of (int, int)
        The alignment: (source position, target position) pairs, 0-based, in range; repeats
        are ignored. With no links the forest is one leaf, the whole pair.

    Returns
    -------
    Forest
    """
    links = sorted(set((int(i), int(j)) for i, j in links))
    if not links:
        return _leaf_pair(f_len, e_len)
    f_aligned = sorted({i for i, _ in links})
    e_aligned = sorted({j for _, j in links})
    f_compact = {i: k for k, i in enumerate(f_aligned)}
    e_compact = {j: k for k, j in enumerate(e_aligned)}
    compact = [(f_compact[i], e_compact[j]) for i, j in links]
    spans = _compact_nodes(len(f_aligned), len(e_aligned), compact)
    chart = {(i, j): n for n, (i, j, _, _) in enumerate(spans)}
    edges = [_edges(i, j, chart) for i, j, _, _ in spans]
    edge_start = np.zeros(len(spans) + 1, dtype=np.int64)
    tail_start, tails = [0], []
    for n, node_edges in enumerate(edges):
        edge_start[n + 1] = edge_start[n] + len(node_edges)
        for edge in node_edges:
            tails.extend(edge)
            tail_start.append(len(tails))
    return Forest(
        f_len=f_len, e_len=e_len,
        f_lo=np.array([f_aligned[i] for i, _, _, _ in spans], dtype=np.int64),
        f_hi=np.array([f_aligned[j - 1] + 1 for _, j, _, _ in spans], dtype=np.int64),
        e_lo=np.array([e_aligned[a] for _, _, a, _ in spans], dtype=np.int64),
        e_hi=np.array([e_aligned[b - 1] + 1 for _, _, _, b in spans], dtype=np.int64),
        edge_start=edge_start, tail_start=np.array(tail_start, dtype=np.int64),
        tails=np.array(tails, dtype=np.int64))


def _leaf_pair(f_len, e_len):
    """The forest of a pair with no links: one rule of all its words."""
    return Forest(f_len=f_len, e_len=e_len, f_lo=np.zeros(1, np.int64),
                  f_hi=np.array([f_len]), e_lo=np.zeros(1, np.int64), e_hi=np.array([e_len]),
                  edge_start=np.array([0, 1]), tail_start=np.array([0, 0]),
                  tails=np.zeros(0, np.int64))


def _compact_nodes(n_f, n_e, links):
    """The nodes of a compacted pair (every word aligned), as (i, j, a, b): source span [i, j)
    with target hull [a, b), ordered by span length then start (bottom-up).

    For each start i the span grows word by word; its target hull grows with it, and the span
    is a node when every target word of the hull links only inside it."""
    f_min = [n_e] * n_f
    f_max = [-1] * n_f
    e_min = [n_f] * n_e
    e_max = [-1] * n_e
    for i, j in links:
        f_min[i], f_max[i] = min(f_min[i], j), max(f_max[i], j)
        e_min[j], e_max[j] = min(e_min[j], i), max(e_max[j], i)
    nodes = []
    for i in range(n_f):
        a, b = n_e, 0          # the hull [a, b) of source words i … j−1
        lo, hi = n_f, -1       # the source words the hull's target words link to
        for j in range(i + 1, n_f + 1):
            new_a, new_b = min(a, f_min[j - 1]), max(b, f_max[j - 1] + 1)
            for t in [*range(new_a, min(a, new_b)), *range(max(b, new_a), new_b)]:
                lo, hi = min(lo, e_min[t]), max(hi, e_max[t])
            a, b = new_a, new_b
            if lo >= i and hi < j:
                nodes.append((i, j, a, b))
    nodes.sort(key=lambda node: (node[1] - node[0], node[0]))
    return nodes


def _edges(i, j, chart):
    """The minimal edges of node [i, j) (compacted source span), each a tuple of node ids."""
    splits = [(chart[i, k], chart[k, j]) for k in range(i + 1, j)
              if (i, k) in chart and (k, j) in chart]
    if splits:
        return splits
    tails, left = [], i
    while left < j:
        # the longest proper sub-node starting here, or none: the word is the rule's terminal
        right = next((r for r in range(j if left > i else j - 1, left, -1)
                      if (left, r) in chart), None)
        if right is None:
            left += 1
        else:
            tails.append(chart[left, right])
            left = right
    return [tuple(tails)]
