"""Synthetic corpora with a known segmentation: a Zipfian lexicon over a small alphabet.

Words are drawn from a fixed lexicon with probability ∝ rank^(−s), like word frequencies in
speech, and strung into short utterances. The truth is known, so the measures are exact.
"""
from numbers import Integral, Real

import numpy as np

from datasets.segmented import SegmentedCorpus

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_WORD = 6  # symbols
MAX_UTTERANCES = 100_000  # keeps a slider typo from filling the memory
MAX_LEXICON = 10_000


def zipf_corpus(n_utterances: int = 300, lexicon_size: int = 60, n_symbols: int = 6,
                mean_words: float = 3.0, zipf_exponent: float = 1.0,
                seed: int = 0) -> SegmentedCorpus:
    """A corpus of utterances of words drawn i.i.d. from a Zipfian lexicon.

    Parameters
    ----------
    n_utterances : int
        How many utterances, 1 to 100,000.
    lexicon_size : int
        How many distinct words, from 1 to half the words of length 1–6 over the alphabet
        (at most 10,000).
    n_symbols : int
        The alphabet is the first `n_symbols` letters a, b, c, …; 2 to 26.
    mean_words : float
        Each utterance has 1 + Poisson(mean_words − 1) words; 1 to 20.
    zipf_exponent : float
        Word r (rank 1, 2, …) has probability ∝ r^(−zipf_exponent); above 0, at most 5.
    seed : int
        Seed of ``numpy.random.default_rng``: the same seed gives the same corpus.

    Returns
    -------
    SegmentedCorpus

    Raises
    ------
    ValueError
        Naming the first argument out of its range.
    """
    _check_arguments(n_utterances, lexicon_size, n_symbols, mean_words, zipf_exponent)
    rng = np.random.default_rng(seed)
    lexicon = _draw_lexicon(rng, lexicon_size, LETTERS[:n_symbols])
    weights = np.arange(1, lexicon_size + 1, dtype=float) ** -zipf_exponent
    weights /= weights.sum()
    lengths = 1 + rng.poisson(mean_words - 1, size=n_utterances)
    utterances = tuple(tuple(lexicon[i] for i in rng.choice(lexicon_size, size=k, p=weights))
                       for k in lengths)
    name = (f"synthetic ({n_utterances} utterances, Zipf {zipf_exponent:g}, {lexicon_size} words, "
            f"{n_symbols} symbols, seed {seed})")
    return SegmentedCorpus(utterances, 0, name)


def _draw_lexicon(rng: np.random.Generator, size: int, alphabet: str) -> list[str]:
    """`size` distinct random words over `alphabet`, in the order drawn (= Zipf rank)."""
    symbols = np.array(list(alphabet))
    words, seen = [], set()
    # The argument check leaves at least twice as many words as asked for, so this budget is
    # only spent when the length distribution makes the last few words very unlikely.
    for _ in range(200 * size):
        # Short words are the likely ones, as in speech: the frequent ranks get them first.
        length = min(1 + rng.poisson(2.0), MAX_WORD)
        word = "".join(rng.choice(symbols, size=length))
        if word not in seen:
            seen.add(word)
            words.append(word)
            if len(words) == size:
                return words
    raise ValueError(f"could not find {size} distinct words over {len(alphabet)} symbols: "
                     "use a smaller lexicon_size or more n_symbols")


def _max_lexicon(n_symbols: int) -> int:
    """The largest lexicon_size allowed: half the words of length 1–6, so drawing is quick."""
    available = sum(n_symbols ** k for k in range(1, MAX_WORD + 1))
    return min(available // 2, MAX_LEXICON)


def _is_whole(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _check_arguments(n_utterances, lexicon_size, n_symbols, mean_words, zipf_exponent):
    """Raise ValueError naming the first argument out of range, and its allowed range."""
    if not (_is_whole(n_utterances) and 1 <= n_utterances <= MAX_UTTERANCES):
        raise ValueError(f"n_utterances must be a whole number from 1 to {MAX_UTTERANCES:,} "
                         f"(got {n_utterances!r})")
    if not (_is_whole(n_symbols) and 2 <= n_symbols <= len(LETTERS)):
        raise ValueError(f"n_symbols must be a whole number from 2 to 26 (got {n_symbols!r})")
    top = _max_lexicon(n_symbols)
    if not (_is_whole(lexicon_size) and 1 <= lexicon_size <= top):
        raise ValueError(f"lexicon_size must be a whole number from 1 to {top:,} for "
                         f"{n_symbols} symbols (got {lexicon_size!r}): use a smaller "
                         "lexicon_size or more n_symbols")
    if not (isinstance(mean_words, Real) and 1.0 <= mean_words <= 20.0):
        raise ValueError(f"mean_words must be a number from 1 to 20 (got {mean_words!r})")
    if not (isinstance(zipf_exponent, Real) and 0.0 < zipf_exponent <= 5.0):
        raise ValueError(f"zipf_exponent must be a number above 0 and at most 5 "
                         f"(got {zipf_exponent!r})")
