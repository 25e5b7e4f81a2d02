"""The segmentation model's running counts and two indexes — the lexicon (word → n_w and its
occurrences) and the boundaries (type w1|w2 with w2's end flag → boundaries) — against ones
rebuilt from the segmentation, after thousands of moves of every sampler and while the tables
grow and shrink; and TYPE's candidate sites against a scan of the corpus."""
from collections import defaultdict

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.kernels import moves
from engine.models.segmentation import sites
from engine.models.usm.kernels.layout import (ENDS, LEX_CAPACITY, LEX_LIVE, OCC_NEXT, PAIR_CAPACITY,
                                              PAIR_LIVE, PAIR_NEXT, WORDS)
from engine.models.usm.model import UsmModel
from engine.samplers import make_sampler


def random_corpus(seed, n_utterances=80):
    """Utterances of 1–5 words from a small lexicon, so words, pairs and types repeat."""
    rng = np.random.default_rng(seed)
    lexicon = ["a", "b", "ab", "ba", "abc", "ca", "bca", "cc", "aa"]
    return ["".join(rng.choice(lexicon, size=rng.integers(1, 6))) for _ in range(n_utterances)]


def read_table(state, table, capacity, following, key_of):
    """{key_of(head): (size, sorted items of its list)} over the live slots of a keyed_lists
    table (the first state.counts[capacity] slots), its lists linked by state.links[following]."""
    out = {}
    keys, heads, sizes = table[:, :state.counts[capacity]]
    for slot in np.flatnonzero(keys >= 0):
        key = key_of(int(heads[slot]))
        assert key not in out, f"{key} has two entries"
        items, x = [], heads[slot]
        while x >= 0:
            items.append(int(x))
            x = state.links[following, x]
        out[key] = (int(sizes[slot]), sorted(items))
    return out


def lexicon_index(model, state):
    """{word: (n_w, sorted starts of its occurrences)} read from the state's lexicon."""
    text = "".join(model.texts)
    return read_table(state, state.lexicon, LEX_CAPACITY, OCC_NEXT,
                      lambda x: text[x:sites.word_end(state.bound, x)])


def boundary_index(model, state):
    """{(w1, w2, w2 ends its utterance): (size, sorted boundary symbols)} read from the state."""
    text = "".join(model.texts)

    def type_of(q):
        a, e = sites.word_start(state.bound, q), sites.word_end(state.bound, q + 1)
        return text[a:q + 1], text[q + 1:e], bool(state.final[e - 1])

    return read_table(state, state.pairs, PAIR_CAPACITY, PAIR_NEXT, type_of)


def lexicon_from_scratch(model, state):
    out, x = defaultdict(list), 0
    for words in model.words(state):
        for w in words:
            out[w].append(x)
            x += len(w)
    return {w: (len(v), sorted(v)) for w, v in out.items()}


def boundaries_from_scratch(model, state):
    out, q = defaultdict(list), 0
    for words in model.words(state):
        for i, (w1, w2) in enumerate(zip(words, words[1:])):
            q += len(w1)
            out[(w1, w2, i + 2 == len(words))].append(q - 1)
        q += len(words[-1])
    return {key: (len(v), sorted(v)) for key, v in out.items()}


def assert_indexes_equal_rebuilt_ones(model, state):
    lexicon = lexicon_from_scratch(model, state)
    boundaries = boundaries_from_scratch(model, state)
    assert lexicon_index(model, state) == lexicon
    assert boundary_index(model, state) == boundaries
    assert state.counts[WORDS] == sum(len(words) for words in model.words(state))
    assert state.counts[ENDS] == len(model.texts)
    assert state.counts[LEX_LIVE] == len(lexicon)
    assert state.counts[PAIR_LIVE] == len(boundaries)
    assert not state.removed.any()


def test_counts_and_both_indexes_equal_rebuilt_ones_after_every_samplers_moves():
    model = UsmModel(random_corpus(1), alpha0=2.0)
    rng = make_rng(3)
    state = model.new_state(rng, eta=0.5)
    samplers = [make_sampler(name) for name in ("token", "type", "sentence", "greedy")]
    samplers.append(make_sampler("type", skip=False))
    for round_ in range(40):
        for sampler in samplers:
            for _ in range(30):
                sampler.step(rng, state)
        assert_indexes_equal_rebuilt_ones(model, state)
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-8)


@pytest.mark.parametrize("eta", [0.0, 0.5, 1.0])
def test_the_indexes_survive_growing_from_every_symbol_a_word_to_none(eta):
    """Thousands of distinct words and types come and go: both tables grow and shrink without
    losing words."""
    rng = np.random.default_rng(2)
    model = UsmModel(["".join(rng.choice(list("abcdefgh"), size=12)) for _ in range(400)])
    state = model.new_state(make_rng(4), eta=eta)
    sampler = make_sampler("token")
    for _ in range(3):
        sampler.sweep(make_rng(5), state)
        assert_indexes_equal_rebuilt_ones(model, state)
        assert model.loglik_running(state) == pytest.approx(model.loglik(state), abs=1e-7)


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
