"""The HMM's explicit parameters, for Gao & Johnson's explicit Gibbs samplers, EM and
variational Bayes (their §2): the model-interface functions of the parameters group.

``theta`` (float64[2(K+1)² + V(K+1)]) holds θ, the transitions, as trans[j, k] (row = from,
over the K + 1 outcomes 0 … K as in the collapsed model); the same transposed, into[n, k] =
θ_{k→n}; then φ, the emissions, word-major as emit_t[w, k] = φ_k(w). A token's weights over k
(eq. 6) thus read three contiguous rows — trans[p], emit_t[word], into[n] — and vectorise.
Column 0 of emit_t, the boundary, is 0. ``expected`` holds expected counts in the same layout
(its transposed block unused).
"""
import math

from engine.core.dirichlet import draw_dirichlet
from engine.core.jit import inline, kernel
from engine.core.special import log_gamma_digamma
from engine.kernels import interface
from engine.kernels.forward_backward import backward_expectations, best_path
from engine.models.hmm.kernels import (ALPHA, ALPHA_EMIT, DECODE, VITERBI, implements, next_state,
                                prev_state)
from engine.models.hmm.sentence import backward_sample, forward_filter, longest_sentence


# views of a flat array are made in their caller (inlined): a kernel without reference counting
# cannot return a new array
@inline
def transitions(state, flat):
    """The transition block of a flat parameter array: float64[K+1, K+1]."""
    k1 = state.trans.shape[0]
    return flat[:k1 * k1].reshape((k1, k1))


@inline
def transitions_into(state, flat):
    """The transposed transitions of a flat parameter array: float64[K+1, K+1], row n = θ_{·→n}."""
    k1 = state.trans.shape[0]
    return flat[k1 * k1:2 * k1 * k1].reshape((k1, k1))


@inline
def emissions(state, flat):
    """The emission block of a flat parameter array, word-major: float64[V, K+1]."""
    k1 = state.trans.shape[0]
    return flat[2 * k1 * k1:].reshape((state.emit.shape[1], k1))


@kernel
def transpose(trans, into):
    """into[n, k] = trans[k, n] (float64[K+1, K+1] each)."""
    for k in range(trans.shape[0]):
        for n in range(trans.shape[0]):
            into[n, k] = trans[k, n]


@kernel
def sentence_emissions(state, emit_t, first, emit_q):
    """emit_q[t] = φ_·(w_{first + t}) for the sentence's tokens (float64[L, K+1])."""
    for t in range(emit_q.shape[0]):
        row = emit_t[state.words[first + t]]
        for k in range(emit_q.shape[1]):
            emit_q[t, k] = row[k]


@implements(interface.parameter_size)
def _parameter_size(state):
    k1 = state.trans.shape[0]
    return 2 * k1 * k1 + state.emit.shape[1] * k1


@implements(interface.draw_parameters)
def _draw_parameters(rng, state, theta):
    trans, emit_t = transitions(state, theta), emissions(state, theta)
    for j in range(trans.shape[0]):
        draw_dirichlet(rng, state.trans[j], state.params[ALPHA], trans[j])
    transpose(trans, transitions_into(state, theta))
    emit_t[:, 0] = 0.0
    for k in range(1, trans.shape[0]):
        draw_dirichlet(rng, state.emit[k], state.params[ALPHA_EMIT], emit_t[:, k])


@implements(interface.explicit_weights)
def _explicit_weights(state, theta, s, w):
    # offsets into theta rather than views: this runs once per token, and a view costs more
    # than the token's K products
    k1 = state.trans.shape[0]
    from_p = prev_state(state, s) * k1
    into_n = k1 * k1 + next_state(state, s) * k1
    emit = 2 * k1 * k1 + state.words[s] * k1
    for k in range(1, k1):
        w[k - 1] = theta[from_p + k] * theta[emit + k] * theta[into_n + k]


@implements(interface.explicit_sentence)
def _explicit_sentence(rng, state, theta, u, new, work):
    # the work is laid out as SENTENCE's (hmm_sentence.sentence_work_size): emit_q[L, K+1] |
    # forward[L, K+1] | then K+1 each for the weights and a scale of ones
    trans, emit_t = transitions(state, theta), emissions(state, theta)
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    k1 = trans.shape[0]
    size = (stop - first) * k1
    emit_q = work[:size].reshape((stop - first, k1))
    forward = work[size:2 * size].reshape((stop - first, k1))
    weights = work[2 * size:2 * size + k1]
    ones = work[2 * size + k1:2 * size + 2 * k1]
    ones[:] = 1.0
    sentence_emissions(state, emit_t, first, emit_q)
    forward_filter(trans, ones, emit_q, forward)
    backward_sample(rng, trans, ones, forward, weights, new)


@implements(interface.estimate_work_size)
def _estimate_work_size(state):
    k1 = state.trans.shape[0]
    return k1 * k1 + 3 * longest_sentence(state) * k1 + 3 * k1


@implements(interface.expected_from_values)
def _expected_from_values(state, expected, pseudo):
    e_trans, e_emit = transitions(state, expected), emissions(state, expected)
    k1 = state.trans.shape[0]
    for j in range(k1):
        for k in range(k1):
            e_trans[j, k] = state.trans[j, k] + pseudo * state.params[ALPHA]
    for w in range(state.emit.shape[1]):
        e_emit[w, 0] = 0.0
        for k in range(1, k1):
            e_emit[w, k] = state.emit[k, w] + pseudo * state.params[ALPHA_EMIT]


@implements(interface.expected_counts)
def _expected_counts(state, theta, expected, decoded, work):
    trans, emit_t = transitions(state, theta), emissions(state, theta)
    e_trans, e_emit = transitions(state, expected), emissions(state, expected)
    k1 = trans.shape[0]
    # work: xi[K+1, K+1] | emit_q, forward, gamma [L, K+1] | beta, b, ones [K+1]
    xi = work[:k1 * k1].reshape((k1, k1))
    rest = work[k1 * k1:]
    beta, b, ones = rest[:k1], rest[k1:2 * k1], rest[2 * k1:3 * k1]
    buffers = rest[3 * k1:]
    ones[:] = 1.0
    xi[:] = 0.0
    expected[:] = 0.0
    viterbi = state.params[DECODE] == VITERBI
    log_z = 0.0
    for u in range(state.sent_start.shape[0] - 1):
        first, stop = state.sent_start[u], state.sent_start[u + 1]
        size = (stop - first) * k1
        emit_q = buffers[:size].reshape((stop - first, k1))
        forward = buffers[size:2 * size].reshape((stop - first, k1))
        gamma = buffers[2 * size:3 * size].reshape((stop - first, k1))
        sentence_emissions(state, emit_t, first, emit_q)
        log_z += forward_filter(trans, ones, emit_q, forward)
        backward_expectations(trans, emit_q, forward, beta, b, xi, gamma)
        add_sentence_expectations(state, first, gamma, e_trans, e_emit)
        if viterbi:
            # the forward pass and the marginals are used: their rows are Viterbi's work
            best_path(trans, emit_q, forward, gamma, beta, decoded[first:stop])
        else:
            max_marginals(gamma, decoded[first:stop])
    for j in range(1, k1):
        for k in range(k1):
            e_trans[j, k] += trans[j, k] * xi[j, k]
    return log_z


@kernel
def add_sentence_expectations(state, first, gamma, e_trans, e_emit):
    """A sentence's expected emissions, and its transitions out of and back into the boundary,
    from its posterior marginals gamma (float64[L, K+1])."""
    last = gamma.shape[0] - 1
    for k in range(1, gamma.shape[1]):
        e_trans[0, k] += gamma[0, k]
        e_trans[k, 0] += gamma[last, k]
    for t in range(gamma.shape[0]):
        row = e_emit[state.words[first + t]]
        g = gamma[t]
        for k in range(1, gamma.shape[1]):
            row[k] += g[k]


@kernel
def max_marginals(gamma, out):
    """Posterior decoding: out[t] = argmax_k γ_t(k) − 1 (int64[L]; ties to the smaller)."""
    for t in range(gamma.shape[0]):
        best = 1
        for k in range(2, gamma.shape[1]):
            if gamma[t, k] > gamma[t, best]:
                best = k
        out[t] = best - 1


@implements(interface.reestimate)
def _reestimate(state, expected, theta, variational, work):
    trans, emit_t = transitions(state, theta), emissions(state, theta)
    e_trans, e_emit = transitions(state, expected), emissions(state, expected)
    k1 = trans.shape[0]
    totals, psi_total = work[:k1], work[k1:2 * k1]
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    kl = 0.0
    for j in range(k1):
        if variational:
            kl += variational_row(e_trans[j], alpha, trans[j])
        else:
            likeliest_row(e_trans[j], trans[j])
    transpose(trans, transitions_into(state, theta))
    # emissions: each state's distribution over words is a column of the word-major tables
    totals[:] = 0.0
    for w in range(e_emit.shape[0]):
        for k in range(1, k1):
            totals[k] += e_emit[w, k]
    if variational:
        return kl + variational_emissions(e_emit, alpha_emit, totals, psi_total, emit_t)
    # φ_k = expected / total, or uniform for a state nothing is expected in (as likeliest_row)
    offset = psi_total
    for k in range(1, k1):
        offset[k] = 0.0 if totals[k] > 0.0 else 1.0 / e_emit.shape[0]
        totals[k] = 1.0 / totals[k] if totals[k] > 0.0 else 0.0
    for w in range(e_emit.shape[0]):
        for k in range(1, k1):
            emit_t[w, k] = e_emit[w, k] * totals[k] + offset[k]
        emit_t[w, 0] = 0.0
    return 0.0


@kernel
def likeliest_row(expected, out):
    """EM's M-step for one distribution (eq. 2): out = expected / Σ expected; a row nothing
    is expected in (a state no token is in) stays uniform, as it has no likelihood to raise."""
    row_total = 0.0
    for v in expected:
        row_total += v
    for k in range(out.shape[0]):
        out[k] = expected[k] / row_total if row_total > 0.0 else 1.0 / out.shape[0]


@kernel
def variational_row(expected, prior, out):
    """VB's M-step for one distribution (eq. 4): q = Dir(a), a = expected + prior, and
    out[k] = exp(ψ(a_k) − ψ(Σ a)); return KL(Dir(a) ‖ Dir(prior, …, prior))."""
    m = out.shape[0]
    a_total = 0.0
    for v in expected:
        a_total += v + prior
    lg_total, psi_total = log_gamma_digamma(a_total)
    lg_prior, _ = log_gamma_digamma(prior)
    lg_prior_total, _ = log_gamma_digamma(m * prior)
    kl = lg_total - lg_prior_total + m * lg_prior
    for k in range(m):
        a = expected[k] + prior
        lg, psi = log_gamma_digamma(a)
        out[k] = math.exp(psi - psi_total)
        kl += (a - prior) * (psi - psi_total) - lg
    return kl


@kernel
def variational_emissions(e_emit, prior, totals, psi_total, emit_t):
    """variational_row for every state's emissions at once, word-major (float64[V, K+1]);
    totals[k] holds Σ_w e_emit[w, k] and psi_total is work. Return the states' KL sum."""
    k1, v_size = emit_t.shape[1], emit_t.shape[0]
    lg_prior, _ = log_gamma_digamma(prior)
    lg_prior_total, _ = log_gamma_digamma(v_size * prior)
    kl = 0.0
    for k in range(1, k1):
        lg_total, psi_total[k] = log_gamma_digamma(totals[k] + v_size * prior)
        kl += lg_total - lg_prior_total + v_size * lg_prior
    for w in range(v_size):
        emit_t[w, 0] = 0.0
        for k in range(1, k1):
            a = e_emit[w, k] + prior
            lg, psi = log_gamma_digamma(a)
            emit_t[w, k] = math.exp(psi - psi_total[k])
            kl += (a - prior) * (psi - psi_total[k]) - lg
    return kl
