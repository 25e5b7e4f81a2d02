"""The note's Figure 2 from a word corpus: expected tables against word frequency (Blunsom,
Cohn, Goldwater & Johnson 2009, §3).

For a concentration α and a base uniform over the corpus's V word types (P(w) = 1/V, so
a = α/V), each formula of ``engine.core.table_expectations`` gives E[t_w] as a function of the
word's frequency n_w (lines). Two samplers give empirical means (points):

- **stars**: one restaurant with that fixed base, the corpus's tokens its customers, its seating
  Gibbs-resampled (``engine.core.restaurant.mean_tables``): they must sit on the exact line;
- **circles**: the HDP bigram model with its segmentation fixed at the corpus's words and
  α₁ = α, so each bigram restaurant's base P₁ is inferred from the unigram level's tables
  (``BigramModel.mean_tables_per_word``): t_w summed over the bigram restaurants, which the
  fixed-base formulas do not describe.

Points are the means over the words of each frequency.
"""
from collections import Counter

import numpy as np
import pandas as pd

from datasets.segmented import SegmentedCorpus
from engine.core import restaurant as lone
from engine.core import table_expectations as expect
from engine.core.rng import make_rng
from engine.models.bigram.model import BigramModel

ALPHAS = (100.0, 1_000.0, 10_000.0, 100_000.0)
FORMULAS = {"exact": "exact (digamma)", "antoniak": "Antoniak's approximation",
            "flawed": "GGJ06's approximation"}
MAX_TOKENS = 300_000  # the restaurant's customers: memory and seconds stay a page's


def word_counts(utterances):
    """Counter of the word tokens of a corpus given as sequences of words."""
    return Counter(word for words in utterances for word in words)


def lines(counts, alphas=ALPHAS, points=120):
    """DataFrame (alpha, formula, frequency, tables): each formula on a log grid of frequencies
    1 … the largest count, the base uniform over the words of ``counts``."""
    top = max(counts.values())
    grid = np.unique(np.round(np.geomspace(1, top, points)).astype(np.int64))
    frames = []
    for alpha in alphas:
        a = alpha / len(counts)
        values = {"exact": expect.expected_tables_digamma(a, grid),
                  "antoniak": expect.expected_tables_antoniak(a, grid),
                  "flawed": expect.expected_tables_flawed(alpha, grid)}
        frames += [pd.DataFrame({"alpha": alpha, "formula": f, "frequency": grid,
                                 "tables": np.asarray(v, dtype=float)})
                   for f, v in values.items()]
    return pd.concat(frames, ignore_index=True)


def by_frequency(counts, tables, alpha, kind):
    """Mean tables per frequency: DataFrame (alpha, kind, frequency, tables, words)."""
    frame = pd.DataFrame({"frequency": [counts[w] for w in tables],
                          "tables": list(tables.values())})
    grouped = frame.groupby("frequency").tables.agg(["mean", "size"]).reset_index()
    return pd.DataFrame({"alpha": alpha, "kind": kind, "frequency": grouped.frequency,
                         "tables": grouped["mean"], "words": grouped["size"]})


def stars(counts, alpha, samples, seed):
    """Fixed uniform base: mean t_w per frequency over ``samples`` Gibbs sweeps of the
    seating of every token."""
    words = list(counts)
    dishes = np.repeat(np.arange(len(words)), [counts[w] for w in words]).astype(np.int64)
    base = np.full(len(words), 1.0 / len(words))
    rng = make_rng(seed)
    restaurant = lone.new_restaurant(len(words), alpha, 0.0, "histogram", len(dishes))
    lone.seat_in_order(rng, restaurant, dishes, base, np.zeros(len(dishes), np.uint8))
    means = np.zeros(len(words))
    lone.mean_tables(rng, restaurant, dishes, base, samples, 1, means)
    return by_frequency(counts, dict(zip(words, means)), alpha, "fixed base")


def circles(utterances, alpha, samples, seed):
    """Inferred base: the bigram model on the corpus's own words, α₁ = α, its seating
    Gibbs-resampled; mean t_w per frequency."""
    corpus = SegmentedCorpus(tuple(tuple(u) for u in utterances), 0, "words")
    model = BigramModel.from_corpus(corpus, alpha1=alpha)
    rng = make_rng(seed)
    state = model.state_from_bound(model.gold_bound, rng)
    tables = model.mean_tables_per_word(state, rng, samples)
    return by_frequency(word_counts(utterances), tables, alpha, "inferred base (bigram)")


def points(utterances, alphas=ALPHAS, samples=200, seed=0):
    """Stars and circles for every α, one DataFrame (alpha, kind, frequency, tables, words)."""
    counts = word_counts(utterances)
    n_tokens = sum(counts.values())
    if not 0 < n_tokens <= MAX_TOKENS:
        raise ValueError(f"the corpus has {n_tokens:,} word tokens: Figure 2 takes 1 to "
                         f"{MAX_TOKENS:,}")
    frames = []
    for i, alpha in enumerate(alphas):
        frames += [stars(counts, alpha, samples, seed + i),
                   circles(utterances, alpha, samples, seed + i)]
    return pd.concat(frames, ignore_index=True)
