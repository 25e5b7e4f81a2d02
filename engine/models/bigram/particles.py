"""The particle filter's bigram model (Goldwater et al. 2009's HDP bigram model with Börschinger &
Johnson's learned lexical model) over a population of particles in pooled flat arrays.

A particle is two levels of Chinese restaurants with every table recorded:

- a *bigram restaurant* per previous word w′ (`$` at an utterance's start): its customers are
  the words that followed w′ (and the `$` that ends an utterance); a customer of dish w joins a
  table of w with weight n_k or opens one with weight α₁ P₁(w);
- the *unigram restaurant*: every bigram table is one of its customers, labelled with its dish;
  it joins a unigram table of w with weight m_k or opens one with weight α₀ P₀′(w), where
  P₀′(`$`) = p$ and P₀′(w) = (1 − p$) P₀(w), P₀ the learned lexical model (eqs. 3–4) over the
  symbols of the words labelling unigram tables.

So P₁(w) = (t_w + α₀ P₀′(w)) / (t + α₀) (t_w: bigram tables of w, t: all bigram tables) and
P₂(w | w′) = (n_{w′w} + α₁ P₁(w)) / (n_{w′} + α₁). The state's probability is exchangeable:

    log P(s) = B log α₁ + Σ_b log (n_b − 1)! − Σ_{w′} log α₁^(n_{w′})          (bigram level)
             + U log α₀ + Σ_u log (m_u − 1)! − log α₀^(t)                       (unigram level)
             + U_$ log p$ + U_w log (1 − p$) + Σ_k log φ^(cc_k) − log (|chars| φ)^(S)

(B bigram and U unigram tables, U_$ of them labelled `$`, U_w with words; S label symbols).

Reading an utterance, a particle draws a segmentation from Q — the model frozen, every word
scored P₂(w | w′) with eq. 4's P₀, a forward algorithm over (start of the previous word, start
of the word), backward sampling — then adds the words and the final `$` one by one, each seated
from its exact conditional at both levels; eq. 10's factor is the sequential P₂'s product over
Q(words | o) (engine.models.usm.particles says why the seating is drawn sequentially).

Word slot 0 is `$`. The lexicon is the unigram particles' (engine.models.usm.particles:
``find_word``, ``link_word``); pairs ⟨w′, w⟩ with customers have a slot in a second
engine.core.hash_table per particle, keyed by ``hash_table.pair_key``. The kernels read the
corpus as a ``ParticleCorpus`` and write into a ``Reading``
(engine.models.segmentation.particle_arrays), their work arrays a ``BigramWork``.
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
from engine.models.usm.particles import (LABEL_CHARS, N_CHARS, PHI, WORDS, find_word,
                                         link_word, log_base_counting, uncount)

END = 0  # the word slot of `$`
PAIRS, BTABLES, UTABLES = 1, 2, 3  # columns of .scal beside WORDS (0) and LABEL_CHARS (4)
ALPHA0, P_END, ALPHA1 = 0, 2, 4  # entries of params beside PHI (1) and N_CHARS (3)


class BigramParticles(namedtuple("BigramParticles", [
        "hkey", "hslot", "wtype", "wctx", "wtabs", "whead", "pkey", "pslot", "pcust", "phead",
        "bsize", "bnext", "usize", "unext", "cc", "scal"])):
    """N particles of the bigram model (H word-hash and 2P pair-hash slots, W word slots, P pair
    slots, B bigram and U unigram tables per particle; A symbols).

    hkey, hslot : int32[N, H]   word type → word slot (slot 0, `$`, is never hashed)
    wtype : int32[N, W]         each word slot's type (−1 for `$`)
    wctx : int32[N, W]          n_{w′}: customers of the bigram restaurant of context w′
    wtabs : int32[N, W]         t_w: bigram tables of dish w (its unigram customers)
    whead : int32[N, W]         its first unigram table (−1: none)
    pkey : int64[N, 2P]         a pair's key w′·2³² + w, or −1 (empty); pslot : int32[N, 2P]
    pcust : int32[N, P]         n_{w′w}; phead : int32[N, P] its first bigram table
    bsize, bnext : int32[N, B]  bigram tables: customers, the pair's next table (−1: last)
    usize, unext : int32[N, U]  unigram tables: customers, the word's next table
    cc : int64[N, A + 1]        symbols of the words labelling unigram tables; column A is `#`
    scal : int64[N, 5]          WORDS, PAIRS, BTABLES (= t), UTABLES, LABEL_CHARS
    """

    __slots__ = ()

    @property
    def n(self):
        return self.scal.shape[0]


class BigramWork(namedtuple("BigramWork", ["lp", "slots", "lp1", "a", "terms", "starts",
                                           "uniforms", "bound"])):
    """One thread's work arrays for ``propagate`` and ``segment_frozen`` (n the longest
    utterance, T the corpus's symbols).

    lp, terms : float64[n + 1]   prefix sums of log P_c; a position's terms
    slots : int64[n²]            every substring's word slot (−1: never seated)
    lp1, a : float64[n²]         log P₁ of every substring; the forward table a(i, j)
    starts : int64[n + 1]        a segmentation's word starts
    uniforms : float64[n]        segment_frozen's draws for one utterance
    bound : uint8[T]             segment_frozen's output: 1 where a word ends
    """

    __slots__ = ()


SIZED = {"word": ("wtype", "wctx", "wtabs", "whead"), "pair": ("pcust", "phead"),
         "btable": ("bsize", "bnext"), "utable": ("usize", "unext")}
EMPTY_FILL = {"whead": EMPTY, "phead": EMPTY, "bnext": EMPTY, "unext": EMPTY, "wtype": EMPTY}


def new_particles(n, n_symbols, words=256, pairs=512, tables=512, symbols=0):
    """n empty restaurants, each with the word `$` in slot 0 (``symbols`` must be 0: bigram
    particles keep no segmentation)."""
    assert symbols == 0
    size = {"word": words, "pair": pairs, "btable": tables, "utable": tables}
    arrays = {name: np.full((n, size[kind]), EMPTY_FILL.get(name, 0), np.int32)
              for kind, names in SIZED.items() for name in names}
    parts = BigramParticles(
        hkey=np.full((n, 4 * words), EMPTY, np.int32), hslot=np.zeros((n, 4 * words), np.int32),
        pkey=np.full((n, 2 * pairs), EMPTY, np.int64), pslot=np.zeros((n, 2 * pairs), np.int32),
        cc=np.zeros((n, n_symbols + 1), np.int64), scal=np.zeros((n, 5), np.int64), **arrays)
    parts.scal[:, WORDS] = 1  # `$`
    return parts


def grow(parts, more_words, more_pairs, more_tables):
    """``parts`` with room for this many new words, pairs and tables (of each level) in every
    particle: the same arrays when there is room, else capacities doubled and tables rehashed."""
    used = {"word": parts.scal[:, WORDS].max() + more_words,
            "pair": parts.scal[:, PAIRS].max() + more_pairs,
            "btable": parts.scal[:, BTABLES].max() + more_tables,
            "utable": parts.scal[:, UTABLES].max() + more_tables}
    size = {kind: getattr(parts, names[0]).shape[1] for kind, names in SIZED.items()}
    if all(used[kind] <= size[kind] for kind in SIZED):
        return parts
    for kind in SIZED:
        while size[kind] < used[kind]:
            size[kind] *= 2
    grown = new_particles(parts.n, parts.cc.shape[1] - 1, size["word"], size["pair"],
                          size["btable"])
    if size["utable"] != size["btable"]:
        grown = grown._replace(usize=np.zeros((parts.n, size["utable"]), np.int32),
                               unext=np.full((parts.n, size["utable"]), EMPTY, np.int32))
    for names in SIZED.values():
        for name in names:
            old = getattr(parts, name)
            getattr(grown, name)[:, :old.shape[1]] = old
    grown.cc[:] = parts.cc
    grown.scal[:] = parts.scal
    hash_table.reinsert_rows(parts.hkey, parts.hslot, grown.hkey, grown.hslot)
    hash_table.reinsert_rows(parts.pkey, parts.pslot, grown.pkey, grown.pslot)
    return grown


# --- the lexicon and the pairs ------------------------------------------------------------------
@kernel
def new_word(parts, l, v):
    """Give type v a word slot in particle l (the caller checked it has none).

    Parameters
    ----------
    parts : BigramParticles
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
    parts.wctx[l, w] = 0
    parts.wtabs[l, w] = 0
    parts.whead[l, w] = EMPTY
    link_word(parts, l, v, w)
    return w


@kernel
def find_pair(parts, l, before, w):
    """The pair slot of ⟨before, w⟩ (word slots), or −1.

    Parameters
    ----------
    parts : BigramParticles
    l, before, w : int

    Returns
    -------
    int64
    """
    slot = hash_table.find(parts.pkey[l], hash_table.pair_key(before, w))
    return np.int64(parts.pslot[l, slot]) if slot >= 0 else np.int64(EMPTY)


@kernel
def new_pair(parts, l, before, w):
    """Give the pair ⟨before, w⟩ (word slots) a pair slot in particle l (the caller checked it
    has none).

    Parameters
    ----------
    parts : BigramParticles
        Mutated.
    l, before, w : int

    Returns
    -------
    int64
        The pair slot.
    """
    p = parts.scal[l, PAIRS]
    parts.scal[l, PAIRS] += 1
    parts.pcust[l, p] = 0
    parts.phead[l, p] = EMPTY
    parts.pslot[l, hash_table.insert(parts.pkey[l], hash_table.pair_key(before, w))] = p
    return p


# --- the proposal Q: the model frozen at s ---------------------------------------------------------
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


# --- the target P: adding the words one by one --------------------------------------------------
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
