"""SCFG rules from phrase decomposition forests (Peng & Gildea 2014): a corpus of word-aligned
sentence pairs, each pair's forest (``forest.py``) packed into the flat arrays of
``kernels.ScfgState``; the chain picks a tree in every forest and cuts it into composed rules,
each drawn from G ~ DP(α, P₀) with P₀(r) = V_f^−|r_f| V_e^−|r_e| (eqs. 2–4).
"""
import math

import numpy as np

from datasets.aligned import AlignedCorpus
from engine.core import hash_table
from engine.core.state import clone
from engine.core.word_hash import fill_prefix_hashes
from engine.models.scfg import kernels
from engine.models.scfg.forest import forest

ALPHA = 5.0  # §5.1: α = 5 for every rule size, DP and Pitman-Yor alike


def log_rising(log_a, k):
    """log a^(k) = log a(a+1)…(a+k−1) given log a, exact where a is too small for a float."""
    if k == 0:
        return 0.0
    a = math.exp(log_a)
    return log_a + math.lgamma(a + k) - math.lgamma(1.0 + a)


class ScfgModel:
    """Word-aligned pairs under the DP over composed SCFG rules.

    Parameters
    ----------
    corpus : datasets.aligned.AlignedCorpus
    alpha : float
        α, the DP's concentration.
    deg : bool
        Whether eq. 9 weighs an edge by ∏ deg(v) over the subtree it switches on (False: the
        sampler without it, which the lesson shows is wrong).
    """

    def __init__(self, corpus: AlignedCorpus, alpha=ALPHA, deg=True):
        self.corpus = corpus
        self.alpha = alpha
        self.forests = [forest(len(f), len(e), links)
                        for f, e, links in zip(corpus.source, corpus.target, corpus.links)]
        self.v_f = len({w for words in corpus.source for w in words})
        self.v_e = len({w for words in corpus.target for w in words})
        self.arrays = self._pack(deg)
        self.n_sites = len(self.arrays["site_node"])
        self.n_nodes = len(self.arrays["node_pair"])

    def _pack(self, deg):
        """The corpus part of the state (``kernels.CORPUS_FIELDS``)."""
        offsets = np.cumsum([0] + [fo.n_nodes for fo in self.forests])
        edge_offsets = np.cumsum([0] + [fo.n_edges for fo in self.forests])
        span, edge_start, tail_start, tails = [], [0], [0], []
        for fo, base, edge_base in zip(self.forests, offsets, edge_offsets):
            span += [fo.rule_span(n) for n in range(fo.n_nodes)]
            edge_start += list(fo.edge_start[1:] + edge_base)
            tail_start += list(fo.tail_start[1:] + len(tails))
            tails += list(fo.tails + base)
        pair_root = offsets[1:] - 1
        node_pair = np.repeat(np.arange(len(self.forests)), np.diff(offsets))
        node_site = np.full(offsets[-1], -1, dtype=np.int64)
        site_node = np.setdiff1d(np.arange(offsets[-1]), pair_root)
        node_site[site_node] = np.arange(len(site_node))
        f_start, f_prefix = self._prefixes(self.corpus.source)
        e_start, e_prefix = self._prefixes(self.corpus.target)
        power = self._powers(max(len(s) for s in self.corpus.source + self.corpus.target))
        return dict(
            pair_root=pair_root.astype(np.int64), node_pair=node_pair.astype(np.int64),
            span=np.array(span, dtype=np.int64).reshape(-1, 4),
            edge_start=np.array(edge_start, dtype=np.int64),
            tail_start=np.array(tail_start, dtype=np.int64),
            tails=np.array(tails, dtype=np.int64), f_start=f_start, e_start=e_start,
            f_prefix=f_prefix, e_prefix=e_prefix, power=power,
            site_node=site_node.astype(np.int64), node_site=node_site,
            params=np.array([self.alpha, math.log(self.alpha), math.log(self.v_f),
                             math.log(self.v_e), 1.0 if deg else 0.0]))

    @staticmethod
    def _prefixes(sentences):
        """(start of each sentence's prefix hashes, the hashes) of one side, its words coded by
        first appearance plus kernels.WORD_CODE; each sentence's hashes start from 0."""
        codes = {}
        chars = np.array([codes.setdefault(w, len(codes)) + kernels.WORD_CODE
                          for sentence in sentences for w in sentence], dtype=np.int32)
        lengths = np.array([len(s) for s in sentences], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
        prefix = np.zeros(int((lengths + 1).sum()), dtype=np.uint64)
        at = 0
        for start, length in zip(starts, lengths):
            power = np.zeros(length + 1, dtype=np.uint64)
            fill_prefix_hashes(chars[at:at + length] - 1, prefix[start:start + length + 1],
                               power)
            at += length
        return starts, prefix

    @staticmethod
    def _powers(longest):
        """HASH_BASE^i for i = 0 … longest (the words of the longest sentence on either side)."""
        prefix, power = np.zeros(longest + 1, np.uint64), np.zeros(longest + 1, np.uint64)
        fill_prefix_hashes(np.zeros(longest, np.int32), prefix, power)
        return power

    # --- states ---------------------------------------------------------------------------------
    def new_state(self, rng, eta=1.0):
        """A start as the paper's (§5.1): an incoming edge per node uniformly at random, and each
        node cut with probability η (1: every node cut, the paper's start)."""
        deg = np.diff(self.arrays["edge_start"])
        edge = np.floor(rng.random(self.n_nodes) * deg).astype(np.int64)
        cut = (rng.random(self.n_nodes) < eta).astype(np.uint8)
        return self._state(edge, cut)

    def _state(self, edge, cut):
        """A state of these edges and cuts (its trees and index built)."""
        n, z = self.n_nodes, max(fo.n_nodes for fo in self.forests)
        capacity = 1 << max(4, int(2 * n - 1).bit_length())
        state = kernels.ScfgState(
            **self.arrays, edge=edge.astype(np.int64), cut=cut.astype(np.uint8),
            up=np.full(n, -1, np.int64), key=np.zeros(n, np.int64),
            logp0=np.zeros(n, np.float64),
            slot_key=np.full(capacity, hash_table.EMPTY, np.int64),
            slot_head=np.full(capacity, -1, np.int64), slot_size=np.zeros(capacity, np.int64),
            item_next=np.full(n, -1, np.int64), item_prev=np.full(n, -1, np.int64),
            n_rules=np.zeros(1, np.int64), removed=np.zeros(self.n_sites, np.uint8),
            gone=np.zeros(n, np.int64), type_key=np.zeros((self.n_sites, 3), np.int64),
            type_logp0=np.zeros((self.n_sites, 3)), type_root=np.zeros(self.n_sites, np.int64),
            frontier=np.zeros(z, np.int64), region=np.zeros(z, np.int64),
            sym=np.zeros((n, 2), np.int64),
            order=np.zeros(z, np.int64), stack=np.zeros(2 * z, np.int64),
            nodes=np.zeros(z, np.int64), ov_key=np.zeros(2 * z, np.int64),
            ov_count=np.zeros(2 * z, np.int64), bs_key=np.zeros(z, np.int64),
            bs_count=np.zeros(z, np.int64), seen=np.zeros(n, np.int64),
            clock=np.zeros(1, np.int64))
        kernels.recount(state)
        return state

    def clone_state(self, state):
        return clone(state, shared=kernels.CORPUS_FIELDS)

    def values(self, state):
        """The analysis, canonical over (trees, cuts on them): each site's cut (−1 off the
        tree), then each node's edge (−1 off the tree or at a node of one edge)."""
        on = state.up >= 0
        on[self.arrays["pair_root"]] = True
        deg = np.diff(self.arrays["edge_start"])
        cuts = np.where(on[state.site_node], state.cut[state.site_node].astype(np.int64), -1)
        edges = np.where(on & (deg > 1), state.edge, -1)
        return np.concatenate([cuts, edges]).astype(np.int64)

    def state_from_values(self, values):
        """The state of an analysis written by ``values`` (off-tree entries: cut, edge 0)."""
        values = np.asarray(values, dtype=np.int64)
        cut = np.ones(self.n_nodes, dtype=np.uint8)
        site_cuts = values[:self.n_sites]
        cut[self.arrays["site_node"]] = np.where(site_cuts < 0, 1, site_cuts)
        edges = values[self.n_sites:]
        return self._state(np.where(edges < 0, 0, edges), cut)

    def rebuilt_state(self, state):
        return self._state(state.edge.copy(), state.cut.copy())

    # --- probabilities --------------------------------------------------------------------------
    def loglik_running(self, state):
        """log p(rules) from the state's own index: Σ_r log(α P₀(r))^(N_r) − log α^(n)."""
        live = np.flatnonzero(state.slot_key != hash_table.EMPTY)
        total = 0.0
        for slot in live:
            log_base = math.log(self.alpha) + state.logp0[state.slot_head[slot]]
            total += log_rising(log_base, int(state.slot_size[slot]))
        return total - log_rising(math.log(self.alpha), int(state.n_rules[0]))

    def loglik(self, state):
        """log p(rules) from scratch: the trees and the index rebuilt from the edges and cuts."""
        return self.loglik_running(self.rebuilt_state(state))

