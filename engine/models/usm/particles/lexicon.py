"""A particle's lexicon: word type → word slot, in a hash table per particle
(engine.core.hash_table), its symbols compared exactly; new words linked in as they are
seated.
"""
import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY
from engine.core.jit import kernel
from engine.models.usm.particles.layout import WORDS


@kernel
def find_word(parts, l, v):
    """Particle l's word slot of type v, or −1 if it has never seated v (either model's
    particles: their lexicons are alike).

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
    l, v : int
        The particle and the type (engine.core.substrings).

    Returns
    -------
    int64
    """
    slot = hash_table.find(parts.hkey[l], v)
    return np.int64(parts.hslot[l, slot]) if slot >= 0 else np.int64(EMPTY)


@kernel
def link_word(parts, l, v, w):
    """Enter type v, new to particle l, in its lexicon with word slot w (either model's).

    Parameters
    ----------
    parts : UnigramParticles or BigramParticles
        Mutated (hkey, hslot).
    l, v, w : int
    """
    parts.hslot[l, hash_table.insert(parts.hkey[l], v)] = w


@kernel
def new_word(parts, l, v):
    """Give type v a word slot in particle l (the caller checked it has none).

    Parameters
    ----------
    parts : UnigramParticles
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
    parts.wcust[l, w] = 0
    parts.whead[l, w] = EMPTY
    link_word(parts, l, v, w)
    return w
