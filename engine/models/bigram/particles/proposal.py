"""The proposal Q: the model frozen at s (its unigram level's P₁ filled once per utterance),
the forward algorithm over the utterance with a word's context in the state, and backward
sampling of its words.
"""
import math

import numpy as np

from engine.core.draw import pick_largest, pick_log_weight
from engine.core.jit import kernel
from engine.core.special import log_sum_exp
from engine.models.usm.particles.layout import LABEL_CHARS, N_CHARS, PHI
from engine.models.usm.particles.lexicon import find_word
from engine.models.bigram.particles.layout import ALPHA0, ALPHA1, BTABLES, END, P_END
from engine.models.bigram.particles.lexicon import find_pair


@kernel
def fill_unigram_level(parts, l, corpus, u, params, lp, slots, lp1):
    """For every substring w = o[i:j] of utterance u (n symbols): its word slot in particle l
    (−1: never seated) and log P₁(w) with eq. 4's P₀, the model frozen.

    Parameters
    ----------
    parts : BigramParticles
    l : int
    corpus : ParticleCorpus
    u : int
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    lp : float64[≥ n + 1]
        Work: prefix sums of log P_c.
    slots : int64[≥ n²]
        Output at i·n + j − 1.
    lp1 : float64[≥ n²]
        Output at i·n + j − 1.

    Returns
    -------
    float
        log P₁(`$`).
    """
    chars, sub = corpus.chars, corpus.sub
    x0, off = corpus.utt_start[u], corpus.sub_off[u]
    n = corpus.utt_start[u + 1] - x0
    cc = parts.cc
    alpha0, phi, p_end = params[ALPHA0], params[PHI], params[P_END]
    log_denom = math.log(parts.scal[l, LABEL_CHARS] + params[N_CHARS] * phi)
    lp[0] = 0.0
    for i in range(n):
        lp[i + 1] = lp[i] + math.log(cc[l, chars[x0 + i]] + phi) - log_denom
    log_hash = math.log(cc[l, cc.shape[1] - 1] + phi) - log_denom
    log_tables = math.log(parts.scal[l, BTABLES] + alpha0)
    log_base = math.log(alpha0 * (1.0 - p_end))
    for i in range(n):
        for j in range(i + 1, n + 1):
            at = i * n + j - 1
            w = find_word(parts, l, sub[off + at])
            slots[at] = w
            log_p0 = lp[j] - lp[i] + log_hash
            tw = parts.wtabs[l, w] if w >= 0 else 0
            if tw == 0:
                lp1[at] = log_base + log_p0 - log_tables
            else:
                lp1[at] = math.log(tw + math.exp(log_base + log_p0)) - log_tables
    return math.log(parts.wtabs[l, END] + alpha0 * p_end) - log_tables


@kernel
def log_q(parts, l, before, w, lp1_w, params):
    """log P₂(w | before), the model frozen.

    Parameters
    ----------
    parts : BigramParticles
    l : int
    before, w : int
        Word slots (−1: never seated).
    lp1_w : float64
        log P₁(w).
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).

    Returns
    -------
    float
    """
    alpha1 = params[ALPHA1]
    n_before = parts.wctx[l, before] if before >= 0 else 0
    c = 0
    if n_before > 0 and w >= 0:
        p = find_pair(parts, l, before, w)
        if p >= 0:
            c = parts.pcust[l, p]
    if c == 0:
        return math.log(alpha1) + lp1_w - math.log(n_before + alpha1)
    return math.log(c + alpha1 * math.exp(lp1_w)) - math.log(n_before + alpha1)


@kernel
def _paths_into(parts, l, n, i, w, lp1_w, slots, a, params, terms):
    """terms[h] = a(h, i) + log P₂(w | o[h:i]) for h < i (i > 0): the paths into the word w
    that starts at i (w = END with i = n: into the utterance's end).

    Parameters
    ----------
    parts : BigramParticles
    l, n, i, w : int
    lp1_w : float64
        log P₁(w).
    slots : int64[≥ n²]
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    a : float64[≥ n²]
        The forward table so far.
    terms : float64[≥ i]
        Output.
    """
    for h in range(i):
        at = h * n + i - 1
        terms[h] = a[at] + log_q(parts, l, slots[at], w, lp1_w, params)


@kernel
def _combine(terms, m, greedy):
    """log Σ exp(terms[:m]), or with ``greedy`` their largest (Viterbi).

    Parameters
    ----------
    terms : float64[≥ m]
    m : int
    greedy : bool

    Returns
    -------
    float
    """
    return terms[pick_largest(terms, m)] if greedy else log_sum_exp(terms[:m])


@kernel
def _choose(terms, m, u, greedy):
    """An index < m drawn ∝ exp(terms) with the uniform u, or with ``greedy`` the largest.

    Parameters
    ----------
    terms : float64[≥ m]
    m : int
    u : float64
    greedy : bool

    Returns
    -------
    int
    """
    return pick_largest(terms, m) if greedy else pick_log_weight(u, terms, m)


@kernel
def forward(parts, l, n, slots, lp1, lp1_end, params, a, terms, greedy):
    """a(i, j) = log Σ over segmentations of o[:j] whose last word is o[i:j] of the frozen P₂'s
    product (``greedy``: the maximum instead, Viterbi).

    Parameters
    ----------
    parts : BigramParticles
    l : int
    n : int
        The utterance's symbols.
    slots : int64[≥ n²]; lp1 : float64[≥ n²]; lp1_end : float64
        From ``fill_unigram_level``.
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    a : float64[≥ n²]
        Output at i·n + j − 1.
    terms : float64[≥ n]
        Work.
    greedy : bool

    Returns
    -------
    float
        log Q(o | s), the same over whole segmentations with the final `$` (greedy: the best
        one's log-probability).
    """
    for j in range(1, n + 1):
        at = j - 1
        a[at] = log_q(parts, l, END, slots[at], lp1[at], params)
        for i in range(1, j):
            at = i * n + j - 1
            _paths_into(parts, l, n, i, slots[at], lp1[at], slots, a, params, terms)
            a[at] = _combine(terms, i, greedy)
    _paths_into(parts, l, n, n, END, lp1_end, slots, a, params, terms)
    return _combine(terms, n, greedy)


@kernel
def draw_starts(parts, l, n, slots, lp1, lp1_end, params, a, terms, uniforms, greedy, starts):
    """Backward sampling after ``forward`` (``greedy``: the Viterbi path).

    Parameters
    ----------
    parts : BigramParticles
    l : int
    n : int
        The utterance's symbols.
    slots : int64[≥ n²]; lp1 : float64[≥ n²]; lp1_end : float64
        From ``fill_unigram_level``.
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    a : float64[≥ n²]
        From ``forward``.
    terms : float64[≥ n]
        Work.
    uniforms : float64[≥ n]
    greedy : bool
    starts : int64[≥ n]
        Output: the words' starts, left to right.

    Returns
    -------
    int
        The number of words.
    """
    _paths_into(parts, l, n, n, END, lp1_end, slots, a, params, terms)
    i = _choose(terms, n, uniforms[0], greedy)
    j, k = n, 0
    while True:
        starts[k] = i
        k += 1
        if i == 0:
            break
        at = i * n + j - 1
        _paths_into(parts, l, n, i, slots[at], lp1[at], slots, a, params, terms)
        j, i = i, _choose(terms, i, uniforms[k], greedy)
    for b in range(k // 2):
        starts[b], starts[k - 1 - b] = starts[k - 1 - b], starts[b]
    return k


@kernel
def log_q_words(parts, l, n, starts, k, slots, lp1, lp1_end, params):
    """log of the frozen P₂'s product over the segmentation (``starts``, k words) and `$`.

    Parameters
    ----------
    parts : BigramParticles
    l : int
    n : int
        The utterance's symbols.
    slots : int64[≥ n²]; lp1 : float64[≥ n²]; lp1_end : float64
        From ``fill_unigram_level``.
    starts : int64[≥ k]
    k : int
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).

    Returns
    -------
    float
    """
    total, before = 0.0, np.int64(END)
    for b in range(k):
        j = starts[b + 1] if b + 1 < k else n
        at = starts[b] * n + j - 1
        total += log_q(parts, l, before, slots[at], lp1[at], params)
        before = slots[at]
    return total + log_q(parts, l, before, END, lp1_end, params)
