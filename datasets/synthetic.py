"""Synthetic corpora with a known segmentation: a Zipfian lexicon over a small alphabet.

Words are drawn from a fixed lexicon with probability ∝ rank^(−s), like word frequencies in
speech, and strung into short utterances. The truth is known, so the measures are exact.
"""
import numpy as np

from datasets.segmented import SegmentedCorpus

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def zipf_corpus(n_utterances=300, lexicon_size=60, n_symbols=6, mean_words=3.0,
                zipf_exponent=1.0, seed=0):
    """A corpus of ``n_utterances`` utterances of 1 + Poisson(mean_words − 1) words each.

    The lexicon has ``lexicon_size`` distinct words over the first ``n_symbols`` letters,
    lengths 1 + Poisson(2) capped at 6 (short words are the frequent kind). Same seed, same
    corpus. Raises ValueError naming an argument out of range.
    """
    check_arguments(n_utterances, lexicon_size, n_symbols, mean_words, zipf_exponent)
    rng = np.random.default_rng(seed)
    lexicon = draw_lexicon(rng, lexicon_size, LETTERS[:n_symbols])
    weights = np.arange(1, lexicon_size + 1, dtype=float) ** -zipf_exponent
    weights /= weights.sum()
    lengths = 1 + rng.poisson(mean_words - 1, size=n_utterances)
    utterances = tuple(tuple(lexicon[i] for i in rng.choice(lexicon_size, size=k, p=weights))
                       for k in lengths)
    name = (f"synthetic (Zipf {zipf_exponent:g}, {lexicon_size} words, {n_symbols} symbols, "
            f"seed {seed})")
    return SegmentedCorpus(utterances, 0, name)


def draw_lexicon(rng, size, alphabet):
    """``size`` distinct random words over ``alphabet``."""
    words, attempts = [], 0
    seen = set()
    while len(words) < size:
        attempts += 1
        if attempts > 200 * size:
            raise ValueError(f"could not find {size} distinct words over {len(alphabet)} symbols: "
                             "use a smaller lexicon_size or more n_symbols")
        length = min(1 + rng.poisson(2.0), 6)
        word = "".join(rng.choice(list(alphabet), size=length))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def check_arguments(n_utterances, lexicon_size, n_symbols, mean_words, zipf_exponent):
    if not (isinstance(n_utterances, int) and 1 <= n_utterances <= 100_000):
        raise ValueError(f"n_utterances must be a whole number from 1 to 100,000 (got {n_utterances})")
    if not 2 <= n_symbols <= 26:
        raise ValueError(f"n_symbols must be between 2 and 26 (got {n_symbols})")
    available = sum(n_symbols ** k for k in range(1, 7))
    if not (isinstance(lexicon_size, int) and 1 <= lexicon_size <= min(available // 2, 10_000)):
        raise ValueError(f"lexicon_size must be a whole number from 1 to "
                         f"{min(available // 2, 10_000):,} for {n_symbols} symbols "
                         f"(got {lexicon_size})")
    if not 1.0 <= mean_words <= 20.0:
        raise ValueError(f"mean_words must be between 1 and 20 (got {mean_words})")
    if not 0.0 < zipf_exponent <= 5.0:
        raise ValueError(f"zipf_exponent must be above 0 and at most 5 (got {zipf_exponent})")
