"""The unigram particles' pooled arrays (``UnigramParticles``: row l of every array is particle
l), the thread's work arrays (``UnigramWork``), the parameters' slots, and new populations and
their capacities grown by doubling. The package's docstring says what a particle is.
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY


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
