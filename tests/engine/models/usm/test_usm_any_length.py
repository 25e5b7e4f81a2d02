"""The unigram segmentation model at any utterance length and any alphabet size (issue 10), where
α₀P₀ of a long word underflows float64: every sampler runs and keeps its counts the rebuilt ones,
and the model's log-probability equals one recomputed here from SPEC §3's definition in log space
(predictive probabilities in corpus order, plain dictionaries, independently of the engine), to
1e-9 relative — with a whole utterance as one word too. TOKEN's conditional and TYPE's g(m) are
checked against the same definition on sites whose words are far too long for linear
arithmetic."""
import math

import numpy as np
import pytest

from engine.core.rng import make_rng
from engine.kernels import block_weight, moves
from engine.models.usm.model import UsmModel
from engine.run import Run

SAMPLERS = ("token", "type", "anneal", "greedy", "sentence")
HYPER = dict(alpha0=20.0, p_boundary=0.5, rho=2.0)


def alphabet(n):
    """n distinct one-character symbols (CJK ideographs: plenty of them)."""
    return [chr(0x4E00 + i) for i in range(n)]


def long_utterance_corpus():
    """A 2,000-symbol utterance over four symbols (α₀P₀ of a word of more than ~340 symbols
    underflows) among short ones."""
    rng = np.random.default_rng(1)
    short = ["".join(rng.choice(list("abcd"), size=rng.integers(2, 9))) for _ in range(30)]
    return short[:15] + ["".join(rng.choice(list("abcd"), size=2000))] + short[15:]


def large_alphabet_corpus():
    """Utterances over a 5,000-symbol alphabet, every symbol used (underflow past ~80 symbols)."""
    symbols = alphabet(5000)
    rng = np.random.default_rng(2)
    order = rng.permutation(5000)
    texts, i = [], 0
    while i < 5000:
        n = int(rng.integers(20, 200))
        texts.append("".join(symbols[j] for j in order[i:i + n]))
        i += n
    return texts + [texts[0][:30], texts[1][:30] + texts[2][:10]]


def both_corpus():
    """A 2,000-symbol utterance over a 5,000-symbol alphabet."""
    symbols = alphabet(5000)
    rng = np.random.default_rng(3)
    long = "".join(symbols[j] for j in rng.integers(0, 5000, size=2000))
    rest = "".join(symbols)
    return [rest[i:i + 100] for i in range(0, 5000, 100)] + [long, long[:50]]


CORPORA = {"2,000-symbol utterance": long_utterance_corpus,
           "5,000-symbol alphabet": large_alphabet_corpus,
           "both": both_corpus}


def log_p_definition(utterances, n_symbols, alpha0=20.0, p_boundary=0.5, rho=2.0):
    """log p of a segmented corpus (lists of words) as SPEC §3 defines it, in log space."""
    log_a0 = math.log(alpha0) + math.log(p_boundary) - math.log1p(-p_boundary)
    counts, n, ends, total = {}, 0, 0, 0.0
    for words in utterances:
        for i, w in enumerate(words):
            final = i == len(words) - 1
            log_base = log_a0 + len(w) * (math.log1p(-p_boundary) - math.log(n_symbols))
            n_w = counts.get(w, 0)
            log_top = np.logaddexp(math.log(n_w), log_base) if n_w else log_base
            total += log_top - math.log(n + alpha0)
            c = ends if final else n - ends
            total += math.log(c + rho / 2) - math.log(n + rho)
            counts[w] = n_w + 1
            n += 1
            ends += final
    return total


def definition_of(model, state):
    return log_p_definition(model.words(state), len(model.alphabet), **HYPER)


@pytest.fixture(scope="module", params=list(CORPORA))
def model(request):
    return UsmModel(CORPORA[request.param](), **HYPER)


def test_the_corpora_reach_where_the_base_probability_underflows(model):
    longest = max(len(t) for t in model.texts)
    base, log_base = model.base
    assert base[longest] == 0.0 and np.isfinite(log_base[longest])


@pytest.mark.parametrize("eta", [0.0, 0.5, 1.0])
def test_the_log_probability_is_the_definitions(model, eta):
    state = model.new_state(np.random.default_rng(4), eta=eta)
    expected = definition_of(model, state)
    assert np.isfinite(expected)
    assert model.loglik(state) == pytest.approx(expected, rel=1e-9)
    assert model.loglik_running(state) == pytest.approx(expected, rel=1e-9)


def test_a_whole_utterance_as_one_word_is_scored_in_log_space(model):
    """No boundaries at all: every utterance is one word whose α₀P₀ underflows float64."""
    state = model.state_from_values(np.zeros(model.n_sites, dtype=np.int64))
    expected = log_p_definition([[t] for t in model.texts], len(model.alphabet), **HYPER)
    assert expected < -1000 * math.log(10)  # far below what a float64 probability can hold
    assert model.loglik(state) == pytest.approx(expected, rel=1e-9)
    assert model.loglik_running(state) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("sampler", SAMPLERS)
def test_every_sampler_runs_and_keeps_its_counts_exact(model, sampler):
    run = Run(model, sampler, seed=5, init={"eta": 0.5}, total_sweeps=4)
    for _ in run.advance(3):
        pass
    state = run.state
    expected = definition_of(model, state)
    assert np.isfinite(expected)
    assert model.loglik(state) == pytest.approx(expected, rel=1e-9)
    assert model.loglik_running(state) == pytest.approx(expected, rel=1e-9)
    assert not state.removed.any()
    assert model.counts(state) == model.counts(model.state_from_values(model.values(state)))


def longest_utterance_sites(model):
    u = int(np.argmax([len(t) for t in model.texts]))
    start, stop = model.utt_start[u] - u, model.utt_start[u + 1] - 1 - u
    return np.arange(start, stop)


def test_token_conditional_of_long_words_is_the_definitions(model):
    """Each site of the longest utterance, first all joined (one word of its length), then
    split into long halves: TOKEN's weights against the definition's two segmentations."""
    rng = np.random.default_rng(6)
    w = np.zeros(2)
    sites = longest_utterance_sites(model)
    for values in (np.zeros(model.n_sites, np.uint8), rng.random(model.n_sites) < 0.02):
        for s in rng.choice(sites, size=5, replace=False):
            state = model.state_from_values(values)
            moves.token_move(make_rng(7), state, s, 1.0, w)  # leaves the site's weights in w
            log_ratio = math.log(w[1]) - math.log(w[0])
            split, joined = values.copy(), values.copy()
            split[s], joined[s] = 1, 0
            expected = (definition_of(model, model.state_from_values(split))
                        - definition_of(model, model.state_from_values(joined)))
            assert log_ratio == pytest.approx(expected, rel=1e-9, abs=1e-7)


def test_type_g_of_m_with_long_new_words_is_the_definitions():
    """A block of three splits of a long word XY whose halves X, Y occur nowhere else: the
    terms of eq. 9 for X, Y and (at m = 3) XY start from a count of 0 with α₀P₀ below float64's
    range, the case moves.step_ratio takes in logs."""
    symbols = alphabet(60)
    rng = np.random.default_rng(8)
    x = "".join(rng.choice(symbols, size=150))
    y = "".join(rng.choice(symbols, size=170))
    texts = [x + y, "".join(symbols[:30]), x + y, "".join(symbols[30:]), x + y]
    model = UsmModel(texts, **HYPER)
    assert model.base[0][len(x)] < 1e-300
    values = np.zeros(model.n_sites, np.uint8)
    state = model.state_from_values(values)
    pivot = len(x) - 1
    n = model.n_sites
    ints = np.zeros((3, n), np.int64)
    floats = np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS)))
    size, _ = moves.gather_block(state, pivot, 0, 1, ints[0], ints[1], ints[2])
    assert size == 3
    block_weight.block_log_g(state, pivot, 0, 1, size, floats[0], floats[2], floats[3],
                             floats[4], floats[5])
    exact = []
    for m in range(size + 1):
        split = values.copy()
        split[ints[1, :m]] = 1
        exact.append(definition_of(model, model.state_from_values(split)))
    np.testing.assert_allclose(floats[0, :size + 1], np.array(exact) - exact[0], rtol=1e-9)


def test_sentence_moves_on_a_long_utterance_keep_the_counts_exact():
    """SENTENCE's forward algorithm in logs over the 2,000-symbol utterance: the proposals are
    accepted or refused, and the running counts stay the recounted ones."""
    model = UsmModel(long_utterance_corpus(), **HYPER)
    run = Run(model, "sentence", seed=9, init={"eta": 0.0}, total_sweeps=3)
    for _ in run.advance(2):
        pass
    assert model.loglik_running(run.state) == pytest.approx(model.loglik(run.state), rel=1e-9)
    assert model.loglik(run.state) == pytest.approx(definition_of(model, run.state), rel=1e-9)
