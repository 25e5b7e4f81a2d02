"""The bigram particles' running counts against counts rebuilt from scratch: after copies
(resampling at every utterance) and growth, every particle's pairs, restaurants, tables of both
levels and label symbols must be what its traced-back segmentations say, and its log P(s) the
one computed from its tables alone."""
from collections import Counter

import numpy as np
import pytest
from scipy.special import gammaln

from datasets.builtin import builtin_corpus
from engine.core.hash_table import EMPTY
from engine.models.bigram.particles.layout import BTABLES, END, UTABLES
from engine.models.usm.particles.layout import WORDS
from engine.models.bigram.model import BigramModel
from engine.samplers.particle import ParticleFilter

ALPHA0, ALPHA1, P_END, PHI = 50.0, 20.0, 0.5, 0.1


@pytest.fixture(scope="module")
def filtered():
    model = BigramModel.from_corpus(builtin_corpus(), alpha0=ALPHA0, alpha1=ALPHA1,
                                    p_utterance=P_END)
    f = ParticleFilter(model.particles(phi=PHI), 6, seed=8, threshold="N", record_history=True)
    f.run()
    return model, f


def tables(sizes, nexts, l, head):
    out, t = [], head
    while t != EMPTY:
        out.append(int(sizes[l, t]))
        t = nexts[l, t]
    return out


def read_particle(population, parts, l):
    """({(before, word): [bigram table sizes]}, {word: [unigram table sizes]}), `$` as "$"."""
    def text(w):
        return "$" if w == END else population.word_text(parts.wtype[l, w])
    words = {text(w): tables(parts.usize, parts.unext, l, parts.whead[l, w])
             for w in range(parts.scal[l, WORDS])}
    pairs = {}
    for h in np.flatnonzero(parts.pkey[l] != EMPTY):
        key, p = int(parts.pkey[l, h]), parts.pslot[l, h]
        pairs[(text(key >> 32), text(key & 0xFFFFFFFF))] = tables(parts.bsize, parts.bnext, l,
                                                                   parts.phead[l, p])
    return pairs, words


def bigram_tokens(model, bound):
    counts = Counter()
    for words in model.words(model.state_from_bound(bound)):
        before = "$"
        for w in [*words, "$"]:
            counts[(before, w)] += 1
            before = w
    return counts


def test_capacity_grew(filtered):
    _, f = filtered
    assert f.parts.pcust.shape[1] > 512


def test_counts_equal_the_traced_back_segmentations(filtered):
    model, f = filtered
    for l, bound in enumerate(f.segmentations()):
        pairs, words = read_particle(f.population, f.parts, l)
        assert {pair: sum(s) for pair, s in pairs.items()} == dict(bigram_tokens(model, bound))
        bigram_tables = Counter()
        for (_, w), sizes in pairs.items():
            bigram_tables[w] += len(sizes)
        assert {w: sum(s) for w, s in words.items() if s} == dict(bigram_tables)
        assert f.parts.scal[l, BTABLES] == sum(bigram_tables.values())
        assert f.parts.scal[l, UTABLES] == sum(len(s) for s in words.values())


def test_log_joint_equals_the_one_from_scratch(filtered):
    _, f = filtered
    symbols = len(f.population.model.alphabet) + 1
    rising = lambda a, m: gammaln(a + m) - gammaln(a)  # noqa: E731
    running = f.log_joints()
    for l in range(f.n):
        pairs, words = read_particle(f.population, f.parts, l)
        before = Counter()
        for (b, _), sizes in pairs.items():
            before[b] += sum(sizes)
        b_sizes = [s for sizes in pairs.values() for s in sizes]
        u_sizes = [s for sizes in words.values() for s in sizes]
        labels = Counter()
        for w, sizes in words.items():
            if w != "$":
                for c in w + "#":
                    labels[c] += len(sizes)
        expected = (len(b_sizes) * np.log(ALPHA1) + sum(gammaln(b_sizes))
                    - sum(rising(ALPHA1, n) for n in before.values())
                    + len(u_sizes) * np.log(ALPHA0) + sum(gammaln(u_sizes))
                    - rising(ALPHA0, len(b_sizes))
                    + len(words["$"]) * np.log(P_END)
                    + (len(u_sizes) - len(words["$"])) * np.log(1 - P_END)
                    + sum(rising(PHI, m) for m in labels.values())
                    - rising(symbols * PHI, sum(labels.values())))
        assert running[l] == pytest.approx(expected, rel=1e-9)
        assert f.parts.cc[l].sum() == sum(labels.values())
