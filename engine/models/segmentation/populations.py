"""The segmentation models' side of the particle filter (engine.samplers.particle): Börschinger &
Johnson's unigram and bigram models with the learned lexical model, their particles in pooled
arrays (engine.models.usm.particles, engine.models.bigram.particles).

The corpus and its gold come from a segmentation model (engine.models.segmentation.base); the
concentrations are the model's, φ the lexical model's Dirichlet parameter (their §6: 0.02).
"""
from functools import cached_property

import numpy as np

from engine.core.hash_table import EMPTY
from engine.core.substrings import number_substrings, occurrences
from engine.models.bigram.particles import layout as bigram_arrays, target as bigram_target
from engine.models.segmentation.particle_arrays import ParticleCorpus, Reading
from engine.models.usm.particles import layout as unigram_arrays, target as unigram_target
from engine.models.usm import rejuvenation

DEFAULT_PHI = 0.02


class SegmentationPopulation:
    """What both models' populations share: the utterances as observations, every substring
    numbered once (engine.core.substrings), and reading a particle's lexicon.

    Subclasses set ``kernels`` (their kernel module) and ``params`` and write ``draws``,
    ``make_room``, ``buffers``, ``propagate``, ``segment`` and ``words_of``; one whose particles
    take rejuvenation moves names them in ``rejuvenation_moves`` and writes ``rejuvenate``.
    """

    kernels = None
    rejuvenation_moves = ()

    def __init__(self, model, phi):
        if not phi > 0:
            raise ValueError(f"φ must be positive (got {phi:g})")
        self.model = model
        self.phi = float(phi)
        self.n_symbols = len(model.alphabet)
        self.substrings = number_substrings(model.chars, model.utt_start, model.prefix,
                                            model.power)
        self.corpus = ParticleCorpus(model.chars, model.utt_start, self.substrings.sub,
                                     self.substrings.sub_off)
        self.n_observations = len(model.utt_start) - 1
        self.longest = int(np.diff(model.utt_start).max())

    def length(self, u):
        """Symbols in utterance u."""
        return int(self.model.utt_start[u + 1] - self.model.utt_start[u])

    def new(self, n, keep_segmentations=False):
        """n empty particles; ``keep_segmentations``: each keeps its analysis of what it reads
        (rejuvenation moves need it)."""
        if keep_segmentations and not self.rejuvenation_moves:
            raise ValueError("this model's particles take no rejuvenation moves")
        symbols = len(self.model.chars) if keep_segmentations else 0
        return self.arrays.new_particles(n, self.n_symbols, symbols=symbols)

    def copy(self, parts, sources, targets, read):
        """Copy particles (``read``: the observations read so far)."""
        self.kernels.copy_particles(parts, sources.astype(np.int64), targets.astype(np.int64),
                                    int(self.model.utt_start[read]))

    def log_joint(self, parts):
        out = np.empty(parts.n)
        self.kernels.log_joint(parts, self.params, out)
        return out

    def evaluate(self, parts, l, rng, buffers):
        """§6.1's measures of particle l (token, boundary and lexicon P/R/F)."""
        return self.model.measures_of(self.segment(parts, l, rng, buffers))

    def word_text(self, v):
        start, length = self.substrings.type_start[v], self.substrings.type_len[v]
        return "".join(self.model.alphabet[c] for c in self.model.chars[start:start + length])

    def lexicon(self, parts, l, top=10):
        """Particle l's ``top`` words by tokens: [(word, tokens, tables)]."""
        words = self.words_of(parts, l)
        return sorted(words, key=lambda item: -item[1])[:top]


def _list_length(nexts, l, head):
    length, t = 0, head
    while t != EMPTY:
        length += 1
        t = nexts[l, t]
    return length


class UnigramPopulation(SegmentationPopulation):
    """The unigram model: α and ρ (the utterance-end prior), φ."""

    arrays, kernels = unigram_arrays, unigram_target  # the particles' layout and moves
    rejuvenation_moves = ("token", "type")

    def __init__(self, model, alpha, rho, phi=DEFAULT_PHI):
        for name, value in (("α", alpha), ("ρ", rho)):
            if not value > 0:
                raise ValueError(f"{name} must be positive (got {value:g})")
        super().__init__(model, phi)
        self.params = np.array([alpha, phi, rho, self.n_symbols + 1], np.float64)

    def draws(self, u):
        """Uniforms a particle uses on utterance u: one per symbol for the segmentation, one per
        word for its table."""
        return 2 * self.length(u)

    def warm(self):
        """Compile what a filter on a tiny corpus never reaches: growing the particles' arrays,
        and seating a given segmentation (a batch chain's start)."""
        unigram_arrays.grow(unigram_arrays.new_particles(1, self.n_symbols, 1, 1), 2, 2)
        self.seat(self.new(1, keep_segmentations=True), 0, self.model.final.copy(),
                  np.random.default_rng(0))

    def seat(self, parts, l, bound, rng):
        """Particle l (empty, keeping its segmentation) reads every utterance with the
        segmentation ``bound``, each word seated from its exact conditional; returns the
        particles (grown to hold it)."""
        parts = unigram_arrays.grow(parts, int(bound.sum()), int(bound.sum()))
        unigram_target.seat_segmentation(parts, l, self.corpus, self.params, bound,
                                         rng.random(len(bound)),
                                         np.empty(self.longest + 1, np.int64))
        return parts

    def make_room(self, parts, u):
        """Utterance u adds at most one word and one table per symbol."""
        n = self.length(u)
        return unigram_arrays.grow(parts, n, n)

    def buffers(self):
        """Work arrays for one thread (engine.models.usm.particles.UnigramWork)."""
        n = self.longest
        return unigram_arrays.UnigramWork(
            lp=np.empty(n + 1), lq=np.empty(n * n), fwd=np.empty(n + 1), terms=np.empty(n + 1),
            starts=np.empty(n + 1, np.int64), uniforms=np.empty(n),
            bound=np.empty(len(self.model.chars), np.uint8))

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        unigram_target.propagate(parts, lo, hi, self.corpus, u, self.params, uniforms, greedy,
                                 buffers, Reading(log_inc, log_qo, bounds))
        x0 = self.model.utt_start[u]
        if parts.bound.shape[1]:
            parts.bound[lo:hi, x0:x0 + self.length(u)] = bounds[lo:hi]

    @cached_property
    def _move_sites(self):
        """What the moves read besides the corpus (engine.models.usm.rejuvenation.MoveSites):
        built on the first move, as the types' occurrences take a while."""
        utt_start, site_pos = self.model.utt_start, self.model.site_pos
        occ_start, occ_pos = occurrences(self.substrings, utt_start)
        return rejuvenation.MoveSites(
            final=self.model.final,
            utt_of=np.repeat(np.arange(self.n_observations), np.diff(utt_start)),
            site_pos=site_pos, sites_before=np.searchsorted(site_pos, utt_start),
            occ_start=occ_start, occ_pos=occ_pos)

    @staticmethod
    def move_buffers():
        """Work arrays of one thread's moves (engine.models.usm.rejuvenation.MoveWork)."""
        return rejuvenation.MoveWork.empty()

    def rejuvenate(self, parts, read, lo, hi, rng, moves, kind, work, tally):
        """``moves`` TOKEN or TYPE moves (``kind``) in each of particles lo … hi − 1, pivots
        among the sites of the ``read`` utterances read."""
        sites = self._move_sites
        if sites.sites_before[read]:
            rejuvenation.rejuvenate(rng, parts, lo, hi, moves, kind == "type", read, self.corpus,
                                    sites, self.params, work, tally)

    def segment(self, parts, l, rng, buffers):
        """Particle l frozen, every utterance segmented by a draw from Q (uint8[T])."""
        unigram_target.segment_frozen(rng, parts, l, self.corpus, self.params, buffers)
        return buffers.bound

    def words_of(self, parts, l):
        """[(word, tokens, tables)] of particle l."""
        return [(self.word_text(parts.wtype[l, w]), int(parts.wcust[l, w]),
                 _list_length(parts.tnext, l, parts.whead[l, w]))
                for w in range(int(parts.scal[l, unigram_arrays.WORDS]))]


class BigramPopulation(SegmentationPopulation):
    """The bigram model: α₀ (the unigram restaurant), α₁ (each bigram restaurant), p$ (P₀′ of
    the utterance end `$`), φ."""

    arrays, kernels = bigram_arrays, bigram_target  # the particles' layout and moves

    def __init__(self, model, alpha0, alpha1, p_end, phi=DEFAULT_PHI):
        for name, value in (("α₀", alpha0), ("α₁", alpha1)):
            if not value > 0:
                raise ValueError(f"{name} must be positive (got {value:g})")
        if not 0 < p_end < 1:
            raise ValueError(f"p$ must be in (0, 1) (got {p_end:g})")
        super().__init__(model, phi)
        self.params = np.array([alpha0, phi, p_end, self.n_symbols + 1, alpha1], np.float64)

    def draws(self, u):
        """One uniform per symbol for the segmentation, two per word and `$` for the tables."""
        return 3 * self.length(u) + 2

    def warm(self):
        bigram_arrays.grow(bigram_arrays.new_particles(1, self.n_symbols, 2, 1, 1), 2, 2, 2)

    def make_room(self, parts, u):
        n = self.length(u)
        return bigram_arrays.grow(parts, n, n + 1, n + 1)

    def buffers(self):
        """Work arrays for one thread (engine.models.bigram.particles.BigramWork)."""
        n = self.longest
        return bigram_arrays.BigramWork(
            lp=np.empty(n + 1), slots=np.empty(n * n, np.int64), lp1=np.empty(n * n),
            a=np.empty(n * n), terms=np.empty(n + 1), starts=np.empty(n + 1, np.int64),
            uniforms=np.empty(n), bound=np.empty(len(self.model.chars), np.uint8))

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        bigram_target.propagate(parts, lo, hi, self.corpus, u, self.params, uniforms, greedy,
                                buffers, Reading(log_inc, log_qo, bounds))

    def segment(self, parts, l, rng, buffers):
        bigram_target.segment_frozen(rng, parts, l, self.corpus, self.params, buffers)
        return buffers.bound

    def words_of(self, parts, l):
        """[(word, tokens, unigram tables)] of particle l (tokens: its customers as the word
        after another, `$` left out)."""
        tokens = np.zeros(int(parts.scal[l, unigram_arrays.WORDS]), np.int64)
        # a word's tokens are the customers it has in every bigram restaurant: its pairs' counts
        pairs = parts.pkey[l][parts.pkey[l] != EMPTY]
        slots = parts.pslot[l][parts.pkey[l] != EMPTY]
        np.add.at(tokens, pairs & 0xFFFFFFFF, parts.pcust[l, slots])
        return [(self.word_text(parts.wtype[l, w]), int(tokens[w]),
                 _list_length(parts.unext, l, parts.whead[l, w]))
                for w in range(1, len(tokens))]
