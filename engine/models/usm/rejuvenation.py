"""Rejuvenation (Börschinger & Johnson 2012): MCMC moves inside each particle of the unigram
particle filter, on the sites of the utterances it has read — TOKEN (one site) and TYPE (every
read site of the pivot's type, Liang et al. 2010), each leaving the particle's posterior given
what it has read invariant.

A move on a block of m sites that share a type (the words w1|w2 when split, w1w2 when joined, and
whether w2 ends its utterance; spans that do not overlap):

1. the block's word tokens leave their tables, last added first, each from a table drawn in
   proportion to its size (by exchangeability, any customer of a word is equally likely to be
   the one leaving: Blunsom et al. 2009's histogram argument); W_old, the probability of adding
   them back in order to the tables they left, is the product of each one's predictive
   probability given the state it left behind;
2. k, the number of sites to split, is drawn from Liang et al.'s eq. 7 with the restaurant
   frozen after the removal — g(k) ∝ C(m, k) × the Dirichlet-process probability of adding k
   × (w1, w2) and m − k × w1w2 with the base P₀ held fixed — and which k sites uniformly;
3. the new tokens are added in order, each seated from its exact conditional (P₀ updated as
   tables open): W_new is their sequential predictive probability;
4. the move is accepted with probability min(1, (W_new / g(k_new)) / (W_old / g(k_old))): the
   Metropolis-Hastings ratio of the exact conditional against this independence proposal (the
   seating's own probability cancels, as in eq. 10). A TYPE block must also be the block the
   new state would gather from the same pivot, or the move is rejected (the reverse move must
   be possible). Rejected: the new tokens leave and the old ones return to their tables.
"""
import math
from collections import namedtuple

import numpy as np

from engine.core.draw import draw_log_weights, random_index, random_subset
from engine.core.jit import inline, kernel
from engine.core.special import log_binom, log_rising
from engine.models.usm.particles.layout import ALPHA, CUSTOMERS, ENDS, RHO
from engine.models.usm.particles.lexicon import find_word
from engine.models.usm.particles.target import (log_base_counting, open_table, pick_table,
                                                seat_word, uncount, unseat_word)

PROPOSED, ACCEPTED, BLOCK_SITES, CHANGED = range(4)  # entries of the tally
BLOCK_MAX = 64  # sites a TYPE block gathers at most (the first in corpus order after the pivot)


class MoveSites(namedtuple("MoveSites", ["final", "utt_of", "site_pos", "sites_before",
                                         "occ_start", "occ_pos"])):
    """What the moves read of the corpus (U utterances, T symbols, S sites, V substring types)
    besides its ``ParticleCorpus``.

    final : uint8[T]           1 at the last symbol of each utterance
    utt_of : int64[T]          each symbol's utterance
    site_pos : int64[S]        the symbol each site follows
    sites_before : int64[U + 1]
                               the sites of the utterances before each one
    occ_start : int64[V + 1]   each type's occurrences (starts, ascending) are
    occ_pos : int64[…]         occ_pos[occ_start[v] : occ_start[v + 1]]
                               (engine.core.substrings.occurrences)
    """

    __slots__ = ()


class MoveWork(namedtuple("MoveWork", ["block", "again", "values", "chosen", "tables", "closed",
                                       "new_tables", "log_g"])):
    """One thread's work arrays for ``move``, sized for BLOCK_MAX sites (two tokens a site).

    block, again : int64[BLOCK_MAX]   the block's sites, and the block gathered again after
    values, chosen : uint8[BLOCK_MAX] the sites' values before and after
    tables : int64[2 · BLOCK_MAX]     the tables the old tokens left
    closed : uint8[2 · BLOCK_MAX]     whether each closed
    new_tables : int64[2 · BLOCK_MAX] the tables the new tokens joined
    log_g : float64[BLOCK_MAX + 1]    log C(m, k) g(k), k = 0 … m
    """

    __slots__ = ()

    @classmethod
    def empty(cls):
        """Uninitialised arrays of the right sizes."""
        most = BLOCK_MAX
        return cls(np.empty(most, np.int64), np.empty(most, np.int64), np.empty(most, np.uint8),
                   np.empty(most, np.uint8), np.empty(2 * most, np.int64),
                   np.empty(2 * most, np.uint8), np.empty(2 * most, np.int64),
                   np.empty(most + 1))


@kernel
def _span(bound, l, utt_start, utt_of, p):
    """(x, e): the first and last symbols of the words around site p (the span from the
    boundary before p to the one after p + 1, whatever site p's own value).

    Parameters
    ----------
    bound : uint8[N, T]
        The particles' segmentations.
    l : int
    utt_start : int64[U + 1]
    utt_of : int64[T]
    p : int

    Returns
    -------
    (int, int)
    """
    x, first = p, utt_start[utt_of[p]]
    while x > first and bound[l, x - 1] == 0:
        x -= 1
    e = p + 1
    while bound[l, e] == 0:
        e += 1
    return x, e


@kernel
def _is_span(bound, l, utt_start, utt_of, x, p, e):
    """Whether [x, e] is the span of site p: boundaries before x and at e, none inside but p.

    Parameters
    ----------
    bound : uint8[N, T]
    l : int
    utt_start : int64[U + 1]
    utt_of : int64[T]
    x, p, e : int

    Returns
    -------
    bool
    """
    if x > utt_start[utt_of[x]] and bound[l, x - 1] == 0:
        return False
    if bound[l, e] == 0:
        return False
    for y in range(x, e):
        if y != p and bound[l, y] == 1:
            return False
    return True


@kernel
def gather(bound, l, p, m1, m2, utt_start, sites, limit, v12, block):
    """The TYPE block of pivot p (its span's words m1 + m2 symbols long, type v12 joined): the
    pivot, then in corpus order every other read site whose span holds the same symbols with
    the same split and end, not overlapping one already taken (at most BLOCK_MAX).

    Parameters
    ----------
    bound : uint8[N, T]
    l, p, m1, m2 : int
    utt_start : int64[U + 1]
    sites : MoveSites
    limit : int
        The symbols read: a span must end before.
    v12 : int
    block : int64[BLOCK_MAX]
        Output.

    Returns
    -------
    int
        m, the block's size.
    """
    final, utt_of = sites.final, sites.utt_of
    x, e = p - m1 + 1, p + m2
    block[0] = p
    m, last_end = 1, -1
    for o in range(sites.occ_start[v12], sites.occ_start[v12 + 1]):
        x2 = sites.occ_pos[o]
        e2 = x2 + m1 + m2 - 1
        if e2 >= limit or m == BLOCK_MAX:
            break
        p2 = x2 + m1 - 1
        if x2 == x or x2 <= last_end or not (e2 < x or x2 > e):
            continue
        if final[e2] != final[e] or not _is_span(bound, l, utt_start, utt_of, x2, p2, e2):
            continue
        block[m] = p2
        m += 1
        last_end = e2
    return m


@kernel
def _log_predictive(parts, l, v, chars, x, m, last, params):
    """log P(the word chars[x : x + m] of type v, then its end choice | particle l now).

    Parameters
    ----------
    parts : UnigramParticles
    l, v : int
    chars : int32[T]
    x, m : int
    last : bool
    params : float64[4]

    Returns
    -------
    float
    """
    alpha, half = params[ALPHA], 0.5 * params[RHO]
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    n, ends = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS]
    base = math.exp(log_base_counting(parts, l, chars, x, m, params))
    uncount(parts, l, chars, x, m)
    return (math.log((c + alpha * base) / (n + alpha))
            + math.log(((ends if last else n - ends) + half) / (n + 2 * half)))


@kernel
def _frozen_weight(parts, l, v, chars, x, m, params):
    """c_w + α P₀(w) for word chars[x : x + m] of type v, particle l now.

    Parameters
    ----------
    parts : UnigramParticles
    l, v : int
    chars : int32[T]
    x, m : int
    params : float64[4]

    Returns
    -------
    float
    """
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    base = math.exp(log_base_counting(parts, l, chars, x, m, params))
    uncount(parts, l, chars, x, m)
    return c + params[ALPHA] * base


@kernel
def _log_g(parts, l, types, chars, x, span, m, params, log_g):
    """log_g[k] = log C(m, k) + log of eq. 7's g(k) (the module's doc) for k = 0 … m.

    Parameters
    ----------
    parts : UnigramParticles
        Particle l with the block's tokens taken away (its label counts are restored).
    l : int
    types : (int, int, int)
        The types of w1, w2 and w1w2.
    chars : int32[T]
    x : int
        Where the pivot's span starts.
    span : (int, int, bool)
        The words' lengths m1, m2 and whether w2 ends its utterance.
    m : int
        The block's size.
    params : float64[4]
    log_g : float64[≥ m + 1]
        Output.
    """
    v1, v2, v12 = types
    m1, m2, final = span
    alpha, half = params[ALPHA], 0.5 * params[RHO]
    n, ends = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS]
    b1 = _frozen_weight(parts, l, v1, chars, x, m1, params)
    b2 = _frozen_weight(parts, l, v2, chars, x + m1, m2, params)
    b12 = _frozen_weight(parts, l, v12, chars, x, m1 + m2, params)
    for k in range(m + 1):
        if v1 == v2:
            words = log_rising(b1, 2 * k)
        else:
            words = log_rising(b1, k) + log_rising(b2, k)
        words += log_rising(b12, m - k) - log_rising(n + alpha, m + k)
        conts = k + (0 if final else m)
        events = (log_rising(n - ends + half, conts) + log_rising(ends + half, m if final else 0)
                  - log_rising(n + 2 * half, m + k))
        log_g[k] = log_binom(m, k) + words + events


@inline  # per token
def _type_of(corpus, utt_of, start, length):
    """The type (engine.core.substrings) of the word chars[start : start + length].

    Parameters
    ----------
    corpus : ParticleCorpus
    utt_of : int64[T]
        Each symbol's utterance.
    start, length : int

    Returns
    -------
    int32
    """
    u = utt_of[start]
    x0 = corpus.utt_start[u]
    n = corpus.utt_start[u + 1] - x0
    return corpus.sub[corpus.sub_off[u] + (start - x0) * n + start - x0 + length - 1]


@kernel
def _token(value, p, span, part):
    """(start, length, last) of site p's part-th word token in adding order: split (value 1):
    w1 then w2; joined: w1w2.

    Parameters
    ----------
    value : uint8
        The site's value.
    p : int
        The site.
    span : (int, int, bool)
        The lengths m1, m2 of w1 and w2 and whether w2 ends its utterance.
    part : int
        0 or (split) 1.

    Returns
    -------
    (int, int, bool)
    """
    m1, m2, fin = span
    x = p - m1 + 1
    if value:
        return (x, m1, False) if part == 0 else (p + 1, m2, fin)
    return x, m1 + m2, fin


@kernel
def _count(parts, l, chars, x, m):
    """Count the symbols chars[x : x + m] in particle l's label counts (``uncount``'s inverse).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated (parts.cc).
    l, x, m : int
    chars : int32[T]
    """
    for i in range(m):
        parts.cc[l, chars[x + i]] += 1


@kernel
def _n_tokens(values, m):
    """The word tokens of m sites with these values: two a split site, one a joined one.

    Parameters
    ----------
    values : uint8[≥ m]
    m : int

    Returns
    -------
    int
    """
    total = 0
    for b in range(m):
        total += 2 if values[b] else 1
    return total


@kernel
def _take_away(rng, parts, l, block, m, values, span, corpus, utt_of, params, tables, closed):
    """Step 1: the block's tokens (sites' values ``values``) leave, last added first; the table
    each left and whether it closed go to tables[a], closed[a], a its adding index.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
        Mutated.
    l : int
    block : int64[≥ m]
        The block's sites.
    m : int
    values : uint8[≥ m]
        Their values.
    span : (int, int, bool)
        The words' lengths m1, m2 and whether w2 ends its utterance.
    corpus : ParticleCorpus
    utt_of : int64[T]
        Each symbol's utterance.
    params : float64[4]
    tables : int64[≥ 2m]
        Output.
    closed : uint8[≥ 2m]
        Output.

    Returns
    -------
    float
        log W_old.
    """
    log_w, a = 0.0, _n_tokens(values, m)
    for b in range(m - 1, -1, -1):
        for part in range(1 if values[b] else 0, -1, -1):
            a -= 1
            start, length, last = _token(values[b], block[b], span, part)
            v = _type_of(corpus, utt_of, start, length)
            w = find_word(parts, l, v)
            t = pick_table(parts, l, w, rng.random() * parts.wcust[l, w], False)
            tables[a] = t
            closed[a] = unseat_word(parts, l, v, corpus.chars, start, length, last, t)
            log_w += _log_predictive(parts, l, v, corpus.chars, start, length, last, params)
    return log_w


@kernel
def _put_back(parts, l, block, m, values, span, corpus, utt_of, tables, closed):
    """Undo ``_take_away``: the old tokens return to their tables, in adding order.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l : int
    block : int64[≥ m]; m : int; values : uint8[≥ m]; span : (int, int, bool)
        As ``_take_away`` had them.
    corpus : ParticleCorpus
    utt_of : int64[T]
        Each symbol's utterance.
    tables : int64[≥ 2m]; closed : uint8[≥ 2m]
        What ``_take_away`` wrote.
    """
    a = 0
    for b in range(m):
        for part in range(2 if values[b] else 1):
            start, length, last = _token(values[b], block[b], span, part)
            w = find_word(parts, l, _type_of(corpus, utt_of, start, length))
            if closed[a]:
                _count(parts, l, corpus.chars, start, length)
                open_table(parts, l, w, length)
            else:
                parts.tsize[l, tables[a]] += 1
            parts.wcust[l, w] += 1
            parts.scal[l, CUSTOMERS] += 1
            parts.scal[l, ENDS] += 1 if last else 0
            a += 1


@kernel
def _add_new(rng, parts, l, block, m, values, span, corpus, utt_of, params, tables):
    """Step 3: the new tokens join, in adding order, each from its exact conditional.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
        Mutated.
    l : int
    block : int64[≥ m]; m : int
    values : uint8[≥ m]
        The sites' new values.
    span : (int, int, bool)
    corpus : ParticleCorpus
    utt_of : int64[T]
        Each symbol's utterance.
    params : float64[4]
    tables : int64[≥ 2m]
        Output: the tables the tokens joined.

    Returns
    -------
    float
        log W_new.
    """
    log_w, a = 0.0, 0
    for b in range(m):
        for part in range(2 if values[b] else 1):
            start, length, last = _token(values[b], block[b], span, part)
            v = _type_of(corpus, utt_of, start, length)
            term, t, _ = seat_word(parts, l, v, corpus.chars, start, length, last, params,
                                   rng.random(), False)
            tables[a] = t
            log_w += term
            a += 1
    return log_w


@kernel
def _take_new_away(parts, l, block, m, values, span, corpus, utt_of, tables):
    """Undo ``_add_new``: the new tokens leave the tables they joined, last added first.

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l : int
    block : int64[≥ m]; m : int; values : uint8[≥ m]; span : (int, int, bool)
        As ``_add_new`` had them.
    corpus : ParticleCorpus
    utt_of : int64[T]
        Each symbol's utterance.
    tables : int64[≥ 2m]
        What ``_add_new`` wrote.
    """
    a = _n_tokens(values, m)
    for b in range(m - 1, -1, -1):
        for part in range(1 if values[b] else 0, -1, -1):
            a -= 1
            start, length, last = _token(values[b], block[b], span, part)
            unseat_word(parts, l, _type_of(corpus, utt_of, start, length), corpus.chars, start,
                        length, last, tables[a])


@inline
def _propose(rng, parts, l, x, m, span, types, corpus, sites, params, work):
    """Steps 1–3 for the block in work.block[:m]: the old tokens leave, k is drawn, the new
    ones join; the new values go to work.chosen and the segmentation.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
        Mutated.
    l, x, m : int
        The particle, where the pivot's span starts, the block's size.
    span : (int, int, bool)
    types : (int, int, int)
        The types of w1, w2 and w1w2.
    corpus : ParticleCorpus
    sites : MoveSites
    params : float64[4]
    work : MoveWork
        work.block holds the block; the rest is written.

    Returns
    -------
    float
        The log Metropolis-Hastings ratio of step 4.
    """
    block, values, chosen, log_g = work.block, work.values, work.chosen, work.log_g
    k_old = 0
    for b in range(m):
        values[b] = parts.bound[l, block[b]]
        k_old += values[b]
    log_w_old = _take_away(rng, parts, l, block, m, values, span, corpus, sites.utt_of, params,
                           work.tables, work.closed)
    _log_g(parts, l, types, corpus.chars, x, span, m, params, log_g)
    k_new = draw_log_weights(rng, log_g, m + 1)
    random_subset(rng, m, k_new, chosen)
    log_w_new = _add_new(rng, parts, l, block, m, chosen, span, corpus, sites.utt_of, params,
                         work.new_tables)
    for b in range(m):
        parts.bound[l, block[b]] = chosen[b]
    # the proposal's probability of one configuration with k splits is g(k) / Σ, the draw of k
    # (∝ C(m, k) g(k)) times a uniform choice of the k sites
    return ((log_w_new - log_g[k_new] + log_binom(m, k_new))
            - (log_w_old - log_g[k_old] + log_binom(m, k_old)))


@kernel
def move(rng, parts, l, p, by_type, limit, corpus, sites, params, work, tally):
    """One TOKEN (``by_type`` False) or TYPE move of particle l with pivot site p (a read site);
    the particle's segmentation ``parts.bound`` and its restaurant change together.

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
        Mutated.
    l, p : int
    by_type : bool
    limit : int
        The symbols read: a block's spans end before.
    corpus : ParticleCorpus
    sites : MoveSites
    params : float64[4]
    work : MoveWork
    tally : int64[4]
        PROPOSED, ACCEPTED, BLOCK_SITES, CHANGED, added to.
    """
    bound, block = parts.bound, work.block
    x, e = _span(bound, l, corpus.utt_start, sites.utt_of, p)
    span = (p - x + 1, e - p, sites.final[e] == 1)
    m1, m2 = span[0], span[1]
    types = (_type_of(corpus, sites.utt_of, x, m1), _type_of(corpus, sites.utt_of, p + 1, m2),
             _type_of(corpus, sites.utt_of, x, m1 + m2))
    if by_type:
        m = gather(bound, l, p, m1, m2, corpus.utt_start, sites, limit, types[2], block)
    else:
        block[0], m = p, 1
    log_ratio = _propose(rng, parts, l, x, m, span, types, corpus, sites, params, work)
    same_block = True
    if by_type:  # the new state must gather the same block from this pivot
        same_block = gather(bound, l, p, m1, m2, corpus.utt_start, sites, limit, types[2],
                            work.again) == m
        for b in range(m):
            same_block = same_block and work.again[b] == block[b]
    tally[PROPOSED] += 1
    tally[BLOCK_SITES] += m
    if same_block and math.log(rng.random()) < log_ratio:
        tally[ACCEPTED] += 1
        for b in range(m):
            if work.chosen[b] != work.values[b]:
                tally[CHANGED] += 1
    else:
        _take_new_away(parts, l, block, m, work.chosen, span, corpus, sites.utt_of,
                       work.new_tables)
        _put_back(parts, l, block, m, work.values, span, corpus, sites.utt_of, work.tables,
                  work.closed)
        for b in range(m):
            bound[l, block[b]] = work.values[b]


@kernel
def rejuvenate(rng, parts, lo, hi, moves, by_type, read, corpus, sites, params, work, tally):
    """``moves`` moves in each of particles lo … hi − 1, pivots drawn uniformly from the sites
    of the ``read`` utterances read (there must be one).

    Parameters
    ----------
    rng : numpy.random.Generator
    parts : UnigramParticles
        Mutated.
    lo, hi, moves : int
    by_type : bool
        TYPE moves, else TOKEN.
    read : int
        The utterances read.
    corpus : ParticleCorpus
    sites : MoveSites
    params : float64[4]
        α, φ, ρ, |chars|.
    work : MoveWork
    tally : int64[4]
        PROPOSED, ACCEPTED, BLOCK_SITES, CHANGED, added to.
    """
    n_sites, limit = sites.sites_before[read], corpus.utt_start[read]
    for l in range(lo, hi):
        for _ in range(moves):
            p = sites.site_pos[random_index(rng, n_sites)]
            move(rng, parts, l, p, by_type, limit, corpus, sites, params, work, tally)
