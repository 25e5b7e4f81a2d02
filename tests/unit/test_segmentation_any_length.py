"""The segmentation model takes any utterance length and any alphabet size (issue 10): words
whose base probability α₀P₀ underflows float64 are scored in log space, and every sampler runs.

The reference log-probability is computed here from the model's definition (SPEC §3), in log
space with plain dictionaries, independently of the engine.
"""
import math

import numpy as np
import pytest

from engine.models.usm import UsmModel
from engine.run import Run

SAMPLERS = ("token", "type", "anneal", "greedy", "sentence")


def log_p_corpus(utterances, n_symbols, alpha0=20.0, p_boundary=0.5, rho=2.0):
    """log p of a segmented corpus: the product of the predictive probabilities in corpus order."""
    counts, n, ends, total = {}, 0, 0, 0.0
    for words in utterances:
        for i, w in enumerate(words):
            final = i == len(words) - 1
            log_p0 = (math.log(p_boundary) + (len(w) - 1) * math.log1p(-p_boundary)
                      - len(w) * math.log(n_symbols))
            log_base = math.log(alpha0) + log_p0
            count = counts.get(w, 0)
            # log(count + α₀P₀), with α₀P₀ possibly far below float64's smallest number
            term = log_base if count == 0 else math.log(count) + math.log1p(math.exp(log_base - math.log(count)))
            total += term - math.log(n + alpha0)
            total += math.log(((ends if final else n - ends) + rho / 2) / (n + rho))
            counts[w] = count + 1
            n += 1
            ends += final
    return total


def corpus(n_utterances, length, n_symbols, seed):
    """Random utterances of ``length`` symbols drawn from an alphabet of ``n_symbols`` (CJK
    ideographs, as a Chinese text would have), with a few repeats so words recur."""
    rng = np.random.default_rng(seed)
    alphabet = [chr(0x4E00 + i) for i in range(n_symbols)]
    pool = ["".join(rng.choice(alphabet, size=rng.integers(1, 4))) for _ in range(30)]
    texts = []
    for _ in range(n_utterances):
        text = ""
        while len(text) < length:
            text += pool[rng.integers(len(pool))] if rng.random() < 0.7 else rng.choice(alphabet)
        texts.append(text[:length])
    return texts


def every_symbol_once(n_symbols):
    """One utterance holding every symbol of the alphabet (so |Σ| is exactly n_symbols)."""
    return "".join(chr(0x4E00 + i) for i in range(n_symbols))


CASES = {
    "a 2,000-symbol utterance": corpus(3, 2_000, 20, seed=1),
    "a 5,000-symbol alphabet": corpus(20, 30, 5_000, seed=2) + [every_symbol_once(5_000)],
    "both": corpus(2, 2_000, 5_000, seed=3) + [every_symbol_once(5_000)],
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("sampler", SAMPLERS)
def test_every_sampler_runs_and_the_log_probability_is_exact(name, sampler):
    texts = CASES[name]
    model = UsmModel(texts)
    run = Run(model, sampler, seed=4, init={"eta": 0.3}, total_sweeps=3)
    for _ in run.advance(3):
        pass
    state = run.state
    expected = log_p_corpus(model.words(state), len(model.alphabet))
    assert np.isfinite(expected)
    assert model.loglik(state) == pytest.approx(expected, rel=1e-9)
    assert model.loglik_running(state) == pytest.approx(expected, rel=1e-9)
    assert model.counts(state) == model.counts(model.state_from_values(model.values(state)))


@pytest.mark.parametrize("name", CASES)
def test_a_whole_utterance_as_one_word_is_scored_in_log_space(name):
    """No boundaries at all: every utterance is one word whose α₀P₀ underflows float64."""
    texts = CASES[name]
    model = UsmModel(texts)
    state = model.state_from_values(np.zeros(model.n_sites, dtype=np.int64))
    expected = log_p_corpus([[t] for t in texts], len(model.alphabet))
    assert expected < -1000 * math.log(10)  # far below what a float64 probability can hold
    assert model.loglik(state) == pytest.approx(expected, rel=1e-9)
