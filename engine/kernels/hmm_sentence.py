"""SENTENCE for the HMM: a sentence's whole tagging in one move (Gao & Johnson §3, eq. 7).

The proposal is the HMM whose parameters are the other sentences' posterior predictive
probabilities, held fixed while the sentence is tagged,
    θ_{j→k} = (n_{jk} + α) / (n_{j·} + (K+1)α),   φ_k(w) = (n_{kw} + α′) / (n_k + Vα′),
so forward filtering, backward sampling draws a tagging from it exactly in O(L K²). The exact
probability of a tagging instead updates the counts after each of the sentence's own choices.
"""
import numpy as np

from engine.core.draw import draw_weights
from engine.core.jit import kernel
from engine.kernels import interface
from engine.kernels.hmm import ALPHA, ALPHA_EMIT, file_site, implements, unfile_site


@implements(interface.n_sentences)
def _n_sentences(state):
    return state.sent_start.shape[0] - 1


@implements(interface.sentence_sites)
def _sentence_sites(state, u):
    return state.sent_start[u], state.sent_start[u + 1]


@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    longest = 0
    for u in range(state.sent_start.shape[0] - 1):
        longest = max(longest, state.sent_start[u + 1] - state.sent_start[u])
    k1 = state.trans.shape[0]
    return (longest + 1) * (k1 - 1) + k1 * k1


@kernel
def log_trans(state, j, k):
    """log θ_{j→k} from the counts now in the state (predictive, Dirichlet(α) row)."""
    alpha = state.params[ALPHA]
    return np.log((state.trans[j, k] + alpha)
                  / (state.trans_total[j] + state.trans.shape[0] * alpha))


@kernel
def log_emit(state, k, word):
    alpha_emit = state.params[ALPHA_EMIT]
    return np.log((state.emit[k, word] + alpha_emit)
                  / (state.emit_total[k] + state.emit.shape[1] * alpha_emit))


@kernel
def count(state, j, k, word, sign):
    """One choice: the transition j → k and, unless k is the boundary 0, k emitting word."""
    state.trans[j, k] += sign
    state.trans_total[j] += sign
    if k != 0:
        state.emit[k, word] += sign
        state.emit_total[k] += sign


@implements(interface.sentence_remove)
def _sentence_remove(state, u):
    # last choice first, so the terms are the chain rule's in corpus order
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    last_tag = state.tag[stop - 1]
    count(state, last_tag, 0, 0, -1)
    total = log_trans(state, last_tag, 0)
    for s in range(stop - 1, first - 1, -1):
        j = 0 if s == first else state.tag[s - 1]
        k, word = state.tag[s], state.words[s]
        count(state, j, k, word, -1)
        total += log_trans(state, j, k) + log_emit(state, k, word)
    return total


@implements(interface.sentence_add)
def _sentence_add(state, u, values):
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    # the sentence's tokens change type with its tags (types never reach across sentences)
    for s in range(first, stop):
        unfile_site(state, s)
    for s in range(first, stop):
        state.tag[s] = values[s - first] + 1
    for s in range(first, stop):
        file_site(state, s)
    total = 0.0
    for s in range(first, stop):
        j = 0 if s == first else state.tag[s - 1]
        k, word = state.tag[s], state.words[s]
        total += log_trans(state, j, k) + log_emit(state, k, word)
        count(state, j, k, word, 1)
    last_tag = state.tag[stop - 1]
    total += log_trans(state, last_tag, 0)
    count(state, last_tag, 0, 0, 1)
    return total


@kernel
def tagging_log_q(state, first, stop, inv_temp, values):
    """inv_temp · log q of a tagging (values = states − 1) under the frozen proposal HMM."""
    total = 0.0
    j = 0
    for s in range(first, stop):
        k = values[s - first] + 1
        total += log_trans(state, j, k) + log_emit(state, k, state.words[s])
        j = k
    return inv_temp * (total + log_trans(state, j, 0))


@kernel
def proposal_transitions(state, inv_temp, theta):
    """theta[j, k] = θ_{j→k}^inv_temp from the counts now in the state (the frozen proposal's
    transitions; computed once per sentence, so the forward pass only multiplies)."""
    alpha = state.params[ALPHA]
    k1 = state.trans.shape[0]
    for j in range(k1):
        denominator = state.trans_total[j] + k1 * alpha
        for k in range(k1):
            theta[j, k] = (state.trans[j, k] + alpha) / denominator
            if inv_temp != 1.0:
                theta[j, k] = theta[j, k] ** inv_temp


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    k1 = state.trans.shape[0]
    n_states = k1 - 1
    length = stop - first
    theta = work[:k1 * k1].reshape((k1, k1))
    proposal_transitions(state, inv_temp, theta)
    # forward[t, k − 1] ∝ q(tags up to t, tag t = k), each row rescaled to sum 1 (log_z keeps
    # the scales); the row after the last holds the backward step's weights
    forward = work[k1 * k1:k1 * k1 + (length + 1) * n_states].reshape((length + 1, n_states))
    log_z = 0.0
    for t in range(length):
        word = state.words[first + t]
        row_sum = 0.0
        for k in range(1, k1):
            if t == 0:
                into = theta[0, k]
            else:
                into = 0.0
                for j in range(1, k1):
                    into += forward[t - 1, j - 1] * theta[j, k]
            emit = np.exp(log_emit(state, k, word) * inv_temp)
            forward[t, k - 1] = into * emit
            row_sum += forward[t, k - 1]
        for k in range(n_states):
            forward[t, k] /= row_sum
        log_z += np.log(row_sum)
    weights = forward[length]
    end_sum = 0.0
    for k in range(1, k1):
        weights[k - 1] = forward[length - 1, k - 1] * theta[k, 0]
        end_sum += weights[k - 1]
    log_z += np.log(end_sum)
    # backward: the last tag from its end weights, then each tag given the one after it
    k_next = draw_weights(rng, weights, n_states) + 1
    new[length - 1] = k_next - 1
    for t in range(length - 2, -1, -1):
        for j in range(1, k1):
            weights[j - 1] = forward[t, j - 1] * theta[j, k_next]
        k_next = draw_weights(rng, weights, n_states) + 1
        new[t] = k_next - 1
    return (tagging_log_q(state, first, stop, inv_temp, new) - log_z,
            tagging_log_q(state, first, stop, inv_temp, old) - log_z)
