"""A particle's word slots (the unigram particles' lexicon, slot 0 `$`) and its table of word
pairs ⟨w′, w⟩: found, or made as they are seated.
"""
import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY
from engine.core.jit import kernel
from engine.models.usm.particles.layout import WORDS
from engine.models.usm.particles.lexicon import link_word
from engine.models.bigram.particles.layout import PAIRS


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
