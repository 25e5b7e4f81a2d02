"""The synthetic Zipf corpus: reproducible, over the asked alphabet, Zipfian, and its
arguments checked."""
from collections import Counter

import numpy as np
import pytest

from datasets.synthetic import zipf_corpus


def word_counts(corpus):
    return Counter(word for words in corpus.utterances for word in words)


def test_the_same_seed_gives_the_same_corpus_and_another_seed_another():
    corpus = zipf_corpus(n_utterances=200, lexicon_size=30, n_symbols=4, seed=7)
    assert corpus == zipf_corpus(n_utterances=200, lexicon_size=30, n_symbols=4, seed=7)
    other = zipf_corpus(n_utterances=200, lexicon_size=30, n_symbols=4, seed=8)
    assert other.utterances != corpus.utterances


def test_the_corpus_has_the_asked_size_alphabet_and_lexicon():
    corpus = zipf_corpus(n_utterances=500, lexicon_size=40, n_symbols=5, seed=3)
    assert len(corpus.utterances) == 500 and corpus.blank_lines == 0
    counts = word_counts(corpus)
    assert len(counts) <= 40
    assert set("".join(counts)) <= set("abcde")
    assert all(1 <= len(word) <= 6 for word in counts)
    assert "seed 3" in corpus.name and "5 symbols" in corpus.name


def test_utterance_lengths_follow_the_mean():
    corpus = zipf_corpus(n_utterances=2000, mean_words=4.0, seed=1)
    lengths = [len(words) for words in corpus.utterances]
    assert min(lengths) >= 1 and abs(np.mean(lengths) - 4.0) < 0.15


def test_word_frequencies_are_zipfian():
    corpus = zipf_corpus(n_utterances=1000, lexicon_size=50, n_symbols=6, seed=2)
    frequencies = sorted(word_counts(corpus).values(), reverse=True)
    assert frequencies[0] > 5 * np.median(frequencies)


def test_the_largest_lexicon_over_two_symbols_can_be_drawn():
    corpus = zipf_corpus(n_utterances=3000, lexicon_size=63, n_symbols=2, seed=0)
    assert set("".join(corpus.texts)) == {"a", "b"}


@pytest.mark.parametrize("argument, value", [
    ("n_utterances", 0), ("n_utterances", 2.5), ("lexicon_size", 0), ("lexicon_size", 10**6),
    ("n_symbols", 1), ("n_symbols", 27), ("n_symbols", 3.0), ("mean_words", 0.5),
    ("zipf_exponent", 0.0), ("zipf_exponent", -1.0),
])
def test_bad_arguments_are_named(argument, value):
    with pytest.raises(ValueError, match=f"^{argument} must"):
        zipf_corpus(**{argument: value})


def test_a_lexicon_too_large_for_the_alphabet_says_what_to_change():
    with pytest.raises(ValueError, match="lexicon_size .* from 1 to 63 for 2 symbols"):
        zipf_corpus(lexicon_size=64, n_symbols=2)
