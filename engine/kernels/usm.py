"""The unigram segmentation model (USM) of Goldwater, Griffiths & Johnson (2009) behind the model
interface (Liang et al. §3–4).

Sites are the non-final symbols of each utterance; b_s = 1 puts a word boundary after site s's
symbol. Two Dirichlet-process "restaurants" generate the corpus (eq. 3):

- words: θ_0 ~ DP(α₀, P₀), P₀(w = x₁…x_M) = p# (1 − p#)^(M−1) / |Σ|^M;
- utterance ends: each word is followed by the end of its utterance or not, Beta(ρ/2, ρ/2).

The lexicon is an open-addressing hash table in flat arrays. A word is identified exactly: by a
polynomial hash of its symbols *and* a comparison of the symbols with a stored occurrence, so
two different words never share a slot. Each slot keeps a doubly-linked list of the positions
where the word currently occurs, the index TYPE uses to find a type's sites (§4.4): the sites
of type `a|b` are found by intersecting the lists of `a` and `b`, and those of `ab` are read off
its list, so a block costs about its size, not the corpus's.
"""
from collections import namedtuple

import numpy as np

from engine.core.jit import kernel
from engine.core.sort import sort_prefix
from engine.core.special import log_rising
from engine.kernels import interface, moves
from engine.kernels.interface import for_state

HASH_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd: powers stay invertible modulo 2^64
SLOT_MIX = np.uint64(0xD6E8FEB86659FD93)   # mixes a hash before its top bits pick a slot

UsmState = namedtuple("UsmState", [
    "chars", "bound", "final", "utt_start", "site_pos", "site_of", "prefix", "power", "base", "params",
    "lex_key", "lex_start", "lex_len", "lex_count", "lex_head", "spare_key", "spare",
    "occ_next", "occ_prev", "counts", "removed"])
UsmState.__doc__ = """State of the USM (T symbols, S sites, a lexicon table of C slots).

chars : int32[T]         symbol codes, utterances concatenated
bound : uint8[T]         1 when a word ends at this symbol (always 1 at an utterance's end)
final : uint8[T]         1 at the last symbol of each utterance
utt_start : int64[U + 1] where each of the U utterances starts (and T at the end)
site_pos : int64[S]      the symbol each site follows
site_of : int64[T]       the site after each symbol (−1 at utterance ends)
prefix : uint64[T + 1]   prefix hashes of chars, for O(1) substring hashes
power : uint64[T + 1]    HASH_BASE^k
base : float64[L + 1]    α₀ P₀(w) for words of length 0 … L (the longest utterance)
params : float64[2]      α₀, ρ
lex_key, lex_start, lex_len, lex_count, lex_head : [C]
                         per slot: hash, one occurrence's start (for exact comparison),
                         length (0 = empty slot), count n_w > 0, first position of its list
spare_key : uint64[C / 2], spare : int64[4, C / 2]
                         room for the live entries while the table grows (kernels may not
                         allocate)
occ_next, occ_prev : int64[T]   the position lists, indexed by a word occurrence's start
counts : int64[5]        N (words), E (utterance-final words), words in the table, the
                         table's capacity in use (a power of two ≤ C), 64 − log2 of it
removed : uint8[T]       1 on the symbols of words removed inside a move
"""

WORDS, ENDS, LIVE, CAPACITY, SHIFT = 0, 1, 2, 3, 4
ALPHA0, RHO = 0, 1
MIN_CAPACITY = 1024

implements = for_state(UsmState)


# --- words: hashing and the lexicon table --------------------------------------------------------
# The table holds exactly the words with n_w > 0 (a word whose count drops to 0 is deleted), in
# the first counts[CAPACITY] slots: it grows by doubling and stays small enough to live in the
# processor's cache, which is what makes a lookup cost a few nanoseconds.
# Hot helpers take arrays and scalars, not the state: a chain of small calls that each take the
# whole state tuple was measured 6× slower than the same work with arrays passed down.
@kernel
def substring_hash(prefix, power, x, e):
    """Hash of chars[x:e] in O(1) from the prefix hashes (wrapping uint64 arithmetic)."""
    return prefix[e] - prefix[x] * power[e - x]


@kernel
def same_symbols(chars, x, y, length):
    for i in range(length):
        if chars[x + i] != chars[y + i]:
            return False
    return True


@kernel
def home_slot(h, shift):
    """Where a key's probe starts: the top bits of h · SLOT_MIX (the low bits of a polynomial
    hash of a short word are nearly its symbol codes, and would cluster)."""
    return np.int64((h * SLOT_MIX) >> np.uint64(shift))


@kernel
def find_slot(chars, prefix, power, lex_key, lex_start, lex_len, counts, x, e):
    """The slot of the word chars[x:e], or −1 when its count is 0 (arrays as in UsmState)."""
    h = substring_hash(prefix, power, x, e)
    length = e - x
    mask = counts[CAPACITY] - 1
    i = home_slot(h, counts[SHIFT])
    while lex_len[i] != 0:
        if lex_key[i] == h and lex_len[i] == length and same_symbols(chars, lex_start[i], x, length):
            return i
        i = (i + 1) & mask
    return -1


@kernel
def lex_find(state, x, e):
    """find_slot for callers holding the state."""
    return find_slot(state.chars, state.prefix, state.power, state.lex_key, state.lex_start,
                     state.lex_len, state.counts, x, e)


@kernel
def count_in(lex_count, slot):
    """n_w from a slot found by lex_find (−1: the word is not counted). Callers pair the two
    themselves: a wrapper calling lex_find with the state was measured 6× slower."""
    return 0 if slot < 0 else lex_count[slot]


@kernel
def lex_place(state, key, start, length, count, head):
    """Put an entry into the first free slot of its probe sequence; return the slot."""
    mask = state.counts[CAPACITY] - 1
    i = home_slot(key, state.counts[SHIFT])
    while state.lex_len[i] != 0:
        i = (i + 1) & mask
    state.lex_key[i], state.lex_start[i], state.lex_len[i] = key, start, length
    state.lex_count[i], state.lex_head[i] = count, head
    return i


@kernel
def lex_grow(state):
    """Double the capacity in use (the arrays are allocated for the largest) and rehash."""
    used = state.counts[CAPACITY]
    keys, entries = state.spare_key, state.spare
    live = 0
    for i in range(used):
        if state.lex_len[i] != 0:
            keys[live] = state.lex_key[i]
            entries[0, live], entries[1, live] = state.lex_start[i], state.lex_len[i]
            entries[2, live], entries[3, live] = state.lex_count[i], state.lex_head[i]
            live += 1
    state.counts[CAPACITY] = 2 * used
    state.counts[SHIFT] -= 1
    state.lex_len[:2 * used] = 0
    for j in range(live):
        lex_place(state, keys[j], entries[0, j], entries[1, j], entries[2, j], entries[3, j])


@kernel
def lex_delete(lex_key, lex_start, lex_len, lex_count, lex_head, counts, slot):
    """Empty a slot, shifting later entries of its probe run back (linear-probing deletion), so
    the table never fills with dead words (arrays as in UsmState)."""
    mask = counts[CAPACITY] - 1
    i = slot
    j = slot
    while True:
        j = (j + 1) & mask
        if lex_len[j] == 0:
            break
        home = home_slot(lex_key[j], counts[SHIFT])
        # entry j may move back to i unless its home lies cyclically in (i, j]
        if (i <= j and i < home <= j) or (i > j and (home > i or home <= j)):
            continue
        lex_key[i], lex_start[i], lex_len[i] = lex_key[j], lex_start[j], lex_len[j]
        lex_count[i], lex_head[i] = lex_count[j], lex_head[j]
        i = j
    lex_len[i] = 0
    counts[LIVE] -= 1


@kernel
def add_word(state, x, e):
    """Count one occurrence of the word chars[x:e] and link position x into its list."""
    slot = find_slot(state.chars, state.prefix, state.power, state.lex_key, state.lex_start,
                     state.lex_len, state.counts, x, e)
    if slot < 0:
        if 2 * (state.counts[LIVE] + 1) > state.counts[CAPACITY]:
            lex_grow(state)
        slot = lex_place(state, substring_hash(state.prefix, state.power, x, e), x, e - x, 0, -1)
        state.counts[LIVE] += 1
    state.lex_count[slot] += 1
    head = state.lex_head[slot]
    state.occ_next[x] = head
    state.occ_prev[x] = -1
    if head >= 0:
        state.occ_prev[head] = x
    state.lex_head[slot] = x
    state.counts[WORDS] += 1
    state.counts[ENDS] += state.final[e - 1]


@kernel
def remove_word(state, x, e):
    """Uncount the word occurrence chars[x:e] and unlink x from its list."""
    slot = find_slot(state.chars, state.prefix, state.power, state.lex_key, state.lex_start,
                     state.lex_len, state.counts, x, e)
    before, after = state.occ_prev[x], state.occ_next[x]
    if before >= 0:
        state.occ_next[before] = after
    else:
        state.lex_head[slot] = after
    if after >= 0:
        state.occ_prev[after] = before
    state.lex_count[slot] -= 1
    if state.lex_count[slot] == 0:
        lex_delete(state.lex_key, state.lex_start, state.lex_len, state.lex_count,
                   state.lex_head, state.counts, slot)
    state.counts[WORDS] -= 1
    state.counts[ENDS] -= state.final[e - 1]


@kernel
def is_word_at(state, x, length, like):
    """Whether chars[x : x + length] is a word of the current segmentation with the symbols of
    chars[like : like + length]."""
    if x > 0 and state.final[x - 1] == 0 and state.bound[x - 1] == 0:
        return False
    for i in range(x, x + length - 1):
        if state.bound[i]:
            return False
    return state.bound[x + length - 1] == 1 and same_symbols(state.chars, x, like, length)


# --- the words around a site ---------------------------------------------------------------------
@kernel
def word_start(bound, p):
    """Start of the word that contains symbol p (an utterance's end always has bound = 1, so the
    scan never crosses into the previous utterance)."""
    a = p
    while a > 0 and bound[a - 1] == 0:
        a -= 1
    return a


@kernel
def word_end(bound, q):
    """End (exclusive) of the word that contains symbol q."""
    while bound[q] == 0:
        q += 1
    return q + 1


@kernel
def site_span(state, s):
    """(a, p, e): site s follows symbol p; its words cover chars[a:e], split as [a, p] | [p+1, e)
    when b_s = 1. a and e do not depend on b_s."""
    p = state.site_pos[s]
    return word_start(state.bound, p), p, word_end(state.bound, p + 1)


# --- the model interface -------------------------------------------------------------------------
@implements(interface.n_sites)
def _n_sites(state):
    return state.site_pos.shape[0]


@implements(interface.n_values)
def _n_values(state):
    return 2


@implements(interface.get_value)
def _get_value(state, s):
    return np.int64(state.bound[state.site_pos[s]])


@implements(interface.remove_site)
def _remove_site(state, s):
    a, p, e = site_span(state, s)
    if state.bound[p]:
        remove_word(state, a, p + 1)
        remove_word(state, p + 1, e)
    else:
        remove_word(state, a, e)
    for i in range(a, e):
        state.removed[i] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    a, p, e = site_span(state, s)
    state.bound[p] = v
    if v:
        add_word(state, a, p + 1)
        add_word(state, p + 1, e)
    else:
        add_word(state, a, e)
    for i in range(a, e):
        state.removed[i] = 0


@kernel
def split_weights(state, a, p, e, n_join, n_left, n_right, n, ends, w):
    """w[0], w[1] ∝ p(b_s = 0 / 1 | rest) for the words chars[a:e] around the site after p,
    given the counts without the site's own words: n_join, n_left, n_right of w = [a, e),
    w1 = [a, p], w2 = [p+1, e), and N, E.

    eq. 4 with the shared factor 1 / ((N + α₀)(N + ρ)) cancelled:
      b = 0 adds w:        (n_w + α₀P₀(w)) (c + ρ/2) (N + 1 + α₀) (N + 1 + ρ)
      b = 1 adds w1, w2:   (n_1 + α₀P₀(w1)) (n_2 + [w1 = w2] + α₀P₀(w2)) (N − E + ρ/2) (c' + ρ/2)
    where c, c' count the end flags like the last word's (E if it ends the utterance, else the
    words that do not, w1's included for c'). Worked in logs: a long rare word cannot underflow
    both weights to 0.
    """
    alpha0, rho = state.params[ALPHA0], state.params[RHO]
    len1, len2 = p + 1 - a, e - p - 1
    same = 1 if len1 == len2 and same_symbols(state.chars, a, p + 1, len1) else 0
    last_is_final = state.final[e - 1]
    c_join = ends if last_is_final else n - ends
    c_split = ends if last_is_final else n - ends + 1
    join = np.log((n_join + state.base[e - a]) * (c_join + 0.5 * rho)
                  * (n + 1 + alpha0) * (n + 1 + rho))
    split = np.log((n_left + state.base[len1]) * (n_right + same + state.base[len2])
                   * (n - ends + 0.5 * rho) * (c_split + 0.5 * rho))
    top = max(join, split)
    w[0] = np.exp(join - top)
    w[1] = np.exp(split - top)


@implements(interface.site_weights)
def _site_weights(state, s, w):
    a, p, e = site_span(state, s)
    n = state.lex_count
    split_weights(state, a, p, e, count_in(n, lex_find(state, a, e)),
                  count_in(n, lex_find(state, a, p + 1)), count_in(n, lex_find(state, p + 1, e)),
                  state.counts[WORDS], state.counts[ENDS], w)


@implements(interface.token_weights)
def _token_weights(state, s, w):
    # the site's own words are counted: take them off by hand instead of from the table, so a
    # TOKEN move that keeps b_s (most of them, after burn-in) writes nothing
    a, p, e = site_span(state, s)
    n = state.lex_count
    n_join = count_in(n, lex_find(state, a, e))
    n_left = count_in(n, lex_find(state, a, p + 1))
    n_right = count_in(n, lex_find(state, p + 1, e))
    if state.bound[p]:
        n_left -= 1
        n_right -= 1
        if e - p - 1 == p + 1 - a and same_symbols(state.chars, a, p + 1, p + 1 - a):
            n_left -= 1   # w1 = w2: one entry counted both words
            n_right -= 1
        own_words = 2
    else:
        n_join -= 1
        own_words = 1
    split_weights(state, a, p, e, n_join, n_left, n_right, state.counts[WORDS] - own_words,
                  state.counts[ENDS] - state.final[e - 1], w)


@implements(interface.set_value)
def _set_value(state, s, v):
    moves.set_by_removal(state, s, v)


@implements(interface.conflicts)
def _conflicts(state, s):
    # a removed word covers p or p + 1 exactly when s depends on it
    p = state.site_pos[s]
    return state.removed[p] != 0 or state.removed[p + 1] != 0


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    # t(z, s) = (w1, w2, whether w2 ends its utterance), where w = w1w2 is the word when b_s = 0.
    # Its sites: the split point |w1| inside each occurrence of the word w, and the boundary of
    # each adjacent pair w1|w2 in one utterance, found by walking the shorter of the two lists;
    # either way with the end flag of s0's last word. Sorted by position, a fixed order.
    a, p, e = site_span(state, s0)
    len1, len2 = p + 1 - a, e - p - 1
    final = state.final[e - 1]
    k = 0
    slot = lex_find(state, a, e)
    if slot >= 0:
        x = state.lex_head[slot]
        while x >= 0:
            if state.final[x + len1 + len2 - 1] == final:
                out[k] = state.site_of[x + len1 - 1]
                k += 1
            x = state.occ_next[x]
    slot1 = lex_find(state, a, p + 1)
    slot2 = lex_find(state, p + 1, e)
    if slot1 >= 0 and slot2 >= 0:
        if state.lex_count[slot1] <= state.lex_count[slot2]:
            x = state.lex_head[slot1]
            while x >= 0:  # w1 at x: then w2, in the same utterance, with the end flag?
                if (state.final[x + len1 - 1] == 0 and state.final[x + len1 + len2 - 1] == final
                        and is_word_at(state, x + len1, len2, p + 1)):
                    out[k] = state.site_of[x + len1 - 1]
                    k += 1
                x = state.occ_next[x]
        else:
            y = state.lex_head[slot2]
            while y >= 0:  # w2 at y: after w1, in the same utterance, with the end flag?
                if (y >= len1 and state.final[y - 1] == 0 and state.final[y + len2 - 1] == final
                        and is_word_at(state, y - len1, len1, a)):
                    out[k] = state.site_of[y - 1]
                    k += 1
                y = state.occ_next[y]
    sort_prefix(out, k)
    return k


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    # eq. 9 for the block: words w (joined, v = 0), w1 and w2 (split, v = 1); the words'
    # denominator; the end flags of the last word and of w1 (never final); their denominator.
    a, p, e = site_span(state, s0)
    alpha0, rho = state.params[ALPHA0], state.params[RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    len1, len2 = p + 1 - a, e - p - 1
    n_join = count_in(state.lex_count, lex_find(state, a, e))
    n_left = count_in(state.lex_count, lex_find(state, a, p + 1))
    n_right = count_in(state.lex_count, lex_find(state, p + 1, e))
    j = 0
    base[j], d0[j], d1[j], sign[j] = n_join + state.base[e - a], 1, 0, 1.0
    j += 1
    if len1 == len2 and same_symbols(state.chars, a, p + 1, len1):
        base[j], d0[j], d1[j], sign[j] = n_left + state.base[len1], 0, 2, 1.0
        j += 1
    else:
        base[j], d0[j], d1[j], sign[j] = n_left + state.base[len1], 0, 1, 1.0
        base[j + 1], d0[j + 1], d1[j + 1], sign[j + 1] = n_right + state.base[len2], 0, 1, 1.0
        j += 2
    base[j], d0[j], d1[j], sign[j] = alpha0 + n, 1, 2, -1.0
    j += 1
    if state.final[e - 1]:
        base[j], d0[j], d1[j], sign[j] = 0.5 * rho + ends, 1, 1, 1.0
        base[j + 1], d0[j + 1], d1[j + 1], sign[j + 1] = 0.5 * rho + n - ends, 0, 1, 1.0
        j += 2
    else:
        base[j], d0[j], d1[j], sign[j] = 0.5 * rho + n - ends, 1, 2, 1.0
        j += 1
    base[j], d0[j], d1[j], sign[j] = rho + n, 1, 2, -1.0
    return j + 1


# --- building a state and scoring it -------------------------------------------------------------
@kernel
def fill_prefix_hashes(chars, prefix, power):
    """prefix[i] = hash of chars[:i], power[i] = HASH_BASE^i (uint64[T + 1], wrapping)."""
    prefix[0] = 0
    power[0] = 1
    for i in range(chars.shape[0]):
        prefix[i + 1] = prefix[i] * HASH_BASE + np.uint64(chars[i] + 1)
        power[i + 1] = power[i] * HASH_BASE


@kernel
def count_all_words(state):
    """Add every word of the segmentation ``bound`` to an empty lexicon, in corpus order."""
    start = 0
    for i in range(state.chars.shape[0]):
        if state.bound[i]:
            add_word(state, start, i + 1)
            start = i + 1


@kernel
def log_likelihood(state):
    """log p(z) of eq. 3 from the lexicon's counts: Σ_w log (α₀P₀(w))^(n_w) − log α₀^(N)
    + log (ρ/2)^(E) + log (ρ/2)^(N−E) − log ρ^(N)."""
    alpha0, rho = state.params[ALPHA0], state.params[RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    total = 0.0
    for i in range(state.lex_count.shape[0]):
        if state.lex_len[i] != 0 and state.lex_count[i] > 0:
            total += log_rising(state.base[state.lex_len[i]], state.lex_count[i])
    return (total - log_rising(alpha0, n) + log_rising(0.5 * rho, ends)
            + log_rising(0.5 * rho, n - ends) - log_rising(rho, n))
