"""The probabilistic tree-substitution grammar learned from a treebank (Liang et al. §3–5, the
PTSG of Cohn, Goldwater & Blunsom 2009 and Post & Gildea 2009).

The trees are cleaned (traces, function tags), binarised (unary chains collapsed, right
branching with horizontal Markovisation) and their rare words mapped to unknown-word classes,
as Liang et al.'s footnote 5 says. Each node that is not a tree's root is a site: b_s = 1 roots
a fragment there. Fragments rooted at X are draws from θ_X ~ DP(α, μ_X), where μ_X is the base
of ``engine.models.ptsg.kernels`` (the treebank's PCFG with a stop probability per frontier
node); eq. 3 is the probability of the whole fragmentation.
"""
import math
from collections import Counter

import numpy as np

from datasets import trees as treebank
from datasets.text import read_text
from engine.core.state import clone
from engine.models.ptsg import sentence
from engine.models.ptsg.kernels import site_moves, type_blocks, weights
from engine.models.ptsg.kernels.counts import count_all
from engine.models.ptsg.kernels.keys import fill_keys
from engine.models.ptsg.kernels.layout import CORPUS_FIELDS, TINY_LOG, PtsgState
from engine.models.ptsg.grammar import posterior_grammar
from engine.models.protocol import (ChainModel, CorpusModel, ModelBase, Option, Output,
                                    Presentation, SiteView)
from engine.models.registry import register
from engine.parsing.pcfg import tag_lexicon
from engine.parsing.pipeline import Trained, parse_sentences
from engine.scoring import evalb

# α: on GUM's training trees, TYPE's 100 sweeps parse the dev sentences at F1 0.719 with α = 10
# (docs/benchmarks.md); α = 1 gave 0.713 after 50 sweeps
ALPHA = 10.0
MAX_LENGTH = 40  # held-out sentences parsed for F1: at most this many words (EVALB's cut-off)
CUT_MARK = "*"  # write_analysis marks a cut node's label so: (NP* (DT the) (NN dog))


def log_rising_tiny(log_a, k):
    """log a^(k) given log a, exact where a is too small for a float (a^(k) ≈ a (k − 1)!)."""
    if k == 0:
        return 0.0
    a = math.exp(log_a)
    if a == 0.0 or log_a < TINY_LOG:
        return log_a + math.lgamma(k)
    return math.lgamma(a + k) - math.lgamma(a)


class Packed:
    """Binarised trees in flat arrays (preorder, tree after tree) with the treebank's PCFG.

    Attributes: labels, rules (their names, by id), the node arrays of ``PtsgState``'s
    corpus part, tree_start (int64[T + 1]) and, per rule, its log probability.
    """

    def __init__(self, trees):
        self.labels, self.rules = {}, {}
        parent, left, right, label, rule = [], [], [], [], []
        self.tree_start = [0]

        def visit(tree, up):
            n = len(parent)
            parent.append(up), left.append(-1), right.append(-1)
            label.append(self.labels.setdefault(tree[0], len(self.labels)))
            # a rule's name: (A, word) under a preterminal, (A, B, C) for A → B C
            name = (tree[0], tree[1]) if isinstance(tree[1], str) else \
                (tree[0], tree[1][0], tree[2][0])
            rule.append(self.rules.setdefault(name, len(self.rules)))
            if not isinstance(tree[1], str):
                left[n] = visit(tree[1], n)
                right[n] = visit(tree[2], n)
            return n

        for tree in trees:
            visit(tree, -1)
            self.tree_start.append(len(parent))
        # the links between nodes and sites in 32 bits (PtsgState's notes)
        self.parent = np.array(parent, dtype=np.int32)
        self.left = np.array(left, dtype=np.int32)
        self.right = np.array(right, dtype=np.int32)
        self.label = np.array(label, dtype=np.int64)
        self.rule = np.array(rule, dtype=np.int64)
        self.tree_start = np.array(self.tree_start, dtype=np.int64)
        # the treebank's PCFG: P(rule | its left-hand side) by relative frequency, a
        # preterminal's word by its tag's (engine.parsing.pcfg.tag_lexicon: a collapsed chain
        # VP+VBD emits what VBD does); ``lexicon`` keeps every (preterminal, word) the PCFG allows
        rule_count = np.bincount(self.rule, minlength=len(self.rules)).astype(float)
        lhs = np.array([self.labels[name[0]] for name in self.rules], dtype=np.int64)
        lhs_count = np.bincount(lhs, weights=rule_count, minlength=len(self.labels))
        self.log_rule_of = np.log(rule_count / lhs_count[lhs])
        self.lexicon = tag_lexicon({name: rule_count[i] for name, i in self.rules.items()
                                    if len(name) == 2})
        for name, i in self.rules.items():
            if len(name) == 2:
                self.log_rule_of[i] = math.log(self.lexicon[name])
        self.site_node = np.flatnonzero(self.parent >= 0).astype(np.int32)
        self.node_site = np.full(len(parent), -1, dtype=np.int32)
        self.node_site[self.site_node] = np.arange(len(self.site_node))


@register
class PtsgModel(ModelBase):
    """A treebank under the DP tree-substitution grammar.

    Parameters
    ----------
    trees : sequence of trees (nested tuples, ``datasets.trees``), as read
    alpha : float
        α, each nonterminal's DP concentration.
    stop : float
        s, the base's probability that a nonterminal below a fragment's root is a frontier.
    markov : int or None
        Horizontal Markovisation order of the binarisation (None: none).
    rare : int
        Words seen fewer times are mapped to unknown-word classes (1: none).
    held_out : float
        The share of the trees, the last ones, kept out of the model: the measures parse their
        sentences with the sampled grammar (fn. 6) and score them (0: no measures).
    """

    aliases = ("tsg",)
    roles = (ChainModel, Presentation, CorpusModel)
    label = "Tree fragments (PTSG)"
    summary = ("Liang et al.'s third model: a treebank's trees cut into fragments, each drawn "
               "from its root's Dirichlet process; a site is a node, b = 1 roots a fragment.")
    samplers = ("token", "type", "anneal", "greedy", "sentence")
    options = (
        Option("alpha", "--alpha", float, ALPHA, "α, each nonterminal's DP concentration",
               1e-6, 1e9),
        Option("stop", "--stop", float, 0.5,
               "s, the base's probability that a node below a fragment's root ends it",
               1e-6, 1 - 1e-6),
        Option("markov", "--markov", int, 1,
               "horizontal Markovisation order of the binarisation (0, 1, 2, …)", 0, 100),
        Option("rare", "--rare", int, 2,
               "words seen fewer times become unknown-word classes (1: none)", 1, 1000),
        Option("held_out", "--held-out", float, 0.0,
               "the share of the trees held out (spread evenly): the sampled grammar parses "
               "them for F1 (0: none)", 0.0, 0.5),
    )
    outputs = (Output("--fragments", "file for the sampled fragments: per root label, largest "
                      "count first, one per line: root, count, posterior probability and the "
                      "fragment in brackets, tab-separated", "write_fragments"),)
    display = "trees"  # its kind of data (datasets/trees.py, ui/kinds/trees.py)
    trace_labels = {"f1": f"held-out bracket F1 (≤ {MAX_LENGTH} words)",
                    "fragments": "fragments in use", "mean_size": "mean fragment size (rules)"}
    loglik_label = "log p(fragments)"
    order = 3
    kernel_modules = (site_moves, type_blocks, weights, sentence)

    @classmethod
    def build(cls, path=None, **options):
        """The model of a Penn treebank file, or of the built-in treebank when path is None."""
        corpus = treebank.builtin() if path is None else treebank.read_file(path)
        return cls.from_corpus(corpus, **options)

    @classmethod
    def from_corpus(cls, corpus, **options):
        return cls(corpus.trees, **options)

    @classmethod
    def tiny(cls):
        return cls([("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")),
                              ("VP", ("VBZ", "barks")))),
                    ("ROOT", ("S", ("NP", ("DT", "a"), ("NN", "dog")),
                              ("VP", ("VBZ", "sleeps"))))], rare=1)

    def __init__(self, trees, alpha=ALPHA, stop=0.5, markov=1, rare=2, held_out=0.0):
        if not trees:
            raise ValueError("the treebank has no tree")
        trees, self.held_out = held_out_split(trees, held_out)
        for name, value, low, high in (("α", alpha, 0.0, math.inf), ("s", stop, 0.0, 1.0)):
            if not (math.isfinite(value) and low < value < high):
                raise ValueError(f"{name} must be a number in ({low:g}, {high:g}) (got {value})")
        self.alpha, self.stop, self.markov, self.rare = float(alpha), float(stop), markov, rare
        binarised = [treebank.binarise(treebank.clean(tree), markov) for tree in trees]
        self.trees, self.vocabulary = treebank.map_rare(binarised, rare)
        self.packed = Packed(self.trees)
        self.n_sites = len(self.packed.site_node)
        if self.n_sites == 0:
            raise ValueError("the trees have no node below a root: no fragment to choose")

    # --- states ---------------------------------------------------------------------------------
    def _corpus(self):
        p = self.packed
        n_labels = len(p.labels)
        return dict(parent=p.parent, left=p.left, right=p.right, label=p.label, rule=p.rule,
                    log_rule=p.log_rule_of[p.rule], node_site=p.node_site,
                    site_node=p.site_node, tree_start=p.tree_start,
                    log_stop=np.full(n_labels, math.log(self.stop)),
                    log_go=np.full(n_labels, math.log1p(-self.stop)),
                    params=np.array([self.alpha, math.log(self.alpha)]))

    def state_from_values(self, values):
        """The state whose sites are cut where ``values`` (0/1 per site) says."""
        values = np.asarray(values)
        if values.shape != (self.n_sites,) or not np.isin(values, (0, 1)).all():
            raise ValueError(f"an analysis of this treebank gives each of its {self.n_sites:,} "
                             "sites 0 or 1")
        corpus = self._corpus()
        n_nodes = len(self.packed.parent)
        cut = (self.packed.parent < 0).astype(np.uint8)
        cut[self.packed.site_node] = values
        # one entry at most per cut node: the power of two above N slots never fills, and the
        # fragments in use (15,000–40,000 of GUM's 147,000 nodes) load it ~0.15; at 2N slots
        # it was twice the memory a probe misses in (TOKEN 9 %, TYPE 4 % slower, measured
        # in one process on GUM: docs/benchmarks.md)
        slots = 1 << max(4, n_nodes.bit_length())
        largest = int(np.diff(self.packed.tree_start).max())
        state = PtsgState(
            **corpus, cut=cut, h_in=np.zeros(n_nodes, np.int64), mu_in=np.zeros(n_nodes),
            slot_key=np.full(slots, -1, np.int64), slot_head=np.full(slots, -1, np.int64),
            slot_size=np.zeros(slots, np.int64), item_next=np.full(n_nodes, -1, np.int32),
            item_prev=np.full(n_nodes, -1, np.int32),
            n_root=np.zeros(len(self.packed.labels), np.int64),
            gone=np.zeros(n_nodes, np.int32),
            type_key=np.zeros(3, np.int64), type_mu=np.zeros(3), type_root=np.zeros(1, np.int64),
            gathering=np.zeros(1, np.uint8),
            aside=np.zeros(2, np.int64),
            stack=np.zeros(n_nodes + 2, np.int64),
            pattern_key=np.zeros(largest * sentence.WIDTH, np.int64),
            tree_stack=np.zeros(3 * largest, np.int64))
        fill_keys(state)
        count_all(state)
        return state

    def new_state(self, rng, eta=None):
        """Each site cut with probability η (Liang et al. §5.2); η = 1 by default, every node
        its own fragment — a PCFG's rules."""
        eta = 1.0 if eta is None else float(eta)
        if not 0.0 <= eta <= 1.0:
            raise ValueError(f"η must be in [0, 1] (got {eta})")
        return self.state_from_values((rng.random(self.n_sites) < eta).astype(np.uint8))

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

    def values(self, state):
        return state.cut[self.packed.site_node]

    # --- eq. 3 ----------------------------------------------------------------------------------
    def fragments(self, values):
        """Counter of the fragments of the analysis ``values``, each a nested tuple over the
        binarised trees' labels (a frontier node as its label alone), recomputed from the
        values without the kernels' keys."""
        p = self.packed
        cut = (p.parent < 0).astype(bool)
        cut[p.site_node] = np.asarray(values, dtype=bool)
        names = {i: name for name, i in p.labels.items()}
        rule_names = {i: name for name, i in p.rules.items()}

        def below(n):
            if p.left[n] < 0:
                return rule_names[p.rule[n]]
            return (names[p.label[n]],) + tuple(
                names[p.label[c]] if cut[c] else below(c) for c in (p.left[n], p.right[n]))

        return Counter(below(n) for n in np.flatnonzero(cut))

    def log_base(self, fragment):
        """log μ(fragment) from the PCFG and the stop probability, recomputed from its tree."""
        p = self.packed
        rule_index = p.rules
        log_stop, log_go = math.log(self.stop), math.log1p(-self.stop)

        def log_mu(f):
            if len(f) == 2:  # a preterminal's (tag, word)
                return float(p.log_rule_of[rule_index[f]])
            children = [c if isinstance(c, str) else c[0] for c in f[1:]]
            total = float(p.log_rule_of[rule_index[(f[0], *children)]])
            for c in f[1:]:
                total += log_stop if isinstance(c, str) else log_go + log_mu(c)
            return total

        return log_mu(fragment)

    def loglik(self, state):
        """Eq. 3 recomputed from the cuts alone: every fragment counted anew, its base
        recomputed from its tree."""
        counts = self.fragments(self.values(state))
        return self._eq3((self.log_base(f), f[0], n) for f, n in counts.items())

    def _eq3(self, fragments):
        """Σ_X [Σ_f log (α μ_f)^(n_f) − log α^(n_X)] over (log μ_f, root label, n_f)."""
        log_alpha = math.log(self.alpha)
        total, per_root = 0.0, Counter()
        for log_mu, root, n in fragments:
            total += log_rising_tiny(log_alpha + log_mu, n)
            per_root[root] += n
        return total - sum(math.lgamma(self.alpha + n) - math.lgamma(self.alpha)
                           for n in per_root.values())

    def loglik_running(self, state):
        """Eq. 3 from the fragment index: each key's count, and μ and the root label of the
        node at the head of its list."""
        names = {i: name for name, i in self.packed.labels.items()}
        live = np.flatnonzero(state.slot_key >= 0)
        heads = state.slot_head[live]
        return self._eq3(zip(state.mu_in[heads], (names[x] for x in state.label[heads]),
                             state.slot_size[live]))

    def counts(self, state):
        live = np.flatnonzero(state.slot_key >= 0)
        order = np.argsort(state.slot_key[live], kind="stable")
        return {"fragments": np.stack([state.slot_key[live][order],
                                       state.slot_size[live][order]]),
                "n_root": state.n_root.copy()}

    def measures(self, state):
        """The held-out sentences' bracket F1 under the sampled grammar ({} when none is held
        out)."""
        if not self.held_out:
            return {}
        return {"f1": self.parse_held_out(state)[1]["f1"]}

    def parse_held_out(self, state):
        """Parse the held-out sentences of at most ``MAX_LENGTH`` words with the posterior-mean
        grammar of ``state`` (fn. 6): (parses, EVALB's scores, the gold trees parsed), the
        parses debinarised, in the held-out trees' order."""
        trained = Trained(posterior_grammar(self, [state]), self.vocabulary,
                          treebank.debinarise)
        parses, kept, _ = parse_sentences(trained, self.held_out, MAX_LENGTH)
        return parses, evalb.score(kept, parses), kept

    def scalars(self, state):
        fragments = int(state.n_root.sum())
        rules = len(self.packed.parent)
        return {"fragments": fragments, "mean_size": rules / fragments}

    # --- showing and exchanging analyses ---------------------------------------------------------
    def site_place(self, s):
        """(tree, the node's place in the tree's preorder) of site s."""
        node = int(self.packed.site_node[s])
        tree = int(np.searchsorted(self.packed.tree_start, node, side="right")) - 1
        return tree, node - int(self.packed.tree_start[tree])

    def fragment_tree(self, state, root, cut_at=None, expand_at=None):
        """The fragment rooted at node ``root`` as the cuts stand except that node ``cut_at``
        is taken as cut and ``expand_at`` as not: (nested tuples — a frontier node a 1-tuple
        of its label, a preterminal (tag, word) — and the fragment's nodes in preorder)."""
        p, names = self.packed, {i: name for name, i in self.packed.labels.items()}
        words = {i: name[1] for name, i in p.rules.items() if len(name) == 2}
        nodes = []

        def shape(n, top):
            nodes.append(n)
            if not top and (n == cut_at or (state.cut[n] and n != expand_at)):
                return (names[p.label[n]],)
            if p.left[n] < 0:
                return names[p.label[n]], words[p.rule[n]]
            return names[p.label[n]], shape(p.left[n], False), shape(p.right[n], False)

        return shape(root, True), nodes

    def fragment_text(self, state, root, cut_at=None, expand_at=None):
        """``fragment_tree`` in brackets (``bracketed``)."""
        return bracketed(self.fragment_tree(state, root, cut_at, expand_at)[0])

    def site_type(self, state, s):
        """Site s's type as fragments: (M, U, L), each ``fragment_tree``'s (shape, nodes)."""
        n = int(self.packed.site_node[s])
        root = int(self.packed.parent[n])
        while not state.cut[root]:
            root = int(self.packed.parent[root])
        return (self.fragment_tree(state, root, expand_at=n),
                self.fragment_tree(state, root, cut_at=n), self.fragment_tree(state, n))

    def describe_site(self, state, s):
        """The type (merged M against upper U + lower L) in brackets."""
        merged, upper, lower = (bracketed(shape) for shape, _ in self.site_type(state, s))
        return SiteView(f"{merged}  ·  {upper} + {lower}",
                        ("inside the fragment above", "a fragment's root"))

    def tree_text(self, state, t):
        """Binarised tree t in brackets, each cut node's label marked with CUT_MARK."""
        p, names = self.packed, {i: name for name, i in self.packed.labels.items()}
        words = {i: name[1] for name, i in p.rules.items() if len(name) == 2}

        def text(n):
            mark = CUT_MARK if state.cut[n] and p.parent[n] >= 0 else ""
            if p.left[n] < 0:
                return f"({names[p.label[n]]}{mark} {words[p.rule[n]]})"
            return f"({names[p.label[n]]}{mark} {text(p.left[n])} {text(p.right[n])})"

        return text(int(p.tree_start[t]))

    def write_analysis(self, state):
        """One binarised tree per line (rare words as their classes), each node that roots a
        fragment marked with a trailing * on its label: (NP* (DT the) (NN* dog))."""
        return "".join(self.tree_text(state, t) + "\n" for t in range(len(self.trees)))

    def read_analysis(self, path):
        """The state of an analysis file ``write_analysis`` wrote for this treebank."""
        corpus = treebank.read_trees(read_text(path), name=str(path), binarised=True)
        if len(corpus.trees) != len(self.trees):
            raise ValueError(f"{path} has {len(corpus.trees):,} trees; the treebank has "
                             f"{len(self.trees):,}")
        values = []
        for number, (marked, tree) in enumerate(zip(corpus.trees, self.trees), 1):
            cuts = []
            if unmarked(marked, cuts) != tree:
                raise ValueError(f"{path}: tree {number:,} is not the treebank's tree "
                                 f"{number:,} after binarisation")
            values += cuts[1:]  # the root is no site
        return self.state_from_values(np.array(values, dtype=np.uint8))

    def fragment_table(self, state):
        """The fragments in use, per root label, largest count first: a DataFrame with root,
        fragment (brackets), count and the posterior mean probability of the fragment under
        its root's DP, (n_f + α μ_f) / (n_X + α)."""
        import pandas as pd
        names = {i: name for name, i in self.packed.labels.items()}
        live = np.flatnonzero(state.slot_key >= 0)
        rows = []
        for slot in live:
            head = int(state.slot_head[slot])
            n_f, label = int(state.slot_size[slot]), int(state.label[head])
            rows.append((names[label], self.fragment_text(state, head), n_f,
                         (n_f + self.alpha * math.exp(state.mu_in[head]))
                         / (state.n_root[label] + self.alpha)))
        table = pd.DataFrame(rows, columns=["root", "fragment", "count", "probability"])
        return table.sort_values(["root", "count", "fragment"], ascending=[True, False, True],
                                 ignore_index=True)

    def write_fragments(self, state):
        """``fragment_table`` as text: a header line, then one fragment per line."""
        table = self.fragment_table(state)
        lines = ["# root\tcount\tprobability\tfragment (binarised trees; a bare label is a "
                 "frontier, rare words are their unknown-word classes)"]
        lines += [f"{row.root}\t{row.count}\t{row.probability:.6g}\t{row.fragment}"
                  for row in table.itertuples()]
        return "\n".join(lines) + "\n"


def bracketed(fragment):
    """A ``fragment_tree`` shape in brackets: a frontier node is its label alone, a preterminal
    shows its word."""
    if len(fragment) == 1:
        return fragment[0]
    if isinstance(fragment[1], str):
        return f"({fragment[0]} {fragment[1]})"
    return f"({fragment[0]} {bracketed(fragment[1])} {bracketed(fragment[2])})"


def held_out_split(trees, share):
    """(the trees the model learns from, the ``share`` of them held out for parsing), the
    held-out ones spread evenly through the treebank (a treebank written construction by
    construction keeps each construction on both sides); at least one of each when ``share`` > 0.
    """
    if not 0.0 <= share <= 0.5:
        raise ValueError(f"the held-out share must be between 0 and 0.5 (got {share})")
    if share == 0.0:
        return tuple(trees), ()
    if len(trees) < 2:
        raise ValueError("holding trees out needs at least two trees: give more, or hold out 0")
    # tree i is held out when the running count of held-out trees, share × (i + 1), passes a
    # whole number there: every (1 / share)-th tree, the last one first
    out = [math.floor(share * (i + 1)) > math.floor(share * i) for i in range(len(trees))]
    out[-1] = out[-1] or not any(out)
    return (tuple(t for t, o in zip(trees, out) if not o),
            tuple(t for t, o in zip(trees, out) if o))


def unmarked(tree, cuts):
    """``tree`` as read from an analysis file without its cut marks, appending each node's
    mark (1 or 0) to ``cuts`` in preorder."""
    label = tree[0]
    cuts.append(int(label.endswith(CUT_MARK)))
    label = label.removesuffix(CUT_MARK)
    if isinstance(tree[1], str):
        return (label, tree[1])
    return (label,) + tuple(unmarked(child, cuts) for child in tree[1:])
