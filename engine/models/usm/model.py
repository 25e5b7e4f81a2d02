"""The unigram segmentation model (USM) of Goldwater, Griffiths & Johnson (2009), as in their
`segment` program (SPEC §3): a Dirichlet process over words with a length-penalising base
distribution P₀, and a Beta(ρ/2, ρ/2) choice after each word of whether the utterance ends.

Its exact log-probability of a segmented corpus, the product of the predictive probabilities in
corpus order, is eq. 3 of Liang et al. with two restaurants (words, utterance ends).
"""
import math

import numpy as np

from engine.core.state import clone
from engine.models.usm.kernels import site_moves, token_moves, type_blocks
from engine.models.usm.kernels.layout import (ALPHA0, BASE, ENDS, KEY, LEXICON, LEX_CAPACITY,
                                              LEX_LIVE, LINEAR, LINEAR_MIN, MEMO_END, MIN_CAPACITY,
                                              N_COUNTS, PAIRS, PAIR_CAPACITY, RHO, WORDS, UsmState)
from engine.models.usm.kernels.scoring import count_all_words, log_likelihood
from engine.models.usm import sentence as usm_sentence
from engine.models.protocol import ChainModel, CorpusModel, Option, Population, Presentation
from engine.models.registry import register
from engine.models.segmentation.base import SegmentationModel
from engine.models.segmentation.populations import DEFAULT_PHI, UnigramPopulation

# the state's fields that hold the corpus: read by kernels, never written, shared by copies
CORPUS_FIELDS = ("chars", "final", "utt_start", "site_pos", "site_of", "hashes", "base")


@register
class UsmModel(SegmentationModel):
    """A corpus of utterances (strings of one-character symbols) under the USM.

    Parameters
    ----------
    texts, gold_bound : as for every segmentation model (engine.models.segmentation.base)
    alpha0, p_boundary, rho : float
        α₀ (DP concentration), p# (P₀'s word-end probability) and ρ (the utterance-end prior).
    """

    roles = (ChainModel, Presentation, CorpusModel, Population)
    label = "Word segmentation (unigram model)"
    summary = ("Goldwater, Griffiths & Johnson's unigram Dirichlet-process model of word "
               "segmentation: sites are the gaps between symbols, a type is the pair of words "
               "a gap separates or joins.")
    samplers = ("token", "type", "anneal", "greedy", "sentence")
    options = (
        Option("alpha0", "--alpha", float, 20.0, "α₀, the DP concentration", 1e-9, 1e9),
        Option("p_boundary", "--p-boundary", float, 0.5,
               "p#, the base distribution's word-end probability", 0, 1,
               low_open=True, high_open=True),
        Option("rho", "--rho", float, 2.0, "ρ, the utterance-end prior", 1e-9, 1e9),
    )
    populations = ("particle",)
    particle_options = (
        Option("phi", "--phi", float, DEFAULT_PHI,
               "φ, the learned lexical model's Dirichlet parameter on symbols (the particle "
               "filter's base replaces the fixed one: --p-boundary is unused)", 1e-9, 1e9),
    )
    aliases = ("unigram",)
    loglik_label = "log p(corpus, segmentation)"
    order = 1
    kernel_modules = (site_moves, token_moves, type_blocks, usm_sentence)

    def __init__(self, texts, gold_bound=None, alpha0=20.0, p_boundary=0.5, rho=2.0):
        check_hyperparameters(alpha0, p_boundary, rho)
        super().__init__(texts, gold_bound)
        self.alpha0, self.p_boundary, self.rho = float(alpha0), float(p_boundary), float(rho)
        self.base = word_base(self.longest, len(self.alphabet), self.alpha0, self.p_boundary)
        # the state's site maps, in 32 bits (UsmState's notes)
        self.site_pos32 = self.site_pos.astype(np.int32)
        self.site_of32 = self.site_of.astype(np.int32)
        self.hashes = np.stack([self.prefix, self.power])  # UsmState.hashes

    def particles(self, phi=DEFAULT_PHI):
        """The particle filter's unigram model on this corpus: α and ρ as here, the lexicon
        learned (φ) instead of the fixed base (Börschinger & Johnson 2011 §4.1)."""
        return UnigramPopulation(self, self.alpha0, self.rho, phi)

    # --- states -------------------------------------------------------------------------------
    def state_from_bound(self, bound, rng=None):
        """A state for the segmentation ``bound`` (uint8[T]; utterance ends must be 1); the USM
        draws nothing (rng unused)."""
        bound = self.checked_bound(bound)
        t = len(self.chars)
        # the tables can hold every word and boundary of any segmentation at load ≤ 1/2; only
        # their first counts[…_CAPACITY] slots are used, doubling as they fill
        capacity = max(MIN_CAPACITY, 1 << int(2 * t).bit_length())
        # α₀P₀ falls with the length (and base[0] = 0): the lengths worked linearly are 1 … this
        linear = int(np.count_nonzero(self.base[BASE] >= LINEAR_MIN))
        counts = np.zeros(N_COUNTS, np.int64)
        counts[[LEX_CAPACITY, PAIR_CAPACITY]] = MIN_CAPACITY
        counts[LINEAR] = linear
        counts[MEMO_END] = -1
        params_row = np.zeros(self.base.shape[1])  # UsmState.base's row PARAMS
        params_row[[ALPHA0, RHO]] = self.alpha0, self.rho
        tables = np.zeros((9, capacity), np.int64)
        tables[[LEXICON + KEY, PAIRS + KEY]] = -1  # empty slots
        state = UsmState(
            chars=self.chars, bound=bound, final=self.final, utt_start=self.utt_start,
            site_pos=self.site_pos32, site_of=self.site_of32, hashes=self.hashes,
            base=np.vstack([self.base, params_row]),
            tables=tables,
            links=np.full((4, t), -1, np.int32), counts=counts, removed=np.zeros(t, np.uint8))
        count_all_words(state)
        return state

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

    # --- likelihood and measures ----------------------------------------------------------------
    def loglik(self, state):
        """Exact log p(corpus, segmentation), recounted from the boundaries alone."""
        return log_likelihood(self.state_from_bound(state.bound))

    def loglik_running(self, state):
        """The same from the state's running counts (equal to ``loglik`` when they are right)."""
        return log_likelihood(state)

    def scalars(self, state):
        return {"words": int(state.counts[WORDS]),
                "word_types": int(state.counts[LEX_LIVE])}

    def formulas(self):
        """The unigram model (Goldwater et al. 2009, §3) and the equations TOKEN and TYPE use,
        with this corpus's numbers."""
        return (
            ("markdown", "Words are drawn one after another from a Dirichlet process: after n "
                         "words, of which n_w are w, the next word is w with probability"),
            ("latex", r"P(w \mid \text{previous words}) = \frac{n_w + \alpha_0 P_0(w)}"
                      r"{n + \alpha_0},\qquad P_0(x_1 \dots x_M) = p_\#\,(1-p_\#)^{M-1}\,"
                      r"|\Sigma|^{-M}"),
            ("markdown", "and each word ends its utterance or not, u of the n words so far "
                         "having ended one:"),
            ("latex", r"P(\text{end}) = \frac{u + \rho/2}{n + \rho},\qquad "
                      r"P(\text{not end}) = \frac{n - u + \rho/2}{n + \rho}"),
            ("markdown", f"Here α₀ = {self.alpha0:g}, p# = {self.p_boundary:g}, ρ = "
                         f"{self.rho:g} and |Σ| = {len(self.alphabet)} symbols. The probability "
                         "of a segmentation is the product of these predictive probabilities "
                         "in corpus order (it does not depend on the order: the words are "
                         "exchangeable)."),
            ("markdown", "**TOKEN** (eq. 4 of Liang et al.) resamples one site s: with every "
                         "other word counted (n⁻ˢ), the site joins its two words w₁w₂ or "
                         "splits them:"),
            ("latex", r"\frac{p(b_s = 1 \mid \text{rest})}{p(b_s = 0 \mid \text{rest})} = "
                      r"\frac{P(w_1 \mid n^{-s})\,P(\text{not end} \mid n^{-s})\,"
                      r"P(w_2 \mid n^{-s} + w_1)\,P(e \mid n^{-s} + w_1)}"
                      r"{P(w_1 w_2 \mid n^{-s})\,P(e \mid n^{-s})}"),
            ("markdown", "where e is whether the last word ends its utterance, and n⁻ˢ + w₁ "
                         "counts w₁ as one more word."),
            ("markdown", "**TYPE** takes the block S of sites with the same type (w₁, w₂, "
                         "whether w₂ ends its utterance) that share no word, removes their "
                         "words, and draws how many m of them are split (eqs. 7 and 9): every "
                         "assignment with m splits has the same probability g(m), a product of "
                         "rising factorials a⁽ᵏ⁾ = a(a+1)…(a+k−1),"),
            ("latex", r"p(m \mid \text{rest}) \propto \binom{|S|}{m}\,g(m),\qquad "
                      r"g(m) = \frac{\prod_{w}\big(\alpha_0 P_0(w) + n^{-S}_w\big)^{(c_w(m))}\;"
                      r"\prod_{e}\big(\rho/2 + n^{-S}_e\big)^{(c_e(m))}}"
                      r"{(\alpha_0 + n^{-S})^{(c(m))}\;(\rho + n^{-S})^{(c(m))}}"),
            ("markdown", "where c_w(m) counts the block's new occurrences of w ∈ {w₁, w₂, w₁w₂} "
                         "(m of w₁ and of w₂, |S| − m of w₁w₂), c_e(m) its utterance ends and "
                         "non-ends, and c(m) = |S| + m its words."))

    def counts(self, state):
        """The running indexes in a canonical form: the lexicon as {word: (n_w, sorted starts
        of its occurrences)}, the boundary index as {type key: its entries' sorted boundary
        symbols}, and N, E."""
        word_ends = np.flatnonzero(state.bound) + 1
        lexicon = {}
        for key, head, count in zip(*keyed_slots(state.lex_key, state.lex_head, state.lex_count,
                                                 state.counts[LEX_CAPACITY])):
            end = word_ends[np.searchsorted(word_ends, head, side="right")]
            word = "".join(self.alphabet[c] for c in self.chars[head:end])
            if word in lexicon:
                raise AssertionError(f"the word {word!r} has two entries in the lexicon")
            lexicon[word] = (int(count), linked(head, state.occ_next, count))
        pairs = {}  # key → its entries' lists (entries of different types may share a key)
        for key, head, size in zip(*keyed_slots(state.pair_key, state.pair_head, state.pair_size,
                                                state.counts[PAIR_CAPACITY])):
            pairs.setdefault(int(key), []).append(linked(head, state.pair_next, size))
        pairs = {key: sorted(lists) for key, lists in pairs.items()}
        return {"lexicon": lexicon, "boundary_types": pairs,
                "words": int(state.counts[WORDS]), "ends": int(state.counts[ENDS])}

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
    (the kernels use it only where it cannot: engine.models.usm.kernels.LINEAR_MIN), row 1 its log,
    exact for any length. M = 0 is no word: 0 and −inf.
    """
    m = np.arange(longest + 1, dtype=float)
    log_base = (math.log(alpha0) + math.log(p_boundary) + (m - 1) * math.log1p(-p_boundary)
                - m * math.log(n_symbols))
    log_base[0] = -np.inf
    return np.stack([np.exp(log_base), log_base])
