"""The fragment index (engine.core.keyed_lists: key → the nodes rooting an occurrence) and the
counts n_f read from it; every count rebuilt from the cuts.
"""
import numpy as np

from engine.core import hash_table
from engine.core.jit import inline, kernel
from engine.core.keyed_lists import file_item, unfile_item


@inline
def count_of(state, key):
    """n_f of the fragment with ``key`` (0 when none is in use).

    Parameters
    ----------
    state : PtsgState
    key : int64

    Returns
    -------
    int64
    """
    return slot_count(state, hash_table.find(state.slot_key, key))


@inline
def slot_count(state, slot):
    """n_f of the fragment in the index's ``slot`` (0 when −1: none in use).

    Parameters
    ----------
    state : PtsgState
    slot : int

    Returns
    -------
    int64
    """
    return state.slot_size[slot] if slot >= 0 else np.int64(0)


@inline
def file_fragment(state, root, sign):
    """Count (sign = +1) or uncount (−1) the fragment rooted at ``root`` under its key
    h_in[root], filing it in (taking it out of) the index.

    Parameters
    ----------
    state : PtsgState
        Index and n_root mutated.
    root : int
    sign : int
    """
    if sign > 0:
        file_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                  state.item_prev, state.h_in[root], root)
    else:
        unfile_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                    state.item_prev, state.h_in[root], root)
    state.n_root[state.label[root]] += sign


@kernel
def count_all(state):
    """File every fragment of the cuts (an empty index and n_root to start from).

    Parameters
    ----------
    state : PtsgState
        Index and n_root written.
    """
    for n in range(state.parent.shape[0]):
        if state.cut[n]:
            file_fragment(state, n, 1)
