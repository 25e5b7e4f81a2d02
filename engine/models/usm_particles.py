"""The unigram segmentation model's side of the particle filter (engine.samplers.particle):
Börschinger & Johnson's unigram model with the learned lexical model, its particles in pooled
arrays (engine.kernels.particles_unigram).

The corpus and its gold come from a segmentation model (engine.models.segmentation); α and ρ
are the unigram model's, φ the lexical model's Dirichlet parameter.
"""
import numpy as np

from engine.core.substrings import number_substrings
from engine.kernels import particles_unigram as kernels

DEFAULT_PHI = 0.02  # their §6


class UsmParticles:
    """The particles' model on a segmentation model's corpus.

    model : a SegmentationModel (its utterances are the observations, in corpus order)
    alpha, rho : the DP concentration α and the utterance-end prior ρ
    phi : the symmetric Dirichlet parameter on the |chars| symbols (the corpus's, and `#`)
    """

    def __init__(self, model, alpha, rho, phi=DEFAULT_PHI):
        for name, value in (("α", alpha), ("ρ", rho), ("φ", phi)):
            if not value > 0:
                raise ValueError(f"{name} must be positive (got {value:g})")
        self.model = model
        self.n_symbols = len(model.alphabet)
        self.params = np.array([alpha, phi, rho, self.n_symbols + 1], np.float64)
        self.substrings = number_substrings(model.chars, model.utt_start, model.prefix,
                                            model.power)
        self.n_observations = len(model.utt_start) - 1
        self.longest = int(np.diff(model.utt_start).max())

    def length(self, u):
        """Symbols in utterance u."""
        return int(self.model.utt_start[u + 1] - self.model.utt_start[u])

    def new(self, n):
        return kernels.new_particles(n, self.n_symbols)

    def make_room(self, parts, u):
        """Utterance u adds at most one word and one table per symbol."""
        n = self.length(u)
        return kernels.grow(parts, n, n)

    def buffers(self):
        """Work arrays for one thread: (lp, lq, fwd, back, starts, uniforms, bound)."""
        n = self.longest
        return (np.empty(n + 1), np.empty(n * n), np.empty(n + 1), np.empty(n + 1, np.int64),
                np.empty(n + 1, np.int64), np.empty(n), np.empty(len(self.model.chars), np.uint8))

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        lp, lq, fwd, back, starts = buffers[:5]
        x0 = self.model.utt_start[u]
        kernels.propagate(parts, lo, hi, self.model.chars, x0, self.length(u),
                          self.substrings.sub, self.substrings.sub_off[u], self.params,
                          uniforms, greedy, lp, lq, fwd, back, starts, log_inc, log_qo, bounds)

    def copy(self, parts, sources, targets):
        kernels.copy_particles(parts, sources.astype(np.int64), targets.astype(np.int64))

    def log_joint(self, parts):
        out = np.empty(parts.n)
        kernels.log_joint(parts, self.params, out)
        return out

    def segment(self, parts, l, rng, buffers):
        """Particle l frozen, every utterance segmented by a draw from Q (uint8[T], 1 where a
        word ends)."""
        lp, lq, fwd, _, starts, uniforms, bound = buffers
        kernels.segment_frozen(rng, parts, l, self.model.chars, self.model.utt_start,
                               self.substrings.sub, self.substrings.sub_off, self.params, lp, lq,
                               fwd, starts, uniforms, bound)
        return bound

    def evaluate(self, parts, l, rng, buffers):
        """§6.1's measures of particle l (token, boundary and lexicon P/R/F)."""
        return self.model.measures_of(self.segment(parts, l, rng, buffers))

    def lexicon(self, parts, l, top=10):
        """Particle l's ``top`` words by customers: [(word, customers, tables)]."""
        used = int(parts.scal[l, kernels.WORDS])
        counts = parts.wcust[l, :used]
        order = np.argsort(-counts, kind="stable")[:top]
        words = []
        for w in order:
            v = parts.wtype[l, w]
            start, length = self.substrings.type_start[v], self.substrings.type_len[v]
            text = "".join(self.model.alphabet[c] for c in self.model.chars[start:start + length])
            words.append((text, int(counts[w]), self.tables_of(parts, l, w)))
        return words

    @staticmethod
    def tables_of(parts, l, w):
        tables, t = 0, parts.whead[l, w]
        while t != kernels.EMPTY:
            tables += 1
            t = parts.tnext[l, t]
        return tables
