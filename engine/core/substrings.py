"""Every substring of every utterance, numbered once: the word types a segmenter can ever posit.

An online segmenter reads an utterance and weighs every way of cutting it, so every substring
of it is a candidate word. Numbering the distinct substrings of the whole corpus once (a few
hundred thousand for the Brent corpus) lets each particle of a particle filter key its lexicon
by a small integer instead of hashing symbols again for every particle and utterance.

Layout: utterance u of length n owns n × n entries of ``sub`` from ``sub_off[u]``; entry
i·n + (j − 1) is the type of its symbols i … j − 1 (0 ≤ i < j ≤ n; the other entries are −1).
Type v is the symbols ``chars[type_start[v] : type_start[v] + type_len[v]]``.
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY
from engine.core.jit import kernel
from engine.core.word_hash import same_symbols, word_key


class Substrings(namedtuple("Substrings", ["sub", "sub_off", "type_start", "type_len"])):
    """The corpus's substrings as type ids.

    sub : int32[Σ n²]        the type of each (utterance, i, j), layout as in the module's doc
    sub_off : int64[U + 1]   where each utterance's block starts
    type_start : int64[V]    where one occurrence of each type starts in the corpus
    type_len : int64[V]      each type's length
    """

    __slots__ = ()

    @property
    def n_types(self):
        return self.type_start.shape[0]


def number_substrings(chars, utt_start, prefix, power):
    """The ``Substrings`` of a corpus (chars int32[T], utt_start int64[U + 1], and its prefix
    hashes from engine.core.word_hash.fill_prefix_hashes)."""
    lengths = np.diff(utt_start)
    sub_off = np.r_[0, np.cumsum(lengths * lengths)].astype(np.int64)
    sub = np.full(sub_off[-1], EMPTY, np.int32)
    n_slots = 1 << int(2 * max(1, sub_off[-1])).bit_length()  # load below one half
    slot_key = np.full(n_slots, EMPTY, np.int64)
    slot_type = np.empty(n_slots, np.int64)
    type_start = np.empty(sub_off[-1], np.int64)
    type_len = np.empty(sub_off[-1], np.int64)
    n_types = fill_substring_types(chars, utt_start, prefix, power, sub_off, sub, slot_key,
                                   slot_type, type_start, type_len)
    return Substrings(sub, sub_off, type_start[:n_types].copy(), type_len[:n_types].copy())


@kernel
def fill_substring_types(chars, utt_start, prefix, power, sub_off, sub, slot_key, slot_type,
                         type_start, type_len):
    """Number the distinct substrings of every utterance (see the module's doc for the layout).

    Parameters
    ----------
    chars : int32[T]; utt_start : int64[U + 1]; prefix, power : uint64[T + 1]
        The corpus and its prefix hashes.
    sub_off : int64[U + 1]
        Where each utterance's n × n block of ``sub`` starts.
    sub : int32[Σ n²]
        Output: the type of each substring.
    slot_key, slot_type : int64[S]
        Work: an empty engine.core.hash_table (slot_key all −1) of substrings' word keys and,
        beside them, their types; S a power of two above twice the number of substrings.
    type_start, type_len : int64[Σ n²]
        Output: an occurrence's start and the length of each type, the first V entries.

    Returns
    -------
    int
        V, the number of distinct substrings.
    """
    n_types = 0
    for u in range(utt_start.shape[0] - 1):
        x0 = utt_start[u]
        n = utt_start[u + 1] - x0
        for i in range(n):
            for j in range(i + 1, n + 1):
                v = type_of(chars, prefix, power, x0 + i, j - i, slot_key, slot_type,
                            type_start, type_len, n_types)
                n_types += v == n_types
                sub[sub_off[u] + i * n + j - 1] = v
    return n_types


@kernel
def type_of(chars, prefix, power, x, length, slot_key, slot_type, type_start, type_len, n_types):
    """The type of the substring chars[x : x + length]: the one of its entry in the table (same
    key, length and symbols), else the new type n_types, entered.

    Parameters
    ----------
    chars : int32[T]; prefix, power : uint64[T + 1]
        The corpus and its prefix hashes.
    x, length : int
    slot_key, slot_type : int64[S]
        The table of ``fill_substring_types``, mutated.
    type_start, type_len : int64[≥ n_types + 1]
        The types so far; a new type's entries are written.
    n_types : int
        The number of types so far.

    Returns
    -------
    int64
        The type.
    """
    key = word_key(prefix, power, x, x + length)
    slot = hash_table.find(slot_key, key)
    while slot >= 0 and not (type_len[slot_type[slot]] == length
                             and same_symbols(chars, type_start[slot_type[slot]], x, length)):
        slot = hash_table.find_next(slot_key, key, slot)
    if slot < 0:
        slot = hash_table.insert(slot_key, key)
        slot_type[slot] = n_types
        type_start[n_types] = x
        type_len[n_types] = length
    return slot_type[slot]


def occurrences(substrings, utt_start):
    """Every type's occurrences in the corpus as CSR: (occ_start int64[V + 1], occ_pos
    int64[…]): type v starts at occ_pos[occ_start[v] : occ_start[v + 1]], ascending."""
    sub, sub_off = substrings.sub, substrings.sub_off
    entry = np.arange(len(sub))
    u = np.searchsorted(sub_off, entry, side="right") - 1
    n = np.diff(utt_start)[u]
    local = entry - sub_off[u]
    i, j_minus_1 = local // n, local % n
    valid = j_minus_1 >= i
    types, starts = sub[valid].astype(np.int64), (utt_start[u] + i)[valid]
    order = np.lexsort((starts, types))
    occ_start = np.r_[0, np.cumsum(np.bincount(types, minlength=substrings.n_types))]
    return occ_start.astype(np.int64), starts[order].astype(np.int64)
