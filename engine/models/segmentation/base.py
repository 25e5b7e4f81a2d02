"""What the word-segmentation models share: a corpus of utterances whose sites are the gaps
between symbols (b_s = 1 puts a word boundary after site s's symbol), its gold segmentation
and the measures against it, and how pages and files show a segmentation (SPEC §3, §6).

A model subclasses ``SegmentationModel`` with its hyperparameters, its state (built by
``state_from_bound``) and its probability; everything about the corpus and the analysis as a
segmentation is here, once.
"""
from collections import Counter
from functools import cached_property

import numpy as np

from datasets.builtin import builtin_corpus
from datasets.segmented import format_segmented, gold_boundaries, load_segmented
from engine.core.word_hash import fill_prefix_hashes
from engine.scoring.metrics import gold_lexicon, segmentation_scores
from engine.models.protocol import ModelBase, SiteView


class SegmentationModel(ModelBase):
    """A corpus of utterances (strings of one-character symbols) and its segmentations.

    Parameters
    ----------
    texts : sequence of str
        The utterances, without word boundaries.
    gold_bound : uint8[T] or None
        The gold segmentation, as ``bound`` (1 where a gold word ends); enables the measures.

    A subclass writes ``state_from_bound(bound, rng=None)``: the state of the segmentation
    ``bound`` (uint8[T], 1 at every utterance's end), counts built from scratch (``rng`` draws
    whatever else the state holds, e.g. a seating; None: a fixed seed).
    """

    display = "segmentation"  # its kind of data (datasets/segmented.py, ui/kinds/)
    trace_labels = {"token_f": "token F", "boundary_f": "boundary F", "lexicon_f": "lexicon F",
                    "words": "words (tokens)", "word_types": "words in the lexicon"}

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

    def __init__(self, texts, gold_bound=None):
        if not texts or not all(texts):
            raise ValueError("the corpus needs at least one utterance and no empty ones")
        self.texts = tuple(texts)
        self.alphabet = sorted(set("".join(self.texts)))
        code = {symbol: i for i, symbol in enumerate(self.alphabet)}
        self.chars = np.array([code[c] for text in self.texts for c in text], dtype=np.int32)
        lengths = np.array([len(text) for text in self.texts], dtype=np.int64)
        self.longest = int(lengths.max())
        self.utt_start = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        self.final = np.zeros(len(self.chars), dtype=np.uint8)
        self.final[self.utt_start[1:] - 1] = 1
        self.site_pos = np.flatnonzero(self.final == 0).astype(np.int64)
        self.site_of = np.full(len(self.chars), -1, dtype=np.int64)
        self.site_of[self.site_pos] = np.arange(len(self.site_pos))
        self.prefix = np.empty(len(self.chars) + 1, dtype=np.uint64)
        self.power = np.empty(len(self.chars) + 1, dtype=np.uint64)
        fill_prefix_hashes(self.chars, self.prefix, self.power)
        self.gold_bound = gold_bound
        self._gold_types = None  # the gold lexicon, on the first scoring

    @classmethod
    def from_corpus(cls, corpus, **hyperparameters):
        """The model of a SegmentedCorpus (datasets.segmented), its words as the gold."""
        return cls(corpus.texts, gold_boundaries(corpus.utterances), **hyperparameters)

    @property
    def n_sites(self):
        return len(self.site_pos)

    # --- states ------------------------------------------------------------------------------
    def new_state(self, rng, eta=1.0):
        """Each site a boundary with probability η (Liang et al. §5.2; 1.0 = every symbol a word)."""
        if not 0.0 <= eta <= 1.0:
            raise ValueError(f"η must be in [0, 1] (got {eta})")
        bound = self.final.copy()
        bound[self.site_pos] = rng.random(self.n_sites) < eta
        return self.state_from_bound(bound, rng)

    def checked_bound(self, bound):
        """``bound`` as a fresh uint8 array, or a ValueError when it is not a segmentation of
        this corpus."""
        bound = np.asarray(bound, dtype=np.uint8).copy()
        if bound.shape != self.final.shape or not bound[self.final == 1].all():
            raise ValueError("a segmentation must give every symbol a 0/1 and end every utterance")
        return bound

    def state_from_values(self, values):
        """The state whose sites have these values (1 = a boundary after the site's symbol)."""
        values = np.asarray(values)
        if values.shape != (self.n_sites,) or not np.isin(values, (0, 1)).all():
            raise ValueError(f"a segmentation gives each of the {self.n_sites:,} sites 0 or 1")
        bound = self.final.copy()
        bound[self.site_pos] = values
        return self.state_from_bound(bound)

    # --- measures and views -------------------------------------------------------------------
    def measures(self, state):
        return self.measures_of(state.bound)

    def measures_of(self, bound):
        """The measures of the segmentation ``bound`` (uint8[T], 1 where a word ends)."""
        if self.gold_bound is None:
            return {}
        if self._gold_types is None:  # built once: it was a third of scoring a sweep
            self._gold_types = gold_lexicon(self.gold_bound, self.prefix, self.power)
        return segmentation_scores(self.final, bound, self.gold_bound, self.prefix,
                                   self.power, gold_types=self._gold_types)

    def values(self, state):
        return state.bound[self.site_pos]

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
