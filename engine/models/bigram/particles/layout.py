"""The bigram particles' pooled arrays (``BigramParticles``) and the thread's work arrays
(``BigramWork``), the parameters' slots, and new populations and their capacities grown by
doubling. The package's docstring says what a particle is.
"""
from collections import namedtuple

import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY
from engine.models.usm.particles.layout import WORDS


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
