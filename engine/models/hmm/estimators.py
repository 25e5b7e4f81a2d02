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

from engine.core.dirichlet import draw_dirichlets
from engine.core.jit import inline, kernel
from engine.core.special import log_gamma_digamma
from engine.kernels import interface
from engine.kernels.forward_backward import backward_expectations, best_path
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT, DECODE, VITERBI, implements
from engine.models.hmm.kernels.neighbours import next_state, prev_state
from engine.models.hmm.sentence import backward_sample, forward_filter, longest_sentence


# views of a flat array are made in their caller (inlined): a kernel without reference counting
# cannot return a new array
@inline
def transitions(state, flat):
    """The transition block of a flat parameter array.

    Parameters
    ----------
    state : HmmState
    flat : float64[parameter_size(state)]

    Returns
    -------
    float64[K+1, K+1]
        A view, row = from.
    """
    k1 = state.trans.shape[0]
    return flat[:k1 * k1].reshape((k1, k1))


@inline
def transitions_into(state, flat):
    """The transposed transitions of a flat parameter array.

    Parameters
    ----------
    state : HmmState
    flat : float64[parameter_size(state)]

    Returns
    -------
    float64[K+1, K+1]
        A view, row n = θ_{·→n}.
    """
    k1 = state.trans.shape[0]
    return flat[k1 * k1:2 * k1 * k1].reshape((k1, k1))


@inline
def emissions(state, flat):
    """The emission block of a flat parameter array, word-major.

    Parameters
    ----------
    state : HmmState
    flat : float64[parameter_size(state)]

    Returns
    -------
    float64[V, K+1]
        A view, row w = φ_·(w).
    """
    k1 = state.trans.shape[0]
    return flat[2 * k1 * k1:].reshape((state.emit.shape[1], k1))


@kernel
def transpose(square, out):
    """out[n, k] = square[k, n].

    Parameters
    ----------
    square : float64[K+1, K+1]
    out : float64[K+1, K+1]
        Output.
    """
    for k in range(square.shape[0]):
        for n in range(square.shape[0]):
            out[n, k] = square[k, n]


@kernel
def sentence_emissions(state, emit_t, first, emit_q):
    """emit_q[t] = φ_·(w_{first + t}) for the sentence's tokens.

    Parameters
    ----------
    state : HmmState
    emit_t : float64[V, K+1]
    first : int
    emit_q : float64[L, K+1]
        Output.
    """
    for t in range(emit_q.shape[0]):
        row = emit_t[state.words[first + t]]
        for k in range(emit_q.shape[1]):
            emit_q[t, k] = row[k]


@implements(interface.parameter_size)
def _parameter_size(state):
    """interface.parameter_size: 2(K+1)² + V(K+1).

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    k1 = state.trans.shape[0]
    return 2 * k1 * k1 + state.emit.shape[1] * k1


@implements(interface.draw_parameters)
def _draw_parameters(rng, state, theta):
    """interface.draw_parameters: each transition row and each state's emissions from its
    Dirichlet posterior (Gao & Johnson eq. 5).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
    theta : float64[parameter_size(state)]
        Output.
    """
    trans, into = transitions(state, theta), transitions_into(state, theta)
    # the rows are drawn as columns: the transitions into their transposed copy, then
    # transposed; until then the transitions' first row serves as the draws' work
    draw_dirichlets(rng, state.trans, state.params[ALPHA], state.gammas[0], 0, into, trans[0])
    draw_dirichlets(rng, state.emit, state.params[ALPHA_EMIT], state.gammas[1], 1,
                    emissions(state, theta), trans[0])
    transpose(into, trans)


@implements(interface.explicit_weights)
def _explicit_weights(state, theta, s, w):
    """interface.explicit_weights: θ_{p→k} φ_k(word) θ_{k→n} (eq. 6), from three slices of
    theta indexed from 0: indexed by offsets into theta, the loop's indexes could be negative
    for all Numba knows, and it gathered its operands one by one (an explicit TOKEN pass took
    1.6 times as long).

    Parameters
    ----------
    state : HmmState
    theta : float64[parameter_size(state)]
        The parameters (the module's layout).
    s : int
    w : float64[K]
        Output.
    """
    k1 = state.trans.shape[0]
    from_p = theta[prev_state(state, s) * k1 + 1:]
    into_n = theta[k1 * k1 + next_state(state, s) * k1 + 1:]
    emit = theta[2 * k1 * k1 + state.words[s] * k1 + 1:]
    for k in range(k1 - 1):
        w[k] = from_p[k] * emit[k] * into_n[k]


@implements(interface.explicit_sentence)
def _explicit_sentence(rng, state, theta, u, new, work):
    """interface.explicit_sentence: forward filtering, backward sampling under theta. The work is
    laid out as SENTENCE's (hmm.sentence.sentence_work_size): emit_q[L, K+1] | forward[L, K+1] |
    then K+1 each for the weights and a scale of ones.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
    theta : float64[parameter_size(state)]
        The parameters (the module's layout).
    u : int
    new : int64[≥ L]
        Output.
    work : float64[sentence_work_size(state)]
    """
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
    """interface.estimate_work_size: (K+1)² + 3·L(K+1) + 3(K+1), L the longest sentence.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    k1 = state.trans.shape[0]
    return k1 * k1 + 3 * longest_sentence(state) * k1 + 3 * k1


@implements(interface.expected_from_values)
def _expected_from_values(state, expected, pseudo):
    """interface.expected_from_values.

    Parameters
    ----------
    state : HmmState
    expected : float64[parameter_size(state)]
        Output.
    pseudo : float64
    """
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
    """interface.expected_counts: forward-backward sentence by sentence. The work is
    xi[K+1, K+1] | beta, b, ones [K+1] | emit_q, forward, gamma [L, K+1].

    Parameters
    ----------
    state : HmmState
    theta : float64[parameter_size(state)]
        The parameters (the module's layout).
    expected : float64[parameter_size(state)]
        Output.
    decoded : int64[N]
        Output.
    work : float64[estimate_work_size(state)]

    Returns
    -------
    float
    """
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
    from its posterior marginals.

    Parameters
    ----------
    state : HmmState
    first : int
    gamma : float64[L, K+1]
    e_trans : float64[K+1, K+1]
        Mutated (added to).
    e_emit : float64[V, K+1]
        Mutated (added to).
    """
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
    """Posterior decoding: out[t] = argmax_k γ_t(k) − 1 (ties to the smaller).

    Parameters
    ----------
    gamma : float64[L, K+1]
    out : int64[L]
        Output.
    """
    for t in range(gamma.shape[0]):
        best = 1
        for k in range(2, gamma.shape[1]):
            if gamma[t, k] > gamma[t, best]:
                best = k
        out[t] = best - 1


@implements(interface.reestimate)
def _reestimate(state, expected, theta, variational, work):
    """interface.reestimate: every transition row, then each state's emissions (a column of the
    word-major tables), by EM's or VB's M-step.

    Parameters
    ----------
    state : HmmState
    expected : float64[parameter_size(state)]
    theta : float64[parameter_size(state)]
        The parameters (the module's layout).
        Output.
    variational : bool
    work : float64[estimate_work_size(state)]

    Returns
    -------
    float
    """
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
    is expected in (a state no token is in) stays uniform, as it has no likelihood to raise.

    Parameters
    ----------
    expected : float64[m]
    out : float64[m]
        Output.
    """
    row_total = 0.0
    for v in expected:
        row_total += v
    for k in range(out.shape[0]):
        out[k] = expected[k] / row_total if row_total > 0.0 else 1.0 / out.shape[0]


@kernel
def variational_row(expected, prior, out):
    """VB's M-step for one distribution (eq. 4): q = Dir(a), a = expected + prior, and
    out[k] = exp(ψ(a_k) − ψ(Σ a)).

    Parameters
    ----------
    expected : float64[m]
    prior : float64
    out : float64[m]
        Output.

    Returns
    -------
    float
        KL(Dir(a) ‖ Dir(prior, …, prior)).
    """
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
    """variational_row for every state's emissions at once, word-major.

    Parameters
    ----------
    e_emit : float64[V, K+1]
    prior : float64
    totals : float64[K+1]
        totals[k] = Σ_w e_emit[w, k].
    psi_total : float64[K+1]
        Work.
    emit_t : float64[V, K+1]
        Output.

    Returns
    -------
    float
        The states' KL sum.
    """
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
