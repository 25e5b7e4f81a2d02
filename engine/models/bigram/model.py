"""The HDP bigram word-segmentation model of Goldwater, Griffiths & Johnson (2009), as in their
`segment` program, with its restaurants' tables tracked exactly (SPEC §6; Blunsom et al. 2009).

Each word is a restaurant of the words that follow it (concentration α₁); new tables draw their
word from a shared unigram level P₁ (concentration α₀, fixed base P₀); utterances begin in the
context `$` and end with the word `$`. The analysis is the segmentation *and* the seating, and
its log-probability is their joint (engine.models.bigram.kernels.log_likelihood); the probability of
a segmentation alone sums over seatings, which ``exact_log_marginal`` does for tiny corpora.

TYPE is not offered: Liang et al.'s exchangeability argument (§4.2) needs the sites of a type
block to be interchangeable given the rest, but here each site's words sit at tables whose
counts the other sites of the block also change, in ways that depend on their different
neighbours (contexts): no model in the papers defines a type-based move for it.
"""
import itertools
import math

import numpy as np

from engine.core import seating as seats
from engine.core.arrivals import Arrivals
from engine.core.special import log_rising
from engine.core.state import clone
from engine.experiments import table_figure
from engine.models.bigram.kernels import token_moves
from engine.models.bigram.kernels.customers import customer_returns
from engine.models.bigram.kernels.layout import (ALL_TABLES, CUSTOMERS, END, LENGTH, LEX_CAPACITY,
                                                 LIVE_WORDS, MIN_CAPACITY, OCC_NEXT, PAIR_CAPACITY,
                                                 PAIR_TOP, REP, SLOT_KEY, TABLES, TOKENS, WORDS,
                                                 WORD_AT, WORD_ENDING, WORD_TOP, seating_of,
                                                 BigramState)
from engine.models.bigram.kernels.scoring import log_likelihood, reseat_sweep, seat_corpus
from engine.models.bigram import sentence as bigram_sentence
from engine.models.segmentation.populations import DEFAULT_PHI, BigramPopulation
from engine.models.protocol import (ChainModel, CorpusModel, Lesson, Option, Population,
                                    Presentation)
from engine.models.registry import register
from engine.models.segmentation.base import SegmentationModel

# the state's fields that hold the corpus: read by kernels, never written, shared by copies
CORPUS_FIELDS = ("chars", "final", "utt_start", "site_pos", "site_of", "prefix", "power", "base",
                 "params")
REBUILD_SEED = 0  # the seating of an analysis read without a Generator (files, scoring)
SEATINGS = {"histogram": "histogram of table sizes", "explicit": "every customer's table"}


@register
class BigramModel(SegmentationModel):
    """A corpus of utterances under the HDP bigram model.

    Parameters
    ----------
    texts, gold_bound : as for every segmentation model (engine.models.segmentation.base)
    alpha0, alpha1 : float
        α₀ (the unigram level's concentration) and α₁ (each bigram restaurant's).
    p_boundary, p_utterance : float
        p# (P₀'s word-end probability) and p$ (P₀'s probability of the word `$`).
    seating : "histogram" or "explicit"
        How the tables are kept (engine.core.seating); the same law either way.
    """

    roles = (ChainModel, Presentation, CorpusModel, Population, Lesson)
    label = "Word segmentation (bigram model)"
    summary = ("Goldwater, Griffiths & Johnson's hierarchical Dirichlet-process bigram model "
               "of word segmentation, its restaurants' tables tracked exactly (Blunsom et al.).")
    samplers = ("token", "anneal", "sentence")
    options = (
        Option("alpha0", "--alpha0", float, 3000.0, "α₀, the unigram level's concentration",
               1e-9, 1e9),
        Option("alpha1", "--alpha1", float, 100.0, "α₁, each bigram restaurant's concentration",
               1e-9, 1e9),
        Option("p_boundary", "--p-boundary", float, 0.2,
               "p#, the base distribution's word-end probability", 0, 1,
               low_open=True, high_open=True),
        Option("p_utterance", "--p-utterance", float, 0.5,
               "p$, the base distribution's probability of the utterance end $", 0, 1,
               low_open=True, high_open=True),
        Option("seating", "--seating", str, "histogram",
               "how the tables are kept: a histogram of table sizes per word pair, or every "
               "customer's table", choices=tuple(seats.REPRESENTATIONS)),
    )
    trace_labels = {**SegmentationModel.trace_labels, "tables": "tables (bigram restaurants)"}
    loglik_label = "log p(corpus, segmentation, seating)"
    populations = ("particle",)
    particle_cost = 5.0  # its particles' restaurants of bigrams: several unigram particles' work
    particle_options = (
        Option("phi", "--phi", float, DEFAULT_PHI,
               "φ, the learned lexical model's Dirichlet parameter on symbols (the particle "
               "filter's base replaces the fixed one: --p-boundary is unused)", 1e-9, 1e9),
    )
    order = 2
    kernel_modules = (token_moves, bigram_sentence)

    @classmethod
    def tiny(cls):
        return cls(["abab", "ba"], gold_bound=[0, 1, 0, 1, 0, 1])

    def __init__(self, texts, gold_bound=None, alpha0=3000.0, alpha1=100.0, p_boundary=0.2,
                 p_utterance=0.5, seating="histogram"):
        for name, value in (("α₀", alpha0), ("α₁", alpha1)):
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number (got {value})")
        for name, value in (("p#", p_boundary), ("p$", p_utterance)):
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must be strictly between 0 and 1 (got {value})")
        if seating not in seats.REPRESENTATIONS:
            raise ValueError(f"the seating is kept as {' or '.join(seats.REPRESENTATIONS)} "
                             f"(got {seating!r})")
        super().__init__(texts, gold_bound)
        self.alpha0, self.alpha1 = float(alpha0), float(alpha1)
        self.p_boundary, self.p_utterance = float(p_boundary), float(p_utterance)
        self.seating = seating
        self.base = bigram_base(self.longest, len(self.alphabet), self.alpha0, self.p_boundary,
                                self.p_utterance)

    def particles(self, phi=DEFAULT_PHI):
        """The particle filter's bigram model on this corpus: α₀, α₁ and p$ as here, the lexicon
        learned (φ) instead of the fixed base, every table of both levels recorded."""
        return BigramPopulation(self, self.alpha0, self.alpha1, self.p_utterance, phi)

    # --- states -------------------------------------------------------------------------------
    def empty_state(self, bound):
        """A state for the segmentation ``bound`` with nothing counted yet."""
        t, u = len(self.chars), len(self.texts)
        n_ids, n_pairs = t + 1, t + u  # every word token distinct; every customer its own pair
        seating = seats.new_seating(self.seating, n_pairs, n_pairs, 2 * t)
        word = np.zeros((n_ids, 6), np.int64)
        word[:, REP] = -1
        counts = np.zeros(7, np.int64)
        counts[WORD_TOP], counts[PAIR_TOP] = n_ids - 1, n_pairs
        counts[LEX_CAPACITY] = counts[PAIR_CAPACITY] = MIN_CAPACITY
        lexicon, pairs = empty_table(n_ids), empty_table(n_pairs)
        return BigramState(
            chars=self.chars, final=self.final, utt_start=self.utt_start,
            site_pos=self.site_pos, site_of=self.site_of, prefix=self.prefix, power=self.power,
            base=self.base, params=np.array([self.alpha0, self.alpha1]), bound=bound,
            lexicon=lexicon, links=np.full((2, n_ids), -1, np.int64), word=word,
            word_free=np.arange(n_ids - 1, 0, -1, dtype=np.int64),
            occ=np.full((4, t), -1, np.int64), pairs=pairs,
            pair_links=np.full((2, n_pairs), -1, np.int64),
            pair_info=np.zeros((n_pairs, 2), np.int64),
            spare=np.zeros((3, max(lexicon.shape[1], pairs.shape[1]) // 2), np.int64),
            pair_free=np.arange(n_pairs - 1, -1, -1, dtype=np.int64),
            seat_group=seating.group, seat_item=seating.item, seat_free=seating.free,
            seat_of=seating.seat_of, discount=seating.discount, seat_counts=seating.counts,
            counts=counts, scratch=np.zeros((2, 4)), labels=np.zeros((12, 3), np.int64),
            journal=np.zeros((3, self.longest + 1), np.int64))

    def state_from_bound(self, bound, rng=None):
        """The state of the segmentation ``bound``, its customers seated one by one in corpus
        order by the restaurants' rule (drawn with ``rng``; None: a fixed seed, so an analysis
        read from a file always gets the same seating)."""
        state = self.empty_state(self.checked_bound(bound))
        rng = np.random.default_rng(REBUILD_SEED) if rng is None else rng
        seat_corpus(rng, state)
        return state

    def rebuilt_state(self, state):
        """The state rebuilt from scratch from what ``state`` records: its segmentation and its
        tables' sizes per word pair; every running count recounted."""
        rebuilt = self.empty_state(state.bound.copy())
        bigram_sentence.add_tokens(rebuilt, 0, len(self.chars))
        tables = self.tables_by_pair(state)
        for pair, customers in self.customers_by_pair(rebuilt).items():
            sizes = tables.pop(pair, [])
            if sum(sizes) != len(customers):
                raise AssertionError(f"the pair {pair} has {len(customers)} customers in the "
                                     f"segmentation but its tables seat {sum(sizes)}")
            seat_at_tables(rebuilt, customers, sizes)
        if tables:
            raise AssertionError(f"tables for pairs the segmentation lacks: {sorted(tables)}")
        return rebuilt

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

    # --- probabilities and counts --------------------------------------------------------------
    def loglik(self, state):
        """log P(segmentation, seating), recomputed from the segmentation and the tables'
        sizes alone (not the running counts)."""
        restaurants, dish_tables, total = {}, {}, 0.0
        tables = self.tables_by_pair(state)
        for (context, word), customers in self.customers_by_pair(state).items():
            sizes = tables[(context, word)]
            if sum(sizes) != len(customers):
                raise AssertionError(f"the pair {(context, word)} seats {sum(sizes)} of its "
                                     f"{len(customers)} customers")
            n_r, t_r = restaurants.get(context, (0, 0))
            restaurants[context] = (n_r + len(customers), t_r + len(sizes))
            dish_tables[word] = dish_tables.get(word, 0) + len(sizes)
            total += sum(math.lgamma(size) for size in sizes)
        for n_r, t_r in restaurants.values():
            total += t_r * math.log(self.alpha1) - log_rising(self.alpha1, n_r)
        for word, t_w in dish_tables.items():
            length = 0 if word == "$" else len(word)
            total += log_rising_base(self.base[:, length], t_w)
        return total - log_rising(self.alpha0, sum(dish_tables.values()))

    def loglik_running(self, state):
        return log_likelihood(state)

    def exact_log_marginal(self, bound):
        """log P(segmentation) summed over every seating (small corpora only: the sum runs over
        every number of tables of every word pair). A pair's n customers sit at t tables in
        s(n, t) ways weighted Π (n_k − 1)! (unsigned Stirling numbers of the first kind)."""
        state = self.empty_state(self.checked_bound(bound))
        bigram_sentence.add_tokens(state, 0, len(self.chars))
        pairs = {pair: len(c) for pair, c in self.customers_by_pair(state).items()}
        if np.prod([n for n in pairs.values()], dtype=float) > 1e6:
            raise ValueError("too many seatings to sum: exact_log_marginal is for tiny corpora")
        restaurants = {}
        for (context, _), n in pairs.items():
            restaurants[context] = restaurants.get(context, 0) + n
        fixed = sum(-log_rising(self.alpha1, n) for n in restaurants.values())
        terms = []
        for tables in itertools.product(*(range(1, n + 1) for n in pairs.values())):
            log_p, dish_tables = fixed, {}
            for ((context, word), n), t in zip(pairs.items(), tables):
                log_p += log_stirling1(n, t) + t * math.log(self.alpha1)
                dish_tables[word] = dish_tables.get(word, 0) + t
            for word, t_w in dish_tables.items():
                log_p += log_rising_base(self.base[:, 0 if word == "$" else len(word)], t_w)
            terms.append(log_p - log_rising(self.alpha0, sum(tables)))
        top = max(terms)
        return top + math.log(sum(math.exp(x - top) for x in terms))

    def scalars(self, state):
        return {"words": int(state.counts[WORDS]),
                "word_types": int(state.counts[LIVE_WORDS]),
                "tables": int(state.counts[ALL_TABLES])}

    def counts(self, state):
        """The running counts in a canonical form: per word its tokens' starts, its customers as
        a context and its tables t_w; per word pair its customers and its tables' sizes; t."""
        words = {}
        for w in self.live_ids(state):
            text = self.word_text(state, w)
            words[text] = (int(state.word[w, TOKENS]), self.occurrences(state, w),
                           int(state.word[w, CUSTOMERS]),
                           int(state.word[w, TABLES]))
        segmentation, groups = self.customers_by_pair(state), self.groups_by_pair(state)
        group = state.seat_group
        pairs = {pair: (len(segmentation.get(pair, ())),
                        int(group[g, seats.CUSTOMERS]), int(group[g, seats.TABLES]),
                        tuple(seats.table_sizes(seating_of(state), g)))
                 for pair, g in groups.items()}
        pairs.update({pair: (len(customers), 0, 0, ()) for pair, customers in
                      segmentation.items() if pair not in groups})
        return {"words": words, "pairs": pairs,
                "tables": int(state.counts[ALL_TABLES]),
                "tokens": int(state.counts[WORDS]),
                "live_words": int(state.counts[LIVE_WORDS])}

    def formulas(self):
        """The HDP bigram model (Goldwater et al. 2009, §5) as the engine implements it, with
        this corpus's numbers."""
        return (
            ("markdown", "Each word w is drawn given the previous word w′ (`$` at an "
                         "utterance's start). The words following w′ are the customers of w′'s "
                         "restaurant:"),
            ("latex", r"P(w \mid w') = \frac{n_{\langle w', w\rangle} + \alpha_1 P_1(w)}"
                      r"{n_{\langle w' \rangle} + \alpha_1},\qquad "
                      r"P_1(w) = \frac{t_w + \alpha_0 P_0(w)}{t + \alpha_0}"),
            ("latex", r"P_0(\$) = p_\$,\qquad P_0(x_1 \dots x_M) = (1 - p_\$)\,p_\#\,"
                      r"(1-p_\#)^{M-1}\,|\Sigma|^{-M}"),
            ("markdown", f"where t_w counts the tables labelled w in all bigram restaurants and "
                         f"t all tables: a new table in a bigram restaurant is a customer of the "
                         f"shared unigram restaurant. Here α₀ = {self.alpha0:g}, α₁ = "
                         f"{self.alpha1:g}, p# = {self.p_boundary:g}, p$ = "
                         f"{self.p_utterance:g}, |Σ| = {len(self.alphabet)}; the tables are kept "
                         f"as a {SEATINGS[self.seating]}. Every utterance ends with the word `$`."),
            ("markdown", "**TOKEN** (Goldwater et al.'s Gibbs sampler) takes away the site's "
                         "customers — the one word w₁w₂, or w₁ and w₂, with the word after them "
                         "as a customer in their context — draws the boundary from the two "
                         "hypotheses' probabilities (each customer's table, new or existing, "
                         "summed over), and seats the chosen hypothesis's customers again. "
                         "**SENTENCE** proposes an utterance's segmentation by dynamic "
                         "programming from the model with that utterance removed and accepts it "
                         "by Metropolis-Hastings against the exact joint probability. There is "
                         "no TYPE: see the Restaurants lesson."))

    def seating_bytes(self, state):
        """Bytes the seating representation needs now (engine.core.seating.bytes_in_use)."""
        return seats.bytes_in_use(seating_of(state))

    # --- reading a state ----------------------------------------------------------------------
    def live_ids(self, state):
        """The ids of the words with tokens, and `$`."""
        return [END] + list(np.flatnonzero(state.word[:, TOKENS] > 0))

    def word_text(self, state, w):
        if w == END:
            return "$"
        x, length = state.word[w, REP], state.word[w, LENGTH]
        return "".join(self.alphabet[c] for c in self.chars[x:x + length])

    def occurrences(self, state, w):
        """The sorted starts on id w's occurrence list."""
        out, x = [], int(state.word[w, REP])
        while x >= 0:
            out.append(x)
            x = int(state.occ[OCC_NEXT, x])
        return sorted(out)

    def customers_by_pair(self, state):
        """{(context, word): [customers]} from the segmentation alone, in corpus order."""
        out = {}
        t = len(self.chars)
        for u, words in enumerate(self.words(state)):
            x, context = self.utt_start[u], "$"
            for word in words:
                out.setdefault((context, word), []).append(int(x))
                x, context = x + len(word), word
            out.setdefault((context, "$"), []).append(int(t + x - 1))
        return out

    def groups_by_pair(self, state):
        """{(context, word): its group in the seating} for the pairs with customers."""
        return {(self.word_text(state, r), self.word_text(state, w)): g
                for g in np.flatnonzero(state.seat_group[:, seats.CUSTOMERS] > 0)
                for r, w in [state.pair_info[g]]}

    def tables_by_pair(self, state):
        """{(context, word): sorted table sizes} from the seating."""
        seating = seating_of(state)
        return {pair: seats.table_sizes(seating, g)
                for pair, g in self.groups_by_pair(state).items()}

    def warm_lesson(self):
        """Run the Restaurants lesson's kernels once: a lone restaurant filling up and both
        samplers of the note's Figure 2."""
        Arrivals([0.5, 0.5], 1.0, 0.5, seed=0, total=3).sweep(3)
        table_figure.points(type(self), [["ab", "a"], ["a"]], alphas=(1.0,), samples=1)

    def mean_tables_per_word(self, state, rng, samples):
        """{word: mean t_w} over ``samples`` Gibbs sweeps of the seating alone, the
        segmentation fixed (the note's Fig. 2, circles: the base P₁ is inferred). Mutates the
        seating."""
        total = np.zeros(len(state.word))
        for _ in range(samples):
            reseat_sweep(rng, state)
            total += state.word[:, TABLES]
        return {self.word_text(state, w): total[w] / samples for w in self.live_ids(state)
                if w != END}

    def tables_per_word(self, state):
        """{word: t_w} over the words with tables (the note's Fig. 2, circles)."""
        return {self.word_text(state, w): int(state.word[w, TABLES])
                for w in self.live_ids(state) if state.word[w, TABLES] > 0}


def seat_at_tables(state, customers, sizes):
    """Seat ``customers`` (ids, of one pair, in order) at tables of these sizes, by the exact
    functions (a table's first customer opens it, the next ones join it)."""
    it = iter(customers)
    for size in sizes:
        first = next(it)
        context, word = customer_pair(state, first)
        customer_returns(state, context, word, first, 1, -1)
        table = seats.table_of(seating_of(state), first)
        for k in range(2, size + 1):
            customer_returns(state, context, word, next(it), k, table)


def customer_pair(state, c):
    """(context id, dish id) of customer c in a state whose tokens are counted."""
    t = state.chars.shape[0]
    if c >= t:  # the `$` after the word ending at c − t
        return state.occ[WORD_ENDING, c - t], END
    before = END if c == 0 or state.final[c - 1] else state.occ[WORD_ENDING, c - 1]
    return before, state.occ[WORD_AT, c]


def empty_table(n_items):
    """A keyed_lists table for up to n_items entries at load ≤ 1/2."""
    table = np.zeros((3, max(MIN_CAPACITY, 1 << int(2 * n_items).bit_length())),
                     np.int64)
    table[SLOT_KEY] = -1
    return table


def bigram_base(longest, n_symbols, alpha0, p_boundary, p_utterance):
    """α₀P₀ by word length M = 1 … longest, and at M = 0 the word `$`: α₀ p$ and α₀ (1 − p$)
    p# (1 − p#)^(M−1) / |Σ|^M; float64[2, longest + 1], the values and their logs (a value
    underflows to 0 for long words; its log is exact)."""
    m = np.arange(longest + 1, dtype=float)
    log_base = (math.log(alpha0) + math.log1p(-p_utterance) + math.log(p_boundary)
                + (m - 1) * math.log1p(-p_boundary) - m * math.log(n_symbols))
    log_base[0] = math.log(alpha0) + math.log(p_utterance)
    return np.stack([np.exp(log_base), log_base])


def log_rising_base(base, t):
    """log (α₀P₀)^(t) from base = (value, log value), exact when the value underflows."""
    return log_rising(base[0], t) if base[0] > 0 else base[1] + math.lgamma(t)


def log_stirling1(n, t):
    """log of the unsigned Stirling number of the first kind s(n, t) (n ≤ a few hundred)."""
    row = [0.0] + [-math.inf] * n  # log s(0, ·)
    for i in range(1, n + 1):
        new = [-math.inf] * (n + 1)
        for k in range(1, i + 1):
            a, b = row[k - 1], (math.log(i - 1) + row[k] if i > 1 else -math.inf)
            top = max(a, b)
            new[k] = top + math.log(math.exp(a - top) + math.exp(b - top)) if top > -math.inf \
                else -math.inf
        row = new
    return row[t]
