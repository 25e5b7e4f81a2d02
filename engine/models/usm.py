"""The unigram segmentation model (USM) of Goldwater, Griffiths & Johnson (2009), as in their
`segment` program (SPEC §3): a Dirichlet process over words with a length-penalising base
distribution P₀, and a Beta(ρ/2, ρ/2) choice after each word of whether the utterance ends.

Its exact log-probability of a segmented corpus, the product of the predictive probabilities in
corpus order, is eq. 3 of Liang et al. with two restaurants (words, utterance ends).
"""
import math
from collections import Counter
from functools import cached_property

import numpy as np

from datasets.builtin import builtin_corpus
from datasets.segmented import format_segmented, gold_boundaries, load_segmented
from engine.core.state import clone
from engine.kernels import usm as kernels
from engine.kernels import usm_sentence
from engine.metrics import gold_lexicon, segmentation_scores
from engine.models.protocol import CorpusModel, Option, SiteView
from engine.models.registry import register

# the state's fields that hold the corpus: read by kernels, never written, shared by copies
CORPUS_FIELDS = ("chars", "final", "utt_start", "site_pos", "site_of", "prefix", "power", "base",
                 "params")


@register
class UsmModel(CorpusModel):
    """A corpus of utterances (strings of one-character symbols) under the USM.

    Parameters
    ----------
    texts : sequence of str
        The utterances, without word boundaries.
    gold_bound : uint8[T] or None
        The gold segmentation, as ``bound`` (1 where a gold word ends); enables the measures.
    alpha0, p_boundary, rho : float
        α₀ (DP concentration), p# (P₀'s word-end probability) and ρ (the utterance-end prior).
    """

    name = "usm"
    label = "Word segmentation (unigram model)"
    summary = ("Goldwater, Griffiths & Johnson's unigram Dirichlet-process model of word "
               "segmentation: sites are the gaps between symbols, a type is the pair of words "
               "a gap separates or joins.")
    samplers = ("token", "type", "anneal", "greedy", "sentence")
    options = (
        Option("alpha0", "--alpha", float, 20.0, "α₀, the DP concentration", 1e-9, 1e9),
        Option("p_boundary", "--p-boundary", float, 0.5,
               "p#, the base distribution's word-end probability", 1e-9, 1 - 1e-9),
        Option("rho", "--rho", float, 2.0, "ρ, the utterance-end prior", 1e-9, 1e9),
    )
    display = "segmentation"  # how pages draw its analysis (ui/views.py)
    trace_labels = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F",
                    "words": "words (tokens)", "word_types": "words in the lexicon"}
    order = 1
    state_class = kernels.UsmState
    kernel_modules = (kernels, usm_sentence)

    @classmethod
    def build(cls, path=None, **options):
        """The model of a plain segmented file (one utterance per line, words separated by
        spaces: the gold), or of the built-in nursery-talk corpus when path is None."""
        corpus = builtin_corpus() if path is None else load_segmented(path)
        model = cls.from_corpus(corpus, **options)
        if corpus.blank_lines:
            model.notes = [f"skipped {corpus.blank_lines:,} blank lines"]
        return model

    @classmethod
    def tiny(cls):
        return cls(["abab", "ba"], gold_bound=[0, 1, 0, 1, 0, 1])

    def __init__(self, texts, gold_bound=None, alpha0=20.0, p_boundary=0.5, rho=2.0):
        check_hyperparameters(alpha0, p_boundary, rho)
        if not texts or not all(texts):
            raise ValueError("the corpus needs at least one utterance and no empty ones")
        self.texts = tuple(texts)
        self.alpha0, self.p_boundary, self.rho = float(alpha0), float(p_boundary), float(rho)
        self.alphabet = sorted(set("".join(self.texts)))
        code = {symbol: i for i, symbol in enumerate(self.alphabet)}
        self.chars = np.array([code[c] for text in self.texts for c in text], dtype=np.int32)
        lengths = np.array([len(text) for text in self.texts], dtype=np.int64)
        self.utt_start = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        self.final = np.zeros(len(self.chars), dtype=np.uint8)
        self.final[self.utt_start[1:] - 1] = 1
        self.site_pos = np.flatnonzero(self.final == 0).astype(np.int64)
        self.site_of = np.full(len(self.chars), -1, dtype=np.int64)
        self.site_of[self.site_pos] = np.arange(len(self.site_pos))
        self.base = word_base(int(lengths.max()), len(self.alphabet), self.alpha0, self.p_boundary)
        self.prefix = np.empty(len(self.chars) + 1, dtype=np.uint64)
        self.power = np.empty(len(self.chars) + 1, dtype=np.uint64)
        kernels.fill_prefix_hashes(self.chars, self.prefix, self.power)
        self.gold_bound = gold_bound
        self._gold_types = None  # the gold lexicon, on the first scoring

    @classmethod
    def from_corpus(cls, corpus, **hyperparameters):
        """The model of a SegmentedCorpus (datasets.segmented), its words as the gold."""
        return cls(corpus.texts, gold_boundaries(corpus.utterances), **hyperparameters)

    @property
    def n_sites(self):
        return len(self.site_pos)

    # --- states -------------------------------------------------------------------------------
    def new_state(self, rng, eta=1.0):
        """Each site a boundary with probability η (Liang et al. §5.2; 1.0 = every symbol a word)."""
        if not 0.0 <= eta <= 1.0:
            raise ValueError(f"η must be in [0, 1] (got {eta})")
        bound = self.final.copy()
        bound[self.site_pos] = rng.random(self.n_sites) < eta
        return self.state_from_bound(bound)

    def state_from_bound(self, bound):
        """A state for the segmentation ``bound`` (uint8[T]; utterance ends must be 1)."""
        bound = np.asarray(bound, dtype=np.uint8).copy()
        if bound.shape != self.final.shape or not bound[self.final == 1].all():
            raise ValueError("a segmentation must give every symbol a 0/1 and end every utterance")
        t = len(self.chars)
        # the tables can hold every word and boundary of any segmentation at load ≤ 1/2; only
        # their first counts[…_CAPACITY] slots are used, doubling as they fill
        capacity = max(kernels.MIN_CAPACITY, 1 << int(2 * t).bit_length())
        # α₀P₀ falls with the length (and base[0] = 0): the lengths worked linearly are 1 … this
        linear = int(np.count_nonzero(self.base[kernels.BASE] >= kernels.LINEAR_MIN))
        counts = np.zeros(10, np.int64)
        counts[[kernels.LEX_CAPACITY, kernels.PAIR_CAPACITY]] = kernels.MIN_CAPACITY
        counts[kernels.LINEAR] = linear
        counts[kernels.MEMO_END] = -1
        lexicon, pairs = np.zeros((3, capacity), np.int64), np.zeros((3, capacity), np.int64)
        lexicon[kernels.KEY] = pairs[kernels.KEY] = -1  # empty slots
        state = kernels.UsmState(
            chars=self.chars, bound=bound, final=self.final, utt_start=self.utt_start,
            site_pos=self.site_pos, site_of=self.site_of, prefix=self.prefix, power=self.power,
            base=self.base, params=np.array([self.alpha0, self.rho]), lexicon=lexicon,
            pairs=pairs, spare=np.zeros((3, capacity // 2), np.int64),
            links=np.full((4, t), -1, np.int64), counts=counts, removed=np.zeros(t, np.uint8))
        kernels.count_all_words(state)
        return state

    def state_from_values(self, values):
        """The state whose sites have these values (1 = a boundary after the site's symbol)."""
        values = np.asarray(values)
        if values.shape != (self.n_sites,) or not np.isin(values, (0, 1)).all():
            raise ValueError(f"a segmentation gives each of the {self.n_sites:,} sites 0 or 1")
        bound = self.final.copy()
        bound[self.site_pos] = values
        return self.state_from_bound(bound)

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

    # --- likelihood and measures ----------------------------------------------------------------
    def loglik(self, state):
        """Exact log p(corpus, segmentation), recounted from the boundaries alone."""
        return kernels.log_likelihood(self.state_from_bound(state.bound))

    def loglik_running(self, state):
        """The same from the state's running counts (equal to ``loglik`` when they are right)."""
        return kernels.log_likelihood(state)

    def measures(self, state):
        if self.gold_bound is None:
            return {}
        if self._gold_types is None:  # built once: it was a third of scoring a sweep
            self._gold_types = gold_lexicon(self.gold_bound, self.prefix, self.power)
        return segmentation_scores(self.final, state.bound, self.gold_bound, self.prefix,
                                   self.power, gold_types=self._gold_types)

    def scalars(self, state):
        return {"words": int(state.counts[kernels.WORDS]),
                "word_types": int(state.counts[kernels.LEX_LIVE])}

    def values(self, state):
        return state.bound[self.site_pos]

    def counts(self, state):
        """The running indexes in a canonical form: the lexicon as {word: (n_w, sorted starts
        of its occurrences)}, the boundary index as {type key: its entries' sorted boundary
        symbols}, and N, E."""
        word_ends = np.flatnonzero(state.bound) + 1
        lexicon = {}
        for key, head, count in zip(*keyed_slots(state.lex_key, state.lex_head, state.lex_count,
                                                 state.counts[kernels.LEX_CAPACITY])):
            end = word_ends[np.searchsorted(word_ends, head, side="right")]
            word = "".join(self.alphabet[c] for c in self.chars[head:end])
            if word in lexicon:
                raise AssertionError(f"the word {word!r} has two entries in the lexicon")
            lexicon[word] = (int(count), linked(head, state.occ_next, count))
        pairs = {}  # key → its entries' lists (entries of different types may share a key)
        for key, head, size in zip(*keyed_slots(state.pair_key, state.pair_head, state.pair_size,
                                                state.counts[kernels.PAIR_CAPACITY])):
            pairs.setdefault(int(key), []).append(linked(head, state.pair_next, size))
        pairs = {key: sorted(lists) for key, lists in pairs.items()}
        return {"lexicon": lexicon, "boundary_types": pairs,
                "words": int(state.counts[kernels.WORDS]), "ends": int(state.counts[kernels.ENDS])}

    def describe_site(self, state, s):
        """The site's type as `w1|w2 · w1w2` (⟩ when w2 ends its utterance)."""
        w1, w2, final = self.site_type(state, s)
        end = " ⟩" if final else ""
        return SiteView(f"{w1}|{w2}{end}  ·  {w1}{w2}{end}", (f"{w1}{w2}", f"{w1}|{w2}"))

    def write_analysis(self, state):
        return format_segmented(self.words(state))

    def read_analysis(self, path):
        """The state of a segmentation file of this model's utterances (plain format)."""
        analysis = load_segmented(path)
        if analysis.texts != self.texts:
            raise ValueError(f"{path}: its utterances are not this corpus's: give a segmentation "
                             "of the same utterances")
        return self.state_from_bound(gold_boundaries(analysis.utterances))

    def site_type(self, state, s):
        """The type of site s (Liang et al. §4.2) as the words it separates or joins:
        (w1, w2, whether w2 ends its utterance) — `w1|w2` when b_s = 1, `w1w2` when 0."""
        p = self.site_pos[s]
        bound = state.bound
        a = p
        while a > 0 and not bound[a - 1]:
            a -= 1
        e = p + 1
        while not bound[e]:
            e += 1
        text = "".join(self.alphabet[c] for c in self.chars[a:e + 1])
        return text[:p + 1 - a], text[p + 1 - a:], bool(self.final[e])

    def site_place(self, s):
        """(utterance, symbol index within it) of the symbol site s follows."""
        p = self.site_pos[s]
        u = int(np.searchsorted(self.utt_start, p, side="right")) - 1
        return u, int(p - self.utt_start[u])

    def boundary_labels(self, state, u):
        """For each symbol of utterance u but its last: 'correct', 'spurious' (a boundary gold
        lacks), 'missed' (a gold boundary not found) or '' (no boundary either way)."""
        start, stop = self.utt_start[u], self.utt_start[u + 1] - 1
        found = state.bound[start:stop].astype(bool)
        if self.gold_bound is None:
            return np.where(found, "found", "")
        gold = self.gold_bound[start:stop].astype(bool)
        return np.select([found & gold, found & ~gold, ~found & gold],
                         ["correct", "spurious", "missed"], "")

    def lexicon(self, state):
        """The current lexicon: word → count, most frequent first."""
        counts = Counter(w for words in self.words(state) for w in words)
        return dict(counts.most_common())

    @cached_property
    def gold_lexicon(self):
        """The gold segmentation's lexicon (word → count), or {} without gold."""
        if self.gold_bound is None:
            return {}
        return self.lexicon(self.state_from_bound(self.gold_bound))

    def words(self, state):
        """The segmentation as a list of word lists, one per utterance."""
        out = []
        for u, text in enumerate(self.texts):
            start = self.utt_start[u]
            cuts = np.flatnonzero(state.bound[start:start + len(text)]) + 1
            out.append([text[i:j] for i, j in zip(np.r_[0, cuts[:-1]], cuts)])
        return out


def keyed_slots(keys, heads, sizes, used):
    """(keys, heads, sizes) of the live slots among the first ``used`` of a keyed_lists table."""
    live = np.flatnonzero(keys[:used] >= 0)
    return keys[live], heads[live], sizes[live]


def linked(head, next_item, size):
    """The items of the list starting at ``head``, sorted (checking it holds ``size``)."""
    items, x = [], head
    while x >= 0:
        items.append(int(x))
        x = next_item[x]
    if len(items) != size:
        raise AssertionError(f"a list from {head} holds {len(items)} items, counted {size}")
    return sorted(items)


def check_hyperparameters(alpha0, p_boundary, rho):
    """Refuse values outside the model's range with a message naming the setting."""
    if not (math.isfinite(alpha0) and alpha0 > 0):
        raise ValueError(f"α₀ must be a positive number (got {alpha0})")
    if not 0.0 < p_boundary < 1.0:
        raise ValueError(f"p# must be strictly between 0 and 1 (got {p_boundary})")
    if not (math.isfinite(rho) and rho > 0):
        raise ValueError(f"ρ must be a positive number (got {rho})")


def word_base(longest, n_symbols, alpha0, p_boundary):
    """α₀ P₀(w) by word length M = 0 … longest, α₀ p# (1 − p#)^(M−1) / |Σ|^M, and its log.

    Returns float64[2, longest + 1]: row 0 the value, which underflows towards 0 for long words
    (the kernels use it only where it cannot: engine.kernels.usm.LINEAR_MIN), row 1 its log,
    exact for any length. M = 0 is no word: 0 and −inf.
    """
    m = np.arange(longest + 1, dtype=float)
    log_base = (math.log(alpha0) + math.log(p_boundary) + (m - 1) * math.log1p(-p_boundary)
                - m * math.log(n_symbols))
    log_base[0] = -np.inf
    return np.stack([np.exp(log_base), log_base])
