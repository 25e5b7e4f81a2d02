"""The note's Figure 2 from a word corpus: expected tables against word frequency (Blunsom,
Cohn, Goldwater & Johnson 2009, §3).

For a concentration α and a base uniform over the corpus's V word types (P(w) = 1/V, so
a = α/V), each formula of ``engine.core.table_expectations`` gives E[t_w] as a function of the
word's frequency n_w (lines). Two samplers give empirical means (points):

- **stars**: one restaurant with that fixed base, the corpus's tokens its customers, its seating
  Gibbs-resampled (``engine.core.restaurant.mean_tables``): they estimate the exact line, each
  within its sampling error;
- **circles**: the HDP bigram model with its segmentation fixed at the corpus's words and
  α₁ = α, so each bigram restaurant's base P₁ is inferred from the unigram level's tables
  (``BigramModel.mean_tables_per_word``): t_w summed over the bigram restaurants, which the
  fixed-base formulas do not describe.

Points are the means over the words of each frequency. A star comes with its standard error:
its sweeps are split among RUNS independent chains, each started from an exact draw of the
seating (customers seated in order: the Chinese restaurant's own law), so the chains' means are
independent draws and their spread gives the error (one long chain's batches would not: a
frequent word's table count changes about once in five sweeps, and its chain remembers for
about a hundred). No bias: at α = 100 on the built-in simple sentences, 8 × 2,000 sweeps stay
within 1.5 standard errors of the exact line at every frequency. But at 200 sweeps a frequent
word's star (n_w ≥ 100, one word each) is a median 13% off the line (up to 35%, seeds 0–3):
it lies on the line only within its error bar.
"""
from collections import Counter

import numpy as np
import pandas as pd

from datasets.segmented import SegmentedCorpus
from engine.core import restaurant as lone
from engine.core import table_expectations as expect
from engine.core.rng import make_rng

ALPHAS = (100.0, 1_000.0, 10_000.0, 100_000.0)
FORMULAS = {"exact": "exact (digamma)", "antoniak": "Antoniak's approximation",
            "flawed": "GGJ06's approximation"}
MAX_TOKENS = 300_000  # the restaurant's customers: memory and seconds stay a page's
RUNS = 10  # independent chains of a star, whose means give its standard error


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


def independent_runs(run, samples):
    """Each word's mean tables over ``samples`` sweeps split among RUNS independent chains (fewer
    when samples is smaller), and its standard error from the spread of the chains' means:
    ``run(n)`` starts a fresh chain and returns {word: mean t_w over its n sweeps}. Returns
    ({word: mean}, {word: standard error}; NaN from a single chain)."""
    sizes = np.array([len(part) for part in np.array_split(np.arange(samples),
                                                         min(RUNS, samples))])
    chains = [run(int(size)) for size in sizes]
    words = list(chains[0])
    means = np.array([[chain[w] for w in words] for chain in chains])  # chains × words
    mean = sizes @ means / sizes.sum()
    error = (means.std(axis=0, ddof=1) / np.sqrt(len(chains)) if len(chains) > 1
             else np.full(len(words), np.nan))
    return dict(zip(words, mean)), dict(zip(words, error))


def by_frequency(counts, tables, errors, alpha, kind):
    """Mean tables per frequency and the standard error of that mean (its words' errors
    combined: with a fixed base their seatings are independent): DataFrame (alpha, kind,
    frequency, tables, error, words)."""
    frame = pd.DataFrame({"frequency": [counts[w] for w in tables],
                          "tables": list(tables.values()),
                          "variance": [errors[w] ** 2 for w in tables]})
    grouped = frame.groupby("frequency").agg(
        mean=("tables", "mean"), size=("tables", "size"),
        variance=("variance", "sum")).reset_index()
    return pd.DataFrame({"alpha": alpha, "kind": kind, "frequency": grouped.frequency,
                         "tables": grouped["mean"],
                         "error": np.sqrt(grouped.variance) / grouped["size"],
                         "words": grouped["size"]})


def stars(counts, alpha, samples, seed):
    """Fixed uniform base: mean t_w per frequency over ``samples`` Gibbs sweeps of the seating
    of every token (in RUNS independent chains), with its standard error."""
    words = list(counts)
    dishes = np.repeat(np.arange(len(words)), [counts[w] for w in words]).astype(np.int64)
    base = np.full(len(words), 1.0 / len(words))
    rng = make_rng(seed)
    means = np.zeros(len(words))

    def chain(sweeps):
        restaurant = lone.new_restaurant(len(words), alpha, 0.0, "histogram", len(dishes))
        lone.seat_in_order(rng, restaurant, dishes, base, np.zeros(len(dishes), np.uint8))
        lone.mean_tables(rng, restaurant, dishes, base, sweeps, 1, means)
        return dict(zip(words, means))

    return by_frequency(counts, *independent_runs(chain, samples), alpha, "fixed base")


def circles(bigram, utterances, alpha, samples, seed):
    """Inferred base: the bigram model (``bigram``: its class, BigramModel) on the corpus's own
    words, α₁ = α, its seating Gibbs-resampled; mean t_w per frequency (no standard error: its
    chain starts from a seating that is not a draw of its law, and no line is there to compare
    it with). The class is passed in, not imported: the model's own warm-up of its lesson's
    kernels (``BigramModel.warm_lesson``) runs this module."""
    corpus = SegmentedCorpus(tuple(tuple(u) for u in utterances), 0, "words")
    model = bigram.from_corpus(corpus, alpha1=alpha)
    rng = make_rng(seed)
    state = model.state_from_bound(model.gold_bound, rng)
    tables = model.mean_tables_per_word(state, rng, samples)
    return by_frequency(word_counts(utterances), tables, dict.fromkeys(tables, np.nan), alpha,
                        "inferred base (bigram)")


def points(bigram, utterances, alphas=ALPHAS, samples=200, seed=0):
    """Stars and circles (``bigram``: the bigram model's class) for every α, one DataFrame
    (alpha, kind, frequency, tables, error, words)."""
    counts = word_counts(utterances)
    n_tokens = sum(counts.values())
    if not 0 < n_tokens <= MAX_TOKENS:
        raise ValueError(f"the corpus has {n_tokens:,} word tokens: Figure 2 takes 1 to "
                         f"{MAX_TOKENS:,}")
    frames = []
    for i, alpha in enumerate(alphas):
        frames += [stars(counts, alpha, samples, seed + i),
                   circles(bigram, utterances, alpha, samples, seed + i)]
    return pd.concat(frames, ignore_index=True)
