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

- the lexicon: an engine.core.hash_table per particle (a row of ``hkey``), word type
  (engine.core.substrings) → word slot; slots are appended in the order words are first seated
  (``find_word``, ``link_word``: the bigram particles' lexicon is alike);
- tables: each word's tables a linked list from its slot; a closed table (rejuvenation moves
  take customers away) goes on a free stack for reuse.

The kernels read the corpus as a ``ParticleCorpus`` and write what reading an utterance gives
into a ``Reading`` (engine.models.segmentation.particle_arrays), their work arrays a
``UnigramWork``.
"""
from collections import namedtuple

import math

import numpy as np

from engine.core import hash_table
from engine.core.draw import pick_largest, pick_log_weight
from engine.core.hash_table import EMPTY
from engine.core.jit import inline, kernel
from engine.core.resampling import copy_row
from engine.core.special import log_rising, log_sum_exp

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


class UnigramWork(namedtuple("UnigramWork", ["lp", "lq", "fwd", "terms", "starts", "uniforms",
                                             "bound"])):
    """One thread's work arrays for ``propagate`` and ``segment_frozen`` (n the longest
    utterance, T the corpus's symbols).

    lp, fwd, terms : float64[n + 1]   prefix sums of log P_c, forward sums, a position's terms
    lq : float64[n²]                  log q of every substring of an utterance
    starts : int64[n + 1]             a segmentation's word starts
    uniforms : float64[n]             segment_frozen's draws for one utterance
    bound : uint8[T]                  segment_frozen's output: 1 where a word ends
    """

    __slots__ = ()


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
    hash_table.reinsert_rows(parts.hkey, parts.hslot, grown.hkey, grown.hslot)
    return grown


# --- the lexicon: word type → word slot ---------------------------------------------------------
@kernel
def find_word(parts, l, v):
    """Particle l's word slot of type v, or −1 if it has never seated v (either model's
    particles: their lexicons are alike).

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
    l, v : int
        The particle and the type (engine.core.substrings).

    Returns
    -------
    int64
    """
    slot = hash_table.find(parts.hkey[l], v)
    return np.int64(parts.hslot[l, slot]) if slot >= 0 else np.int64(EMPTY)


@kernel
def link_word(parts, l, v, w):
    """Enter type v, new to particle l, in its lexicon with word slot w (either model's).

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
        Mutated (hkey, hslot).
    l, v, w : int
    """
    parts.hslot[l, hash_table.insert(parts.hkey[l], v)] = w


@kernel
def new_word(parts, l, v):
    """Give type v a word slot in particle l (the caller checked it has none).

    Parameters
    ----------
    parts : UnigramParticles
        Mutated.
    l, v : int

    Returns
    -------
    int64
        The word slot.
    """
    w = parts.scal[l, WORDS]
    parts.scal[l, WORDS] += 1
    parts.wtype[l, w] = v
    parts.wcust[l, w] = 0
    parts.whead[l, w] = EMPTY
    link_word(parts, l, v, w)
    return w


# --- the proposal Q: the model frozen at s ---------------------------------------------------------
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


# --- the target P: adding words one by one ------------------------------------------------------
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
