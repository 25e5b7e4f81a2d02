"""The lexicon: a word's id from its key (its symbols compared, so two words never share an
id), new ids as word types appear, and each id's tokens counted and listed.
"""
from engine.core import hash_table, keyed_lists
from engine.core.jit import kernel
from engine.core.word_hash import same_symbols, word_key
from engine.models.bigram.kernels.layout import (CUSTOMERS, KEY, LENGTH, LEX_CAPACITY, LIVE_WORDS,
    NEXT, OCC_NEXT, OCC_PREV, PREV, REP, SLOT_HEAD, SLOT_KEY, SLOT_SIZE, TABLES, TOKENS, WORDS,
    WORD_AT, WORD_ENDING, WORD_TOP)


@kernel
def word_id(state, x, e):
    """The id of the word chars[x:e], or −1 when it has no tokens.

    Parameters
    ----------
    state : BigramState
    x, e : int

    Returns
    -------
    int64
    """
    length = e - x
    used = state.counts[LEX_CAPACITY]
    keys, heads = state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used]
    key = word_key(state.prefix, state.power, x, e)
    slot = hash_table.find(keys, key)
    while slot >= 0:
        w = heads[slot]
        while w >= 0:
            if state.word[w, LENGTH] == length and same_symbols(state.chars, state.word[w, REP],
                                                                x, length):
                return w
            w = state.links[NEXT, w]
        slot = hash_table.find_next(keys, key, slot)
    return -1


@kernel
def new_word(state, x, e):
    """A new id for the word chars[x:e], filed in the lexicon (live slots ≤ live words:
    doubling at half the live words keeps the load ≤ 1/2).

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    counts[WORD_TOP] -= 1
    counts[LIVE_WORDS] += 1
    w = state.word_free[counts[WORD_TOP]]
    key = word_key(state.prefix, state.power, x, e)
    state.word[w, REP], state.word[w, LENGTH], state.word[w, KEY] = -1, e - x, key
    state.word[w, TOKENS] = state.word[w, CUSTOMERS] = state.word[w, TABLES] = 0
    # live slots ≤ live words: doubling at half the live words keeps the load ≤ 1/2
    if 2 * counts[LIVE_WORDS] > counts[LEX_CAPACITY]:
        counts[LEX_CAPACITY] = grown(state.lexicon, counts[LEX_CAPACITY], state.spare)
    used = counts[LEX_CAPACITY]
    keys, heads, sizes = (state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used],
                          state.lexicon[SLOT_SIZE, :used])
    slot = hash_table.find(keys, key)
    if slot < 0:
        slot = keyed_lists.new_slot(keys, heads, sizes, key)
    keyed_lists.push(heads, sizes, state.links[NEXT], state.links[PREV], slot, w)
    return w


@kernel
def grown(table, capacity, spare):
    """Double a growing keyed_lists table (rows SLOT_KEY, SLOT_HEAD, SLOT_SIZE).

    Parameters
    ----------
    table : int64[3, C]
        Mutated.
    capacity : int
        The capacity in use.
    spare : int64[3, C / 2]
        Work.

    Returns
    -------
    int
        The new capacity.
    """
    return keyed_lists.grow(table[SLOT_KEY], table[SLOT_HEAD], table[SLOT_SIZE], capacity,
                            spare[SLOT_KEY], spare[SLOT_HEAD], spare[SLOT_SIZE])


@kernel
def add_token(state, x, e):
    """Count the word token chars[x:e].

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int

    Returns
    -------
    int64
        Its id.
    """
    return count_token(state, x, e, word_id(state, x, e))


@kernel
def count_token(state, x, e, w):
    """Count the word token chars[x:e] whose id ``word_id`` gave as w (negative: none, a new
    word): the id's occurrences are a list whose head is REP.

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e, w : int

    Returns
    -------
    int64
        Its id.
    """
    if w < 0:
        w = new_word(state, x, e)
    # the id's occurrences are a list whose head is REP
    head = state.word[w, REP]
    state.occ[OCC_NEXT, x], state.occ[OCC_PREV, x] = head, -1
    if head >= 0:
        state.occ[OCC_PREV, head] = x
    state.word[w, REP] = x
    state.word[w, TOKENS] += 1
    state.counts[WORDS] += 1
    state.occ[WORD_AT, x] = w
    state.occ[WORD_ENDING, e - 1] = w
    return w


@kernel
def remove_token(state, x, e):
    """Uncount the word token chars[x:e] (its customers gone already); an id left without tokens
    leaves the lexicon.

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int
    """
    w = state.occ[WORD_AT, x]
    occ = state.occ
    before, after = occ[OCC_PREV, x], occ[OCC_NEXT, x]
    if before >= 0:
        occ[OCC_NEXT, before] = after
    else:
        state.word[w, REP] = after
    if after >= 0:
        occ[OCC_PREV, after] = before
    occ[WORD_AT, x] = occ[WORD_ENDING, e - 1] = -1
    state.word[w, TOKENS] -= 1
    state.counts[WORDS] -= 1
    if state.word[w, TOKENS] == 0:
        used = state.counts[LEX_CAPACITY]
        keys, heads, sizes = (state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used],
                              state.lexicon[SLOT_SIZE, :used])
        slot = hash_table.find(keys, state.word[w, KEY])
        while not slot_holds(state, slot, w):
            slot = hash_table.find_next(keys, state.word[w, KEY], slot)
        keyed_lists.unlink(keys, heads, sizes, state.links[NEXT], state.links[PREV], slot, w)
        state.word_free[state.counts[WORD_TOP]] = w
        state.counts[WORD_TOP] += 1
        state.counts[LIVE_WORDS] -= 1


@kernel
def slot_holds(state, slot, w):
    """Whether id w is on the list of lexicon slot ``slot`` (< counts[LEX_CAPACITY]).

    Parameters
    ----------
    state : BigramState
    slot, w : int

    Returns
    -------
    bool
    """
    v = state.lexicon[SLOT_HEAD, slot]  # (slot < counts[LEX_CAPACITY])
    while v >= 0 and v != w:
        v = state.links[NEXT, v]
    return v == w
