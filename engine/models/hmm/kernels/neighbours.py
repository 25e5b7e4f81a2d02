"""A token's neighbours and type: the states before and after it, its type (previous state,
next state, word; §4.2), and the types of the neighbours that change with it.
"""
from engine.core import keyed_lists
from engine.core.jit import inline, kernel
from engine.models.hmm.kernels.counts import add_emission, add_trans, refresh_den


@kernel
def prev_state(state, s):
    """The state before token s (0, the boundary, at a sentence's start).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return 0 if state.first[s] else state.tag[s - 1]


@kernel
def next_state(state, s):
    """The state after token s (0, the boundary, at a sentence's end).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return 0 if state.last[s] else state.tag[s + 1]


@kernel
def type_key(state, p, n, word):
    """The key of the type (previous state p, next state n, word) — exact, not a hash.

    Parameters
    ----------
    state : HmmState
    p, n, word : int

    Returns
    -------
    int64
    """
    return (p * state.trans.shape[0] + n) * state.emit.shape[1] + word


@kernel
def site_type(state, s):
    """The key of t(z, s).

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return type_key(state, prev_state(state, s), next_state(state, s), state.words[s])


@kernel
def file_site(state, s):
    """Put token s on the list of its type.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    file_under(state, s, site_type(state, s))


@kernel
def file_under(state, s, key):
    """Put token s on the list of the type ``key``.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, key : int
    """
    keyed_lists.file_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                          state.site_prev, key, s)


@kernel
def unfile_site(state, s):
    """Take token s off the list of its type.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    keyed_lists.unfile_item(state.slot_key, state.slot_head, state.slot_size, state.site_next,
                            state.site_prev, site_type(state, s), s)


@inline
def set_tag(state, s, k):
    """tag[s] = k, a new state, moving the neighbours — whose types name tag[s] — to their new
    lists when the type index is kept.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, k : int
    """
    if state.typed[0]:
        refile_neighbours(state, s, k)
    else:
        state.tag[s] = k


@kernel  # a call takes the whole state: only TYPE's index needs it
def refile_neighbours(state, s, k):
    """set_tag with the type index kept: the neighbours taken off their lists, tag[s] = k, and
    the neighbours filed under their new types.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, k : int
    """
    if not state.first[s]:
        unfile_site(state, s - 1)
    if not state.last[s]:
        unfile_site(state, s + 1)
    state.tag[s] = k
    if not state.first[s]:
        file_site(state, s - 1)
    if not state.last[s]:
        file_site(state, s + 1)


@kernel
def build_type_index(state):
    """File every token under its type, in order, into an emptied index, and keep it from now
    on (``typed``).

    Parameters
    ----------
    state : HmmState
        The index written.
    """
    state.slot_key[:] = -1
    state.slot_head[:] = -1
    state.slot_size[:] = 0
    for s in range(state.words.shape[0]):
        file_site(state, s)
    state.typed[0] = 1


@kernel
def count_site(state, s, sign):
    """Add (sign = 1) or take away (−1) token s's transitions in and out and its emission (a
    site's choices; in the full counts each transition is shared by two neighbours).

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, sign : int
    """
    k, p, n = state.tag[s], prev_state(state, s), next_state(state, s)
    add_trans(state, p, k, sign)
    add_trans(state, k, n, sign)
    state.trans_total[p] += sign
    state.trans_total[k] += sign
    add_emission(state, k, state.words[s], sign)
    refresh_den(state, p)
    refresh_den(state, k)
