"""Forward-backward and Viterbi for an HMM whose parameters are given (Gao & Johnson §2.1–2.3):
the E-step of EM and variational Bayes, and the decoding of a tagging from parameters.

One sentence at a time, between boundary states 0 at both ends; θ = trans (float64[K+1, K+1],
row = from) and the sentence's emissions emit_q[t, k] = φ_k(w_t) (float64[L, K+1], column 0 —
the boundary — 0). The forward pass is SENTENCE's (``engine.models.hmm.sentence.forward_filter``,
each row rescaled to sum 1); the backward pass here rescales its rows the same way, so nothing
underflows however long the sentence.
"""
from engine.core.jit import kernel
from engine.core.special import total


@kernel
def backward_expectations(trans, emit_q, forward, beta, b, xi, gamma):
    """The backward pass: posterior marginals and the sentence's share of the expected
    transitions, given the forward pass.

    Parameters
    ----------
    trans : float64[K+1, K+1]     θ_{j→k}
    emit_q : float64[L, K+1]      φ_k(w_t)
    forward : float64[L, K+1]     forward_filter's rows: α_t(k), each row normalised
    beta, b : float64[K+1]        work
    xi : float64[K+1, K+1]        accumulated: xi[j, k] += Σ_t α̂_t(j) φ_k(w_{t+1}) β̂_{t+1}(k) / c_t,
                                  so that E[n_{jk}] inside sentences is θ_{jk} xi[j, k] once
                                  every sentence is in (one multiplication per cell, not per t)
    gamma : float64[L, K+1]       output: γ_t(k) = p(t-th tag = k | words, θ), rows sum to 1

    With β̃_t(j) = Σ_k θ_{jk} φ_k(w_{t+1}) β̂_{t+1}(k) and c_t = Σ_j α̂_t(j) β̃_t(j), the pair
    (t, t+1) is in states (j, k) with probability α̂_t(j) θ_{jk} φ_k(w_{t+1}) β̂_{t+1}(k) / c_t
    and γ_t(j) = α̂_t(j) β̃_t(j) / c_t; β̂_t is β̃_t rescaled to sum 1.
    """
    k1 = trans.shape[0]
    last = forward.shape[0] - 1
    for j in range(k1):
        beta[j] = trans[j, 0]  # the end transition into the boundary
    marginals(forward[last], beta, gamma[last])
    normalise(beta)
    for t in range(last - 1, -1, -1):
        for k in range(k1):
            b[k] = emit_q[t + 1, k] * beta[k]
        c = 0.0
        for j in range(1, k1):
            beta[j] = dot(trans[j], b)
            c += forward[t, j] * beta[j]
        inv_c = 1.0 / c
        g = gamma[t]
        g[0] = 0.0
        for j in range(1, k1):
            a = forward[t, j] * inv_c
            g[j] = a * beta[j]
            row = xi[j]
            for k in range(k1):
                row[k] += a * b[k]
        normalise(beta)


@kernel
def marginals(alpha_row, beta_row, out):
    """out[k] ∝ alpha_row[k] beta_row[k], normalised.

    Parameters
    ----------
    alpha_row, beta_row : float64[K+1]
        A position's forward and backward rows.
    out : float64[K+1]
        Output.
    """
    for k in range(out.shape[0]):
        out[k] = alpha_row[k] * beta_row[k]
    normalise(out)


@kernel
def normalise(x):
    """x /= Σ x, in place.

    Parameters
    ----------
    x : float64[n]
        Mutated; its sum must be positive.
    """
    inv = 1.0 / total(x)
    for i in range(x.shape[0]):
        x[i] *= inv


@kernel
def dot(x, y):
    """Σ x[i] y[i] as four interleaved partial sums (see ``engine.core.special.total``).

    Parameters
    ----------
    x, y : float64[n]

    Returns
    -------
    float64
    """
    s0 = s1 = s2 = s3 = 0.0
    n4 = x.shape[0] - x.shape[0] % 4
    for i in range(0, n4, 4):
        s0 += x[i] * y[i]
        s1 += x[i + 1] * y[i + 1]
        s2 += x[i + 2] * y[i + 2]
        s3 += x[i + 3] * y[i + 3]
    for i in range(n4, x.shape[0]):
        s0 += x[i] * y[i]
    return (s0 + s1) + (s2 + s3)


@kernel
def best_path(trans, emit_q, delta, back, best, out):
    """Viterbi: the most probable tagging of the sentence under (θ, φ).

    Parameters
    ----------
    trans : float64[K+1, K+1];  emit_q : float64[L, K+1]   as for backward_expectations
    delta : float64[L, K+1]   work: the best path's probability into (t, k), rows rescaled
    back : float64[L, K+1]    work: its previous state (a small whole number, exact as a float)
    best : float64[K+1]       work
    out : int64[L]            output, tags − 1 (values 0 … K−1)

    The loop over previous states j is outside the loop over k, so the inner loop reads rows of
    θ and vectorises. Ties go to the smaller state.
    """
    k1 = trans.shape[0]
    length = emit_q.shape[0]
    for k in range(k1):
        delta[0, k] = trans[0, k] * emit_q[0, k]
    rescale_by_max(delta[0])
    for t in range(1, length):
        for k in range(k1):
            best[k] = -1.0
        row_back = back[t]
        for j in range(1, k1):
            f = delta[t - 1, j]
            row = trans[j]
            for k in range(k1):
                v = f * row[k]
                if v > best[k]:
                    best[k] = v
                    row_back[k] = j
        for k in range(k1):
            delta[t, k] = best[k] * emit_q[t, k]
        rescale_by_max(delta[t])
    k_next, top = 1, -1.0
    for j in range(1, k1):
        v = delta[length - 1, j] * trans[j, 0]
        if v > top:
            k_next, top = j, v
    for t in range(length - 1, -1, -1):
        out[t] = k_next - 1
        if t:
            k_next = int(back[t, k_next])


@kernel
def rescale_by_max(x):
    """x /= max x, in place.

    Parameters
    ----------
    x : float64[n]
        Mutated; its largest entry must be positive.
    """
    top = 0.0
    for v in x:
        top = max(top, v)
    inv = 1.0 / top
    for i in range(x.shape[0]):
        x[i] *= inv
