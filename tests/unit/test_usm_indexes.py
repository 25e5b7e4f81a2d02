"""The segmentation model's two indexes — the lexicon (word → occurrences) and the boundaries
(type w1|w2 with w2's end flag → boundaries) — against ones rebuilt from the segmentation, after
thousands of moves of every sampler; and TYPE's candidate sites against a scan of the corpus."""
from collections import defaultdict

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.kernels import moves
from engine.kernels import usm as kernels
from engine.models.usm import UsmModel
from engine.samplers import make_sampler


def random_corpus(seed, n_utterances=80):
    """Utterances of 1–5 words from a small lexicon, so words, pairs and types repeat."""
    rng = np.random.default_rng(seed)
    lexicon = ["a", "b", "ab", "ba", "abc", "ca", "bca", "cc", "aa"]
    return ["".join(rng.choice(lexicon, size=rng.integers(1, 6))) for _ in range(n_utterances)]


def walk(head, following):
    out, x = [], head
    while x >= 0:
        out.append(int(x))
        x = following[x]
    return sorted(out)


def boundary_index(model, state):
    """{(w1, w2, w2 ends its utterance): sorted boundary symbols} read from the state."""
    text = "".join(model.texts)
    out = {}
    keys, heads, sizes = state.pairs[:, :state.counts[kernels.PAIR_CAPACITY]]
    for slot in np.flatnonzero(keys >= 0):
        q = int(heads[slot])
        a, e = kernels.word_start(state.bound, q), kernels.word_end(state.bound, q + 1)
        key = (text[a:q + 1], text[q + 1:e], bool(state.final[e - 1]))
        assert key not in out, "a type has two entries"
        listed = walk(q, state.links[kernels.PAIR_NEXT])
        assert sizes[slot] == len(listed)
        out[key] = listed
    assert state.counts[kernels.PAIR_LIVE] == len(out)
    return out


def boundaries_from_scratch(model, state):
    out, q = defaultdict(list), 0
    for words in model.words(state):
        for i, (w1, w2) in enumerate(zip(words, words[1:])):
            q += len(w1)
            out[(w1, w2, i + 2 == len(words))].append(q - 1)
        q += len(words[-1])
    return {key: sorted(v) for key, v in out.items()}


def lexicon_index(model, state):
    text = "".join(model.texts)
    out = {}
    keys, heads, sizes = state.lexicon[:, :state.counts[kernels.LEX_CAPACITY]]
    for slot in np.flatnonzero(keys >= 0):
        x = int(heads[slot])
        word = text[x:kernels.word_end(state.bound, x)]
        assert word not in out, "a word has two entries"
        listed = walk(x, state.links[kernels.OCC_NEXT])
        assert sizes[slot] == len(listed)
        out[word] = listed
    return out


def lexicon_from_scratch(model, state):
    out, x = defaultdict(list), 0
    for words in model.words(state):
        for w in words:
            out[w].append(x)
            x += len(w)
    return {w: sorted(v) for w, v in out.items()}


def test_both_indexes_equal_rebuilt_ones_after_every_samplers_moves():
    model = UsmModel(random_corpus(1), alpha0=2.0)
    rng = make_rng(3)
    state = model.new_state(rng, eta=0.5)
    samplers = [make_sampler(name) for name in ("token", "type", "sentence", "greedy")]
    samplers.append(make_sampler("type", skip=False))
    for round_ in range(30):
        for sampler in samplers:
            for _ in range(25):
                sampler.step(rng, state)
        assert lexicon_index(model, state) == lexicon_from_scratch(model, state)
        assert boundary_index(model, state) == boundaries_from_scratch(model, state)
        assert not state.removed.any()


@pytest.mark.parametrize("eta", [0.0, 1.0])
def test_the_indexes_survive_growing_from_every_symbol_a_word_to_none(eta):
    """Thousands of distinct words and types come and go: both tables grow and shrink."""
    rng = np.random.default_rng(2)
    model = UsmModel(["".join(rng.choice(list("abcdefgh"), size=12)) for _ in range(400)])
    state = model.new_state(make_rng(4), eta=eta)
    sampler = make_sampler("token")
    for _ in range(3):
        sampler.sweep(make_rng(5), state)
        assert lexicon_index(model, state) == lexicon_from_scratch(model, state)
        assert boundary_index(model, state) == boundaries_from_scratch(model, state)


def test_block_candidates_are_the_sites_of_the_pivots_type():
    """Every site of the pivot's type (w1, w2, end flag), split or joined, by a scan."""
    model = UsmModel(random_corpus(6, 60), alpha0=2.0)
    rng = make_rng(7)
    n = model.n_sites
    ints = np.zeros((3, n), np.int64)
    for trial in range(100):
        state = model.new_state(rng, eta=0.5)
        types = [model.site_type(state, s) for s in range(n)]
        pivot = int(np.random.default_rng(trial).integers(n))
        size, n_cand = moves.gather_block(state, pivot, 0, 1, ints[0], ints[1], ints[2])
        scan = {s for s in range(n) if types[s] == types[pivot]}
        assert set(ints[0, :n_cand]) | {pivot} == scan
        assert ints[1, 0] == pivot and set(ints[1, :size]) <= scan
