"""The target P: the words added one by one, each seated from its exact conditional given
everything added before it; a particle's weight multiplied by P / Q (eq. 10); reading an
utterance (``propagate``), copying particles on resampling, and the exact log P(s).
"""
import math

import numpy as np

from engine.core.hash_table import EMPTY
from engine.core.jit import inline, kernel
from engine.core.resampling import copy_row
from engine.core.special import log_rising
from engine.models.usm.particles.layout import (ALPHA, CUSTOMERS, ENDS, FREE, LABEL_CHARS, N_CHARS,
    PHI, RHO, TABLES, WORDS)
from engine.models.usm.particles.lexicon import find_word, new_word
from engine.models.usm.particles.proposal import (best_starts, draw_starts, fill_log_q, forward,
    log_ends)


@kernel
def log_base_counting(parts, l, chars, x, m, params):
    """log P₀ of the word chars[x : x + m] as the exact Dirichlet-multinomial predictive given
    particle l's label symbols (each symbol counted before the next is scored); the word's
    symbols are left counted (``uncount`` takes them back). Either model's particles.

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
        Mutated (cc).
    l : int
    chars : int32[T]
    x, m : int
    params : float64[≥ 4]
        φ at PHI, |chars| at N_CHARS.

    Returns
    -------
    float
    """
    cc = parts.cc
    phi = params[PHI]
    denom = parts.scal[l, LABEL_CHARS] + params[N_CHARS] * phi
    total = 0.0
    for i in range(m):
        k = chars[x + i]
        total += math.log((cc[l, k] + phi) / (denom + i))
        cc[l, k] += 1
    return total + math.log((cc[l, cc.shape[1] - 1] + phi) / (denom + m))


@kernel
def uncount(parts, l, chars, x, m):
    """Take the symbols chars[x : x + m] out of particle l's label counts (either model's).

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
        Mutated (cc).
    l : int
    chars : int32[T]
    x, m : int
    """
    for i in range(m):
        parts.cc[l, chars[x + i]] -= 1


@kernel
def pick_table(parts, l, w, target, largest):
    """The table of word slot w where ``target`` (in [0, c_w)) falls when its tables are laid
    end to end by size; with ``largest``, the largest table instead.

    Parameters
    ----------
    parts : UnigramParticles
    l, w : int
    target : float64
    largest : bool

    Returns
    -------
    int
    """
    t = parts.whead[l, w]
    chosen, size = t, -1
    while t != EMPTY:
        if largest:
            if parts.tsize[l, t] > size:
                chosen, size = t, parts.tsize[l, t]
        else:
            target -= parts.tsize[l, t]
            if target < 0.0:
                return t
            chosen = t
        t = parts.tnext[l, t]
    return chosen


@kernel
def _largest_table(parts, l, w):
    """The customers at word slot w's largest table (0 for w = −1).

    Parameters
    ----------
    parts : UnigramParticles
    l, w : int

    Returns
    -------
    int
    """
    return parts.tsize[l, pick_table(parts, l, w, 0.0, True)] if w >= 0 else 0


@kernel
def open_table(parts, l, w, m):
    """A new table of one customer for word slot w, whose label (m symbols) the caller has
    counted in cc; a closed table's id is reused.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l, w, m : int

    Returns
    -------
    int64
        The table.
    """
    scal = parts.scal
    if scal[l, FREE] > 0:
        scal[l, FREE] -= 1
        t = np.int64(parts.tfree[l, scal[l, FREE]])
    else:
        t = scal[l, TABLES]
        scal[l, TABLES] += 1
    parts.tsize[l, t] = 1
    parts.tnext[l, t] = parts.whead[l, w]
    parts.whead[l, w] = t
    parts.cc[l, parts.cc.shape[1] - 1] += 1
    scal[l, LABEL_CHARS] += m + 1
    return t


@kernel
def seat_word(parts, l, v, chars, x, m, last, params, u, greedy):
    """Add a token of the word chars[x : x + m] (type v) and its utterance-end choice (``last``:
    it ends its utterance) to particle l, its table drawn from its exact conditional with the
    uniform u (``greedy``: its most probable table).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l, v : int
    chars : int32[T]
    x, m : int
    last : bool
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).
    u : float64
    greedy : bool

    Returns
    -------
    (float, int, bool)
        log P(word, end | s), the table, whether it opened the table.
    """
    alpha, half = params[ALPHA], 0.5 * params[RHO]
    scal = parts.scal
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    n_cust, ends = scal[l, CUSTOMERS], scal[l, ENDS]
    new_table_weight = alpha * math.exp(log_base_counting(parts, l, chars, x, m, params))
    log_p = math.log((c + new_table_weight) / (n_cust + alpha))
    log_p += math.log(((ends if last else n_cust - ends) + half) / (n_cust + 2 * half))
    if greedy:
        opens = new_table_weight > _largest_table(parts, l, w)
    else:
        opens = u * (c + new_table_weight) >= c
    if opens:
        if w < 0:
            w = new_word(parts, l, v)
        t = open_table(parts, l, w, m)
    else:
        uncount(parts, l, chars, x, m)
        t = np.int64(pick_table(parts, l, w, u * (c + new_table_weight), greedy))
        parts.tsize[l, t] += 1
    parts.wcust[l, w] += 1
    scal[l, CUSTOMERS] += 1
    scal[l, ENDS] += 1 if last else 0
    return log_p, t, opens


@kernel
def unseat_word(parts, l, v, chars, x, m, last, t):
    """Take a token of the word chars[x : x + m] (type v) and its end choice away from table t
    of particle l; a table left empty closes (its label's symbols uncounted).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l, v : int
    chars : int32[T]
    x, m : int
    last : bool
    t : int

    Returns
    -------
    bool
        Whether the table closed.
    """
    w = find_word(parts, l, v)
    parts.tsize[l, t] -= 1
    parts.wcust[l, w] -= 1
    parts.scal[l, CUSTOMERS] -= 1
    parts.scal[l, ENDS] -= 1 if last else 0
    if parts.tsize[l, t] > 0:
        return False
    if parts.whead[l, w] == t:
        parts.whead[l, w] = parts.tnext[l, t]
    else:
        before = parts.whead[l, w]
        while parts.tnext[l, before] != t:
            before = parts.tnext[l, before]
        parts.tnext[l, before] = parts.tnext[l, t]
    parts.tfree[l, parts.scal[l, FREE]] = t
    parts.scal[l, FREE] += 1
    uncount(parts, l, chars, x, m)
    parts.cc[l, parts.cc.shape[1] - 1] -= 1
    parts.scal[l, LABEL_CHARS] -= m + 1
    return True


@kernel
def add_words(parts, l, corpus, u, starts, k, params, uniforms, greedy):
    """Seat the words of a segmentation of utterance u (``starts``, k words) in particle l, in
    order, each from its exact conditional given everything before it (``greedy``: at its most
    probable table, the DPM learner).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l : int
    corpus : ParticleCorpus
    u : int
    starts : int64[≥ k]
    k : int
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).
    uniforms : float64[≥ k]
        One per word.
    greedy : bool

    Returns
    -------
    float
        log P(words, ends | s): the words' sequential predictive probabilities (summed over
        tables) and their utterance-end choices.
    """
    x0, off = corpus.utt_start[u], corpus.sub_off[u]
    n = corpus.utt_start[u + 1] - x0
    log_p = 0.0
    for a in range(k):
        i = starts[a]
        j = starts[a + 1] if a + 1 < k else n
        term, _, _ = seat_word(parts, l, corpus.sub[off + i * n + j - 1], corpus.chars, x0 + i,
                               j - i, a == k - 1, params, uniforms[a], greedy)
        log_p += term
    return log_p


@kernel
def propagate(parts, lo, hi, corpus, u, params, uniforms, greedy, work, out):
    """Particles lo … hi − 1 read utterance u (n symbols): each draws a segmentation from Q
    (``greedy``: takes the most probable one), seats it, and gets its weight's factor.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    lo, hi : int
    corpus : ParticleCorpus
    u : int
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).
    uniforms : float64[N, ≥ 2n]
        Particle l's draws: n for the segmentation, n for the seating.
    greedy : bool
    work : UnigramWork
        One thread's work arrays.
    out : Reading
        Output at rows lo … hi − 1: eq. 10's factor log P(words, ends | s) − log Q(words | s,
        o), log Q(o | s) (the forward algorithm's sum) and the drawn segmentation.
    """
    for l in range(lo, hi):
        out.log_inc[l], out.log_qo[l] = read_utterance(parts, l, corpus, u, params, uniforms[l],
                                                       greedy, work, out.bounds[l])


@inline  # per particle: a call would pass every array of the particles, corpus and work
def read_utterance(parts, l, corpus, u, params, uniforms, greedy, work, bounds):
    """Particle l reads utterance u (n symbols): ``propagate`` for one particle.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l, u : int
        The particle and the utterance.
    corpus : ParticleCorpus
    params : float64[4]
    uniforms : float64[≥ 2n]
        n draws for the segmentation, n for the seating.
    greedy : bool
    work : UnigramWork
    bounds : uint8[≥ n]
        Output: 1 where a word of the drawn segmentation ends.

    Returns
    -------
    (float, float)
        Eq. 10's factor and log Q(o | s).
    """
    lp, lq, fwd, terms, starts = work.lp, work.lq, work.fwd, work.terms, work.starts
    n = corpus.utt_start[u + 1] - corpus.utt_start[u]
    log_cont, log_end = log_ends(parts, l, params)
    fill_log_q(parts, l, corpus, u, params, lp, lq)
    log_z = forward(lq, n, log_cont, log_end, fwd, terms)
    if greedy:
        k = best_starts(lq, n, log_cont, log_end, lp, terms, starts)
    else:
        k = draw_starts(lq, n, fwd, terms, uniforms[:n], starts)
    log_q_words = (k - 1) * log_cont + log_end
    for a in range(n):
        bounds[a] = 0
    for a in range(k):
        j = starts[a + 1] if a + 1 < k else n
        log_q_words += lq[starts[a] * n + j - 1]
        bounds[j - 1] = 1
    log_p = add_words(parts, l, corpus, u, starts, k, params, uniforms[n:], greedy)
    return log_p - log_q_words + log_z, log_z


@kernel
def segment_frozen(rng, parts, l, corpus, params, work):
    """§6.1's evaluation: particle l frozen, a segmentation of every utterance drawn from Q.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
    l : int
    corpus : ParticleCorpus
    params : float64[4]
    work : UnigramWork
        Work arrays; the segmentation is written to work.bound (uint8[T], 1 where a word
        ends).
    """
    utt_start, uniforms, bound = corpus.utt_start, work.uniforms, work.bound
    log_cont, log_end = log_ends(parts, l, params)
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        fill_log_q(parts, l, corpus, u, params, work.lp, work.lq)
        forward(work.lq, n, log_cont, log_end, work.fwd, work.terms)
        for a in range(n):
            uniforms[a] = rng.random()
            bound[x0 + a] = 0
        k = draw_starts(work.lq, n, work.fwd, work.terms, uniforms, work.starts)
        for a in range(k):
            bound[x0 + (work.starts[a + 1] if a + 1 < k else n) - 1] = 1


@kernel
def copy_particles(parts, sources, targets, read):
    """Particle targets[i] becomes a copy of particle sources[i] (no target is a source).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    sources, targets : int64[k]
    read : int
        The symbols read: how much of each segmentation (parts.bound) to copy.
    """
    for i in range(sources.shape[0]):
        a, b = sources[i], targets[i]
        words, tables = parts.scal[a, WORDS], parts.scal[a, TABLES]
        for array in (parts.hkey, parts.hslot):
            copy_row(array, a, b, array.shape[1])
        for array in (parts.wtype, parts.wcust, parts.whead):
            copy_row(array, a, b, words)
        for array in (parts.tsize, parts.tnext):
            copy_row(array, a, b, tables)
        copy_row(parts.tfree, a, b, parts.scal[a, FREE])
        copy_row(parts.bound, a, b, read if parts.bound.shape[1] else 0)
        copy_row(parts.cc, a, b, parts.cc.shape[1])
        copy_row(parts.scal, a, b, parts.scal.shape[1])


@kernel
def log_joint(parts, params, out):
    """log P(s_l), each particle's state (segmentation and seating) as in the module's doc,
    from its counts.

    Parameters
    ----------
    parts : UnigramParticles
    params : float64[4]
        α, φ, ρ, |chars| (ALPHA, PHI, RHO, N_CHARS).
    out : float64[N]
        Output.
    """
    alpha, phi, half = params[ALPHA], params[PHI], 0.5 * params[RHO]
    symbols = params[N_CHARS]
    for l in range(parts.scal.shape[0]):
        n_cust, ends = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS]
        tables = parts.scal[l, TABLES] - parts.scal[l, FREE]
        total = tables * math.log(alpha) - log_rising(alpha, n_cust)
        for t in range(parts.scal[l, TABLES]):
            if parts.tsize[l, t] > 0:
                total += math.lgamma(float(parts.tsize[l, t]))
        for k in range(parts.cc.shape[1]):
            total += log_rising(phi, parts.cc[l, k])
        total -= log_rising(symbols * phi, parts.scal[l, LABEL_CHARS])
        total += log_rising(half, ends) + log_rising(half, n_cust - ends)
        out[l] = total - log_rising(2 * half, n_cust)


@kernel
def seat_segmentation(parts, l, corpus, params, bound, uniforms, starts):
    """Particle l reads every utterance with the segmentation ``bound`` instead of drawing one,
    each word seated from its exact conditional; the start of a batch chain on this model.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated (particle l's restaurant and its row of parts.bound).
    l : int
    corpus : ParticleCorpus
    params : float64[4]
    bound : uint8[T]
        1 where a word ends.
    uniforms : float64[≥ T]
        One per word.
    starts : int64[≥ longest utterance]
        Work.

    Returns
    -------
    float
        log P(words, ends) of the sequence.
    """
    utt_start = corpus.utt_start
    log_p, drawn = 0.0, 0
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        k = 0
        for i in range(n):
            if i == 0 or bound[x0 + i - 1] == 1:
                starts[k] = i
                k += 1
        log_p += add_words(parts, l, corpus, u, starts, k, params, uniforms[drawn:], False)
        drawn += k
        for i in range(n):
            parts.bound[l, x0 + i] = bound[x0 + i]
    return log_p
