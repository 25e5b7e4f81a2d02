"""The target P: the words added one by one, each seated from its exact conditional in its
bigram restaurant (and the unigram level's when it opens a table); a particle's weight
multiplied by P / Q; reading an utterance (``propagate``), copying particles on resampling,
and the exact log P(s).
"""
import math

import numpy as np

from engine.core.hash_table import EMPTY
from engine.core.jit import inline, kernel
from engine.core.resampling import copy_row
from engine.core.special import log_rising
from engine.models.usm.particles.layout import LABEL_CHARS, N_CHARS, PHI, WORDS
from engine.models.usm.particles.lexicon import find_word
from engine.models.usm.particles.target import log_base_counting, uncount
from engine.models.bigram.particles.layout import (ALPHA0, ALPHA1, BTABLES, END, PAIRS, P_END,
    UTABLES)
from engine.models.bigram.particles.lexicon import find_pair, new_pair, new_word
from engine.models.bigram.particles.proposal import (draw_starts, fill_unigram_level, forward,
    log_q_words)


@kernel
def _pick(sizes, nexts, l, head, target, largest):
    """The table of the list from ``head`` where ``target`` falls when the tables are laid end
    to end by size (``largest``: the largest table).

    Parameters
    ----------
    sizes, nexts : int32[N, B]
        A level's tables: customers, next table.
    l, head : int
    target : float64
    largest : bool

    Returns
    -------
    int
    """
    t = head
    chosen, size = t, -1
    while t != EMPTY:
        if largest:
            if sizes[l, t] > size:
                chosen, size = t, sizes[l, t]
        else:
            target -= sizes[l, t]
            if target < 0.0:
                return t
            chosen = t
        t = nexts[l, t]
    return chosen


@kernel
def _largest(sizes, nexts, l, head):
    """The customers at the largest table of the list from ``head`` (0 for an empty list).

    Parameters
    ----------
    sizes, nexts : int32[N, B]
    l, head : int

    Returns
    -------
    int
    """
    return sizes[l, _pick(sizes, nexts, l, head, 0.0, True)] if head != EMPTY else 0


@kernel
def _open_table(sizes, nexts, heads, l, owner, counter, parts):
    """A new table of one customer at the head of ``owner``'s list.

    Parameters
    ----------
    sizes, nexts : int32[N, B]
        A level's tables, mutated.
    heads : int32[N, W or P]
        The owners' first tables, mutated.
    l, owner : int
    counter : int
        The column of parts.scal counting the level's tables.
    parts : BigramParticles
        Mutated (scal).

    Returns
    -------
    int
        The table.
    """
    t = parts.scal[l, counter]
    parts.scal[l, counter] += 1
    sizes[l, t] = 1
    nexts[l, t] = heads[l, owner]
    heads[l, owner] = t
    return t


@kernel
def _seat(parts, l, before, w, v, chars, x, m, params, u_bigram, u_unigram, greedy):
    """Seat one customer: the word chars[x : x + m] of type v (word slot w, −1 if new) or, with
    m = 0, `$` (w = END), after the word slot ``before``.

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    l, before, w, v : int
    chars : int32[T]
    x, m : int
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    u_bigram, u_unigram : float64
        The uniforms of its two levels' draws.
    greedy : bool

    Returns
    -------
    (float, int)
        log P₂(w | before) given everything added so far, and the word's slot.
    """
    alpha0, alpha1, p_end = params[ALPHA0], params[ALPHA1], params[P_END]
    scal = parts.scal
    p = find_pair(parts, l, before, w) if w >= 0 else np.int64(EMPTY)
    c = parts.pcust[l, p] if p >= 0 else 0
    tw = parts.wtabs[l, w] if w >= 0 else 0
    if m > 0:
        base = alpha0 * (1.0 - p_end) * math.exp(log_base_counting(parts, l, chars, x, m,
                                                                   params))
    else:
        base = alpha0 * p_end
    new_weight = alpha1 * (tw + base) / (scal[l, BTABLES] + alpha0)
    log_p = math.log((c + new_weight) / (parts.wctx[l, before] + alpha1))
    opened_unigram = False
    if greedy:
        opens = new_weight > _largest(parts.bsize, parts.bnext, l,
                                      parts.phead[l, p] if p >= 0 else EMPTY)
    else:
        opens = u_bigram * (c + new_weight) >= c
    if opens:
        if w < 0:
            w = new_word(parts, l, v)
        if greedy:
            opened_unigram = base > _largest(parts.usize, parts.unext, l, parts.whead[l, w])
        else:
            opened_unigram = u_unigram * (tw + base) >= tw
        if opened_unigram:
            _open_table(parts.usize, parts.unext, parts.whead, l, w, UTABLES, parts)
            if m > 0:
                parts.cc[l, parts.cc.shape[1] - 1] += 1
                scal[l, LABEL_CHARS] += m + 1
        else:
            parts.usize[l, _pick(parts.usize, parts.unext, l, parts.whead[l, w],
                                 u_unigram * (tw + base), greedy)] += 1
        parts.wtabs[l, w] += 1
        if p < 0:
            p = new_pair(parts, l, before, w)
        _open_table(parts.bsize, parts.bnext, parts.phead, l, p, BTABLES, parts)
    else:
        parts.bsize[l, _pick(parts.bsize, parts.bnext, l, parts.phead[l, p],
                             u_bigram * (c + new_weight), greedy)] += 1
    if m > 0 and not opened_unigram:
        uncount(parts, l, chars, x, m)
    parts.pcust[l, p] += 1
    parts.wctx[l, before] += 1
    return log_p, w


@kernel
def add_words(parts, l, corpus, u, starts, k, params, uniforms, greedy):
    """Seat the segmentation's words (``starts``, k of them) and the final `$` in order, each
    from its exact conditional at both levels (``greedy``: at its most probable tables, DPM).

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    l : int
    corpus : ParticleCorpus
    u : int
    starts : int64[≥ k]
    k : int
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    uniforms : float64[≥ 2k + 2]
    greedy : bool

    Returns
    -------
    float
        log P(words, `$` | s), the sequential P₂'s product.
    """
    x0, off = corpus.utt_start[u], corpus.sub_off[u]
    n = corpus.utt_start[u + 1] - x0
    chars = corpus.chars
    log_p, before = 0.0, np.int64(END)
    for b in range(k + 1):
        if b < k:
            i = starts[b]
            j = starts[b + 1] if b + 1 < k else n
            v = corpus.sub[off + i * n + j - 1]
            w, x, m = find_word(parts, l, v), x0 + i, j - i
        else:
            v, w, x, m = -1, np.int64(END), x0, 0
        term, before = _seat(parts, l, before, w, v, chars, x, m, params, uniforms[2 * b],
                             uniforms[2 * b + 1], greedy)
        log_p += term
    return log_p


@kernel
def propagate(parts, lo, hi, corpus, u, params, uniforms, greedy, work, out):
    """Particles lo … hi − 1 read utterance u (n symbols), as in
    engine.models.usm.particles.propagate.

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    lo, hi : int
    corpus : ParticleCorpus
    u : int
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    uniforms : float64[N, ≥ 3n + 2]
        Particle l's draws: n for the segmentation, 2 per word and `$` for the seating.
    greedy : bool
    work : BigramWork
        One thread's work arrays.
    out : Reading
        Output at rows lo … hi − 1.
    """
    for l in range(lo, hi):
        out.log_inc[l], out.log_qo[l] = read_utterance(parts, l, corpus, u, params, uniforms[l],
                                                       greedy, work, out.bounds[l])


@inline  # per particle: a call would pass every array of the particles, corpus and work
def read_utterance(parts, l, corpus, u, params, uniforms, greedy, work, bounds):
    """Particle l reads utterance u (n symbols): ``propagate`` for one particle.

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    l, u : int
        The particle and the utterance.
    corpus : ParticleCorpus
    params : float64[5]
    uniforms : float64[≥ 3n + 2]
    greedy : bool
    work : BigramWork
    bounds : uint8[≥ n]
        Output: 1 where a word of the drawn segmentation ends.

    Returns
    -------
    (float, float)
        Eq. 10's factor and log Q(o | s).
    """
    slots, lp1, a, terms, starts = work.slots, work.lp1, work.a, work.terms, work.starts
    n = corpus.utt_start[u + 1] - corpus.utt_start[u]
    lp1_end = fill_unigram_level(parts, l, corpus, u, params, work.lp, slots, lp1)
    log_z = forward(parts, l, n, slots, lp1, lp1_end, params, a, terms, False)
    if greedy:
        forward(parts, l, n, slots, lp1, lp1_end, params, a, terms, True)
    k = draw_starts(parts, l, n, slots, lp1, lp1_end, params, a, terms, uniforms[:n], greedy,
                    starts)
    log_q_seg = log_q_words(parts, l, n, starts, k, slots, lp1, lp1_end, params)
    for b in range(n):
        bounds[b] = 0
    for b in range(k):
        bounds[(starts[b + 1] if b + 1 < k else n) - 1] = 1
    log_p = add_words(parts, l, corpus, u, starts, k, params, uniforms[n:], greedy)
    return log_p - log_q_seg + log_z, log_z


@kernel
def segment_frozen(rng, parts, l, corpus, params, work):
    """§6.1's evaluation: particle l frozen, every utterance segmented by a draw from Q.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : BigramParticles
    l : int
    corpus : ParticleCorpus
    params : float64[5]
    work : BigramWork
        Work arrays; the segmentation is written to work.bound (uint8[T], 1 where a word
        ends).
    """
    utt_start, uniforms, bound = corpus.utt_start, work.uniforms, work.bound
    slots, lp1, a, terms = work.slots, work.lp1, work.a, work.terms
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        lp1_end = fill_unigram_level(parts, l, corpus, u, params, work.lp, slots, lp1)
        forward(parts, l, n, slots, lp1, lp1_end, params, a, terms, False)
        for b in range(n):
            uniforms[b] = rng.random()
            bound[x0 + b] = 0
        k = draw_starts(parts, l, n, slots, lp1, lp1_end, params, a, terms, uniforms, False,
                        work.starts)
        for b in range(k):
            bound[x0 + (work.starts[b + 1] if b + 1 < k else n) - 1] = 1


@kernel
def copy_particles(parts, sources, targets, read):
    """Particle targets[i] becomes a copy of particle sources[i] (no target is a source).

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    sources, targets : int64[k]
    read : int
        Unused (the bigram particles keep no segmentation).
    """
    for i in range(sources.shape[0]):
        a, b = sources[i], targets[i]
        scal = parts.scal
        for array in (parts.hkey, parts.hslot, parts.pslot):  # int32 (a tuple of one dtype)
            copy_row(array, a, b, array.shape[1])
        for array in (parts.pkey, parts.cc, parts.scal):  # int64
            copy_row(array, a, b, array.shape[1])
        for array in (parts.wtype, parts.wctx, parts.wtabs, parts.whead):
            copy_row(array, a, b, scal[a, WORDS])
        for array in (parts.pcust, parts.phead):
            copy_row(array, a, b, scal[a, PAIRS])
        for array in (parts.bsize, parts.bnext):
            copy_row(array, a, b, scal[a, BTABLES])
        for array in (parts.usize, parts.unext):
            copy_row(array, a, b, scal[a, UTABLES])


@kernel
def log_joint(parts, params, out):
    """log P(s_l) as in the module's doc, from particle l's tables.

    Parameters
    ----------
    parts : BigramParticles
    params : float64[5]
        α₀, φ, p$, |chars|, α₁ (ALPHA0, PHI, P_END, N_CHARS, ALPHA1).
    out : float64[N]
        Output.
    """
    alpha0, alpha1, p_end, phi = params[ALPHA0], params[ALPHA1], params[P_END], params[PHI]
    for l in range(parts.scal.shape[0]):
        scal = parts.scal
        b_tables, u_tables = scal[l, BTABLES], scal[l, UTABLES]
        total = b_tables * math.log(alpha1) + u_tables * math.log(alpha0)
        total -= log_rising(alpha0, b_tables)
        for t in range(b_tables):
            total += math.lgamma(float(parts.bsize[l, t]))
        for t in range(u_tables):
            total += math.lgamma(float(parts.usize[l, t]))
        for w in range(scal[l, WORDS]):
            total -= log_rising(alpha1, parts.wctx[l, w])
        end_tables, t = 0, parts.whead[l, END]
        while t != EMPTY:
            end_tables += 1
            t = parts.unext[l, t]
        total += end_tables * math.log(p_end) + (u_tables - end_tables) * math.log(1.0 - p_end)
        for c in range(parts.cc.shape[1]):
            total += log_rising(phi, parts.cc[l, c])
        out[l] = total - log_rising(params[N_CHARS] * phi, scal[l, LABEL_CHARS])
