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

from engine.core.draw import draw_log_weights, random_index, random_subset
from engine.core.jit import kernel
from engine.core.special import log_rising
from engine.models.usm.particles import (ALPHA, CUSTOMERS, ENDS, RHO, _log_base_counting,
                                              _pick_table, _uncount, find_word, open_table,
                                              seat_word, unseat_word)

# ``move``'s work buffers: (block, again, values, chosen, tables, closed, new_tables, log_g)

PROPOSED, ACCEPTED, BLOCK_SITES, CHANGED = range(4)  # entries of the tally
BLOCK_MAX = 64  # sites a TYPE block gathers at most (the first in corpus order after the pivot)


@kernel
def _span(bound, l, utt_start, utt_of, p):
    """(x, e): the first and last symbols of the words around site p (the span from the boundary
    before p to the one after p + 1, whatever site p's own value)."""
    x, first = p, utt_start[utt_of[p]]
    while x > first and bound[l, x - 1] == 0:
        x -= 1
    e = p + 1
    while bound[l, e] == 0:
        e += 1
    return x, e


@kernel
def _is_span(bound, l, utt_start, utt_of, x, p, e):
    """Whether [x, e] is the span of site p: boundaries before x and at e, none inside but p."""
    if x > utt_start[utt_of[x]] and bound[l, x - 1] == 0:
        return False
    if bound[l, e] == 0:
        return False
    for y in range(x, e):
        if y != p and bound[l, y] == 1:
            return False
    return True


@kernel
def gather(bound, l, p, m1, m2, final, utt_start, utt_of, limit, v12, occ_start, occ_pos,
           block):
    """The TYPE block of pivot p (its span's words m1 + m2 symbols long, type v12 joined):
    the pivot, then in corpus order every other read site whose span holds the same symbols with
    the same split and end, not overlapping one already taken (at most BLOCK_MAX). Returns m."""
    x, e = p - m1 + 1, p + m2
    block[0] = p
    m, last_end = 1, -1
    for o in range(occ_start[v12], occ_start[v12 + 1]):
        x2 = occ_pos[o]
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
    """log P(the word chars[x : x + m] of type v, then its end choice | particle l now)."""
    alpha, half = params[ALPHA], 0.5 * params[RHO]
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    n, ends = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS]
    base = math.exp(_log_base_counting(parts, l, chars, x, m, params))
    _uncount(parts, l, chars, x, m)
    return (math.log((c + alpha * base) / (n + alpha))
            + math.log(((ends if last else n - ends) + half) / (n + 2 * half)))


@kernel
def _frozen_weight(parts, l, v, chars, x, m, params):
    """c_w + α P₀(w) for word chars[x : x + m] of type v, particle l now."""
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    base = math.exp(_log_base_counting(parts, l, chars, x, m, params))
    _uncount(parts, l, chars, x, m)
    return c + params[ALPHA] * base


@kernel
def _log_g(parts, l, v1, v2, v12, chars, x, m1, m2, final, m, params, log_g):
    """log_g[k] = log C(m, k) + log of eq. 7's g(k) (the module's doc) for k = 0 … m."""
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
        log_g[k] = _log_binom(m, k) + words + events


@kernel
def _log_binom(m, k):
    return math.lgamma(m + 1.0) - math.lgamma(k + 1.0) - math.lgamma(m - k + 1.0)


@kernel
def _type_of(sub, sub_off, utt_start, utt_of, start, length):
    """The type (engine.core.substrings) of the word chars[start : start + length]."""
    u = utt_of[start]
    x0 = utt_start[u]
    n = utt_start[u + 1] - x0
    return sub[sub_off[u] + (start - x0) * n + start - x0 + length - 1]


@kernel
def _token(value, p, m1, m2, fin, part):
    """(start, length, last) of site p's part-th word token in adding order: split (value 1):
    w1 then w2; joined: w1w2."""
    x = p - m1 + 1
    if value:
        return (x, m1, False) if part == 0 else (p + 1, m2, fin)
    return x, m1 + m2, fin


@kernel
def _count(parts, l, chars, x, m):
    for i in range(m):
        parts.cc[l, chars[x + i]] += 1


@kernel
def _take_away(rng, parts, l, block, m, values, m1, m2, fin, chars, corpus, params, tables,
               closed):
    """Step 1: the block's tokens (sites' values ``values``) leave, last added first; the table
    each left and whether it closed go to tables[a], closed[a], a its adding index. Returns the
    number of tokens and log W_old."""
    sub, sub_off, utt_start, utt_of = corpus
    total = 0
    for b in range(m):
        total += 2 if values[b] else 1
    log_w, a = 0.0, total
    for b in range(m - 1, -1, -1):
        for part in range(1 if values[b] else 0, -1, -1):
            a -= 1
            start, length, last = _token(values[b], block[b], m1, m2, fin, part)
            v = _type_of(sub, sub_off, utt_start, utt_of, start, length)
            w = find_word(parts, l, v)
            t = _pick_table(parts, l, w, rng.random() * parts.wcust[l, w], False)
            tables[a] = t
            closed[a] = unseat_word(parts, l, v, chars, start, length, last, t)
            log_w += _log_predictive(parts, l, v, chars, start, length, last, params)
    return total, log_w


@kernel
def _put_back(parts, l, block, m, values, m1, m2, fin, chars, corpus, tables, closed):
    """Undo ``_take_away``: the old tokens return to their tables, in adding order."""
    sub, sub_off, utt_start, utt_of = corpus
    a = 0
    for b in range(m):
        for part in range(2 if values[b] else 1):
            start, length, last = _token(values[b], block[b], m1, m2, fin, part)
            w = find_word(parts, l, _type_of(sub, sub_off, utt_start, utt_of, start, length))
            if closed[a]:
                _count(parts, l, chars, start, length)
                open_table(parts, l, w, length)
            else:
                parts.tsize[l, tables[a]] += 1
            parts.wcust[l, w] += 1
            parts.scal[l, CUSTOMERS] += 1
            parts.scal[l, ENDS] += 1 if last else 0
            a += 1


@kernel
def _add_new(rng, parts, l, block, m, values, m1, m2, fin, chars, corpus, params, tables):
    """Step 3: the new tokens join, in adding order, each from its exact conditional; their
    tables go to ``tables``. Returns log W_new."""
    sub, sub_off, utt_start, utt_of = corpus
    log_w, a = 0.0, 0
    for b in range(m):
        for part in range(2 if values[b] else 1):
            start, length, last = _token(values[b], block[b], m1, m2, fin, part)
            v = _type_of(sub, sub_off, utt_start, utt_of, start, length)
            term, t, _ = seat_word(parts, l, v, chars, start, length, last, params, rng.random(),
                                   False)
            tables[a] = t
            log_w += term
            a += 1
    return log_w


@kernel
def _take_new_away(parts, l, block, m, values, m1, m2, fin, chars, corpus, tables):
    """Undo ``_add_new``: the new tokens leave the tables they joined, last added first."""
    sub, sub_off, utt_start, utt_of = corpus
    a = 0
    for b in range(m):
        a += 2 if values[b] else 1
    for b in range(m - 1, -1, -1):
        for part in range(1 if values[b] else 0, -1, -1):
            a -= 1
            start, length, last = _token(values[b], block[b], m1, m2, fin, part)
            unseat_word(parts, l, _type_of(sub, sub_off, utt_start, utt_of, start, length),
                        chars, start, length, last, tables[a])


@kernel
def move(rng, parts, l, p, by_type, limit, chars, final, corpus, occ_start, occ_pos, params,
         work, tally):
    """One TOKEN (``by_type`` False) or TYPE move of particle l with pivot site p (a read site);
    the particle's segmentation ``parts.bound`` and its restaurant change together.

    corpus : (sub, sub_off, utt_start, utt_of) — substring types and where utterances start
    occ_start, occ_pos : every type's occurrences (starts, ascending), CSR
    work : (block, again, values, chosen, tables, closed, new_tables, log_g), buffers sized for
        BLOCK_MAX sites (two tokens a site)
    tally : int64[4], PROPOSED, ACCEPTED, BLOCK_SITES, CHANGED added to
    """
    sub, sub_off, utt_start, utt_of = corpus
    block, again, values, chosen, tables, closed, new_tables, log_g = work
    bound = parts.bound
    x, e = _span(bound, l, utt_start, utt_of, p)
    m1, m2, fin = p - x + 1, e - p, final[e] == 1
    v1 = _type_of(sub, sub_off, utt_start, utt_of, x, m1)
    v2 = _type_of(sub, sub_off, utt_start, utt_of, p + 1, m2)
    v12 = _type_of(sub, sub_off, utt_start, utt_of, x, m1 + m2)
    if by_type:
        m = gather(bound, l, p, m1, m2, final, utt_start, utt_of, limit, v12, occ_start, occ_pos,
                   block)
    else:
        block[0], m = p, 1
    k_old = 0
    for b in range(m):
        values[b] = bound[l, block[b]]
        k_old += values[b]
    _, log_w_old = _take_away(rng, parts, l, block, m, values, m1, m2, fin, chars, corpus,
                              params, tables, closed)
    _log_g(parts, l, v1, v2, v12, chars, x, m1, m2, fin, m, params, log_g)
    k_new = draw_log_weights(rng, log_g, m + 1)
    random_subset(rng, m, k_new, chosen)
    log_w_new = _add_new(rng, parts, l, block, m, chosen, m1, m2, fin, chars, corpus, params,
                         new_tables)
    for b in range(m):
        bound[l, block[b]] = chosen[b]
    # the proposal's probability of one configuration with k splits is g(k) / Σ, the draw of k
    # (∝ C(m, k) g(k)) times a uniform choice of the k sites
    log_ratio = ((log_w_new - log_g[k_new] + _log_binom(m, k_new))
                 - (log_w_old - log_g[k_old] + _log_binom(m, k_old)))
    same_block = True
    if by_type:  # the new state must gather the same block from this pivot
        same_block = gather(bound, l, p, m1, m2, final, utt_start, utt_of, limit, v12,
                            occ_start, occ_pos, again) == m
        for b in range(m):
            same_block = same_block and again[b] == block[b]
    tally[PROPOSED] += 1
    tally[BLOCK_SITES] += m
    if same_block and math.log(rng.random()) < log_ratio:
        tally[ACCEPTED] += 1
        for b in range(m):
            if chosen[b] != values[b]:
                tally[CHANGED] += 1
        return
    _take_new_away(parts, l, block, m, chosen, m1, m2, fin, chars, corpus, new_tables)
    _put_back(parts, l, block, m, values, m1, m2, fin, chars, corpus, tables, closed)
    for b in range(m):
        bound[l, block[b]] = values[b]


@kernel
def rejuvenate(rng, parts, lo, hi, moves, by_type, n_sites, site_pos, limit, chars, final,
               corpus, occ_start, occ_pos, params, work, tally):
    """``moves`` moves in each of particles lo … hi − 1, pivots drawn uniformly from the first
    n_sites sites (those read; ``limit``: the symbols read). Mutates the particles."""
    for l in range(lo, hi):
        for _ in range(moves):
            p = site_pos[random_index(rng, n_sites)]
            move(rng, parts, l, p, by_type, limit, chars, final, corpus, occ_start, occ_pos,
                 params, work, tally)
