"""The unigram segmentation model (USM) of Goldwater, Griffiths & Johnson (2009) behind the model
interface (Liang et al. §3–4).

Sites are the non-final symbols of each utterance; b_s = 1 puts a word boundary after site s's
symbol. Two Dirichlet-process "restaurants" generate the corpus (eq. 3):

- words: θ_0 ~ DP(α₀, P₀), P₀(w = x₁…x_M) = p# (1 − p#)^(M−1) / |Σ|^M;
- utterance ends: each word is followed by the end of its utterance or not, Beta(ρ/2, ρ/2).

Two indexes, both engine.core.keyed_lists tables keyed by hashes of symbols
(engine.core.word_hash), find a type's sites without scanning the corpus (§4.4):

- the lexicon: word → the positions where it occurs; the list's size is n_w (inside a TYPE
  move, the removed sites' words stay on their lists, set aside: see ``count_word``);
- the boundaries: (w1, w2, whether w2 ends its utterance) → the boundaries between such a pair.

The type of site s is t = (w1, w2, end flag), `w1|w2` when b_s = 1 and `w1w2` when 0: its sites
with b = 0 sit inside the occurrences of the word w1w2 in the lexicon, and those with b = 1 are
t's list in the boundary index, so finding a block costs about its size. (Liang et al. find the
latter by intersecting the lists of w1 and w2; on the Brent corpus that walked five list
entries per candidate site, a third of a TYPE sweep, while the boundary index costs a few
entries' upkeep when a boundary flips.) The boundary index is a function of ``bound`` alone.
A key is a hash, so a lookup also checks the entry's first item exactly — same symbols, length,
split and end flag: two different words or types never share an entry.

Word probabilities of any length. α₀P₀(w) falls geometrically with the word's length and
underflows for long words (a few hundred symbols; tens with thousands of symbols), so the state
keeps it in both scales (``base``). Words of at most counts[LINEAR] symbols have
α₀P₀ ≥ LINEAR_MIN, and any product of the model's terms for them is safely inside float64's
range (for hyperparameters within 1e-9 … 1e9): the kernels work linearly there — the common
case, with no logs — and in logs for a longer word, where a term n_w + α₀P₀(w) with n_w = 0
is taken as log α₀P₀(w).
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table, keyed_lists
from engine.core.prefetch import prefetch
from engine.core.jit import inline, kernel
from engine.core.special import log_rising
from engine.core.word_hash import HASH_BASE, KEYED_LENGTHS, same_symbols, word_key
from engine.core.word_hash import fill_prefix_hashes  # noqa: F401 (the model's hashes)
from engine.kernels import block_weight, interface
from engine.kernels.interface import for_state
from engine.models.segmentation.sites import (implement_sites, same_halves, site_span, word_end,
                                              word_start)

# rows of UsmState.counts, of its tables (lexicon, pairs, spare), of its links and of its base
WORDS, ENDS, LEX_LIVE, LEX_CAPACITY, PAIR_LIVE, PAIR_CAPACITY, LINEAR = range(7)
MEMO_START, MEMO_END, MEMO_COUNT = range(7, 10)
# a TYPE block's words (``block_candidates``): its sites set aside, the lexicon slots of w, w1
# and w2 (UNSEEN: not looked up yet), w1's and w2's lengths (BLOCK_LEN1 = 0: no block) and
# whether w2 ends its utterance
ASIDE, BLOCK_JOIN, BLOCK_LEFT, BLOCK_RIGHT, BLOCK_LEN1, BLOCK_LEN2, BLOCK_FINAL = range(10, 17)
N_COUNTS = 17
UNSEEN = -2
KEY, HEAD, SIZE = range(3)
LEXICON, PAIRS, SPARE = 0, 3, 6  # the first rows of the tables (UsmState.tables)
PREFIX, POWER = range(2)
OCC_NEXT, OCC_PREV, PAIR_NEXT, PAIR_PREV = range(4)
BASE, LOG_BASE, PARAMS = range(3)


class UsmState(namedtuple("UsmState", [
        "chars", "bound", "final", "utt_start", "site_pos", "site_of", "hashes", "base",
        "tables", "links", "counts", "removed"])):
    """State of the USM (T symbols, S sites, tables of C slots).

    chars : int32[T]         symbol codes, utterances concatenated
    bound : uint8[T]         1 when a word ends at this symbol (always 1 at an utterance's end)
    final : uint8[T]         1 at the last symbol of each utterance
    utt_start : int64[U + 1] where each of the U utterances starts (and T at the end)
    site_pos : int32[S]      the symbol each site follows
    site_of : int32[T]       the site after each symbol (−1 at utterance ends)
    hashes : uint64[2, T + 1]
                             prefix hashes of chars (engine.core.word_hash), for O(1) word keys,
                             and HASH_BASE^k (rows PREFIX, POWER)
    base : float64[3, L + 1]
                             α₀ P₀(w) for words of length 0 … L (the longest utterance), and its log
                             (rows BASE, LOG_BASE); and the model's α₀ and ρ (row PARAMS, entries
                             ALPHA0, RHO: in this array, not one of their own, as a call passes
                             every array of the state)
    tables : int64[9, C]     two keyed_lists tables and room to grow one, each three rows KEY,
                             HEAD, SIZE (slot_key, slot_head, slot_size) from LEXICON, PAIRS and
                             SPARE: the lexicon (a word's key, the start of its first
                             occurrence, n_w), the boundary index (a type's key, the symbol of
                             its first boundary, how many) and the spare rows, which hold one
                             table's entries while it grows (each table uses only its first
                             counts[LEX_CAPACITY] or counts[PAIR_CAPACITY] slots, doubling as it
                             fills)
    links : int32[4, T]      the lists' links (keyed_lists' item_next, item_prev): rows
                             OCC_NEXT, OCC_PREV the next and previous occurrence of a word, by
                             the occurrence's start; rows PAIR_NEXT, PAIR_PREV those of a
                             boundary, by its symbol
    counts : int64[17]       N (words), E (utterance-final words), words in the lexicon and its
                             capacity in use, boundary types and their capacity in use, the
                             longest word length worked linearly (α₀P₀ ≥ LINEAR_MIN), a word
                             chars[start:end] with its n_w, remembered by TOKEN (end = −1:
                             none; any change to the lexicon forgets it), the sites set aside,
                             and the words of the TYPE block under way (``block_candidates``)
    removed : uint8[T]       1 on the symbols of words removed inside a TYPE move

    Arrays of one kind and length share a 2-D array: a call that is not inlined passes every array
    of the state (~7 words each), and its cost grows with them — eight more one-element fields
    made TYPE 25 % slower, three fewer arrays (hashes, tables, base) 20 % faster. A TYPE block
    site's two calls (remove_site, add_site) pass only the arrays they need (``SlotView``,
    ``SiteView``).
    The site maps and the links are 32-bit: a TYPE sweep reads them all over the corpus, and
    halving their bytes took 5–10 % off its time (more when other programs crowd the
    processor's cache; docs/benchmarks.md).
    """

    __slots__ = ()
    # Python-side names for the rows of the grouped arrays (kernels index them by constant)
    lexicon = property(lambda self: self.tables[LEXICON:LEXICON + 3])
    pairs = property(lambda self: self.tables[PAIRS:PAIRS + 3])
    lex_key = property(lambda self: self.lexicon[KEY])
    lex_head = property(lambda self: self.lexicon[HEAD])
    lex_count = property(lambda self: self.lexicon[SIZE])
    pair_key = property(lambda self: self.pairs[KEY])
    pair_head = property(lambda self: self.pairs[HEAD])
    pair_size = property(lambda self: self.pairs[SIZE])
    prefix = property(lambda self: self.hashes[PREFIX])
    power = property(lambda self: self.hashes[POWER])
    occ_next = property(lambda self: self.links[OCC_NEXT])
    occ_prev = property(lambda self: self.links[OCC_PREV])
    pair_next = property(lambda self: self.links[PAIR_NEXT])
    pair_prev = property(lambda self: self.links[PAIR_PREV])


ALPHA0, RHO = 0, 1
MIN_CAPACITY = 1024
# α₀P₀ of the longest word worked in linear arithmetic: a product of two such bases and a few
# terms of order 1e-9 … 1e9·N stays far from float64's ends (1e-308 … 1e308)
LINEAR_MIN = 1e-120

implements = for_state(UsmState, inlined=("remove_site", "add_site"))
implement_sites(implements)



@inline
def lexicon(state):
    """The lexicon's slots in use.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    (int64[C], int64[C], int64[C])
        Views of its keys, heads and sizes.
    """
    used = state.counts[LEX_CAPACITY]
    return (state.tables[LEXICON + KEY, :used], state.tables[LEXICON + HEAD, :used],
            state.tables[LEXICON + SIZE, :used])


@inline
def boundary_types(state):
    """The boundary index's slots in use.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    (int64[C], int64[C], int64[C])
        Views of its keys, heads and sizes.
    """
    used = state.counts[PAIR_CAPACITY]
    return (state.tables[PAIRS + KEY, :used], state.tables[PAIRS + HEAD, :used],
            state.tables[PAIRS + SIZE, :used])


# --- the words around a site ---------------------------------------------------------------------
@inline
def key_of(state, x, e):
    """word_key of chars[x:e].

    Parameters
    ----------
    state : UsmState
    x, e : int

    Returns
    -------
    int64
    """
    return word_key(state.hashes[PREFIX], state.hashes[POWER], x, e)


@inline
def is_word(bound, x, length):
    """Whether the word starting at x (a word start) has ``length`` symbols.

    Parameters
    ----------
    bound : uint8[T]
    x, length : int

    Returns
    -------
    bool
    """
    i = x
    while i < x + length - 1 and bound[i] == 0:
        i += 1
    return i == x + length - 1 and bound[i] == 1


# --- the tables ----------------------------------------------------------------------------------
@kernel
def new_entry(tables, table, counts, live, capacity, key):
    """A new entry for ``key`` in the table whose rows start at ``table`` (LEXICON or PAIRS),
    the table grown first (through the SPARE rows) if the entry would load it above 1/2.

    Parameters
    ----------
    tables : int64[9, C]
        UsmState.tables; mutated.
    table : int
    counts : int64[10]
        UsmState.counts, mutated.
    live, capacity : int
        Where counts keeps the table's entries and its capacity in use.
    key : int

    Returns
    -------
    int64
        The entry's slot.
    """
    if 2 * (counts[live] + 1) > counts[capacity]:
        counts[capacity] = keyed_lists.grow(
            tables[table + KEY], tables[table + HEAD], tables[table + SIZE], counts[capacity],
            tables[SPARE + KEY], tables[SPARE + HEAD], tables[SPARE + SIZE])
    used = counts[capacity]
    counts[live] += 1
    return keyed_lists.new_slot(tables[table + KEY, :used], tables[table + HEAD, :used],
                                tables[table + SIZE, :used], key)


@inline
def find_entry(chars, bound, keys, heads, key, x, length):
    """The lexicon slot of the word chars[x : x + length] (key ``key``; keys: the table in
    use), or −1 when it has none (count 0 — or inside a TYPE move, every occurrence set aside).

    Entries whose key matches are checked against the word exactly: the occurrence at the head
    of their list must have the same symbols, and the same length (which the key tells unless
    the word is very long).

    Parameters
    ----------
    chars : int32[T]
    bound : uint8[T]
    keys, heads : int64[C]
        The lexicon in use.
    key, x, length : int

    Returns
    -------
    int64
    """
    slot = hash_table.find(keys, key)
    while slot >= 0 and not ((length < KEYED_LENGTHS or is_word(bound, heads[slot], length))
                             and same_symbols(chars, heads[slot], x, length)):
        slot = hash_table.find_next(keys, key, slot)
    return slot


@inline
def find_word(state, x, e):
    """The lexicon slot of the word chars[x:e], or −1 (``find_entry``).

    Parameters
    ----------
    state : UsmState
    x, e : int

    Returns
    -------
    int64
    """
    keys, heads, _ = lexicon(state)
    return find_entry(state.chars, state.bound, keys, heads, key_of(state, x, e), x, e - x)


@inline
def find_listed(state, x, e):
    """find_word for a word occurrence chars[x:e] of the current segmentation, which is in the
    lexicon: when its key is in one entry only, that entry is the word's, and the comparison
    of symbols (reads far from x) is saved.

    Parameters
    ----------
    state : UsmState
    x, e : int

    Returns
    -------
    int64
    """
    keys, heads, _ = lexicon(state)
    key = key_of(state, x, e)
    slot = hash_table.find(keys, key)
    if hash_table.find_next(keys, key, slot) >= 0:
        slot = find_entry(state.chars, state.bound, keys, heads, key, x, e - x)
    return slot


@inline
def count_of(state, x, e):
    """n_w of the word chars[x:e].

    Parameters
    ----------
    state : UsmState
    x, e : int

    Returns
    -------
    int64
    """
    slot = find_word(state, x, e)
    return 0 if slot < 0 else state.tables[LEXICON + SIZE, slot]


@kernel  # only changed sites and set-up call it: a call costs less than inlining it compiles
def add_word(state, x, e):
    """Count one occurrence of the word chars[x:e] and put position x on its list (bound must
    already segment it so).

    Parameters
    ----------
    state : UsmState
        Mutated.
    x, e : int
    """
    slot = find_word(state, x, e)
    if slot < 0:
        slot = new_entry(state.tables, LEXICON, state.counts, LEX_LIVE, LEX_CAPACITY,
                         key_of(state, x, e))
    keyed_lists.push(state.tables[LEXICON + HEAD], state.tables[LEXICON + SIZE], state.links[OCC_NEXT],
                     state.links[OCC_PREV], slot, x)
    state.counts[MEMO_END] = -1
    state.counts[WORDS] += 1
    state.counts[ENDS] += state.final[e - 1]


@kernel  # (see add_word)
def remove_word(state, x, e):
    """Uncount the word occurrence chars[x:e] and take x off its list (a word whose count
    drops to 0 leaves the lexicon).

    Parameters
    ----------
    state : UsmState
        Mutated.
    x, e : int
    """
    counts = state.counts
    slot = find_listed(state, x, e)
    keys, heads, sizes = lexicon(state)
    if keyed_lists.unlink(keys, heads, sizes, state.links[OCC_NEXT], state.links[OCC_PREV],
                          slot, x):
        counts[LEX_LIVE] -= 1
    counts[MEMO_END] = -1
    counts[WORDS] -= 1
    counts[ENDS] -= state.final[e - 1]


@inline
def count_word(state, x, e, delta):
    """Count the word occurrence chars[x:e] back in (delta = 1) or out (−1) of n_w, N and E
    while it stays on its list: a TYPE move sets its sites' words aside so (most go back
    unchanged; keyed_lists' notes).

    Parameters
    ----------
    state : UsmState
        Mutated.
    x, e, delta : int
    """
    state.tables[LEXICON + SIZE, find_listed(state, x, e)] += delta
    state.counts[MEMO_END] = -1
    state.counts[WORDS] += delta
    state.counts[ENDS] += delta * state.final[e - 1]


@inline
def pair_key(state, a, p, e):
    """The key of the boundary type (chars[a : p+1], chars[p+1 : e], whether e − 1 ends its
    utterance): the word key of chars[a:e] with the split and the end flag mixed in.

    Parameters
    ----------
    state : UsmState
    a, p, e : int

    Returns
    -------
    int64
    """
    mixed = (np.uint64(key_of(state, a, e)) * HASH_BASE
             + np.uint64(2 * (p + 1 - a) + state.final[e - 1]))
    # multiplied once more before the shift drops a bit: the end flag is mixed's lowest bit
    return np.int64((mixed * HASH_BASE) >> np.uint64(1))


@inline
def find_pair(state, a, p, e):
    """The slot of the boundary type of chars[a:e] split after p (``pair_key``), or −1 when no
    boundary has it. Entries whose key matches are checked exactly against the first boundary
    of their list: same split, length, end flag and symbols.

    Parameters
    ----------
    state : UsmState
    a, p, e : int

    Returns
    -------
    int64
    """
    final = state.final[e - 1]
    len1, length = p + 1 - a, e - a
    key = pair_key(state, a, p, e)
    keys, heads, _ = boundary_types(state)
    slot = hash_table.find(keys, key)
    while slot >= 0 and not same_pair(state, heads[slot], a, len1, length, final):
        slot = hash_table.find_next(keys, key, slot)
    return slot


@inline
def same_pair(state, q, a, len1, length, final):
    """Whether the boundary after symbol q is of the type of chars[a : a + length] split after
    len1 symbols, with end flag ``final``.

    Parameters
    ----------
    state : UsmState
    q, a, len1, length : int
    final : uint8

    Returns
    -------
    bool
    """
    x, y = word_start(state.bound, q), word_end(state.bound, q + 1)
    return (q + 1 - x == len1 and y - x == length and state.final[y - 1] == final
            and same_symbols(state.chars, x, a, length))


@inline
def file_boundary(state, q):
    """Put the boundary after symbol q (a word end inside an utterance) on its type's list.

    Parameters
    ----------
    state : UsmState
        Mutated.
    q : int
    """
    a, e = word_start(state.bound, q), word_end(state.bound, q + 1)
    slot = find_pair(state, a, q, e)
    if slot < 0:
        slot = new_entry(state.tables, PAIRS, state.counts, PAIR_LIVE, PAIR_CAPACITY,
                         pair_key(state, a, q, e))
    keyed_lists.push(state.tables[PAIRS + HEAD], state.tables[PAIRS + SIZE], state.links[PAIR_NEXT],
                     state.links[PAIR_PREV], slot, q)


@inline
def unfile_boundary(state, q):
    """Take the boundary after symbol q off its type's list (bound as when it was filed).

    Parameters
    ----------
    state : UsmState
        Mutated.
    q : int
    """
    a, e = word_start(state.bound, q), word_end(state.bound, q + 1)
    keys, heads, sizes = boundary_types(state)
    key = pair_key(state, a, q, e)
    slot = hash_table.find(keys, key)
    if hash_table.find_next(keys, key, slot) >= 0:  # as find_listed: one entry is q's
        slot = find_pair(state, a, q, e)
    if keyed_lists.unlink(keys, heads, sizes, state.links[PAIR_NEXT], state.links[PAIR_PREV],
                          slot, q):
        state.counts[PAIR_LIVE] -= 1


@inline
def is_boundary(state, q):
    """Whether a word ends after symbol q inside an utterance (a site with b = 1).

    Parameters
    ----------
    state : UsmState
    q : int

    Returns
    -------
    bool
    """
    return q >= 0 and state.bound[q] == 1 and state.final[q] == 0


@kernel
def flip(state, p, v):
    """Set b = v ≠ b after symbol p (not an utterance's last), moving the boundaries whose words
    change to their new types' lists: p's own, and those just before and after its words.

    Parameters
    ----------
    state : UsmState
        Mutated.
    p, v : int
    """
    a, e = word_start(state.bound, p), word_end(state.bound, p + 1)
    moved = (a - 1, e - 1, p)  # (a − 1 and e − 1 are boundaries unless an utterance's edge)
    for q in moved:
        if is_boundary(state, q):
            unfile_boundary(state, q)
    state.bound[p] = v
    for q in moved:
        if is_boundary(state, q):
            file_boundary(state, q)


# --- word probabilities of any length ------------------------------------------------------------
@inline
def log_word_weight(state, n_w, length):
    """log (n_w + α₀P₀(w)) for a word of ``length`` symbols, exact where α₀P₀ underflows (next
    to a count ≥ 1 it vanishes; alone it is its log).

    Parameters
    ----------
    state : UsmState
    n_w, length : int

    Returns
    -------
    float64
    """
    tiny = n_w == 0 and length > state.counts[LINEAR]
    return state.base[LOG_BASE, length] if tiny else np.log(n_w + state.base[BASE, length])


@inline
def word_term(state, n_w, length):
    """base[j] of block_delta for a word's term n_w + α₀P₀(w): its value, or — too small for
    linear arithmetic — its log, a negative number (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : UsmState
    n_w, length : int

    Returns
    -------
    float64
    """
    tiny = n_w == 0 and length > state.counts[LINEAR]
    return state.base[LOG_BASE, length] if tiny else n_w + state.base[BASE, length]


@inline
def log_rising_word(state, length, n_w):
    """log (α₀P₀(w))^(n_w) for a word of ``length`` symbols.

    Parameters
    ----------
    state : UsmState
    length, n_w : int

    Returns
    -------
    float64
    """
    if length <= state.counts[LINEAR]:
        total = log_rising(state.base[BASE, length], n_w)
    else:  # b (b + 1) … (b + n_w − 1) with b < LINEAR_MIN: b next to 1 … n_w − 1 vanishes
        total = state.base[LOG_BASE, length] + log_rising(1.0, n_w - 1)
    return total


@inline
def split_weights(state, len1, len2, last_is_final, same, n_join, n_left, n_right, n, ends, w):
    """w[0], w[1] ∝ p(b_s = 0 / 1 | rest) for a site between words w1 and w2 of len1 and len2
    symbols (w = w1w2 when b_s = 0), given the counts without the site's own words.

    eq. 4 with the shared factor 1 / ((N + α₀)(N + ρ)) cancelled:
      b = 0 adds w:        (n_w + α₀P₀(w)) (c + ρ/2) (N + 1 + α₀) (N + 1 + ρ)
      b = 1 adds w1, w2:   (n_1 + α₀P₀(w1)) (n_2 + [w1 = w2] + α₀P₀(w2)) (N − E + ρ/2) (c' + ρ/2)
    where c, c' count the end flags like the last word's (E if it ends the utterance, else the
    words that do not, w1's included for c'). Linear — no logs — unless w is too long for it.

    Parameters
    ----------
    state : UsmState
    len1, len2 : int
    last_is_final : uint8
        Whether w2 ends its utterance.
    same : int
        1 when w1 = w2.
    n_join, n_left, n_right : int
        The counts of w, w1, w2.
    n, ends : int
        N and E.
    w : float64[≥ 2]
        Output.
    """
    alpha0, half_rho = state.base[PARAMS, ALPHA0], 0.5 * state.base[PARAMS, RHO]
    c_join = ends if last_is_final else n - ends
    c_split = ends if last_is_final else n - ends + 1
    length = len1 + len2
    if length <= state.counts[LINEAR]:  # so are w1 and w2: α₀P₀ falls with the length
        w[0] = ((n_join + state.base[BASE, length]) * (c_join + half_rho)
                * ((n + 1 + alpha0) * (n + 1 + 2.0 * half_rho)))
        w[1] = ((n_left + state.base[BASE, len1]) * (n_right + same + state.base[BASE, len2])
                * ((n - ends + half_rho) * (c_split + half_rho)))
    else:
        split_log_weights(state, len1, len2, c_join, c_split, n_join, n_left, n_right + same,
                          n, ends, w)


@kernel
def split_log_weights(state, len1, len2, c_join, c_split, n_join, n_left, n_right, n, ends, w):
    """split_weights' terms in logs, for a word w too long for linear arithmetic.

    Parameters
    ----------
    state : UsmState
    len1, len2, c_join, c_split, n_join, n_left, n_right, n, ends : int
        As split_weights' (n_right includes [w1 = w2]; c_join, c_split its c and c').
    w : float64[≥ 2]
        Output, scaled so that the larger is 1.
    """
    alpha0, half_rho = state.base[PARAMS, ALPHA0], 0.5 * state.base[PARAMS, RHO]
    join = (log_word_weight(state, n_join, len1 + len2) + np.log(c_join + half_rho)
            + np.log(n + 1 + alpha0) + np.log(n + 1 + 2.0 * half_rho))
    split = (log_word_weight(state, n_left, len1) + log_word_weight(state, n_right, len2)
             + np.log(n - ends + half_rho) + np.log(c_split + half_rho))
    top = max(join, split)
    w[0] = np.exp(join - top)
    w[1] = np.exp(split - top)


@inline
def count_words(state, a, p, e, delta):
    """Count the current words of the site spanning chars[a:e] in (delta = 1) or out (−1),
    leaving them on their lists.

    Parameters
    ----------
    state : UsmState
        Mutated.
    a, p, e, delta : int
    """
    if state.bound[p]:
        count_word(state, a, p + 1, delta)
        count_word(state, p + 1, e, delta)
    else:
        count_word(state, a, e, delta)


@kernel  # not inlined: only a changed site calls it, and inlined it doubled the compile time
def replace_words(state, s, v):
    """Set b_s = v ≠ b_s: the site's words leave the lexicon and those of v join it.

    Parameters
    ----------
    state : UsmState
        Mutated.
    s, v : int
    """
    a, p, e = site_span(state, s)
    state.counts[BLOCK_LEN1] = 0  # the lexicon's entries may move: the block's slots are stale
    if v:
        remove_word(state, a, e)
    else:
        remove_word(state, a, p + 1)
        remove_word(state, p + 1, e)
    flip(state, p, v)
    if v:
        add_word(state, a, p + 1)
        add_word(state, p + 1, e)
    else:
        add_word(state, a, e)


# --- the model interface -------------------------------------------------------------------------
# what remove_site and add_site read and write of a site that keeps its value: handed to
# their kernels instead of the whole state (~60 machine words a call instead of ~90)
SiteView = namedtuple("SiteView", ("chars", "bound", "final", "site_pos", "hashes", "tables",
                                   "counts", "removed"))


@inline
def site_view(state):
    """The arrays of ``SiteView``.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    SiteView
    """
    return SiteView(state.chars, state.bound, state.final, state.site_pos, state.hashes,
                    state.tables, state.counts, state.removed)


# what a block site whose words' slots are known needs (``moved_by_slots``): ~37 words
SlotView = namedtuple("SlotView", ("site_pos", "bound", "tables", "counts", "removed"))


@inline
def slot_view(state):
    """The arrays of ``SlotView``.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    SlotView
    """
    return SlotView(state.site_pos, state.bound, state.tables, state.counts, state.removed)


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site, inlined into the moves: a site of the TYPE block under way whose
    words' slots are known — nearly every site a TYPE sweep removes — is set aside by
    ``moved_by_slots``, any other by ``take_out``; each is handed the arrays it needs, not the
    whole state.

    Parameters
    ----------
    state : UsmState
        Mutated.
    s : int
    """
    if not moved_by_slots(slot_view(state), s, -1):
        take_out(site_view(state), s)


@kernel
def take_out(state, s):
    """remove_site: the site's words are set aside, not taken off their lists (add_site
    counts them back, and when b_s changes replaces them); its symbols marked. They are
    counted out by slot: a site of the TYPE block under way has the block's words, whose
    slots are known (``block_words``), and another site's are found and remembered
    (``site_words``: a TYPE pivot's block keeps them).

    Parameters
    ----------
    state : SiteView
        Mutated.
    s : int
    """
    if state.counts[ASIDE] == 0:  # a new move: no block is under way
        state.counts[BLOCK_LEN1] = 0
    if state.counts[BLOCK_LEN1] > 0:
        a, p, e = block_span(state, s)
    else:
        a, p, e = site_span(state, s)
        site_words(state, a, p, e)
    count_block_words(state, a, p, e, -1)
    set_aside(state, a, e, -1)


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site, inlined into the moves as remove_site is: a block site whose words'
    slots are known is counted back by ``moved_by_slots``, any other by ``put_back``; then
    ``replace_words`` when b_s changes. The last site of a block put back ends it
    (``block_words``).

    Parameters
    ----------
    state : UsmState
        Mutated.
    s, v : int
    """
    if not moved_by_slots(slot_view(state), s, 1):
        put_back(site_view(state), s)
    if v != state.bound[state.site_pos[s]]:
        replace_words(state, s, v)


@kernel
def put_back(state, s):
    """add_site's part for every site: its words counted back (they are on their lists) and
    its symbols unmarked.

    Parameters
    ----------
    state : SiteView
        Mutated.
    s : int
    """
    if state.counts[BLOCK_LEN1] > 0:
        a, p, e = block_span(state, s)
        count_block_words(state, a, p, e, 1)
    else:
        a, p, e = site_span(state, s)
        count_words(state, a, p, e, 1)
    set_aside(state, a, e, 1)


@inline
def block_slots_known(state, s):
    """Whether site s is one of the TYPE block under way (its sites set aside, its words
    remembered: ``block_words``) and the lexicon slots of the words it has are known: then
    remove_site and add_site count it by slot with no lookup (``moved_by_slots``). When a
    block's pivot is joined, w1's and w2's slots are looked up at its first split site.

    Parameters
    ----------
    state : SlotView
    s : int

    Returns
    -------
    bool
    """
    counts = state.counts
    known = counts[ASIDE] > 0 and counts[BLOCK_LEN1] > 0
    if known and state.bound[state.site_pos[s]]:
        known = counts[BLOCK_LEFT] != UNSEEN and counts[BLOCK_RIGHT] != UNSEEN
    elif known:
        known = counts[BLOCK_JOIN] != UNSEEN
    return known


@kernel
def moved_by_slots(state, s, delta):
    """Set site s aside (delta = −1) or put it back (1) when it is one of the TYPE block under
    way and its words' slots are known (``block_slots_known``), and say whether it was:
    remove_site's and add_site's common case, small enough for LLVM to inline into the moves,
    which saves a call's copying of the arrays (br-phono: TYPE 3.58 → 3.0 × TOKEN). Numba's
    own inlining of it into the inlined remove_site gave wrong counts, without a warning (the
    running log-likelihood of tests/unit/test_usm_any_length.py off).

    Parameters
    ----------
    state : SlotView
        Mutated.
    s, delta : int

    Returns
    -------
    bool
    """
    known = block_slots_known(state, s)
    if known:
        a, p, e = block_span(state, s)
        count_by_slots(state, p, delta)
        set_aside(state, a, e, delta)
    return known


@inline
def set_aside(state, a, e, delta):
    """Mark the symbols chars[a:e] of a site's words as set aside (delta = −1) or unmark them
    (1), keeping count of the sites aside; the TYPE block under way ends when its last site is
    put back.

    Parameters
    ----------
    state : UsmState, SiteView or SlotView
        Mutated.
    a, e, delta : int
    """
    counts = state.counts
    counts[ASIDE] -= delta
    state.removed[a:e] = np.uint8(delta < 0)  # as a loop: TYPE 15 → 17 ms on br-phono
    if counts[ASIDE] == 0:
        counts[BLOCK_LEN1] = 0


@inline
def site_words(state, a, p, e):
    """Remember the lexicon slots of the words of the site chars[a:e] split after p as they
    stand (w1's and w2's when b = 1, w's when b = 0; the others UNSEEN) and w2's end flag, for
    count_block_words. A TYPE move's pivot is removed first, alone: its block (``block_words``)
    keeps the slots.

    Parameters
    ----------
    state : UsmState
        counts[BLOCK_JOIN … BLOCK_RIGHT] and counts[BLOCK_FINAL] written.
    a, p, e : int
    """
    counts = state.counts
    counts[BLOCK_JOIN], counts[BLOCK_LEFT], counts[BLOCK_RIGHT] = UNSEEN, UNSEEN, UNSEEN
    if state.bound[p]:
        counts[BLOCK_LEFT] = find_listed(state, a, p + 1)
        counts[BLOCK_RIGHT] = find_listed(state, p + 1, e)
    else:
        counts[BLOCK_JOIN] = find_listed(state, a, e)
    counts[BLOCK_FINAL] = state.final[e - 1]


@inline
def block_words(state, a, p, e):
    """Remember the words of the TYPE block gathered around the removed pivot chars[a:e] split
    after p, and return w's slot (−1: none): every site of the block has them (sites of one
    type), so remove_site and add_site count them by slot, and site_weights and block_delta
    read their counts by slot, with no hashing and no look at the symbols (the sweep 8 %
    faster on br-phono than when each site looked its words up, and 6 % more for the weights).
    The pivot's removal found its own words' slots (``site_words``); the others are looked up
    when first needed. The block ends when its last site is put back, or when a site changes
    value (its new words may move the lexicon's entries).

    Parameters
    ----------
    state : UsmState
        counts[BLOCK_…] written.
    a, p, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    if counts[ASIDE] != 1:  # not the pivot's words alone: forget them
        counts[BLOCK_JOIN], counts[BLOCK_LEFT], counts[BLOCK_RIGHT] = UNSEEN, UNSEEN, UNSEEN
    counts[BLOCK_LEN1], counts[BLOCK_LEN2] = p + 1 - a, e - p - 1
    counts[BLOCK_FINAL] = state.final[e - 1]
    return block_slot(state, BLOCK_JOIN, a, e)


@inline
def block_span(state, s):
    """site_span for a site of the TYPE block under way, from the block's word lengths.

    Parameters
    ----------
    state : UsmState
    s : int

    Returns
    -------
    (int, int, int)
    """
    p = np.int64(state.site_pos[s])
    return p + 1 - state.counts[BLOCK_LEN1], p, p + 1 + state.counts[BLOCK_LEN2]


@inline
def block_slot(state, row, x, e):
    """The lexicon slot of the block's word chars[x:e] kept in counts[row], looked up the
    first time.

    Parameters
    ----------
    state : UsmState
        counts[row] written.
    row, x, e : int

    Returns
    -------
    int64
    """
    if state.counts[row] == UNSEEN:
        state.counts[row] = find_word(state, x, e)
    return state.counts[row]


@inline
def word_count(state, row, x, e):
    """n_w of the word chars[x:e] — w (row BLOCK_JOIN), w1 (BLOCK_LEFT) or w2 (BLOCK_RIGHT) of
    the site weighed — by the block's slot when a TYPE block is under way (its sites are all of
    the pivot's type), else looked up.

    Parameters
    ----------
    state : UsmState
        counts[row] written when the block's slot is first looked up.
    row, x, e : int

    Returns
    -------
    int64
    """
    if state.counts[BLOCK_LEN1] == 0:
        return count_of(state, x, e)
    slot = block_slot(state, row, x, e)
    return 0 if slot < 0 else state.tables[LEXICON + SIZE, slot]


@inline
def count_block_words(state, a, p, e, delta):
    """count_words by the remembered slots (``site_words``, or the TYPE block's), looked up
    first where they are not known yet.

    Parameters
    ----------
    state : UsmState
        Mutated.
    a, p, e, delta : int
    """
    if state.bound[p]:
        block_slot(state, BLOCK_LEFT, a, p + 1)
        block_slot(state, BLOCK_RIGHT, p + 1, e)
    else:
        block_slot(state, BLOCK_JOIN, a, e)
    count_by_slots(state, p, delta)


@inline
def count_by_slots(state, p, delta):
    """count_words for the site after symbol p by the remembered slots of its words, all known.

    Parameters
    ----------
    state : UsmState, SiteView or SlotView
        Mutated.
    p, delta : int
    """
    counts = state.counts
    if state.bound[p]:
        state.tables[LEXICON + SIZE, counts[BLOCK_LEFT]] += delta
        state.tables[LEXICON + SIZE, counts[BLOCK_RIGHT]] += delta
        counts[WORDS] += 2 * delta
    else:
        state.tables[LEXICON + SIZE, counts[BLOCK_JOIN]] += delta
        counts[WORDS] += delta
    counts[ENDS] += delta * counts[BLOCK_FINAL]
    counts[MEMO_END] = -1


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights (``split_weights``); inside a TYPE move the words' counts are
    read by the block's slots (``word_count``).

    Parameters
    ----------
    state : UsmState
    s : int
    w : float64[≥ 2]
        Output.
    """
    a, p, e = site_span(state, s)
    split_weights(state, p + 1 - a, e - p - 1, state.final[e - 1], same_halves(state, a, p, e),
                  word_count(state, BLOCK_JOIN, a, e), word_count(state, BLOCK_LEFT, a, p + 1),
                  word_count(state, BLOCK_RIGHT, p + 1, e), state.counts[WORDS],
                  state.counts[ENDS], w)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: the site's own words are counted, so they are taken off by hand
    instead of from the table, and a TOKEN move that keeps b_s (most of them, after burn-in)
    writes nothing.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Its TOKEN memo (counts[MEMO_…]) is updated.
    s : int
    w : float64[≥ 2]
        Output.
    """
    a, p, e = site_span(state, s)
    same = same_halves(state, a, p, e)
    last_is_final = state.final[e - 1]
    # the word holding symbol p is the one that held p + 1 at the site before (remembered)
    if state.bound[p]:
        own = 2
        n_join = count_of(state, a, e)
        n_left = remembered_count(state, a, p + 1) - 1 - same  # w1 = w2: one entry, both words
        n_right = n_left if same else remembered_count(state, p + 1, e) - 1
    else:
        own = 1
        n_join = remembered_count(state, a, e) - 1
        n_left = count_of(state, a, p + 1)
        n_right = n_left if same else count_of(state, p + 1, e)
    split_weights(state, p + 1 - a, e - p - 1, last_is_final, same, n_join, n_left, n_right,
                  state.counts[WORDS] - own, state.counts[ENDS] - last_is_final, w)


@inline
def remembered_count(state, x, e):
    """n_w of the word occurrence chars[x:e] of the current segmentation, remembered from the
    last call when the lexicon has not changed since (TOKEN's next site needs it again), and
    remembered for the next.

    Parameters
    ----------
    state : UsmState
        Mutated.
        counts[MEMO_START … MEMO_COUNT].
    x, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    if counts[MEMO_START] != x or counts[MEMO_END] != e:
        counts[MEMO_START], counts[MEMO_END] = x, e
        counts[MEMO_COUNT] = state.tables[LEXICON + SIZE, find_listed(state, x, e)]
    return counts[MEMO_COUNT]


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: a TOKEN flip, the site's words replaced (no TYPE move is under
    way: ``removed`` untouched).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Mutated.
    s, v : int
    """
    if state.bound[state.site_pos[s]] != v:
        replace_words(state, s, v)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    bool
    """
    return False

@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: True: a sweep's pivots in site order (Fig. 4's loop over the
    sites), which reads the corpus's arrays in order as TOKEN does. On br-phono a TYPE sweep
    took 33 ms against 40 in a random order (the medians of five fresh processes each, taken
    in turn; Intel Xeon, 2026-11-29), and a sweep took the chain as far or further (the mean
    log p of eight chains after 10, 50, 100 and 200 sweeps from η = 0.1, 0.5 and 0.9 was higher
    at each; after 50, by less than the chains' spread). TYPE-greedy then draws nothing: from
    one start its chains agree.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    bool
    """
    return True


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: a removed word covers p or p + 1 exactly when s depends on it.

    Parameters
    ----------
    state : UsmState
    s : int

    Returns
    -------
    bool
    """
    p = state.site_pos[s]
    return state.removed[p] != 0 or state.removed[p + 1] != 0


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates: t(z, s) = (w1, w2, whether w2 ends its utterance), where
    w = w1w2 is the word when b_s = 0: the split point |w1| inside each occurrence of the word
    w with the end flag, and the list of the type in the boundary index. In list order, not
    sorted: moves.gather_block sorts them in the rare case where the order matters (a
    conflict), and sorting the large blocks of frequent types cost a tenth of a TYPE sweep.

    Parameters
    ----------
    state : UsmState
    s0 : int
    out : int64[n_sites]
        Output.

    Returns
    -------
    int
    """
    a, p, e = site_span(state, s0)
    len1, length = p + 1 - a, e - a
    final = state.final[e - 1]
    k = 0
    slot = block_words(state, a, p, e)
    if slot >= 0:
        x = state.tables[LEXICON + HEAD, slot]
        while x >= 0:
            if state.final[x + length - 1] == final:
                out[k] = candidate(state, x + len1 - 1)
                k += 1
            x = state.links[OCC_NEXT, x]
    slot = find_pair(state, a, p, e)
    if slot >= 0:
        q = state.tables[PAIRS + HEAD, slot]
        while q >= 0:
            out[k] = candidate(state, q)
            k += 1
            q = state.links[PAIR_NEXT, q]
    return k


@inline
def candidate(state, q):
    """The site after symbol q, a candidate of the block gathered, with the lines its move will
    read asked for now (``prefetch``): conflicts, remove_site and add_site read its symbol and
    the marks around it, in a corpus-wide scatter that would otherwise wait on memory site by
    site.

    Parameters
    ----------
    state : UsmState
    q : int

    Returns
    -------
    int64
    """
    s = state.site_of[q]
    prefetch(state.site_pos, s)
    prefetch(state.bound, q)
    prefetch(state.removed, q)
    return np.int64(s)


implements(interface.block_weights)(block_weight.rising_block_weights)


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 9 for the block: words w (joined, v = 0), w1 and w2 (split,
    v = 1); the words' denominator; the end flags of the last word and of w1 (never final);
    their denominator.

    Parameters
    ----------
    state : UsmState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 8]
        Output.

    Returns
    -------
    int
        The number of terms.
    """
    a, p, e = site_span(state, s0)
    alpha0, rho = state.base[PARAMS, ALPHA0], state.base[PARAMS, RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    len1, len2 = p + 1 - a, e - p - 1
    n_left = word_count(state, BLOCK_LEFT, a, p + 1)  # the block's slots (block_candidates)
    j = 0
    base[j], d0[j], d1[j], sign[j] = (word_term(state, word_count(state, BLOCK_JOIN, a, e), e - a),
                                      1, 0, 1.0)
    j += 1
    if same_halves(state, a, p, e):
        base[j], d0[j], d1[j], sign[j] = word_term(state, n_left, len1), 0, 2, 1.0
        j += 1
    else:
        base[j], d0[j], d1[j], sign[j] = word_term(state, n_left, len1), 0, 1, 1.0
        base[j + 1], d0[j + 1], d1[j + 1], sign[j + 1] = (
            word_term(state, word_count(state, BLOCK_RIGHT, p + 1, e), len2), 0, 1, 1.0)
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
def count_all_words(state):
    """Fill the empty lexicon and boundary index from the segmentation ``bound``, in corpus
    order.

    Parameters
    ----------
    state : UsmState
        Mutated.
    """
    start = 0
    for i in range(state.chars.shape[0]):
        if state.bound[i]:
            add_word(state, start, i + 1)
            start = i + 1
            if state.final[i] == 0:
                file_boundary(state, i)


@kernel
def log_likelihood(state):
    """log p(z) of eq. 3 from the lexicon's counts: Σ_w log (α₀P₀(w))^(n_w) − log α₀^(N)
    + log (ρ/2)^(E) + log (ρ/2)^(N−E) − log ρ^(N).

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    float64
    """
    alpha0, rho = state.base[PARAMS, ALPHA0], state.base[PARAMS, RHO]
    n, ends = state.counts[WORDS], state.counts[ENDS]
    keys, heads, sizes = lexicon(state)
    total = 0.0
    for slot in range(keys.shape[0]):
        if keys[slot] != hash_table.EMPTY:
            head = heads[slot]
            total += log_rising_word(state, word_end(state.bound, head) - head, sizes[slot])
    return (total - log_rising(alpha0, n) + log_rising(0.5 * rho, ends)
            + log_rising(0.5 * rho, n - ends) - log_rising(rho, n))
