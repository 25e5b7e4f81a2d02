"""The HMM's explicit-parameter machinery (Gao & Johnson 2008, §2) against references written
here from the definitions, without the engine's kernels.

1. Forward-backward (``expected_counts``): on tiny corpora with random normalised parameters,
   log p(words | θ), the expected transition counts E[n_jk] (boundary starts and ends
   included) and emission counts E[n_kw], the max-marginal decoding and the Viterbi decoding
   all equal what enumerating every tagging gives.
2. EM (eq. 2) never lowers the likelihood log p(words | θ) over its iterations (from row 0,
   the parameters the initial tagging gives), and the objective a row reports is
   log p(words | θ) of the parameters its iteration ended with.
3. Variational Bayes (eq. 3–4) never lowers its bound F = log Z̃ − KL(q(θ) ‖ p(θ)); the bound
   is below the exact log evidence log p(words) (every tagging's collapsed p(tags, words)
   summed, tests/conformance/cases/hmm.py), and the reported F is recomputed exactly.
4. The M-step (``reestimate``): VB's θ = exp(ψ(a) − ψ(Σa)), a = expected + prior, and its KL
   divergence against scipy; EM's θ = expected counts normalised.
5. The explicit samplers' parameter step (``draw_parameters``, eq. 5): the draws' means and
   variances, and each entry's whole Beta marginal (Kolmogorov-Smirnov), are the Dirichlet
   posterior's, at a prior of 0.5 (its cells with a count of 0 drawn from
   engine.core.small_gamma's ziggurat) and below 0.05 (drawn in log space); ``log_gamma_digamma``,
   which VB's M-step rests on, agrees with scipy from 1e-9 to 1e6.

The flat layout (``layout``): transitions trans[j, k] row-major over the K + 1 outcomes, then
their transposed copy, then emissions word-major emit_t[w, k] =
φ_k(w) with column 0 (the boundary) 0. Interface values are tags − 1.

Why: these estimators converge to *something* whatever their bugs; only exact references show
they converge to what the paper defines. Every test has a fixed seed.
"""
import itertools
import math

import numpy as np
import pytest
from numba import njit
from scipy import stats
from scipy.special import digamma, gammaln, logsumexp

from engine.core.rng import make_rng
from engine.core.special import log_gamma_digamma
from engine.kernels import estimators
from engine.kernels.interface import draw_parameters, expected_counts, reestimate
from engine.models.hmm.model import HmmModel  # registers the HMM's interface functions
from engine.run import Run
from tests.conformance.cases.hmm import hmm_log_p

REL = 1e-9  # relative tolerance of exact comparisons


# --- the interface functions, called from Python --------------------------------------------------
@njit(_nrt=False)
def e_step(state, theta, expected, decoded, work):
    return expected_counts(state, theta, expected, decoded, work)


@njit(_nrt=False)
def m_step(state, expected, theta, variational, work):
    return reestimate(state, expected, theta, variational, work)


@njit(_nrt=False)
def draw_many(rng, state, draws):
    """draws[i] = one draw_parameters(rng, state, ·) for every row i."""
    for i in range(draws.shape[0]):
        draw_parameters(rng, state, draws[i])


def buffers(state):
    """(theta, expected, decoded, work) sized for the state, filled with values no kernel
    should leave there (NaN, −7), so that an entry left unwritten shows."""
    size = estimators.count_parameters(state)
    return (np.full(size, np.nan), np.full(size, np.nan), np.full(len(state.words), -7),
            np.full(estimators.estimate_work(state), np.nan))


# --- references, from the definitions -------------------------------------------------------------
def encode(sentences):
    """(vocabulary, the sentences as word indices): the words sorted, as the flat layout's rows."""
    vocabulary = sorted({w for s in sentences for w in s})
    index = {w: i for i, w in enumerate(vocabulary)}
    return vocabulary, [[index[w] for w in s] for s in sentences]


def layout(n_states, n_words, size):
    """Slices of the engine's flat parameter array of length ``size``: (transitions trans[j, k]
    row-major, their transposed copy into[n, k] = θ_{k→n}, emissions word-major emit_t[w, k] =
    φ_k(w)). The transposed copy is what the explicit pointwise sampler reads; in ``expected``
    it is unused."""
    k1 = n_states + 1
    square = k1 * k1
    assert size == 2 * square + n_words * k1, (size, n_states, n_words)
    return slice(0, square), slice(square, 2 * square), slice(2 * square, size)


def flatten(trans, emit, size):
    """The flat array of trans[K+1, K+1] and emit[K+1, V] (row k = φ_k; row 0 all 0)."""
    t, into, e = layout(trans.shape[0] - 1, emit.shape[1], size)
    flat = np.zeros(size)
    flat[t], flat[e], flat[into] = trans.ravel(), emit.T.ravel(), trans.T.ravel()
    return flat


def unflatten(flat, n_states, n_words, parameters=True):
    """(trans[K+1, K+1], emit[K+1, V]) of a flat array. Of parameters (not expected counts),
    the transposed copy must be exactly the transitions' transpose."""
    t, into, e = layout(n_states, n_words, len(flat))
    k1 = n_states + 1
    trans, emit = flat[t].reshape(k1, k1), flat[e].reshape(n_words, k1).T
    if parameters:
        np.testing.assert_array_equal(flat[into].reshape(k1, k1), trans.T,
                                      err_msg="the transposed copy of the transitions")
    return trans, emit


def random_parameters(rng, n_states, n_words):
    """Normalised random θ (rows over the K + 1 outcomes) and φ (rows over the V words)."""
    trans = rng.dirichlet(np.ones(n_states + 1), size=n_states + 1)
    emit = np.vstack([np.zeros(n_words), rng.dirichlet(np.ones(n_words), size=n_states)])
    return trans, emit


def enumerate_hmm(coded, trans, emit):
    """Every tagging of every sentence summed out by brute force under (θ, φ), each sentence
    from the boundary 0 and back into it. Returns log Z (= log p(words | θ) when normalised),
    the expected counts trans[K+1, K+1] and emit[K+1, V], the max-marginal tags and the
    most probable tags (values: tag − 1, corpus order)."""
    n_states = trans.shape[0] - 1
    log_z = 0.0
    e_trans, e_emit = np.zeros_like(trans), np.zeros_like(emit)
    by_marginal, by_path = [], []
    for words in coded:
        paths = list(itertools.product(range(1, n_states + 1), repeat=len(words)))
        weights = []
        for path in paths:
            p, previous = 1.0, 0
            for word, k in zip(words, path):
                p *= trans[previous, k] * emit[k, word]
                previous = k
            weights.append(p * trans[previous, 0])
        weights = np.array(weights)
        log_z += math.log(weights.sum())
        posterior = weights / weights.sum()
        marginals = np.zeros((len(words), n_states + 1))
        for path, q in zip(paths, posterior):
            previous = 0
            for t, (word, k) in enumerate(zip(words, path)):
                e_trans[previous, k] += q
                e_emit[k, word] += q
                marginals[t, k] += q
                previous = k
            e_trans[previous, 0] += q
        by_marginal += list(np.argmax(marginals[:, 1:], axis=1))
        by_path += [k - 1 for k in paths[int(np.argmax(weights))]]
    return log_z, e_trans, e_emit, np.array(by_marginal), np.array(by_path)


def dirichlet_kl(a, prior):
    """KL(Dir(a) ‖ Dir(prior, …, prior)) over the last axis, summed over the rest."""
    a = np.atleast_2d(a)
    b = np.full_like(a, prior)
    a0 = a.sum(axis=1, keepdims=True)
    kl = (gammaln(a0[:, 0]) - gammaln(a).sum(axis=1) - gammaln(b.sum(axis=1))
          + gammaln(b).sum(axis=1) + ((a - b) * (digamma(a) - digamma(a0))).sum(axis=1))
    return kl.sum()


def vb_reference(e_trans, e_emit, alpha, alpha_emit):
    """VB's M-step from the definition (eq. 4): (trans, emit, KL), each distribution's
    q = Dir(a), a = expected + prior, giving exp(ψ(a) − ψ(Σa))."""
    a_trans, a_emit = e_trans + alpha, e_emit[1:] + alpha_emit
    trans = np.exp(digamma(a_trans) - digamma(a_trans.sum(axis=1, keepdims=True)))
    emit = np.exp(digamma(a_emit) - digamma(a_emit.sum(axis=1, keepdims=True)))
    kl = dirichlet_kl(a_trans, alpha) + dirichlet_kl(a_emit, alpha_emit)
    return trans, np.vstack([np.zeros(e_emit.shape[1]), emit]), kl


def counts_of(coded, tags, n_states, n_words):
    """The transition and emission counts of a tagging (tags per sentence, 1 … K)."""
    trans = np.zeros((n_states + 1, n_states + 1))
    emit = np.zeros((n_states + 1, n_words))
    for words, states in zip(coded, tags):
        previous = 0
        for word, k in zip(words, states):
            trans[previous, k] += 1
            emit[k, word] += 1
            previous = k
        trans[previous, 0] += 1
    return trans, emit


def log_evidence(sentences, n_states, alpha, alpha_emit):
    """log p(words): the collapsed p(tags, words) summed over every tagging."""
    lengths = [len(s) for s in sentences]
    terms = []
    for flat in itertools.product(range(1, n_states + 1), repeat=sum(lengths)):
        tags = np.split(np.array(flat), np.cumsum(lengths)[:-1])
        terms.append(hmm_log_p(sentences, tags, n_states, alpha, alpha_emit))
    return logsumexp(terms)


# --- corpora --------------------------------------------------------------------------------------
def tiny_corpus(seed, max_sentences=3, max_length=3, n_words=3):
    """2 … max_sentences sentences of 1 … max_length tokens over 2 … n_words word types."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(rng.integers(2, n_words + 1))]
    return [[str(rng.choice(words)) for _ in range(rng.integers(1, max_length + 1))]
            for _ in range(rng.integers(2, max_sentences + 1))]


def hmm_corpus(seed, n_words=6, max_length=6):
    """5 … 12 sentences of 1 … max_length tokens drawn from a random 3-state HMM."""
    rng = np.random.default_rng(seed)
    trans = rng.dirichlet(np.full(3, 0.5), size=3)
    emit = rng.dirichlet(np.full(n_words, 0.3), size=3)
    sentences = []
    for _ in range(rng.integers(5, 13)):
        k, words = rng.integers(3), []
        for _ in range(rng.integers(1, max_length + 1)):
            words.append(f"w{rng.choice(n_words, p=emit[k])}")
            k = rng.choice(3, p=trans[k])
        sentences.append(words)
    return sentences


def objectives(model, sampler, seed, eta, iterations=40):
    """The objective column of a Run's trace, rows 0 … iterations."""
    run = Run(model, sampler, seed, init={"eta": eta}, total_sweeps=iterations)
    for _ in range(iterations):
        run.sweep()
    return run.trace_frame()["objective"].to_numpy()


def assert_never_falls(values, where):
    assert np.all(np.isfinite(values)), f"{where}: {values}"
    steps = np.diff(values)
    slack = REL * np.abs(values[:-1])
    worst = int(np.argmin(steps + slack))
    assert np.all(steps >= -slack), (
        f"{where}: the objective falls from {values[worst]!r} to {values[worst + 1]!r} "
        f"at iteration {worst + 1}")


# 12 random starts for the monotonicity tests: (corpus seed, K, η, chain seed, α = α′)
STARTS = [(100 + i, (2, 3, 5)[i % 3], (0.0, 0.3, 0.6, 0.9)[i % 4], 7 * i + 1,
           (0.01, 0.1, 1.0)[(i // 3) % 3]) for i in range(12)]


# --- 1. forward-backward --------------------------------------------------------------------------
def check_e_step(sentences, n_states, seed):
    """expected_counts under random parameters against enumerate_hmm, for both decodings;
    return the two decodings (max-marginal, most probable)."""
    vocabulary, coded = encode(sentences)
    trans, emit = random_parameters(np.random.default_rng(seed), n_states, len(vocabulary))
    log_z, e_trans, e_emit, by_marginal, by_path = enumerate_hmm(coded, trans, emit)
    for decode, decoding in (("posterior", by_marginal), ("viterbi", by_path)):
        model = HmmModel(sentences, n_states, decode=decode)
        assert model.vocabulary == vocabulary
        state = model.new_state(make_rng(seed))
        theta, expected, decoded, work = buffers(state)
        theta[:] = flatten(trans, emit, len(theta))
        assert e_step(state, theta, expected, decoded, work) == pytest.approx(log_z, rel=REL)
        got_trans, got_emit = unflatten(expected, n_states, len(vocabulary), parameters=False)
        np.testing.assert_allclose(got_trans, e_trans, rtol=REL, atol=1e-12,
                                   err_msg="expected transitions")
        np.testing.assert_allclose(got_emit, e_emit, rtol=REL, atol=1e-12,
                                   err_msg="expected emissions")
        np.testing.assert_array_equal(decoded, decoding, err_msg=f"{decode} decoding")
    return by_marginal, by_path


# (K, seed) of the tiny corpora; for the last two of each K the max-marginal and the most
# probable taggings differ
TINY = [(2, 0), (2, 1), (2, 2), (2, 11), (2, 23), (3, 0), (3, 1), (3, 3), (3, 17), (3, 18)]


@pytest.mark.parametrize("n_states, seed", TINY)
def test_forward_backward_matches_enumeration(n_states, seed):
    check_e_step(tiny_corpus(seed * 10 + n_states), n_states, seed)


def test_forward_backward_on_longer_sentences():
    """Sentences of up to 6 tokens (the rescaled passes over several steps), K = 3."""
    sentences = [["a", "b", "a", "c", "b", "a"], ["c", "c", "b", "a", "b"], ["b"]]
    by_marginal, by_path = check_e_step(sentences, 3, 42)
    assert np.any(by_marginal != by_path)  # so that the two decodings are told apart


# --- 2. EM ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("corpus_seed, n_states, eta, seed, alpha", STARTS)
def test_em_never_lowers_the_likelihood(corpus_seed, n_states, eta, seed, alpha):
    model = HmmModel(hmm_corpus(corpus_seed), n_states, alpha=alpha, alpha_emit=alpha)
    assert_never_falls(objectives(model, "em", seed, eta), "EM")


def test_em_objective_is_the_likelihood_of_its_parameters():
    sentences = [["a", "b", "a"], ["b", "c"], ["c", "a", "b", "b"]]
    vocabulary, coded = encode(sentences)
    run = Run(HmmModel(sentences, 3), "em", seed=5, init={"eta": 0.3}, total_sweeps=10)
    for _ in range(5):
        run.sweep()
    theta = run.sampler.buffers(run.state)["theta"]
    trans, emit = unflatten(theta, 3, len(vocabulary))
    np.testing.assert_allclose(trans.sum(axis=1), 1.0, rtol=REL)
    np.testing.assert_allclose(emit[1:].sum(axis=1), 1.0, rtol=REL)
    assert run.trace_frame()["objective"].iloc[-1] == pytest.approx(
        enumerate_hmm(coded, trans, emit)[0], rel=REL)


# --- 3. variational Bayes -------------------------------------------------------------------------
@pytest.mark.parametrize("corpus_seed, n_states, eta, seed, alpha", STARTS)
def test_vb_never_lowers_its_bound(corpus_seed, n_states, eta, seed, alpha):
    model = HmmModel(hmm_corpus(corpus_seed), n_states, alpha=alpha, alpha_emit=alpha)
    assert_never_falls(objectives(model, "vb", seed, eta), "VB")


@pytest.mark.parametrize("sentences, n_states, alpha, alpha_emit, seed", [
    ([["a", "b", "a"], ["b", "a"]], 2, 0.5, 0.5, 1),
    ([["a", "b", "c", "a"], ["c", "b"], ["a", "a"]], 2, 0.1, 0.3, 2),
    ([["a", "b", "a"], ["b", "c"]], 3, 1.0, 0.1, 3),
    ([["x", "y"], ["y", "x", "y", "x"]], 3, 0.05, 2.0, 4),
])
def test_vb_bound_is_below_the_evidence(sentences, n_states, alpha, alpha_emit, seed):
    model = HmmModel(sentences, n_states, alpha=alpha, alpha_emit=alpha_emit)
    bound = objectives(model, "vb", seed, eta=0.5, iterations=30)
    evidence = log_evidence(sentences, n_states, alpha, alpha_emit)
    assert np.all(bound <= evidence + REL * abs(evidence)), (bound.max(), evidence)


def test_vb_objective_is_the_bound_of_its_parameters():
    """F of iteration t + 1 = log Z̃(θ̃) − KL(Dir(a) ‖ prior), θ̃ and a = expected + prior being
    what its M-step made of the expected counts iteration t's E-step left."""
    sentences = [["a", "b", "a"], ["b", "c"], ["c", "a", "b", "b"]]
    vocabulary, coded = encode(sentences)
    alpha, alpha_emit = 0.2, 0.7
    run = Run(HmmModel(sentences, 3, alpha=alpha, alpha_emit=alpha_emit), "vb", seed=6,
              init={"eta": 0.3}, total_sweeps=10)
    for _ in range(4):
        run.sweep()
    b = run.sampler.buffers(run.state)
    expected = b["expected"].copy()
    run.sweep()
    theta = b["theta"]
    e_trans, e_emit = unflatten(expected, 3, len(vocabulary), parameters=False)
    ref_trans, ref_emit, kl = vb_reference(e_trans, e_emit, alpha, alpha_emit)
    trans, emit = unflatten(theta, 3, len(vocabulary))
    np.testing.assert_allclose(trans, ref_trans, rtol=REL, atol=1e-300)
    np.testing.assert_allclose(emit, ref_emit, rtol=REL, atol=1e-300)
    assert run.trace_frame()["objective"].iloc[-1] == pytest.approx(
        enumerate_hmm(coded, trans, emit)[0] - kl, rel=REL)


# --- 4. the M-step --------------------------------------------------------------------------------
M_STEP_CASES = [(0.1, 0.1, 0), (0.5, 2.0, 1), (1e-3, 0.05, 2), (3.0, 1e-4, 3)]


def m_step_case(alpha, alpha_emit, seed, variational):
    """Random expected counts (a few exact zeros) for K = 3, V = 4, and reestimate's
    (theta, return value)."""
    rng = np.random.default_rng(seed)
    e_trans = rng.gamma(0.7, 3.0, size=(4, 4)) * (rng.random((4, 4)) > 0.15)
    e_emit = rng.gamma(0.7, 3.0, size=(4, 4)) * (rng.random((4, 4)) > 0.15)
    e_emit[0] = 0.0
    state = HmmModel([["a", "b", "c"], ["d", "a"]], 3, alpha=alpha,
                     alpha_emit=alpha_emit).new_state(make_rng(seed))
    theta, expected, _, work = buffers(state)
    expected[:] = flatten(e_trans, e_emit, len(expected))
    out = m_step(state, expected, theta, variational, work)
    return e_trans, e_emit, unflatten(theta, 3, 4), out


@pytest.mark.parametrize("alpha, alpha_emit, seed", M_STEP_CASES)
def test_vb_m_step_matches_scipy(alpha, alpha_emit, seed):
    e_trans, e_emit, (trans, emit), kl = m_step_case(alpha, alpha_emit, seed, True)
    ref_trans, ref_emit, ref_kl = vb_reference(e_trans, e_emit, alpha, alpha_emit)
    np.testing.assert_allclose(trans, ref_trans, rtol=REL, atol=1e-300)
    np.testing.assert_allclose(emit, ref_emit, rtol=REL, atol=1e-300)
    assert kl == pytest.approx(ref_kl, rel=REL, abs=1e-12)


@pytest.mark.parametrize("alpha, alpha_emit, seed", M_STEP_CASES)
def test_em_m_step_normalises_the_expected_counts(alpha, alpha_emit, seed):
    e_trans, e_emit, (trans, emit), out = m_step_case(alpha, alpha_emit, seed, False)
    assert out == 0.0
    np.testing.assert_allclose(trans, e_trans / e_trans.sum(axis=1, keepdims=True), rtol=REL)
    np.testing.assert_allclose(emit[1:], e_emit[1:] / e_emit[1:].sum(axis=1, keepdims=True),
                               rtol=REL)
    assert np.all(emit[0] == 0.0)


# --- 5. Dirichlet draws and the special functions -------------------------------------------------
@pytest.mark.parametrize("prior", [0.5, 0.01])
def test_parameter_draws_have_the_dirichlet_moments(prior):
    sentences = [["a", "b", "a"], ["b", "c"], ["c", "a", "d", "b"]]
    tags = [[1, 2, 1], [2, 3], [3, 1, 2, 2]]
    vocabulary, coded = encode(sentences)
    k1, v = 4, len(vocabulary)
    state = HmmModel(sentences, 3, alpha=prior, alpha_emit=prior).state_from_tags(
        np.concatenate(tags))
    draws = np.full((40_000, estimators.count_parameters(state)), np.nan)
    draw_many(make_rng(17), state, draws)
    n = len(draws)
    t, into, e = layout(3, v, draws.shape[1])
    trans = draws[:, t].reshape(n, k1, k1)
    emit = draws[:, e].reshape(n, v, k1).transpose(0, 2, 1)  # [draw, state, word]
    np.testing.assert_array_equal(draws[:, into].reshape(n, k1, k1), trans.transpose(0, 2, 1),
                                  err_msg="the transposed copy")
    assert np.all(emit[:, 0] == 0.0)  # the boundary emits nothing
    np.testing.assert_allclose(trans.sum(axis=2), 1.0, rtol=1e-12)
    np.testing.assert_allclose(emit[:, 1:].sum(axis=2), 1.0, rtol=1e-12)
    # every distribution (K + 1 transition rows, K emission rows): a = counts + prior
    n_trans, n_emit = counts_of(coded, tags, 3, v)
    a_rows = [row + prior for row in n_trans] + [row + prior for row in n_emit[1:]]
    a = np.concatenate(a_rows)
    a0 = np.concatenate([np.full(len(row), row.sum()) for row in a_rows])
    group = np.concatenate([np.full(len(row), i) for i, row in enumerate(a_rows)])
    got = np.hstack([trans.reshape(n, -1), emit[:, 1:].reshape(n, -1)])
    mean, var = a / a0, a * (a0 - a) / (a0 ** 2 * (a0 + 1))
    kurtosis = np.array([stats.beta(x, x0 - x).stats(moments="k") for x, x0 in zip(a, a0)])
    mu4 = (kurtosis + 3.0) * var ** 2
    z_mean = (got.mean(axis=0) - mean) / np.sqrt(var / n)
    z_var = (got.var(axis=0, ddof=1) - var) / np.sqrt((mu4 - var ** 2 * (n - 3) / (n - 1)) / n)
    assert np.max(np.abs(z_mean)) < 5, z_mean
    assert np.max(np.abs(z_var)) < 5, z_var
    # each entry's whole law, Beta(a, a0 − a): for a small prior the moments hang on rare large
    # draws, while the log-space path shapes the many tiny ones (down to e^-700). An entry near
    # 1 is tested by the sum of its distribution's other entries, ~ Beta(a0 − a, a): 1 − x
    # itself is lost to rounding below 1e-16
    p_values = []
    for i, (x, x0) in enumerate(zip(a, a0)):
        if x <= x0 / 2:
            p_values.append(stats.kstest(got[:, i], stats.beta(x, x0 - x).cdf).pvalue)
        else:
            others = got[:, (group == group[i]) & (np.arange(len(a)) != i)].sum(axis=1)
            p_values.append(stats.kstest(others, stats.beta(x0 - x, x).cdf).pvalue)
    assert min(p_values) > 1e-6, p_values


def test_log_gamma_digamma_matches_scipy():
    x = np.concatenate([np.logspace(-9, 6, 1501),
                        [0.5, 1.0, 1.4616321449683622, 2.0, 9.999999, 10.0, 10.000001, 11.5]])
    got = np.array([log_gamma_digamma(v) for v in x])
    for column, reference in ((0, gammaln(x)), (1, digamma(x))):
        error = np.abs(got[:, column] - reference) / np.maximum(1.0, np.abs(reference))
        worst = int(np.argmax(error))
        assert error[worst] < 1e-12, (("log Γ", "ψ")[column], x[worst], got[worst, column],
                                      reference[worst])
