"""A site taken out of the state and put back (interface remove_site, add_site): its words off
and on the lexicon and the boundary index, and, inside a TYPE move, a block's words set aside
and counted by their known slots.
"""
from collections import namedtuple

import numpy as np

from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.segmentation.sites import site_span
from engine.models.usm.kernels.layout import (ASIDE, BLOCK_FINAL, BLOCK_JOIN, BLOCK_LEFT,
    BLOCK_LEN1, BLOCK_LEN2, BLOCK_RIGHT, ENDS, LEXICON, MEMO_END, SIZE, UNSEEN, WORDS, implements)
from engine.models.usm.kernels.indexes import count_of, find_listed, find_word
from engine.models.usm.kernels.word_probability import count_words, replace_words


# what remove_site and add_site read and write of a site that keeps its value: handed to
# their kernels instead of the whole state (~60 machine words a call instead of ~90)
SiteView = namedtuple("SiteView", ("chars", "bound", "final", "site_pos", "hashes", "tables",
                                   "counts", "removed"))


@inline
def site_view(state):
    """The arrays of ``SiteView``.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    SiteView
    """
    return SiteView(state.chars, state.bound, state.final, state.site_pos, state.hashes,
                    state.tables, state.counts, state.removed)


# what a block site whose words' slots are known needs (``moved_by_slots``): ~37 words
SlotView = namedtuple("SlotView", ("site_pos", "bound", "tables", "counts", "removed"))


@inline
def slot_view(state):
    """The arrays of ``SlotView``.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    SlotView
    """
    return SlotView(state.site_pos, state.bound, state.tables, state.counts, state.removed)


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site, inlined into the moves: a site of the TYPE block under way whose
    words' slots are known — nearly every site a TYPE sweep removes — is set aside by
    ``moved_by_slots``, any other by ``take_out``; each is handed the arrays it needs, not the
    whole state.

    Parameters
    ----------
    state : UsmState
        Mutated.
    s : int
    """
    if not moved_by_slots(slot_view(state), s, -1):
        take_out(site_view(state), s)


@kernel
def take_out(state, s):
    """remove_site: the site's words are set aside, not taken off their lists (add_site
    counts them back, and when b_s changes replaces them); its symbols marked. They are
    counted out by slot: a site of the TYPE block under way has the block's words, whose
    slots are known (``block_words``), and another site's are found and remembered
    (``site_words``: a TYPE pivot's block keeps them).

    Parameters
    ----------
    state : SiteView
        Mutated.
    s : int
    """
    if state.counts[ASIDE] == 0:  # a new move: no block is under way
        state.counts[BLOCK_LEN1] = 0
    if state.counts[BLOCK_LEN1] > 0:
        a, p, e = block_span(state, s)
    else:
        a, p, e = site_span(state, s)
        site_words(state, a, p, e)
    count_block_words(state, a, p, e, -1)
    set_aside(state, a, e, -1)


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site, inlined into the moves as remove_site is: a block site whose words'
    slots are known is counted back by ``moved_by_slots``, any other by ``put_back``; then
    ``replace_words`` when b_s changes. The last site of a block put back ends it
    (``block_words``).

    Parameters
    ----------
    state : UsmState
        Mutated.
    s, v : int
    """
    if not moved_by_slots(slot_view(state), s, 1):
        put_back(site_view(state), s)
    if v != state.bound[state.site_pos[s]]:
        replace_words(state, s, v)


@kernel
def put_back(state, s):
    """add_site's part for every site: its words counted back (they are on their lists) and
    its symbols unmarked.

    Parameters
    ----------
    state : SiteView
        Mutated.
    s : int
    """
    if state.counts[BLOCK_LEN1] > 0:
        a, p, e = block_span(state, s)
        count_block_words(state, a, p, e, 1)
    else:
        a, p, e = site_span(state, s)
        count_words(state, a, p, e, 1)
    set_aside(state, a, e, 1)


@inline
def block_slots_known(state, s):
    """Whether site s is one of the TYPE block under way (its sites set aside, its words
    remembered: ``block_words``) and the lexicon slots of the words it has are known: then
    remove_site and add_site count it by slot with no lookup (``moved_by_slots``). When a
    block's pivot is joined, w1's and w2's slots are looked up at its first split site.

    Parameters
    ----------
    state : SlotView
    s : int

    Returns
    -------
    bool
    """
    counts = state.counts
    known = counts[ASIDE] > 0 and counts[BLOCK_LEN1] > 0
    if known and state.bound[state.site_pos[s]]:
        known = counts[BLOCK_LEFT] != UNSEEN and counts[BLOCK_RIGHT] != UNSEEN
    elif known:
        known = counts[BLOCK_JOIN] != UNSEEN
    return known


@kernel
def moved_by_slots(state, s, delta):
    """Set site s aside (delta = −1) or put it back (1) when it is one of the TYPE block under
    way and its words' slots are known (``block_slots_known``), and say whether it was:
    remove_site's and add_site's common case, small enough for LLVM to inline into the moves,
    which saves a call's copying of the arrays (br-phono: TYPE 3.58 → 3.0 × TOKEN). Numba's
    own inlining of it into the inlined remove_site gave wrong counts, without a warning (the
    running log-likelihood of tests/engine/models/usm/test_usm_any_length.py off).

    Parameters
    ----------
    state : SlotView
        Mutated.
    s, delta : int

    Returns
    -------
    bool
    """
    known = block_slots_known(state, s)
    if known:
        a, p, e = block_span(state, s)
        count_by_slots(state, p, delta)
        set_aside(state, a, e, delta)
    return known


@inline
def set_aside(state, a, e, delta):
    """Mark the symbols chars[a:e] of a site's words as set aside (delta = −1) or unmark them
    (1), keeping count of the sites aside; the TYPE block under way ends when its last site is
    put back.

    Parameters
    ----------
    state : UsmState, SiteView or SlotView
        Mutated.
    a, e, delta : int
    """
    counts = state.counts
    counts[ASIDE] -= delta
    state.removed[a:e] = np.uint8(delta < 0)  # as a loop: TYPE 15 → 17 ms on br-phono
    if counts[ASIDE] == 0:
        counts[BLOCK_LEN1] = 0


@inline
def site_words(state, a, p, e):
    """Remember the lexicon slots of the words of the site chars[a:e] split after p as they
    stand (w1's and w2's when b = 1, w's when b = 0; the others UNSEEN) and w2's end flag, for
    count_block_words. A TYPE move's pivot is removed first, alone: its block (``block_words``)
    keeps the slots.

    Parameters
    ----------
    state : UsmState
        counts[BLOCK_JOIN … BLOCK_RIGHT] and counts[BLOCK_FINAL] written.
    a, p, e : int
    """
    counts = state.counts
    counts[BLOCK_JOIN], counts[BLOCK_LEFT], counts[BLOCK_RIGHT] = UNSEEN, UNSEEN, UNSEEN
    if state.bound[p]:
        counts[BLOCK_LEFT] = find_listed(state, a, p + 1)
        counts[BLOCK_RIGHT] = find_listed(state, p + 1, e)
    else:
        counts[BLOCK_JOIN] = find_listed(state, a, e)
    counts[BLOCK_FINAL] = state.final[e - 1]


@inline
def block_words(state, a, p, e):
    """Remember the words of the TYPE block gathered around the removed pivot chars[a:e] split
    after p, and return w's slot (−1: none): every site of the block has them (sites of one
    type), so remove_site and add_site count them by slot, and site_weights and block_delta
    read their counts by slot, with no hashing and no look at the symbols (the sweep 8 %
    faster on br-phono than when each site looked its words up, and 6 % more for the weights).
    The pivot's removal found its own words' slots (``site_words``); the others are looked up
    when first needed. The block ends when its last site is put back, or when a site changes
    value (its new words may move the lexicon's entries).

    Parameters
    ----------
    state : UsmState
        counts[BLOCK_…] written.
    a, p, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    if counts[ASIDE] != 1:  # not the pivot's words alone: forget them
        counts[BLOCK_JOIN], counts[BLOCK_LEFT], counts[BLOCK_RIGHT] = UNSEEN, UNSEEN, UNSEEN
    counts[BLOCK_LEN1], counts[BLOCK_LEN2] = p + 1 - a, e - p - 1
    counts[BLOCK_FINAL] = state.final[e - 1]
    return block_slot(state, BLOCK_JOIN, a, e)


@inline
def block_span(state, s):
    """site_span for a site of the TYPE block under way, from the block's word lengths.

    Parameters
    ----------
    state : UsmState
    s : int

    Returns
    -------
    (int, int, int)
    """
    p = np.int64(state.site_pos[s])
    return p + 1 - state.counts[BLOCK_LEN1], p, p + 1 + state.counts[BLOCK_LEN2]


@inline
def block_slot(state, row, x, e):
    """The lexicon slot of the block's word chars[x:e] kept in counts[row], looked up the
    first time.

    Parameters
    ----------
    state : UsmState
        counts[row] written.
    row, x, e : int

    Returns
    -------
    int64
    """
    if state.counts[row] == UNSEEN:
        state.counts[row] = find_word(state, x, e)
    return state.counts[row]


@inline
def word_count(state, row, x, e):
    """n_w of the word chars[x:e] — w (row BLOCK_JOIN), w1 (BLOCK_LEFT) or w2 (BLOCK_RIGHT) of
    the site weighed — by the block's slot when a TYPE block is under way (its sites are all of
    the pivot's type), else looked up.

    Parameters
    ----------
    state : UsmState
        counts[row] written when the block's slot is first looked up.
    row, x, e : int

    Returns
    -------
    int64
    """
    if state.counts[BLOCK_LEN1] == 0:
        return count_of(state, x, e)
    slot = block_slot(state, row, x, e)
    return 0 if slot < 0 else state.tables[LEXICON + SIZE, slot]


@inline
def count_block_words(state, a, p, e, delta):
    """count_words by the remembered slots (``site_words``, or the TYPE block's), looked up
    first where they are not known yet.

    Parameters
    ----------
    state : UsmState
        Mutated.
    a, p, e, delta : int
    """
    if state.bound[p]:
        block_slot(state, BLOCK_LEFT, a, p + 1)
        block_slot(state, BLOCK_RIGHT, p + 1, e)
    else:
        block_slot(state, BLOCK_JOIN, a, e)
    count_by_slots(state, p, delta)


@inline
def count_by_slots(state, p, delta):
    """count_words for the site after symbol p by the remembered slots of its words, all known.

    Parameters
    ----------
    state : UsmState, SiteView or SlotView
        Mutated.
    p, delta : int
    """
    counts = state.counts
    if state.bound[p]:
        state.tables[LEXICON + SIZE, counts[BLOCK_LEFT]] += delta
        state.tables[LEXICON + SIZE, counts[BLOCK_RIGHT]] += delta
        counts[WORDS] += 2 * delta
    else:
        state.tables[LEXICON + SIZE, counts[BLOCK_JOIN]] += delta
        counts[WORDS] += delta
    counts[ENDS] += delta * counts[BLOCK_FINAL]
    counts[MEMO_END] = -1
