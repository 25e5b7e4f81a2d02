"""The note's Figure 2 from a word corpus (engine.experiments.table_figure): its lines are the formulas, its
stars estimate the fixed-base expectation, its circles come from the bigram model's seating."""
import numpy as np
import pytest

from engine.experiments import table_figure
from engine.core import table_expectations as expect
from engine.models.bigram.model import BigramModel

UTTERANCES = [["the", "dog"], ["the", "cat", "the"], ["a", "dog"], ["the"]] * 6


def test_lines_are_the_four_formulas_with_a_uniform_base():
    counts = table_figure.word_counts(UTTERANCES)
    lines = table_figure.lines(counts, alphas=(10.0,))
    a = 10.0 / len(counts)
    exact = lines[lines.formula == "exact"]
    assert exact.frequency.max() == max(counts.values()) and exact.frequency.min() == 1
    assert np.allclose(exact.tables, expect.expected_tables_exact(a, exact.frequency.to_numpy()),
                       rtol=1e-10)
    antoniak = lines[lines.formula == "antoniak"]
    assert np.allclose(antoniak.tables, a * np.log((antoniak.frequency + a) / a))
    flawed = lines[lines.formula == "flawed"]
    assert np.allclose(flawed.tables, 10.0 * np.log((flawed.frequency + 10.0) / 10.0))


def test_stars_estimate_the_fixed_base_expectation():
    counts = table_figure.word_counts(UTTERANCES)  # the: 24, dog: 12, cat: 6, a: 6
    stars = table_figure.stars(counts, alpha=3.0, samples=4000, seed=1)
    exact = expect.expected_tables_digamma(3.0 / len(counts), stars.frequency.to_numpy())
    sd = np.sqrt(expect.tables_variance(3.0 / len(counts), stars.frequency.to_numpy()))
    # Gibbs samples are correlated: allow 10 independent-draw standard errors of 4000 samples
    assert np.all(np.abs(stars.tables - exact) < 10 * sd / np.sqrt(4000 / stars.words))
    assert list(stars.words) == [2, 1, 1]  # frequencies 6 (cat, a), 12, 24


def test_a_stars_error_bar_is_its_sampling_error():
    """Figure 2's caption said the stars "must lie on" the exact line; they are sampled means,
    each with a standard error. Over 40 seeds a star's spread is the error it reports, and the
    exact line is within two of its errors for most (from 10 chains: 92% expected). A planted
    bug it catches: the error from batches of one chain (ratio 1.87: too small)."""
    counts = table_figure.word_counts(UTTERANCES)
    alpha = 3.0
    frames = [table_figure.stars(counts, alpha, samples=50, seed=seed) for seed in range(40)]
    tables = np.array([frame.tables for frame in frames])  # seeds × frequencies
    errors = np.array([frame.error for frame in frames])
    exact = expect.expected_tables_digamma(alpha / len(counts), frames[0].frequency.to_numpy())
    assert np.all(errors > 0)
    ratio = tables.std(axis=0, ddof=1) / np.sqrt((errors ** 2).mean(axis=0))
    assert np.all((0.7 < ratio) & (ratio < 1.4)), ratio
    assert np.mean(np.abs(tables - exact) < 2 * errors) > 0.85


def test_circles_count_the_bigram_models_tables():
    """With α₁ huge every customer opens its own table (t_w = n_w); with α₁ tiny each word has
    about one table per context it follows."""
    many = table_figure.circles(BigramModel, UTTERANCES, alpha=1e9, samples=5, seed=0)
    assert np.allclose(many.tables, many.frequency, rtol=1e-6)
    few = table_figure.circles(BigramModel, UTTERANCES, alpha=1e-9, samples=5, seed=0)
    preceding = {}  # each word's distinct previous words ($ at an utterance's start)
    for words in UTTERANCES:
        for before, w in zip(["$"] + words, words):
            preceding.setdefault(w, set()).add(before)
    by_frequency = {}
    for w, before in preceding.items():
        by_frequency.setdefault(table_figure.word_counts(UTTERANCES)[w], []).append(len(before))
    assert dict(zip(few.frequency, few.tables)) == pytest.approx(
        {f: np.mean(v) for f, v in by_frequency.items()})


def test_a_corpus_too_large_or_empty_is_refused():
    with pytest.raises(ValueError, match="word tokens"):
        table_figure.points(BigramModel, [[]], alphas=(1.0,), samples=1)
