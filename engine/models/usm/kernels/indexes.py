"""The two indexes (engine.core.keyed_lists tables keyed by word hashes): the lexicon, word →
its occurrences (n_w its list's size), and the boundaries, (w1, w2, end flag) → the boundaries
between such a pair; a word's key from its symbols and the lookups that check the entry's first
item exactly.
"""
import numpy as np

from engine.core import hash_table, keyed_lists
from engine.core.jit import inline, kernel
from engine.core.word_hash import HASH_BASE, KEYED_LENGTHS, same_symbols, word_key
from engine.models.segmentation.sites import word_end, word_start
from engine.models.usm.kernels.layout import (ENDS, HEAD, KEY, LEXICON, LEX_CAPACITY, LEX_LIVE,
    MEMO_END, OCC_NEXT, OCC_PREV, PAIRS, PAIR_CAPACITY, PAIR_LIVE, PAIR_NEXT, PAIR_PREV, POWER,
    PREFIX, SIZE, SPARE, WORDS)


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
