"""The Bayesian HMM's conformance case and its exact oracle: the collapsed HMM recomputed from
its predictive probabilities with plain dictionaries, over every tagging of a tiny corpus."""
import itertools
import math
from functools import cache

import numpy as np

from engine.models.hmm.model import HmmModel
from tests.conformance.case import Case
from tests.statistical.exact import normalised

# the sentences of tests/statistical/test_hmm_samplers_exact.py
HMM_SENTENCES = (("a", "b", "a"), ("a", "b"))  # 5 tokens, K = 2: 32 taggings
HMM_STATES = 2
HMM_PRIOR = dict(alpha=0.5, alpha_emit=0.5)


def hmm_log_p(sentences, tags, n_states, alpha=0.1, alpha_emit=0.1):
    """log p(tags, words) under the collapsed HMM: predictive probabilities in corpus order,
    each sentence from and back to the boundary state 0, with plain dictionaries."""
    vocabulary = len({w for s in sentences for w in s})
    trans, trans_row, emit, emit_row = {}, {}, {}, {}
    total = 0.0

    def step(table, row_table, row, col, prior, outcomes):
        nonlocal total
        total += math.log((table.get((row, col), 0) + prior)
                          / (row_table.get(row, 0) + outcomes * prior))
        table[row, col] = table.get((row, col), 0) + 1
        row_table[row] = row_table.get(row, 0) + 1

    for words, states in zip(sentences, tags):
        previous = 0
        for word, k in zip(words, states):
            step(trans, trans_row, previous, k, alpha, n_states + 1)
            step(emit, emit_row, k, word, alpha_emit, vocabulary)
            previous = k
        step(trans, trans_row, previous, 0, alpha, n_states + 1)
    return total


def taggings(n_tokens, n_states):
    """Every flat tagging (states 1 … K), row i the one ``tag_index`` maps to i."""
    return np.array([flat[::-1] for flat in itertools.product(range(1, n_states + 1),
                                                              repeat=n_tokens)])


def hmm_exact_p(sentences, n_states, power=1.0, **prior):
    """p(tags | words)^power normalised over all K^N taggings, indexed by ``tag_index``."""
    log_p = []
    for flat in taggings(sum(len(s) for s in sentences), n_states).tolist():
        tags, start = [], 0
        for s in sentences:
            tags.append(flat[start:start + len(s)])
            start += len(s)
        log_p.append(hmm_log_p(sentences, tags, n_states, **prior))
    return normalised(log_p, power)


def tag_index(tags, n_states):
    """The row of ``hmm_exact_p`` of a flat tagging (states 1 … K, token 0 lowest digit)."""
    return int(np.dot(np.asarray(tags, dtype=np.int64) - 1, n_states ** np.arange(len(tags))))


def hmm_large_corpus(seed=1, n_sentences=30):
    rng = np.random.default_rng(seed)
    words = ["the", "a", "dog", "cat", "runs", "sees", "big", "."]
    return [list(rng.choice(words, size=rng.integers(1, 7))) for _ in range(n_sentences)]


CASE = Case(
    HmmModel,
    tiny=lambda: HmmModel(HMM_SENTENCES, HMM_STATES, **HMM_PRIOR),
    exact_p=cache(lambda power=1.0: hmm_exact_p(HMM_SENTENCES, HMM_STATES, power, **HMM_PRIOR)),
    analyses=lambda: taggings(sum(len(s) for s in HMM_SENTENCES), HMM_STATES),
    row=lambda values: tag_index(values, HMM_STATES),
    # K = 3 so TYPE's binary slices {k, k′} and values outside them are exercised
    large=lambda: HmmModel(hmm_large_corpus(), 3),
    value_offset=1,
    thin=8)
