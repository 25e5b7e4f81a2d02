"""The engine's one open-addressing hash table, in a flat array: every kernel that hashes uses it.

A table is an array of keys, ``keys[C]`` (C a power of two; any integer dtype), −1 marking an
empty slot; its user keeps whatever each entry holds in arrays beside it, indexed by the same
slot (one value, or a list's head and size). Keys are non-negative. A key's probe starts at its
*home*, the middle bits of key · MIX (multiplicative hashing: consecutive keys land far apart),
and runs linearly to the next empty slot. Deletion shifts later entries of the run back
(``next_displaced``), so a run has no holes and lookups need no tombstones.

Its users: the segmentation and tagging models' indexes (engine.core.keyed_lists: key → a list
of items), the numbering of a corpus's substrings (engine.core.substrings), and each particle's
lexicon and table of word pairs (engine.models.usm.particles, engine.models.bigram.particles:
a row of a 2-D array per particle).

Several entries may share a key when keys are hashes (of a word's symbols): a user then walks
``find`` and ``find_next`` and tells its own entry apart by what the entry holds.
"""
import numpy as np

from engine.core.jit import inline, kernel

MIX = np.uint64(0x9E3779B97F4A7C15)  # 2⁶⁴ / golden ratio, odd: spreads keys over the slots
EMPTY = -1


@kernel
def home(key, capacity):
    """Where the probe for ``key`` starts: bits 32 … of key · MIX.

    Parameters
    ----------
    key : int, ≥ 0
    capacity : int
        The table's slots, a power of two ≤ 2³².

    Returns
    -------
    int64
        A slot in 0 … capacity − 1.
    """
    return np.int64(((np.uint64(key) * MIX) >> np.uint64(32)) & np.uint64(capacity - 1))


@kernel
def probe(keys, key, i):
    """From slot i on along the probe run: the first slot holding ``key``.

    Parameters
    ----------
    keys : int[C]
        The table.
    key : int
    i : int
        A slot of key's probe run.

    Returns
    -------
    int64
        The slot, or −1 at the run's end (an empty slot).
    """
    mask = keys.shape[0] - 1
    while keys[i] != EMPTY:
        if keys[i] == key:
            return np.int64(i)
        i = (i + 1) & mask
    return np.int64(EMPTY)


@kernel
def find(keys, key):
    """The slot holding ``key`` (the first of them, when several do).

    Parameters
    ----------
    keys : int[C]
        The table.
    key : int

    Returns
    -------
    int64
        The slot, or −1 when no entry holds key.
    """
    return probe(keys, key, home(key, keys.shape[0]))


@inline
def find_three(keys, key_a, key_b, key_c):
    """``find`` for three keys at once. In a table larger than the processor's caches each
    lookup waits on memory for its key's home; here the three homes are read before any probe
    runs on, so the three waits overlap.

    Parameters
    ----------
    keys : int[C]
        The table.
    key_a, key_b, key_c : int

    Returns
    -------
    (int64, int64, int64)
        Their slots (−1 for a key no entry holds).
    """
    capacity = keys.shape[0]
    i_a, i_b, i_c = home(key_a, capacity), home(key_b, capacity), home(key_c, capacity)
    at_a, at_b, at_c = keys[i_a], keys[i_b], keys[i_c]
    return (np.int64(i_a) if at_a == key_a else probe(keys, key_a, i_a),
            np.int64(i_b) if at_b == key_b else probe(keys, key_b, i_b),
            np.int64(i_c) if at_c == key_c else probe(keys, key_c, i_c))


@kernel
def find_next(keys, key, slot):
    """The next slot after ``slot`` (from ``find`` or ``find_next``) that holds ``key``.

    Parameters
    ----------
    keys : int[C]
        The table.
    key : int
    slot : int
        A slot holding key.

    Returns
    -------
    int64
        The slot, or −1 when no later entry of the run holds key.
    """
    return probe(keys, key, (slot + 1) & (keys.shape[0] - 1))


@inline  # in the hot paths of the lists, the particles and TYPE: a loop costs less than a call
def insert(keys, key):
    """A new entry for ``key`` in the first empty slot of its probe run (an entry holding the
    same key may exist: hashed keys). The table must have an empty slot.

    Parameters
    ----------
    keys : int[C]
        The table, mutated.
    key : int

    Returns
    -------
    int64
        The entry's slot; the caller fills the values beside it.
    """
    mask = keys.shape[0] - 1
    i = home(key, keys.shape[0])
    while keys[i] != EMPTY:
        i = (i + 1) & mask
    keys[i] = key
    return i


@inline  # once per entry moved back, like insert
def next_displaced(keys, hole, j):
    """Deleting an entry leaves a hole that the entries after it in its probe run must fill:
    the first slot after j whose entry moves back into ``hole`` (its home lies cyclically
    outside (hole, that slot]). The caller moves the entry (its key and values), makes its slot
    the new hole and asks again from there, until −1; then empties the last hole.

    Parameters
    ----------
    keys : int[C]
        The table.
    hole : int
        The empty slot to fill.
    j : int
        Where to look from (the hole itself at first).

    Returns
    -------
    int64
        The slot whose entry moves into the hole, or −1 when the run ends first.
    """
    mask = keys.shape[0] - 1
    found = np.int64(EMPTY)
    while True:
        j = (j + 1) & mask
        if keys[j] == EMPTY:
            break
        h = home(keys[j], keys.shape[0])
        if not ((hole <= j and hole < h <= j) or (hole > j and (h > hole or h <= j))):
            found = j
            break
    return found


@kernel
def pair_key(a, b):
    """One key for the pair of non-negative ints below 2³¹ (a, b): a · 2³² + b.

    Parameters
    ----------
    a, b : int

    Returns
    -------
    int64
    """
    return (np.int64(a) << np.int64(32)) | np.int64(b)


@kernel
def reinsert_rows(old_keys, old_values, new_keys, new_values):
    """Every entry of each row's table into that row's empty, larger table (per-particle tables
    pooled one row a particle), the one value beside each key moving with it.

    Parameters
    ----------
    old_keys, old_values : int[N, C]
        The tables and their values.
    new_keys : int[N, C′]
        Empty tables (all −1), C′ ≥ C a power of two; mutated.
    new_values : int[N, C′]
        Output: the values beside new_keys.
    """
    for l in range(old_keys.shape[0]):
        for h in range(old_keys.shape[1]):
            if old_keys[l, h] != EMPTY:
                new_values[l, insert(new_keys[l], old_keys[l, h])] = old_values[l, h]
