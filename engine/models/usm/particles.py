"""The particle filter's unigram model (Börschinger & Johnson 2011, Fig. 1) over a population of
particles in pooled flat arrays: row l of every array is particle l.

A particle is a model state s: a Chinese restaurant whose tables are labelled with words (eq. 5),
the characters of those labels (the learned lexical model, eqs. 3–4: a symmetric Dirichlet φ on
the |chars| symbols, the word end `#` one of them), and the utterance-end counts (a Beta(ρ/2, ρ/2)
choice after every word, as in Goldwater et al. 2009). Its probability is exchangeable:

    log P(s) = T log α + Σ_t log (n_t − 1)! − log α^(N)                  (CRP seating)
             + Σ_k log φ^(cc_k) − log (|chars| φ)^(S)                    (the labels' symbols)
             + log (ρ/2)^(E) + log (ρ/2)^(N − E) − log ρ^(N)             (utterance ends)

(x^(n) the rising factorial; T tables, N customers, E utterance ends, S label symbols).

Reading an utterance o (``propagate``), a particle draws a segmentation from the proposal Q —
the model frozen at s, every substring w scored q(w) = (c_w + α P₀(w | s)) / (N + α) with eq. 4's
P₀ (each symbol from the frozen counts), forward algorithm, backward sampling (eq. 7 summed over
tables) — then adds the words one by one, each seated from its exact conditional given
everything added before it (the customers of its tables, or a new table with weight α P₀(w),
P₀ now the exact Dirichlet-multinomial predictive, symbol by symbol). Its weight is multiplied by

    P(words, ends | s) / Q(words | s, o)        (eq. 10; the seating's own probability cancels)

where P multiplies the words' sequential predictive probabilities and Q(o | s) is the forward
algorithm's sum. Eq. 7 as printed seats every word against the frozen s, so a word's second token
in one utterance could never join the table its first token opened: that proposal misses part
of P's support and the marginal-likelihood estimate Ẑ would be biased. Seating sequentially
covers all of it.

Layout (N particles; capacities grow by doubling, ``grow``):

- the lexicon: an open-addressing table per particle, word type (engine.core.substrings) →
  word slot; slots are appended in the order words are first seated;
- tables: each word's tables a linked list from its slot; a closed table (rejuvenation moves
  take customers away) goes on a free stack for reuse.
"""
from collections import namedtuple

import math

import numpy as np

from engine.core.draw import pick_largest, pick_log_weight
from engine.core.jit import kernel
from engine.core.special import log_rising, log_sum_exp

EMPTY = -1
MIX = np.uint64(0x9E3779B97F4A7C15)
WORDS, TABLES, CUSTOMERS, ENDS, LABEL_CHARS, FREE = range(6)  # columns of .scal
ALPHA, PHI, RHO, N_CHARS = range(4)  # entries of params


class UnigramParticles(namedtuple("UnigramParticles", [
        "hkey", "hslot", "wtype", "wcust", "whead", "tsize", "tnext", "tfree", "cc", "scal",
        "bound"])):
    """N particles of the unigram model (H hash slots, W word slots, C tables per particle; A
    symbols).

    hkey : int32[N, H]    a word type (engine.core.substrings) or −1 (empty slot)
    hslot : int32[N, H]   its word slot
    wtype : int32[N, W]   each word slot's type
    wcust : int32[N, W]   its customers c_w
    whead : int32[N, W]   its first table (−1: none)
    tsize : int32[N, C]   customers at each table (0: a closed table, on the free stack)
    tnext : int32[N, C]   the next table of the same word (−1: the last)
    tfree : int32[N, C]   closed tables to reuse, the first scal[l, FREE]
    cc : int64[N, A + 1]  symbols in the tables' labels (eq. 3's cc); column A is `#`
    scal : int64[N, 6]    WORDS (slots used), TABLES (table ids used), CUSTOMERS, ENDS,
                          LABEL_CHARS (S), FREE
    bound : uint8[N, T]   each particle's segmentation of what it has read (1 where a word
                          ends), kept only when rejuvenation moves need it (else T = 0)
    """

    __slots__ = ()

    @property
    def n(self):
        return self.scal.shape[0]


def new_particles(n, n_symbols, words=256, tables=256, symbols=0):
    """n empty restaurants (no customers, nothing learned); ``symbols``: room for each one's
    segmentation of the corpus (0: none kept)."""
    hash_slots = 4 * words
    return UnigramParticles(
        hkey=np.full((n, hash_slots), EMPTY, np.int32), hslot=np.zeros((n, hash_slots), np.int32),
        wtype=np.zeros((n, words), np.int32), wcust=np.zeros((n, words), np.int32),
        whead=np.full((n, words), EMPTY, np.int32), tsize=np.zeros((n, tables), np.int32),
        tnext=np.full((n, tables), EMPTY, np.int32), tfree=np.zeros((n, tables), np.int32),
        cc=np.zeros((n, n_symbols + 1), np.int64), scal=np.zeros((n, 6), np.int64),
        bound=np.zeros((n, symbols), np.uint8))


def grow(parts, more_words, more_tables):
    """``parts`` with room for ``more_words`` new word slots and ``more_tables`` new tables in
    every particle (the same arrays when there is room; else every capacity doubled until
    there is, the lexicons rehashed)."""
    words_needed = int(parts.scal[:, WORDS].max()) + more_words
    tables_needed = int(parts.scal[:, TABLES].max()) + more_tables
    n, words = parts.wtype.shape
    tables = parts.tsize.shape[1]
    if words_needed <= words and tables_needed <= tables:
        return parts
    while words < words_needed:
        words *= 2
    while tables < tables_needed:
        tables *= 2
    grown = new_particles(n, parts.cc.shape[1] - 1, words, tables, parts.bound.shape[1])
    old_w, old_t = parts.wtype.shape[1], parts.tsize.shape[1]
    for name in ("wtype", "wcust", "whead"):
        getattr(grown, name)[:, :old_w] = getattr(parts, name)
    for name in ("tsize", "tnext", "tfree"):
        getattr(grown, name)[:, :old_t] = getattr(parts, name)
    grown.bound[:] = parts.bound
    grown.cc[:] = parts.cc
    grown.scal[:] = parts.scal
    reinsert(parts.hkey, parts.hslot, grown.hkey, grown.hslot)
    return grown


# --- the lexicon: word type → word slot ---------------------------------------------------------
@kernel
def _first_slot(v, mask):
    return np.int64((np.uint64(v) * MIX) >> np.uint64(24)) & mask


@kernel
def find_word(parts, l, v):
    """Particle l's word slot of type v, or −1 if it has never seated v."""
    hkey = parts.hkey
    mask = hkey.shape[1] - 1
    slot = _first_slot(v, mask)
    while hkey[l, slot] != EMPTY:
        if hkey[l, slot] == v:
            return np.int64(parts.hslot[l, slot])
        slot = (slot + 1) & mask
    return np.int64(EMPTY)


@kernel
def _link_word(parts, l, v, w):
    hkey = parts.hkey
    mask = hkey.shape[1] - 1
    slot = _first_slot(v, mask)
    while hkey[l, slot] != EMPTY:
        slot = (slot + 1) & mask
    hkey[l, slot] = v
    parts.hslot[l, slot] = w


@kernel
def new_word(parts, l, v):
    """Give type v a word slot in particle l (the caller checked it has none); return it."""
    w = parts.scal[l, WORDS]
    parts.scal[l, WORDS] += 1
    parts.wtype[l, w] = v
    parts.wcust[l, w] = 0
    parts.whead[l, w] = EMPTY
    _link_word(parts, l, v, w)
    return w


@kernel
def reinsert(old_key, old_value, new_key, new_value):
    """Every entry of each particle's open-addressing table (old_key, old_value: int[N, H], key
    −1 = empty) into its empty larger one (new_key, new_value: int[N, H′])."""
    mask = new_key.shape[1] - 1
    for l in range(old_key.shape[0]):
        for h in range(old_key.shape[1]):
            if old_key[l, h] != EMPTY:
                slot = _first_slot(old_key[l, h], mask)
                while new_key[l, slot] != EMPTY:
                    slot = (slot + 1) & mask
                new_key[l, slot] = old_key[l, h]
                new_value[l, slot] = old_value[l, h]


# --- the proposal Q: the model frozen at s ---------------------------------------------------------
@kernel
def log_ends(parts, l, params):
    """(log P(another word follows), log P(the utterance ends)) given particle l's counts."""
    n, e, half = parts.scal[l, CUSTOMERS], parts.scal[l, ENDS], 0.5 * params[RHO]
    norm = math.log(n + params[RHO])
    return math.log(n - e + half) - norm, math.log(e + half) - norm


@kernel
def fill_log_q(parts, l, chars, x0, n, sub, off, params, lp, lq):
    """log q(w) for every substring w = o[i:j] of the utterance chars[x0 : x0 + n] under
    particle l frozen: q(w) = (c_w + α P₀(w)) / (N + α), P₀ by eqs. 3–4.

    Parameters
    ----------
    sub : int32[…]; off : int
        The utterance's substring types (engine.core.substrings) start at sub[off].
    lp : float64[≥ n + 1]
        Work: prefix sums of log P_c over the utterance's symbols.
    lq : float64[≥ n²]
        Output: lq[i·n + j − 1] = log q(o[i:j]).
    """
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
    """terms[i] = fwd[i] + log q(o[i:j]) for i < j: the ways into a word that ends at j."""
    for i in range(j):
        terms[i] = fwd[i] + lq[i * n + j - 1]


@kernel
def forward(lq, n, log_cont, log_end, fwd, terms):
    """The forward algorithm: fwd[j] = log Σ over segmentations of o[:j] of Π q(w) × P(ends);
    return log Q(o | s) = fwd[n].

    lq : float64[≥ n²] from ``fill_log_q``; fwd : float64[≥ n + 1], output; terms :
    float64[≥ n] work.
    """
    fwd[0] = 0.0
    for j in range(1, n + 1):
        _paths_into(lq, n, fwd, j, terms)
        fwd[j] = log_sum_exp(terms[:j]) + (log_end if j == n else log_cont)
    return fwd[n]


@kernel
def draw_starts(lq, n, fwd, terms, uniforms, starts):
    """Backward sampling: a segmentation of the utterance drawn from Q (after ``forward``).

    terms : float64[≥ n] work; uniforms : float64[≥ n], one per word at most; starts :
    int64[≥ n], output: the words' starts left to right. Returns the number of words k.
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
    """The most probable segmentation under Q (Viterbi; the DPM learner). best : float64[≥ n +
    1], terms : float64[≥ n] work; starts : int64[≥ n] output. Returns the number of words."""
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


# --- the target P: adding words one by one ------------------------------------------------------
@kernel
def _log_base_counting(parts, l, chars, x, m, params):
    """log P₀ of the word chars[x : x + m] as the exact Dirichlet-multinomial predictive given
    particle l's label symbols (each symbol counted before the next is scored); the word's
    symbols are left counted (``_uncount`` takes them back)."""
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
def _uncount(parts, l, chars, x, m):
    for i in range(m):
        parts.cc[l, chars[x + i]] -= 1


@kernel
def _pick_table(parts, l, w, target, largest):
    """The table of word slot w where ``target`` (in [0, c_w)) falls when its tables are laid
    end to end by size; with ``largest``, the largest table instead."""
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
    return parts.tsize[l, _pick_table(parts, l, w, 0.0, True)] if w >= 0 else 0


@kernel
def open_table(parts, l, w, m):
    """A new table of one customer for word slot w, whose label (m symbols) the caller has
    counted in cc; a closed table's id is reused. Returns the table."""
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
    uniform u (``greedy``: its most probable table). Mutates the particle.

    Returns (log P(word, end | s), the table, whether it opened the table).
    """
    alpha, half = params[ALPHA], 0.5 * params[RHO]
    scal = parts.scal
    w = find_word(parts, l, v)
    c = parts.wcust[l, w] if w >= 0 else 0
    n_cust, ends = scal[l, CUSTOMERS], scal[l, ENDS]
    new_table_weight = alpha * math.exp(_log_base_counting(parts, l, chars, x, m, params))
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
        _uncount(parts, l, chars, x, m)
        t = np.int64(_pick_table(parts, l, w, u * (c + new_table_weight), greedy))
        parts.tsize[l, t] += 1
    parts.wcust[l, w] += 1
    scal[l, CUSTOMERS] += 1
    scal[l, ENDS] += 1 if last else 0
    return log_p, t, opens


@kernel
def unseat_word(parts, l, v, chars, x, m, last, t):
    """Take a token of the word chars[x : x + m] (type v) and its end choice away from table t
    of particle l; a table left empty closes (its label's symbols uncounted). Returns whether
    it closed."""
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
    _uncount(parts, l, chars, x, m)
    parts.cc[l, parts.cc.shape[1] - 1] -= 1
    parts.scal[l, LABEL_CHARS] -= m + 1
    return True


@kernel
def add_words(parts, l, chars, x0, n, sub, off, starts, k, params, uniforms, greedy):
    """Seat the words of a segmentation of the utterance chars[x0 : x0 + n] (``starts``, k
    words) in particle l, in order, each from its exact conditional given everything before it
    (``greedy``: at its most probable table, the DPM learner). Mutates the particle.

    uniforms : float64[≥ k], one per word. Returns log P(words, ends | s): the words'
    sequential predictive probabilities (summed over tables) and their utterance-end choices.
    """
    log_p = 0.0
    for a in range(k):
        i = starts[a]
        j = starts[a + 1] if a + 1 < k else n
        term, _, _ = seat_word(parts, l, sub[off + i * n + j - 1], chars, x0 + i, j - i,
                               a == k - 1, params, uniforms[a], greedy)
        log_p += term
    return log_p


@kernel
def propagate(parts, lo, hi, chars, x0, n, sub, off, params, uniforms, greedy, lp, lq, fwd,
              terms, starts, log_inc, log_qo, bounds):
    """Particles lo … hi − 1 read the utterance chars[x0 : x0 + n]: each draws a segmentation
    from Q (``greedy``: takes the most probable one), seats it, and gets its weight's factor.
    Mutates the particles.

    Parameters
    ----------
    uniforms : float64[N, ≥ 2n]
        Particle l's draws: n for the segmentation, n for the seating.
    lp, fwd, terms : float64[≥ n + 1]; lq : float64[≥ n²]; starts : int64[≥ n + 1]
        Work buffers (one set per concurrent call).
    log_inc : float64[N]
        Output: log P(words, ends | s) − log Q(words | s, o), eq. 10's factor.
    log_qo : float64[N]
        Output: log Q(o | s), the forward algorithm's sum.
    bounds : uint8[N, ≥ n]
        Output: 1 where a word of the drawn segmentation ends.
    """
    for l in range(lo, hi):
        log_cont, log_end = log_ends(parts, l, params)
        fill_log_q(parts, l, chars, x0, n, sub, off, params, lp, lq)
        log_z = forward(lq, n, log_cont, log_end, fwd, terms)
        if greedy:
            k = best_starts(lq, n, log_cont, log_end, lp, terms, starts)
        else:
            k = draw_starts(lq, n, fwd, terms, uniforms[l, :n], starts)
        log_q_words = (k - 1) * log_cont + log_end
        for a in range(n):
            bounds[l, a] = 0
        for a in range(k):
            j = starts[a + 1] if a + 1 < k else n
            log_q_words += lq[starts[a] * n + j - 1]
            bounds[l, j - 1] = 1
        log_p = add_words(parts, l, chars, x0, n, sub, off, starts, k, params,
                          uniforms[l, n:], greedy)
        log_inc[l] = log_p - log_q_words + log_z
        log_qo[l] = log_z


@kernel
def segment_frozen(rng, parts, l, chars, utt_start, sub, sub_off, params, lp, lq, fwd, terms,
                   starts, uniforms, bound):
    """§6.1's evaluation: particle l frozen, a segmentation of every utterance drawn from Q.

    uniforms : float64[≥ longest utterance] work; bound : uint8[T] output, 1 where a word ends.
    """
    log_cont, log_end = log_ends(parts, l, params)
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        fill_log_q(parts, l, chars, x0, n, sub, sub_off[u], params, lp, lq)
        forward(lq, n, log_cont, log_end, fwd, terms)
        for a in range(n):
            uniforms[a] = rng.random()
            bound[x0 + a] = 0
        k = draw_starts(lq, n, fwd, terms, uniforms, starts)
        for a in range(k):
            bound[x0 + (starts[a + 1] if a + 1 < k else n) - 1] = 1


@kernel
def copy_row(array, a, b, used):
    """array[b, :used] = array[a, :used] (a particle's row, in a pooled array)."""
    for x in range(used):
        array[b, x] = array[a, x]


@kernel
def copy_particles(parts, sources, targets, read):
    """Particle targets[i] becomes a copy of particle sources[i] (no target is a source); of
    the segmentations, the first ``read`` symbols."""
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
    """out[l] = log P(s_l), each particle's state (segmentation and seating) as in the module's
    doc, from its counts."""
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
def seat_segmentation(parts, l, chars, utt_start, sub, sub_off, params, bound, uniforms, starts):
    """Particle l reads every utterance with the segmentation ``bound`` (uint8[T], 1 where a
    word ends) instead of drawing one, each word seated from its exact conditional; the start
    of a batch chain on this model. uniforms : float64[≥ T] (one per word); starts : int64[≥
    longest utterance] work. Returns log P(words, ends) of the sequence."""
    log_p, drawn = 0.0, 0
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        k = 0
        for i in range(n):
            if i == 0 or bound[x0 + i - 1] == 1:
                starts[k] = i
                k += 1
        log_p += add_words(parts, l, chars, x0, n, sub, sub_off[u], starts, k, params,
                           uniforms[drawn:], False)
        drawn += k
        for i in range(n):
            parts.bound[l, x0 + i] = bound[x0 + i]
    return log_p
