"""Synthetic corpora with a known truth: segmentations from a Zipfian lexicon over a small
alphabet, and tagged sentences from a hidden Markov model.

Words are drawn from a fixed lexicon with probability ∝ rank^(−s), like word frequencies in
speech, and strung into short utterances. Tagged sentences are walks of a random HMM whose
states are the tags. The truth is known, so the measures are exact.
"""
from numbers import Integral, Real

import numpy as np

from datasets.segmented import SegmentedCorpus
from datasets.tagged import TaggedCorpus

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_WORD = 6  # symbols
MAX_UTTERANCES = 100_000  # keeps a slider typo from filling the memory
MAX_LEXICON = 10_000
MAX_SENTENCES = 100_000
MAX_STATES = 50
MAX_VOCABULARY = 5_000  # of the 4,900 + 343,000 words of two or three syllables
MAX_SENTENCE = 60  # tokens; caps the rare very long walk
CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"


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


def hmm_corpus(n_sentences: int = 200, n_states: int = 5, vocabulary: int = 60,
               sparsity: float = 0.1, mean_length: float = 8.0, seed: int = 0) -> TaggedCorpus:
    """A tagged corpus of sentences generated by a random hidden Markov model.

    The model has states 1 … K (the tags ``S1`` … ``SK``) and a boundary state 0. The start
    distribution over 1 … K, each state's continuation over 1 … K and each state's emissions
    over the words are drawn from a symmetric Dirichlet(`sparsity`). Every state ends the
    sentence (moves to state 0) with the same probability 1 / `mean_length`, so lengths are
    geometric with mean `mean_length` (before the cap of 60 tokens) and no state traps a walk.

    Parameters
    ----------
    n_sentences : int
        How many sentences, 1 to 100,000.
    n_states : int
        K, the number of hidden states (tags), 1 to 50.
    vocabulary : int
        How many distinct words the states emit, 1 to 5,000. Words are invented strings of two
        or three consonant-vowel syllables ("bako", "mitesu").
    sparsity : float
        The Dirichlet concentration, 0.001 to 100: small values give each state few likely
        successors and words, large values nearly uniform ones.
    mean_length : float
        The mean sentence length in tokens, 1 to 30.
    seed : int
        Seed of ``numpy.random.default_rng``: the same seed gives the same corpus.

    Returns
    -------
    TaggedCorpus
        Sentences of 1 to 60 tokens, each tagged with the states that emitted its words.

    Raises
    ------
    ValueError
        Naming the first argument out of its range.
    """
    _check_hmm_arguments(n_sentences, n_states, vocabulary, sparsity, mean_length, seed)
    rng = np.random.default_rng(seed)
    transitions, emissions = _draw_hmm(rng, n_states, vocabulary, sparsity, 1.0 / mean_length)
    lexicon = _draw_syllable_words(rng, vocabulary)
    states, lengths = _walk(rng, transitions, n_sentences)
    words = _emit(rng, emissions, states)
    sentences = tuple(tuple(lexicon[w] for w in row[:n]) for row, n in zip(words, lengths))
    tags = tuple(tuple(f"S{k}" for k in row[:n]) for row, n in zip(states, lengths))
    name = (f"synthetic HMM ({n_sentences} sentences, K = {n_states}, {vocabulary} words, "
            f"seed {seed})")
    return TaggedCorpus(sentences, tags, name)


def _draw_hmm(rng: np.random.Generator, n_states: int, vocabulary: int, sparsity: float,
              end: float) -> tuple[np.ndarray, np.ndarray]:
    """The transition matrix (K+1 × K+1, state 0 the boundary) and emissions (K+1 × V).

    Row 0 of the transitions is the start distribution (never straight to the boundary);
    row k ≥ 1 ends with probability `end` and otherwise continues as its Dirichlet draw says.
    Row 0 of the emissions is unused (the boundary emits nothing) and left at zero.
    """
    alpha = np.full(n_states, sparsity)
    transitions = np.zeros((n_states + 1, n_states + 1))
    transitions[0, 1:] = rng.dirichlet(alpha)
    transitions[1:, 0] = end
    transitions[1:, 1:] = (1.0 - end) * rng.dirichlet(alpha, size=n_states)
    emissions = np.zeros((n_states + 1, vocabulary))
    emissions[1:] = rng.dirichlet(np.full(vocabulary, sparsity), size=n_states)
    return transitions, emissions


def _draw_rows(rng: np.random.Generator, probabilities: np.ndarray) -> np.ndarray:
    """One draw from each row of `probabilities`, by inverting the cumulative sums."""
    cumulative = np.cumsum(probabilities, axis=1)
    u = rng.random(len(probabilities)) * cumulative[:, -1]  # rows may sum to 1 ± rounding
    return np.minimum((cumulative <= u[:, None]).sum(axis=1), probabilities.shape[1] - 1)


def _walk(rng: np.random.Generator, transitions: np.ndarray,
          n_sentences: int) -> tuple[np.ndarray, np.ndarray]:
    """The state sequences of `n_sentences` walks from the boundary back to it.

    All walks advance together, one token at a time, so the cost is a few array operations
    per position rather than a Python call per token. Returns the states (n × 60, padded with
    0) and each walk's length.
    """
    states = np.zeros((n_sentences, MAX_SENTENCE), dtype=np.int64)
    lengths = np.full(n_sentences, MAX_SENTENCE)
    current = np.zeros(n_sentences, dtype=np.int64)
    active = np.arange(n_sentences)
    for position in range(MAX_SENTENCE):
        current = _draw_rows(rng, transitions[current])
        ended = current == 0  # never at position 0: row 0 gives the boundary probability 0
        lengths[active[ended]] = position
        active, current = active[~ended], current[~ended]
        if not len(active):
            break
        states[active, position] = current
    return states, lengths


def _emit(rng: np.random.Generator, emissions: np.ndarray, states: np.ndarray) -> np.ndarray:
    """A word index for every position of `states` (0 at the padding)."""
    cumulative = np.cumsum(emissions, axis=1)
    u = rng.random(states.shape)
    words = np.zeros_like(states)
    # One state at a time: a row of emissions per token would not fit in memory for a large
    # vocabulary, and K is small.
    for k in range(1, len(emissions)):
        at = states == k
        drawn = np.searchsorted(cumulative[k], u[at] * cumulative[k, -1], side="right")
        words[at] = np.minimum(drawn, emissions.shape[1] - 1)
    return words


def _draw_syllable_words(rng: np.random.Generator, size: int) -> list[str]:
    """`size` distinct words of two or three consonant-vowel syllables, in the order drawn."""
    syllables = [c + v for c in CONSONANTS for v in VOWELS]
    words, seen = [], set()
    # The vocabulary cap leaves the space at least 69 times larger than asked, so collisions
    # are rare and the loop ends after little more than `size` draws.
    while len(words) < size:
        word = "".join(syllables[i] for i in rng.integers(len(syllables),
                                                            size=rng.integers(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def _check_hmm_arguments(n_sentences, n_states, vocabulary, sparsity, mean_length, seed):
    """Raise ValueError naming the first argument out of range, and its allowed range."""
    if not (_is_whole(n_sentences) and 1 <= n_sentences <= MAX_SENTENCES):
        raise ValueError(f"n_sentences must be a whole number from 1 to {MAX_SENTENCES:,} "
                         f"(got {n_sentences!r})")
    if not (_is_whole(n_states) and 1 <= n_states <= MAX_STATES):
        raise ValueError(f"n_states must be a whole number from 1 to {MAX_STATES} "
                         f"(got {n_states!r})")
    if not (_is_whole(vocabulary) and 1 <= vocabulary <= MAX_VOCABULARY):
        raise ValueError(f"vocabulary must be a whole number from 1 to {MAX_VOCABULARY:,} "
                         f"(got {vocabulary!r})")
    if not (isinstance(sparsity, Real) and 0.001 <= sparsity <= 100.0):
        raise ValueError(f"sparsity must be a number from 0.001 to 100 (got {sparsity!r})")
    if not (isinstance(mean_length, Real) and 1.0 <= mean_length <= 30.0):
        raise ValueError(f"mean_length must be a number from 1 to 30 (got {mean_length!r})")
    if not (_is_whole(seed) and seed >= 0):
        raise ValueError(f"seed must be a whole number, 0 or more (got {seed!r})")
