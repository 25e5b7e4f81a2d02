"""SENTENCE for the HMM: a sentence's whole tagging in one move (Gao & Johnson §3, eq. 7).

The proposal is the HMM whose parameters are the other sentences' posterior predictive
probabilities, held fixed while the sentence is tagged,
    θ_{j→k} = (n_{jk} + α) / (n_{j·} + (K+1)α),   φ_k(w) = (n_{kw} + α′) / (n_k + Vα′),
so forward filtering, backward sampling draws a tagging from it exactly in O(L K²). The exact
probability of a tagging instead updates the counts after each of the sentence's own choices.

Both run in linear space: a log or an exp costs several divisions, so products of probabilities
go to the log only when they grow small, and the forward pass rescales each position instead.
"""
import numpy as np

from engine.core.draw import draw_weights
from engine.core.jit import kernel
from engine.core.special import total
from engine.kernels import interface, sentence
from engine.models.hmm.kernels.counts import add_emission, add_trans, refresh_den
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT, implements
from engine.models.hmm.kernels.neighbours import (file_under, next_state, prev_state, type_key,
                                                  unfile_site)

# A running product of probabilities moves into its log once below this. One factor (a
# transition and an emission) is at least about (α / N)(α′ / N) — 1e-27 even for α = α′ = 1e-9
# and a million tokens — so the product never underflows.
TINY = 1e-150


@implements(interface.n_sentences)
def _n_sentences(state):
    """interface.n_sentences.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    return state.sent_start.shape[0] - 1


@implements(interface.sentence_sites)
def _sentence_sites(state, u):
    """interface.sentence_sites: the sentence's tokens.

    Parameters
    ----------
    state : HmmState
    u : int

    Returns
    -------
    (int, int)
    """
    return state.sent_start[u], state.sent_start[u + 1]


@kernel
def longest_sentence(state):
    """The number of tokens of the corpus's longest sentence.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    longest = 0
    for u in range(state.sent_start.shape[0] - 1):
        longest = max(longest, state.sent_start[u + 1] - state.sent_start[u])
    return longest


@implements(interface.sentence_work_size)
def _sentence_work_size(state):
    """interface.sentence_work_size: 2·L(K+1) + (K+1)² + 3(K+1), L the longest sentence.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    k1 = state.trans.shape[0]
    return 2 * longest_sentence(state) * k1 + k1 * k1 + 3 * k1


@kernel
def fold_small(log_total, product):
    """(log_total, product) with the product moved into the log once it is small.

    Parameters
    ----------
    log_total, product : float64

    Returns
    -------
    (float64, float64)
    """
    if product < TINY:
        return log_total + np.log(product), 1.0
    return log_total, product


@kernel
def count(state, j, k, word, sign):
    """One choice: the transition j → k and, unless k is the boundary 0, k emitting word.
    (inv_den is left to ``refresh_sentence``.)

    Parameters
    ----------
    state : HmmState
        Mutated.
    j, k, word, sign : int
    """
    add_trans(state, j, k, sign)
    state.trans_total[j] += sign
    if k != 0:
        add_emission(state, k, word, sign)


@kernel
def refresh_sentence(state, first, stop):
    """inv_den of the rows a sentence's choices touch: the boundary's and its tags'.

    Parameters
    ----------
    state : HmmState
        Mutated.
    first, stop : int
    """
    refresh_den(state, 0)
    for s in range(first, stop):
        refresh_den(state, state.tag[s])


@kernel
def choice_p(state, j, k, word):
    """The predictive probability θ_{j→k} φ_k(word) of one choice (no emission when k = 0)
    from the counts now in the state.

    Parameters
    ----------
    state : HmmState
    j, k, word : int

    Returns
    -------
    float64
    """
    numerator = state.trans[j, k] + state.params[ALPHA]
    denominator = state.trans_total[j] + state.trans.shape[0] * state.params[ALPHA]
    if k != 0:
        numerator *= state.emit[k, word] + state.params[ALPHA_EMIT]
        denominator *= state.emit_total[k] + state.emit.shape[1] * state.params[ALPHA_EMIT]
    return numerator / denominator


@implements(interface.sentence_remove)
def _sentence_remove(rng, state, u):
    """interface.sentence_remove: the last choice first, so the terms are the chain rule's in
    corpus order.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
        Mutated.
    u : int

    Returns
    -------
    float
    """
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    last_tag = state.tag[stop - 1]
    count(state, last_tag, 0, 0, -1)
    log_p, product = 0.0, choice_p(state, last_tag, 0, 0)
    for s in range(stop - 1, first - 1, -1):
        j = 0 if s == first else state.tag[s - 1]
        k, word = state.tag[s], state.words[s]
        count(state, j, k, word, -1)
        log_p, product = fold_small(log_p, product * choice_p(state, j, k, word))
    refresh_sentence(state, first, stop)
    return log_p + np.log(product)


@implements(interface.sentence_restore)
def _sentence_restore(rng, state, u, values):
    """interface.sentence_restore by re-adding (sentence.restore_by_readding).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
        Mutated.
    u : int
    values : int64[≥ L]
    """
    sentence.restore_by_readding(rng, state, u, values)


@implements(interface.sentence_add)
def _sentence_add(rng, state, u, values):
    """interface.sentence_add. A token's type (p, n, word) changes when a neighbour's tag does,
    and types never reach across sentences: those tokens are refiled first when the type index
    is kept (the tags are still the old ones, which find the old keys), then the tags set.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
        Mutated.
    u : int
    values : int64[≥ L]

    Returns
    -------
    float
    """
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    # a token's type (p, n, word) changes when a neighbour's tag does, and types never reach
    # across sentences: refile those tokens when the type index is kept (the tags are still the
    # old ones, which find the old keys), then set the tags
    for s in range(first, stop):
        p = 0 if s == first else values[s - first - 1] + 1
        n = 0 if s == stop - 1 else values[s - first + 1] + 1
        if state.typed[0] and (p != prev_state(state, s) or n != next_state(state, s)):
            unfile_site(state, s)
            file_under(state, s, type_key(state, p, n, state.words[s]))
    for s in range(first, stop):
        state.tag[s] = values[s - first] + 1
    log_p, product = 0.0, 1.0
    for s in range(first, stop):
        j = 0 if s == first else state.tag[s - 1]
        k, word = state.tag[s], state.words[s]
        log_p, product = fold_small(log_p, product * choice_p(state, j, k, word))
        count(state, j, k, word, 1)
    last_tag = state.tag[stop - 1]
    product *= choice_p(state, last_tag, 0, 0)
    count(state, last_tag, 0, 0, 1)
    refresh_sentence(state, first, stop)
    return log_p + np.log(product)


@kernel
def proposal_parameters(state, inv_temp, theta, scale, emit_scale):
    """The proposal's parameters from the counts now in the state, tempered: θ_{j→k}^β =
    theta[j, k] scale[j] and φ_k(w)^β = ((n_{kw} + α′) emit_scale[k])^β (each reciprocal is
    inv_den times the other denominator: no division).

    Parameters
    ----------
    state : HmmState
    inv_temp : float64
    theta : float64[K+1, K+1]
        Output: (n_{jk} + α)^β.
    scale : float64[K+1]
        Output: (1 / (n_{j·} + (K+1)α))^β.
    emit_scale : float64[K+1]
        Output: 1 / (n_k + Vα′), not tempered.
    """
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    k1, v_size = theta.shape[0], state.emit.shape[1]
    for j in range(k1):
        scale[j] = state.inv_den[j] * (state.emit_total[j] + v_size * alpha_emit)
        emit_scale[j] = state.inv_den[j] * (state.trans_total[j] + k1 * alpha)
        for k in range(k1):
            theta[j, k] = state.trans[j, k] + alpha
    if inv_temp != 1.0:
        for j in range(k1):
            scale[j] = scale[j] ** inv_temp
            for k in range(k1):
                theta[j, k] = theta[j, k] ** inv_temp


@kernel
def proposal_emissions(state, first, inv_temp, emit_scale, emit_q):
    """emit_q[t, k] = φ_k(w_t)^β for the sentence's words from token ``first`` on; column 0,
    the boundary, is 0 (it emits nothing, so it is never a tag inside a sentence).

    Parameters
    ----------
    state : HmmState
    first : int
    inv_temp : float64
    emit_scale : float64[K+1]
        1 / (n_k + Vα′) (``proposal_parameters``).
    emit_q : float64[L, K+1]
        Output, L = the sentence's length.
    """
    k1 = emit_q.shape[1]
    for t in range(emit_q.shape[0]):
        emit = state.emit_num_t[state.words[first + t]]
        row = emit_q[t]
        row[0] = 0.0
        for k in range(1, k1):
            row[k] = emit[k] * emit_scale[k]
        if inv_temp != 1.0:
            for k in range(1, k1):
                row[k] = row[k] ** inv_temp


@kernel
def forward_filter(theta, scale, emit_q, forward):
    """Forward pass of the proposal HMM θ_{j→k} = theta[j, k] scale[j], φ_k(w_t) = emit_q[t, k].

    Parameters
    ----------
    theta : float64[K+1, K+1];  scale : float64[K+1]
    emit_q : float64[L, K+1]
    forward : float64[L, K+1]
        Output: forward[t, k] ∝ q(tags 1 … t, tag t = k), each row rescaled to sum 1.

    Returns
    -------
    float
        log Z, the log of the sum of q's unnormalised weights over all taggings (the row sums
        the rescaling took out, and the end transition).
    """
    k1 = theta.shape[0]
    log_z, z = 0.0, 1.0
    for t in range(forward.shape[0]):
        row = forward[t]
        if t == 0:
            for k in range(k1):
                row[k] = theta[0, k] * scale[0]
        else:
            transition_step(theta, scale, forward[t - 1], row)
        for k in range(k1):
            row[k] *= emit_q[t, k]
        row_sum = total(row)
        inv_sum = 1.0 / row_sum
        for k in range(k1):
            row[k] *= inv_sum
        log_z, z = fold_small(log_z, z * row_sum)
    last = forward[forward.shape[0] - 1]
    end = 0.0
    for j in range(1, k1):
        end += last[j] * scale[j] * theta[j, 0]
    return log_z + np.log(z * end)


@kernel
def transition_step(theta, scale, previous, row):
    """row[k] = Σ_j previous[j] θ_{j→k} over the states j = 1 … K.

    Rows of theta are added four at a time: each pass over k has a fixed cost (the overlap
    checks and remainder loop of the vectorised code) that rivals its K + 1 multiply-adds.

    Parameters
    ----------
    theta : float64[K+1, K+1]
    scale : float64[K+1]
    previous : float64[K+1]
    row : float64[K+1]
        Output.
    """
    k1 = theta.shape[0]
    row[:] = 0.0
    j = 1
    while j + 4 <= k1:
        f0, f1 = previous[j] * scale[j], previous[j + 1] * scale[j + 1]
        f2, f3 = previous[j + 2] * scale[j + 2], previous[j + 3] * scale[j + 3]
        t0, t1, t2, t3 = theta[j], theta[j + 1], theta[j + 2], theta[j + 3]
        for k in range(k1):
            row[k] += (f0 * t0[k] + f1 * t1[k]) + (f2 * t2[k] + f3 * t3[k])
        j += 4
    while j < k1:
        f, into = previous[j] * scale[j], theta[j]
        for k in range(k1):
            row[k] += f * into[k]
        j += 1


@kernel
def backward_sample(rng, theta, scale, forward, weights, new):
    """Draw a tagging from the proposal given its forward pass, last tag first: tag t given tag
    t + 1 = k (the end boundary 0 after the last) with probability ∝ forward[t, j] θ_{j→k}.

    Parameters
    ----------
    rng : numpy.random.Generator
    theta : float64[K+1, K+1]
    scale : float64[K+1]
    forward : float64[L, K+1]
    weights : float64[K]
        Work.
    new : int64[≥ L]
        Output: tags − 1.
    """
    k1 = theta.shape[0]
    k_next = 0
    for t in range(forward.shape[0] - 1, -1, -1):
        row = forward[t]
        for j in range(1, k1):
            weights[j - 1] = row[j] * scale[j] * theta[j, k_next]
        k_next = draw_weights(rng, weights, k1 - 1) + 1
        new[t] = k_next - 1


@kernel
def path_log_q(theta, scale, emit_q, values):
    """log of q's unnormalised weight of one tagging: its transitions, end included, and
    emissions.

    Parameters
    ----------
    theta : float64[K+1, K+1]
    scale : float64[K+1]
    emit_q : float64[L, K+1]
    values : int64[≥ L]
        values[t] = tag t − 1.

    Returns
    -------
    float
    """
    log_q, product = 0.0, 1.0
    j = 0
    for t in range(emit_q.shape[0]):
        k = values[t] + 1
        log_q, product = fold_small(log_q, product * theta[j, k] * scale[j] * emit_q[t, k])
        j = k
    return log_q + np.log(product * theta[j, 0] * scale[j])


@implements(interface.sentence_proposal)
def _sentence_proposal(rng, state, u, inv_temp, old, new, work):
    """interface.sentence_proposal: forward filtering, backward sampling under the proposal
    parameters. The work is emit_q[L, K+1] | forward[L, K+1] | theta[K+1, K+1] | weights,
    scale, emit_scale [K+1].

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
    u : int
    inv_temp : float64
    old : int64[≥ L]
    new : int64[≥ L]
        Output.
    work : float64[sentence_work_size(state)]

    Returns
    -------
    (float, float)
        log q(new), log q(old).
    """
    first, stop = state.sent_start[u], state.sent_start[u + 1]
    k1 = state.trans.shape[0]
    size = (stop - first) * k1
    # work: emit_q[L, K+1] | forward[L, K+1] | theta[K+1, K+1] | weights, scale, emit_scale[K+1]
    emit_q = work[:size].reshape((stop - first, k1))
    forward = work[size:2 * size].reshape((stop - first, k1))
    rest = 2 * size + k1 * k1
    theta = work[2 * size:rest].reshape((k1, k1))
    weights = work[rest:rest + k1]
    scale = work[rest + k1:rest + 2 * k1]
    emit_scale = work[rest + 2 * k1:rest + 3 * k1]
    proposal_parameters(state, inv_temp, theta, scale, emit_scale)
    proposal_emissions(state, first, inv_temp, emit_scale, emit_q)
    log_z = forward_filter(theta, scale, emit_q, forward)
    backward_sample(rng, theta, scale, forward, weights, new)
    return (path_log_q(theta, scale, emit_q, new) - log_z,
            path_log_q(theta, scale, emit_q, old) - log_z)
