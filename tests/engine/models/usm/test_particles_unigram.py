"""The unigram particles' running counts against counts rebuilt from scratch, and the filter's
bookkeeping: every particle's lexicon, tables and label symbols must be what its traced-back
segmentations and seating say, after copies (resampling at every utterance) and growth."""
from collections import Counter

import numpy as np
import pytest
from scipy.special import gammaln

from datasets.builtin import builtin_corpus
from engine import samplers
from engine.core.hash_table import EMPTY
from engine.models.usm.particles.layout import (ALPHA, CUSTOMERS, ENDS, FREE, LABEL_CHARS, N_CHARS,
                                                PHI, RHO, TABLES, WORDS)
from engine.models.hmm.model import HmmModel
from engine.models.usm.model import UsmModel
from engine.samplers.particle import ParticleFilter, threshold_fraction


@pytest.fixture(scope="module")
def nursery():
    return UsmModel.from_corpus(builtin_corpus())


@pytest.fixture(scope="module")
def filtered(nursery):
    """8 particles resampled after every utterance (threshold N): many copies, and lexicons
    that outgrow the first capacity (256 words)."""
    f = ParticleFilter(nursery.particles(phi=0.1), 8, seed=4, threshold="N", record_history=True)
    f.run()
    return f


def word_text(population, v):
    start, length = population.substrings.type_start[v], population.substrings.type_len[v]
    return "".join(population.model.alphabet[c] for c in population.model.chars[start:start + length])


def particle_words(population, parts, l):
    """{word: (customers, [table sizes])} of particle l, read from its arrays."""
    out = {}
    for w in range(parts.scal[l, WORDS]):
        sizes, t = [], parts.whead[l, w]
        while t != EMPTY:
            sizes.append(int(parts.tsize[l, t]))
            t = parts.tnext[l, t]
        out[word_text(population, parts.wtype[l, w])] = (int(parts.wcust[l, w]), sizes)
    return out


def log_joint_from_scratch(words, n_symbols, alpha, phi, rho, utterances):
    """log P(segmentation, seating) from the tables alone (the kernel's module doc)."""
    sizes = [s for _, tables in words.values() for s in tables]
    n = sum(sizes)
    labels = Counter()
    for word, (_, tables) in words.items():
        for c in word + "#":
            labels[c] += len(tables)
    rising = lambda a, m: gammaln(a + m) - gammaln(a)  # noqa: E731
    crp = len(sizes) * np.log(alpha) + sum(gammaln(sizes)) - rising(alpha, n)
    base = sum(rising(phi, m) for m in labels.values()) - rising(n_symbols * phi,
                                                                  sum(labels.values()))
    ends = rising(rho / 2, utterances) + rising(rho / 2, n - utterances) - rising(rho, n)
    return crp + base + ends


def test_capacity_grew(filtered):
    assert filtered.parts.wtype.shape[1] > 256


def test_counts_equal_the_traced_back_segmentations(nursery, filtered):
    population, parts = filtered.population, filtered.parts
    for l, bound in enumerate(filtered.segmentations()):
        tokens = Counter(w for words in nursery.words(nursery.state_from_bound(bound))
                         for w in words)
        words = particle_words(population, parts, l)
        assert {w: c for w, (c, _) in words.items() if c} == dict(tokens)
        assert all(sum(sizes) == c and min(sizes) >= 1 for c, sizes in words.values())
        assert parts.scal[l, CUSTOMERS] == sum(tokens.values())
        assert parts.scal[l, ENDS] == len(nursery.texts)
        assert parts.scal[l, TABLES] - parts.scal[l, FREE] == sum(len(s) for _, s in words.values())


def test_label_symbols_equal_the_tables_labels(filtered):
    population, parts = filtered.population, filtered.parts
    alphabet = population.model.alphabet
    for l in range(parts.n):
        labels = Counter()
        for word, (_, tables) in particle_words(population, parts, l).items():
            for c in word:
                labels[alphabet.index(c)] += len(tables)
            labels[len(alphabet)] += len(tables)
        assert dict(labels) == {i: int(c) for i, c in enumerate(parts.cc[l]) if c}
        assert parts.scal[l, LABEL_CHARS] == parts.cc[l].sum()


def test_log_joint_equals_the_one_from_scratch(filtered):
    population = filtered.population
    alpha, phi, rho, symbols = (population.params[i] for i in (ALPHA, PHI, RHO, N_CHARS))
    running = filtered.log_joints()
    for l in range(filtered.n):
        words = particle_words(population, filtered.parts, l)
        expected = log_joint_from_scratch(words, symbols, alpha, phi, rho,
                                          population.n_observations)
        assert running[l] == pytest.approx(expected, rel=1e-9)


def test_the_same_seed_gives_the_same_run_whatever_the_threads(nursery):
    population = nursery.particles()
    runs = []
    for threads in (1, 2):
        f = ParticleFilter(population, 64, seed=11, threads=threads)
        f.run()
        runs.append(([{k_: v for k_, v in row.items() if k_ != "seconds"} for row in f.trace],
                     f.log_w.copy(), f.evaluate()))
    (trace_a, w_a, e_a), (trace_b, w_b, e_b) = runs
    assert trace_a == trace_b and np.array_equal(w_a, w_b)
    assert {k_: v for k_, v in e_a.items() if k_ != "evaluation_seconds"} == \
        {k_: v for k_, v in e_b.items() if k_ != "evaluation_seconds"}


def test_ess_is_one_over_the_sum_of_squared_weights(nursery):
    f = ParticleFilter(nursery.particles(), 20, seed=2, threshold="1e-9")  # never resamples
    for _ in range(5):
        info = f.step()
        w = np.exp(info.log_weights)
        assert not info.resampled and w.sum() == pytest.approx(1.0)
        assert info.ess == pytest.approx(1.0 / np.sum(w ** 2))


def test_resampling_happens_at_the_threshold(nursery):
    f = ParticleFilter(nursery.particles(), 20, seed=2, threshold="N/2")
    for _ in range(30):
        info = f.step()
        assert info.resampled == (info.ess <= 10.0)
        if info.resampled:
            assert np.allclose(info.log_weights, -np.log(20))
            assert info.distinct_particles == len(set(info.ancestors))


def test_dpm_is_deterministic(nursery):
    analyses = []
    for seed in (1, 2):
        f = samplers.make_filter(nursery, 1, seed, greedy=True)
        f.run()
        analyses.append((f.log_z, f.log_joints()[0]))
    assert analyses[0] == analyses[1]


def test_thresholds():
    assert threshold_fraction("N") == 1.0 and threshold_fraction("N/2") == 0.5
    assert threshold_fraction("0.3") == 0.3
    for bad in ("0", "1.5", "half", None):
        with pytest.raises(ValueError, match="threshold"):
            threshold_fraction(bad)


def test_only_models_with_a_population_offer_the_filter():
    with pytest.raises(ValueError, match="has no Particle filter"):
        samplers.make_filter(HmmModel.tiny(), 4, 0)
    assert "particle" not in samplers.names()  # chains only: run and race do not offer it
