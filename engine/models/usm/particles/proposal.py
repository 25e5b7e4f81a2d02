"""The proposal Q: the model frozen at s, every substring w scored q(w) = (c_w + α P₀(w | s)) /
(N + α), the forward algorithm over the utterance and backward sampling of its word starts
(eq. 7 summed over tables); and the most probable segmentation under Q.
"""
import math

from engine.core.draw import pick_largest, pick_log_weight
from engine.core.jit import kernel
from engine.core.special import log_sum_exp
from engine.models.usm.particles.layout import (ALPHA, CUSTOMERS, ENDS, LABEL_CHARS, N_CHARS, PHI,
    RHO)
from engine.models.usm.particles.lexicon import find_word


@kernel
def log_ends(parts, l, params):
    """(log P(another word follows), log P(the utterance ends)) given particle l's counts.

    Parameters
    ----------
    parts : UnigramParticles
    l : int
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).

    Returns
    -------
    (float, float)
    """
    n, e, half = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS], 0.5 * params[RHO]
    norm = math.log(n + params[RHO])
    return math.log(n - e + half) - norm, math.log(e + half) - norm


@kernel
def fill_log_q(parts, l, corpus, u, params, lp, lq):
    """log q(w) for every substring w = o[i:j] of utterance u (n symbols) under particle l
    frozen: q(w) = (c_w + α P₀(w)) / (N + α), P₀ by eqs. 3–4.

    Parameters
    ----------
    parts : UnigramParticles
    l : int
    corpus : ParticleCorpus
    u : int
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).
    lp : float64[≥ n + 1]
        Work: prefix sums of log P_c over the utterance's symbols.
    lq : float64[≥ n²]
        Output: lq[i·n + j − 1] = log q(o[i:j]).
    """
    chars, sub = corpus.chars, corpus.sub
    x0, off = corpus.utt_start[u], corpus.sub_off[u]
    n = corpus.utt_start[u + 1] - x0
    cc = parts.cc
    alpha, phi = params[ALPHA], params[PHI]
    log_denom = math.log(parts.scal[l, LABEL_CHARS] + params[N_CHARS] * phi)
    lp[0] = 0.0
    for i in range(n):
        lp[i + 1] = lp[i] + math.log(cc[l, chars[x0 + i]] + phi) - log_denom
    log_end = math.log(cc[l, cc.shape[1] - 1] + phi) - log_denom
    log_norm = math.log(parts.scal[l, CUSTOMERS] + alpha)
    log_alpha = math.log(alpha)
    for i in range(n):
        for j in range(i + 1, n + 1):
            log_p0 = lp[j] - lp[i] + log_end
            w = find_word(parts, l, sub[off + i * n + j - 1])
            c = parts.wcust[l, w] if w >= 0 else 0
            if c == 0:
                lq[i * n + j - 1] = log_alpha + log_p0 - log_norm
            else:
                lq[i * n + j - 1] = math.log(c + alpha * math.exp(log_p0)) - log_norm


@kernel
def _paths_into(lq, n, fwd, j, terms):
    """terms[i] = fwd[i] + log q(o[i:j]) for i < j: the ways into a word that ends at j.

    Parameters
    ----------
    lq : float64[≥ n²]
        log q of the utterance's substrings (``fill_log_q``).
    n, j : int
    fwd : float64[≥ j]
    terms : float64[≥ j]
        Output.
    """
    for i in range(j):
        terms[i] = fwd[i] + lq[i * n + j - 1]


@kernel
def forward(lq, n, log_cont, log_end, fwd, terms):
    """The forward algorithm: fwd[j] = log Σ over segmentations of o[:j] of Π q(w) × P(ends).

    Parameters
    ----------
    lq : float64[≥ n²]
        From ``fill_log_q``.
    n : int
    log_cont, log_end : float64
        log P(another word follows), log P(the utterance ends).
    fwd : float64[≥ n + 1]
        Output.
    terms : float64[≥ n]
        Work.

    Returns
    -------
    float
        log Q(o | s) = fwd[n].
    """
    fwd[0] = 0.0
    for j in range(1, n + 1):
        _paths_into(lq, n, fwd, j, terms)
        fwd[j] = log_sum_exp(terms[:j]) + (log_end if j == n else log_cont)
    return fwd[n]


@kernel
def draw_starts(lq, n, fwd, terms, uniforms, starts):
    """Backward sampling: a segmentation of the utterance drawn from Q (after ``forward``).

    Parameters
    ----------
    lq : float64[≥ n²]; n : int; fwd : float64[≥ n + 1]
        As ``forward`` left them.
    terms : float64[≥ n]
        Work.
    uniforms : float64[≥ n]
        One per word at most.
    starts : int64[≥ n]
        Output: the words' starts left to right.

    Returns
    -------
    int
        The number of words k.
    """
    j, k = n, 0
    while j > 0:
        _paths_into(lq, n, fwd, j, terms)
        j = pick_log_weight(uniforms[k], terms, j)
        starts[k] = j
        k += 1
    for a in range(k // 2):
        starts[a], starts[k - 1 - a] = starts[k - 1 - a], starts[a]
    return k


@kernel
def best_starts(lq, n, log_cont, log_end, best, terms, starts):
    """The most probable segmentation under Q (Viterbi; the DPM learner).

    Parameters
    ----------
    lq : float64[≥ n²]; n : int; log_cont, log_end : float64
        As for ``forward``.
    best : float64[≥ n + 1]
        Work: the best paths' log-probabilities.
    terms : float64[≥ n]
        Work.
    starts : int64[≥ n]
        Output: the words' starts left to right.

    Returns
    -------
    int
        The number of words.
    """
    best[0] = 0.0
    for j in range(1, n + 1):
        _paths_into(lq, n, best, j, terms)
        best[j] = terms[pick_largest(terms, j)] + (log_end if j == n else log_cont)
    k, j = 0, n
    while j > 0:
        _paths_into(lq, n, best, j, terms)
        j = pick_largest(terms, j)
        starts[k] = j
        k += 1
    for a in range(k // 2):
        starts[a], starts[k - 1 - a] = starts[k - 1 - a], starts[a]
    return k
