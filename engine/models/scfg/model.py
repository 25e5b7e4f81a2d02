"""SCFG rules from phrase decomposition forests (Peng & Gildea 2014): a corpus of word-aligned
sentence pairs, each pair's forest (``forest.py``) packed into the flat arrays of
``ScfgState``; the chain picks a tree in every forest and cuts it into composed rules,
each drawn from G ~ DP(α, P₀) with P₀(r) = V_f^−|r_f| V_e^−|r_e| (eqs. 2–4).

A rule is written as Hiero writes it: ``我 [X,1] 有 [X,2] ||| have a [X,2] with [X,1]``, its
nonterminals numbered in source order. An analysis file gives each pair's tree in brackets of
phrase pairs, ``(0-6/0-7 (0-1/0-1*) (1-6/1-7 …))``: a node's source and target spans (0-based,
end excluded), a ``*`` where it roots a rule.
"""
import itertools
import math
import re
from collections import Counter

import numpy as np

from datasets import aligned
from datasets.aligned import AlignedCorpus
from datasets.errors import CorpusError
from datasets.text import read_text
from engine.core import hash_table
from engine.core.state import clone
from engine.core.word_hash import fill_prefix_hashes
from engine.models.protocol import (ChainModel, CorpusModel, ModelBase, Option, Output,
                                    Presentation, Shards, SiteView)
from engine.models.registry import register
from engine.models.scfg import pitman_yor, seating
from engine.models.scfg.kernels import (structure, token_cut, trees, type_blocks, type_sites,
                                        type_weights)
from engine.models.scfg.kernels.layout import (CLASS_SHIFT, CORPUS_FIELDS, FLOAT_ROWS, LONGEST,
                                               ScfgState, WORD_CODE, WORK_ROWS)
from engine.models.scfg.kernels.edge import edge_log_weights
from engine.models.scfg.forest import corpus_forests, refuse_without_phrase_pairs

ALPHA = 5.0  # §5.1: α = 5 for every rule size, DP and Pitman-Yor alike
DISCOUNT = 0.5  # §5.1: d = 0.5
POISSON = 2.0  # §5.1: λ = 2 for the rule-length prior
# exact seating keeps an N × N table of log S_d(n, t) and a move's convolutions: small corpora
EXACT_MAX_NODES = 1000
NO_PARALLEL_EXACT = ("exact seating keeps every rule's tables in one chain: the parallel sampler, "
                     "inexact by design (its shards' counts merged after each iteration), does "
                     "not split it; leave exact seating off")
CUT_MARK = "*"
_NODE = re.compile(r"\((\d+)-(\d+)/(\d+)-(\d+)(\*?)")


def log_rising(log_a, k):
    """log a^(k) = log a(a+1)…(a+k−1) given log a, exact where a is too small for a float."""
    if k == 0:
        return 0.0
    a = math.exp(log_a)
    return log_a + math.lgamma(a + k) - math.lgamma(1.0 + a)


@register
class ScfgModel(ModelBase):
    """Word-aligned pairs under the DP over composed SCFG rules.

    Parameters
    ----------
    corpus : datasets.aligned.AlignedCorpus
    alpha : float
        α, the DP's concentration.
    no_deg : bool
        Leave ∏ deg(v) over the subtree an edge switches on out of eq. 9: the sampler without
        it, which the lesson shows is wrong.
    pitman_yor : bool
        A Pitman-Yor process per rule length with a Poisson length prior (eq. 5) instead of
        the DP; its samplers use the paper's table approximation (eqs. 6–7).
    discount, poisson : float
        d and λ of the Pitman-Yor prior.
    exact_seating : bool
        Under the Pitman-Yor prior, keep each rule's tables and make every move exact against
        them (``kernels``, ``seating.py``) instead of the paper's approximation; corpora of at
        most EXACT_MAX_NODES forest nodes.
    """

    aliases = ("forests", "peng-gildea")
    roles = (ChainModel, Presentation, CorpusModel, Shards)
    label = "SCFG rules from forests"
    summary = ("Peng & Gildea's model: word-aligned sentence pairs, each with its forest of "
               "phrase-pair trees; the chain picks a tree and cuts it into composed SCFG rules, "
               "each drawn from a Dirichlet process; a site is a forest node, b = 1 cuts it.")
    samplers = ("token", "type", "greedy", "type-anneal", "one-stage", "one-stage-mh")
    options = (
        Option("alpha", "--alpha", float, ALPHA, "α, the rules' DP concentration", 1e-6, 1e9),
        Option("no_deg", "--no-deg", bool, False,
               "leave the ∏ deg(v) factor out of the edge step (eq. 9): a wrong sampler, to "
               "see why it is there"),
        Option("pitman_yor", "--pitman-yor", bool, False,
               "a Pitman-Yor process per rule length with a Poisson length prior (eq. 5) "
               "instead of the DP; moves use the paper's approximate tables T = N**d (eqs. 6-7)"),
        Option("discount", "--discount", float, DISCOUNT,
               "d, the Pitman-Yor discount (with --pitman-yor)", 0.0, 0.99),
        Option("poisson", "--poisson", float, POISSON,
               "λ, the Poisson prior's mean rule length (with --pitman-yor)", 1e-3, 1e3),
        Option("exact_seating", "--exact-seating", bool, False,
               "with --pitman-yor: keep every rule's tables and make each move exact against "
               "them (TOKEN's cut and TYPE's g(m) sum the tables out, the edge step is "
               f"corrected by Metropolis-Hastings); corpora up to {EXACT_MAX_NODES:,} forest "
               "nodes"),
        Option("alignments", "--alignments", str, None,
               "the alignments in Pharaoh format, a line per pair (default: each line of "
               "--data carries its links as a third field)", reads=True, file=True),
    )
    outputs = (Output("--rules", "file for the rules in use after every sweep, in Hiero's "
                      "format ([X] ||| source ||| target ||| count), each sweep after a "
                      "'# sweep k' line", "write_rules", every_sweep=True),)
    display = "aligned"  # its kind of data (datasets/aligned.py, ui/kinds/aligned.py)
    trace_labels = {"rules": "rules in use", "rule_types": "distinct rules",
                    "mean_size": "mean rule size (phrase pairs)"}
    loglik_label = "log p(rules)"
    order = 4
    kernel_modules = (token_cut, structure, type_sites, type_blocks, type_weights)

    @classmethod
    def build(cls, path=None, alignments=None, **options):
        """The model of a file of pairs (its alignments beside it, or as each line's third
        field), or of the built-in pairs when path is None."""
        if path is None:
            if alignments is not None:
                raise ValueError("--alignments needs --data: the pairs they align")
            return cls.from_corpus(aligned.builtin(), **options)
        return cls.from_corpus(aligned.read_files(path, alignments), **options)

    @classmethod
    def from_corpus(cls, corpus, **options):
        model = cls(corpus, **options)
        refuse_without_phrase_pairs(model.forests)
        return model

    @classmethod
    def tiny(cls):
        return cls(aligned.read("a b c ||| x y z ||| 0-0 1-1 2-2\n" * 2 + aligned.EXAMPLE))

    def __init__(self, corpus: AlignedCorpus, alpha=ALPHA, no_deg=False, pitman_yor=False,
                 discount=DISCOUNT, poisson=POISSON, exact_seating=False):
        if not (math.isfinite(alpha) and alpha > 0):
            raise ValueError(f"α must be a positive number (got {alpha})")
        if pitman_yor and not (0.0 <= discount < 1.0 and poisson > 0):
            raise ValueError(f"the Pitman-Yor prior needs 0 ≤ d < 1 and λ > 0 (got d = "
                             f"{discount}, λ = {poisson})")
        self.corpus = corpus
        self.alpha = float(alpha)
        self.pitman_yor = bool(pitman_yor)
        self.discount = float(discount) if pitman_yor else 0.0
        self.poisson = float(poisson)
        if exact_seating and not pitman_yor:
            raise ValueError("exact seating is for the Pitman-Yor prior: turn the prior on "
                             "(--pitman-yor); the DP's moves are exact already")
        self.exact_seating = bool(exact_seating)
        self.forests = corpus_forests(corpus)
        self.v_f = len({w for words in corpus.source for w in words})
        self.v_e = len({w for words in corpus.target for w in words})
        self.arrays = self._pack(not no_deg)
        self.n_sites = len(self.arrays["site_node"])
        self.n_nodes = len(self.arrays["node_pair"])
        if self.exact_seating and self.n_nodes > EXACT_MAX_NODES:
            raise ValueError(f"exact seating is offered for corpora of at most "
                             f"{EXACT_MAX_NODES:,} forest nodes; this one has {self.n_nodes:,} "
                             f"(use fewer pairs, or the paper's approximate tables)")
        if self.exact_seating:
            self.arrays["log_stirling"] = seating.log_stirling_table(self.discount,
                                                                     self.n_nodes)
        self.pair_start = np.concatenate([[0], self.arrays["pair_root"] + 1])

    def _pack(self, deg):
        """The corpus part of the state (``CORPUS_FIELDS``)."""
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
                             math.log(self.v_e), 1.0 if deg else 0.0, self.discount,
                             1.0 if self.exact_seating else 0.0]),
            log_pois=self._log_pois(), log_stirling=np.zeros((1, 1)))

    def _log_pois(self):
        """log Poisson(l; λ) of every rule length (``log_pois``; [0.0]: the DP)."""
        if not self.pitman_yor:
            return np.zeros(1)
        lengths = np.arange(LONGEST + 1)
        return np.array([l * math.log(self.poisson) - self.poisson - math.lgamma(l + 1)
                         for l in lengths])

    @staticmethod
    def _prefixes(sentences):
        """(start of each sentence's prefix hashes, the hashes) of one side, its words coded by
        first appearance plus WORD_CODE; each sentence's hashes start from 0."""
        codes = {}
        chars = np.array([codes.setdefault(w, len(codes)) + WORD_CODE
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
    def new_state(self, rng, eta=None):
        """A start as the paper's (§5.1): an incoming edge per node uniformly at random, and each
        node cut with probability η (default 1: every node cut, the paper's start)."""
        eta = 1.0 if eta is None else float(eta)
        if not 0.0 <= eta <= 1.0:
            raise ValueError(f"η must be in [0, 1] (got {eta})")
        deg = np.diff(self.arrays["edge_start"])
        edge = np.floor(rng.random(self.n_nodes) * deg).astype(np.int64)
        cut = (rng.random(self.n_nodes) < eta).astype(np.uint8)
        return self._state(edge, cut)

    def _state(self, edge, cut):
        """A state of these edges and cuts (its trees and index built)."""
        n, z = self.n_nodes, max(fo.n_nodes for fo in self.forests)
        capacity = 1 << max(4, int(2 * n - 1).bit_length())
        state = ScfgState(
            **self.arrays, edge=edge.astype(np.int64), cut=cut.astype(np.uint8),
            up=np.full(n, -1, np.int64), key=np.zeros(n, np.int64),
            logp0=np.zeros(n, np.float64),
            slot_key=np.full(capacity, hash_table.EMPTY, np.int64),
            slot_head=np.full(capacity, -1, np.int64), slot_size=np.zeros(capacity, np.int64),
            item_next=np.full(n, -1, np.int64), item_prev=np.full(n, -1, np.int64),
            n_rules=np.zeros(1, np.int64),
            cls_n=np.zeros(len(self.arrays["log_pois"]), np.int64),
            cls_t=np.zeros(len(self.arrays["log_pois"])), removed=np.zeros(self.n_sites, np.uint8),
            gone=np.zeros(n, np.int64), type_key=np.zeros((self.n_sites, 3), np.int64),
            type_logp0=np.zeros((self.n_sites, 3)), type_root=np.zeros(self.n_sites, np.int64),
            sym=np.zeros((n, 2), np.int64), seen=np.zeros(n, np.int64),
            clock=np.zeros(1, np.int64), u=np.zeros(n, np.uint8),
            shard=np.array([0, len(self.forests)], np.int64), **self._work_arrays(n, z))
        trees.recount(state)
        return state

    def _work_arrays(self, n, z):
        """The state's two work arrays (``ScfgState``: their rows are named there):
        the walks', the edge step's and TYPE's work, and exact seating's tables and worlds."""
        width, worlds = 2 * z + 1, 0
        if self.exact_seating:
            worlds = n + 2 * z + 8
            width = max(width, worlds, len(self.arrays["log_pois"]), n + z + 2)
        return dict(work_i=np.zeros((WORK_ROWS, width), np.int64),
                    work_f=np.zeros((worlds + FLOAT_ROWS, width)))

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

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

    # --- the Shards role: the parallel sampler's (engine.samplers.parallel, §4.2) ------------
    def shard_weights(self):
        """The work of each pair: its forest's nodes (a ValueError under exact seating, which
        the parallel sampler's merged counts cannot keep)."""
        if self.exact_seating:
            raise ValueError(NO_PARALLEL_EXACT)
        return np.diff(self.pair_start)

    def set_shard(self, state, lo, hi):
        """Let the samplers sweep only pairs lo … hi − 1 of ``state`` (and TYPE's blocks hold
        only their sites); the other pairs' rules stay in its counts."""
        state.shard[:] = lo, hi

    def shard_values(self, state, lo, hi):
        """Pairs lo … hi − 1's analysis: (edge, cut) of their nodes, copies."""
        nodes = slice(self.pair_start[lo], self.pair_start[hi])
        return state.edge[nodes].copy(), state.cut[nodes].copy()

    def install(self, state, values, lo, hi):
        """Give pairs lo … hi − 1 of ``state`` their analysis in ``values`` (the whole
        corpus's (edge, cut)), their rules refiled; how many pairs changed."""
        if lo >= hi:
            return 0
        start, end = self.pair_start[lo], self.pair_start[hi]
        edge, cut = values
        return int(trees.install(state, start, edge[start:end], cut[start:end]))

    # --- probabilities --------------------------------------------------------------------------
    def loglik_running(self, state):
        """log p(rules) from the state's own index: Σ_r log(α P₀(r))^(N_r) − log α^(n) under
        the DP; under the Pitman-Yor prior its exact value, tables summed out
        (``pitman_yor.py``)."""
        live = np.flatnonzero(state.slot_key != hash_table.EMPTY)
        if self.pitman_yor:
            keys = state.slot_key[live]
            return pitman_yor.log_probability(
                keys >> CLASS_SHIFT, state.slot_size[live].astype(np.int64),
                state.logp0[state.slot_head[live]], self.alpha, self.discount,
                self.arrays["log_pois"])
        total = 0.0
        for slot in live:
            log_base = math.log(self.alpha) + state.logp0[state.slot_head[slot]]
            total += log_rising(log_base, int(state.slot_size[slot]))
        return total - log_rising(math.log(self.alpha), int(state.n_rules[0]))

    def loglik(self, state):
        """log p(rules) from scratch: the trees and the index rebuilt from the edges and cuts."""
        return self.loglik_running(self.rebuilt_state(state))


    def n_analyses(self):
        """How many (tree, cuts) analyses the corpus has (a Python int: it can be huge)."""
        total = 1
        for fo in self.forests:  # every tree of a forest has as many nodes, the root cut
            total *= fo.n_trees() * 2 ** (fo.tree_size() - 1)
        return total

    def exact_posterior(self):
        """Every analysis with its exact posterior probability, each scored by ``loglik``:
        (values: int64[A, width of ``values``], p: float64[A]). For the lab's tiny corpora only
        (``n_analyses`` says how many there are)."""
        per_pair = []
        for p, fo in enumerate(self.forests):
            base, options = int(self.pair_start[p]), []
            for tree in fo.trees():
                inner = sorted(n for n in tree if n != fo.root)
                for bits in itertools.product((0, 1), repeat=len(inner)):
                    options.append(({base + n: e for n, e in tree.items()},
                                    {base + n: b for n, b in zip(inner, bits)}))
            per_pair.append(options)
        rows = []
        for parts in itertools.product(*per_pair):
            edge, cut = np.zeros(self.n_nodes, np.int64), np.ones(self.n_nodes, np.uint8)
            for edges, cuts in parts:
                edge[list(edges)] = list(edges.values())
                cut[list(cuts)] = list(cuts.values())
            rows.append(self.values(self._state(edge, cut)))
        values = np.array(rows)
        log_p = np.array([self.loglik(self.state_from_values(v)) for v in values])
        p = np.exp(log_p - log_p.max())
        return values, p / p.sum()

    def counts(self, state):
        """The rule index in a canonical form: each rule's key with its count, and the nodes
        rooting its occurrences (sorted), and n."""
        live = np.flatnonzero(state.slot_key != hash_table.EMPTY)
        order = np.argsort(state.slot_key[live], kind="stable")
        members = {}
        for slot in live[order]:
            items, item = [], int(state.slot_head[slot])
            while item >= 0:
                items.append(item)
                item = int(state.item_next[item])
            members[int(state.slot_key[slot])] = sorted(items)
        return {"rules": np.stack([state.slot_key[live][order], state.slot_size[live][order]]),
                "members": members, "n_rules": int(state.n_rules[0])}

    def measures(self, state):
        """No gold rules to score against ({}): the paper measures BLEU of a translation
        system built on the rules, which the lab does not build."""
        return {}

    def scalars(self, state):
        rules = int(state.n_rules[0])
        in_tree = int((state.up >= 0).sum()) + len(self.forests)
        return {"rules": rules,
                "rule_types": int((state.slot_key != hash_table.EMPTY).sum()),
                "mean_size": in_tree / rules}

    # --- rules as text --------------------------------------------------------------------------
    def on_tree(self, state):
        """bool[N]: whether each node is on its pair's current tree."""
        on = state.up >= 0
        on[self.arrays["pair_root"]] = True
        return on

    def children(self, state, n):
        """The tails of node n's current edge (its children on the tree), in source order."""
        e = int(self.arrays["edge_start"][n] + state.edge[n])
        start, end = self.arrays["tail_start"][e], self.arrays["tail_start"][e + 1]
        return [int(t) for t in self.arrays["tails"][start:end]]

    def frontier(self, state, r, cut_at=-1, expand_at=-1):
        """The frontier nodes of the rule rooted at node r (source order), the cuts as they
        stand except that ``cut_at`` counts as cut and ``expand_at`` as not."""
        found, stack = [], self.children(state, r)[::-1]
        while stack:
            n = stack.pop()
            if n == cut_at or (state.cut[n] and n != expand_at):
                found.append(n)
            else:
                stack += self.children(state, n)[::-1]
        return sorted(found, key=lambda n: self.arrays["span"][n, 0])

    def rule_text(self, state, r, cut_at=-1, expand_at=-1):
        """The rule rooted at node r as Hiero writes it, ``source ||| target`` (nonterminals
        [X,k] numbered in source order), the cuts as ``frontier`` takes them."""
        pair = int(self.arrays["node_pair"][r])
        span = self.arrays["span"]
        frontier = self.frontier(state, r, cut_at, expand_at)
        sides = []
        for side, words in ((0, self.corpus.source[pair]), (1, self.corpus.target[pair])):
            holes = {int(span[n, 2 * side]): (int(span[n, 2 * side + 1]), k)
                     for k, n in enumerate(frontier, 1)}
            out, i = [], int(span[r, 2 * side])
            while i < span[r, 2 * side + 1]:
                if i in holes:
                    i, k = holes[i]
                    out.append(f"[X,{k}]")
                else:
                    out.append(words[i])
                    i += 1
            sides.append(" ".join(out))
        return f"{sides[0]} ||| {sides[1]}"

    def edge_alternatives(self, state, n):
        """Node n's incoming edges (n on the tree) as eq. 9 weighs them with the values off the
        tree as they stand: each edge's parts (source words), the rule holding n it would make,
        ∏ deg(v) over the nodes it brings below n, log Π P(r_i) of the rules it would make, and
        its probability with and without the deg(v) factor. A list of dicts, one an edge."""
        deg = int(self.arrays["edge_start"][n + 1] - self.arrays["edge_start"][n])
        rules, degs = np.zeros(deg), np.zeros(deg)
        edge_log_weights(state, n, rules, degs)
        with_deg, without = (np.exp(x - x.max()) / np.exp(x - x.max()).sum()
                             for x in (rules + degs, rules))
        root = n
        while not state.cut[root]:
            root = int(state.up[root])
        pair = int(self.arrays["node_pair"][n])
        words, base = self.corpus.source[pair], int(self.pair_start[pair])
        fo, trial = self.forests[pair], self.clone_state(state)
        found = []
        for e in range(deg):
            trial.edge[n] = e
            parts = fo.edges(n - base)[e]
            found.append(dict(
                edge=" | ".join(" ".join(words[fo.f_lo[t]:fo.f_hi[t]]) for t in parts),
                chosen=bool(e == state.edge[n]), rule=self.rule_text(trial, root),
                deg=int(round(math.exp(degs[e]))), log_p_rules=float(rules[e]),
                p=float(with_deg[e]), p_without_deg=float(without[e])))
        return found

    def rule_roots(self, state, pair):
        """The nodes of ``pair`` that root a rule on its current tree, root first."""
        lo, hi = self.pair_start[pair], self.pair_start[pair + 1]
        on = self.on_tree(state)[lo:hi] & (state.cut[lo:hi] == 1)
        return [int(n) for n in (lo + np.flatnonzero(on))[::-1]]

    def rule_counts(self, state):
        """Counter of the rules in use, as ``rule_text`` writes them, recounted from the trees."""
        return Counter(self.rule_text(state, r) for pair in range(len(self.forests))
                       for r in self.rule_roots(state, pair))

    def write_rules(self, state):
        """The rules in use in Hiero's format, ``[X] ||| source ||| target ||| count``, most
        used first."""
        ranked = sorted(self.rule_counts(state).items(), key=lambda item: (-item[1], item[0]))
        return "".join(f"[X] ||| {rule} ||| {count}\n" for rule, count in ranked)

    # --- sites on the pages ---------------------------------------------------------------------
    def site_place(self, s):
        """(pair, the node's number within its pair's forest) of site s."""
        node = int(self.arrays["site_node"][s])
        pair = int(self.arrays["node_pair"][node])
        return pair, node - int(self.pair_start[pair])

    def site_type(self, state, s):
        """Site s's type as rule texts (r₁ merged, r₂ above, r₃ below), or None off the tree."""
        n = int(self.arrays["site_node"][s])
        if state.up[n] < 0:
            return None
        r = int(state.up[n])
        while not state.cut[r]:
            r = int(state.up[r])
        return (self.rule_text(state, r, expand_at=n), self.rule_text(state, r, cut_at=n),
                self.rule_text(state, n, expand_at=-1))

    def describe_site(self, state, s):
        """The type: the merged rule r₁ against the upper r₂ and lower r₃."""
        names = ("inside the rule above (r₁)", "a rule's root (r₂ + r₃)")
        rules = self.site_type(state, s)
        if rules is None:
            return SiteView("off the current tree (its node is in no rule)", names)
        return SiteView(f"{rules[0]}  ·  {rules[1]}  +  {rules[2]}", names)

    # --- analysis files -------------------------------------------------------------------------
    def tree_text(self, state, pair):
        """Pair ``pair``'s tree in brackets of phrase pairs, a ``*`` at each rule's root below
        the top."""
        fo = self.forests[pair]

        def text(n, top):
            local = n - int(self.pair_start[pair])
            spans = f"{fo.f_lo[local]}-{fo.f_hi[local]}/{fo.e_lo[local]}-{fo.e_hi[local]}"
            mark = CUT_MARK if state.cut[n] and not top else ""
            inner = "".join(" " + text(c, False) for c in self.children(state, n))
            return f"({spans}{mark}{inner})"

        return text(int(self.arrays["pair_root"][pair]), True)

    def write_analysis(self, state):
        """One line per pair: its tree in brackets of phrase pairs, ``(f_lo-f_hi/e_lo-e_hi``
        then the node's children, ``*`` marking a node that roots a rule."""
        return "".join(self.tree_text(state, p) + "\n" for p in range(len(self.forests)))

    def read_analysis(self, path):
        """The state of an analysis file ``write_analysis`` wrote for these pairs."""
        lines = read_text(path).splitlines()
        if len(lines) != len(self.forests):
            raise CorpusError(f"{path} has {len(lines):,} lines; the corpus has "
                              f"{len(self.forests):,} pairs")
        edge = np.zeros(self.n_nodes, np.int64)
        cut = np.ones(self.n_nodes, np.uint8)
        for pair, line in enumerate(lines):
            self._read_tree(pair, line, edge, cut)
        return self._state(edge, cut)

    def _read_tree(self, pair, line, edge, cut):
        """Set ``edge`` and ``cut`` of pair's nodes from one line of an analysis file."""
        fo, base = self.forests[pair], int(self.pair_start[pair])
        nodes = {(fo.f_lo[n], fo.f_hi[n], fo.e_lo[n], fo.e_hi[n]): n for n in range(fo.n_nodes)}
        stack, position = [], 0
        for match in re.finditer(r"\(([^()\s]*)|\)", line):
            if match.group(0) == ")":
                n, kids = stack.pop()
                self._choose_edge(fo, n, kids, pair, edge, base)
                continue
            node = _NODE.fullmatch(match.group(0))
            span = node and tuple(int(node.group(i)) for i in range(1, 5))
            if span not in nodes:
                raise CorpusError(f"{match.group(1)!r} is not a phrase pair of pair "
                                  f"{pair + 1}'s forest", line=pair + 1)
            n = nodes[span]
            cut[base + n] = 1 if not stack or node.group(5) else 0
            if stack:
                stack[-1][1].append(n)
            elif position:
                raise CorpusError("more than one tree on the line", line=pair + 1)
            stack.append((n, []))
            position += 1
        if stack or not position:
            raise CorpusError("the brackets do not close" if stack else "no tree",
                              line=pair + 1)

    def _choose_edge(self, fo, n, kids, pair, edge, base):
        """Set node n's edge to the one whose tails are ``kids``."""
        for e in range(fo.deg(n)):
            if sorted(fo.edges(n)[e]) == sorted(kids):
                edge[base + n] = e
                return
        raise CorpusError(f"node {fo.f_lo[n]}-{fo.f_hi[n]}/{fo.e_lo[n]}-{fo.e_hi[n]} has no "
                          "hyperedge to those children", line=pair + 1)

    def formulas(self):
        """The model (eqs. 2–4, or 5–7 under the Pitman-Yor prior) and the two steps TOKEN
        takes (eqs. 8–9), with this corpus's numbers."""
        return (*self._prior_formulas(),
            ("markdown", f"where |r_f| counts the source side's words and nonterminals. Here "
                         f"α = {self.alpha:g}, V_f = {self.v_f:,} and V_e = {self.v_e:,} "
                         "words. **TOKEN** (Algorithm 1) walks each pair's tree from its "
                         "root; at each node n it first draws n's incoming hyperedge, each "
                         "weighed by the rules it would switch on (eq. 9) and by the in-degree "
                         "of every node below n it brings onto the tree:"),
            ("latex", r"P(e_n = e \mid N) \propto \prod_{i=1}^{m} P(r_i \mid N^{i-1})"
                      r"\prod_{v \in \tau(e) \cap \mathrm{in}(n)} \deg(v)"),
            ("markdown", "then whether n is cut (eq. 8): merged into the rule r₁ above it, or "
                         "cut into the upper rule r₂ and the rule r₃ rooted at n, with N′ = N + "
                         "r₂:"),
            ("latex", r"P(z_n = 0) \propto P(r_1 \mid N),\qquad "
                      r"P(z_n = 1) \propto P(r_2 \mid N)\,P(r_3 \mid N')"),
            ("markdown", "**TYPE** (Algorithm 2) gathers the nodes of the same type "
                         "(r₁, r₂, r₃) whose rules share no node, and draws how many m of them "
                         "are cut, p(m) ∝ C(n, m) g(m) (eqs. 10–11)."),
        )

    def _prior_formulas(self):
        if not self.pitman_yor:
            return (
                ("markdown", "Each composed rule r = (r_f, r_e) is drawn from a Dirichlet "
                             "process: after n rules, of which N(r) are r, the next is r with "
                             "probability (eqs. 2 and 4)"),
                ("latex", r"P(r \mid N) = \frac{N(r) + \alpha P_0(r)}{n + \alpha},\qquad "
                          r"P_0(r) = V_f^{-|r_f|}\, V_e^{-|r_e|}"))
        return (
            ("markdown", "Each rule length l = |r_f| + |r_e| has its own Pitman-Yor process, "
                         f"discount d = {self.discount:g}, and the length its Poisson prior, "
                         f"λ = {self.poisson:g} (eq. 5): after N_L rules of length l, of "
                         "which N(r) are r,"),
            ("latex", r"P(r \mid N) = \frac{N(r) - d\,T_r + (d\,T_l + \alpha) P_0(r)}"
                      r"{N_L(l) + \alpha}\;\frac{\lambda^l e^{-\lambda}}{l!},\qquad "
                      r"P_0(r) = V_f^{-|r_f|}\, V_e^{-|r_e|}"),
            ("markdown", "T_r and T_l count the tables serving r and all the rules of length l. "
                         + (self._exact_seating_text() if self.exact_seating else
                            "The samplers do not track tables: they use the paper's "
                            "approximation T_r = N(r)ᵈ, T_l = Σ T_r (eqs. 6–7), so **every "
                            "sampler is approximate under this prior** (the benchmarks "
                            "measure its predictive within 0.07 of the exact one in log, "
                            "median, on KFTT); *exact seating* (Model settings, small "
                            "corpora) makes them exact. ")
                         + "The log p(rules) the lab reports is exact: every seating of the "
                         "tables summed out."),
            *(self._exact_seating_formulas() if self.exact_seating else ()))

    @staticmethod
    def _exact_seating_text():
        return ("With **exact seating** the chain keeps each rule's table count t_r, and the "
                "probability of counts and tables is, per length (S_d the generalised "
                "Stirling numbers, T = Σ t_r):")

    @staticmethod
    def _exact_seating_formulas():
        return (
            ("latex", r"p(N, t) = \frac{\prod_{k<T}(\alpha + k d)}{\alpha^{(N_L)}}"
                      r"\prod_r S_d(N(r), t_r)\, P_0(r)^{t_r}"),
            ("markdown", "TOKEN's cut and TYPE's g(m) weigh each option with the tables of "
                         "the rules it touches summed out given the others', then draw those "
                         "tables again from their exact conditional; the edge step proposes "
                         "by eq. 9 with T = Nᵈ and Metropolis-Hastings accepts against this "
                         "p. Every sampler but plain one-stage is then exact."))
