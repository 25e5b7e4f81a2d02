"""TOKEN's side of the interface: a site's two weights (joined, split), drawing its value, the
reseat flag, and the counts a TYPE move's remembered sites read.
"""
from engine.core.jit import inline
from engine.kernels import interface
from engine.models.segmentation.sites import same_halves, site_span
from engine.models.usm.kernels.layout import (BLOCK_JOIN, BLOCK_LEFT, BLOCK_RIGHT, ENDS, LEXICON,
    MEMO_COUNT, MEMO_END, MEMO_START, SIZE, WORDS, implements)
from engine.models.usm.kernels.indexes import count_of, find_listed
from engine.models.usm.kernels.word_probability import replace_words, split_weights
from engine.models.usm.kernels.site_moves import word_count


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights (``split_weights``); inside a TYPE move the words' counts are
    read by the block's slots (``word_count``).

    Parameters
    ----------
    state : UsmState
    s : int
    w : float64[≥ 2]
        Output.
    """
    a, p, e = site_span(state, s)
    split_weights(state, p + 1 - a, e - p - 1, state.final[e - 1], same_halves(state, a, p, e),
                  word_count(state, BLOCK_JOIN, a, e), word_count(state, BLOCK_LEFT, a, p + 1),
                  word_count(state, BLOCK_RIGHT, p + 1, e), state.counts[WORDS],
                  state.counts[ENDS], w)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: the site's own words are counted, so they are taken off by hand
    instead of from the table, and a TOKEN move that keeps b_s (most of them, after burn-in)
    writes nothing.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Its TOKEN memo (counts[MEMO_…]) is updated.
    s : int
    w : float64[≥ 2]
        Output.
    """
    a, p, e = site_span(state, s)
    same = same_halves(state, a, p, e)
    last_is_final = state.final[e - 1]
    # the word holding symbol p is the one that held p + 1 at the site before (remembered)
    if state.bound[p]:
        own = 2
        n_join = count_of(state, a, e)
        n_left = remembered_count(state, a, p + 1) - 1 - same  # w1 = w2: one entry, both words
        n_right = n_left if same else remembered_count(state, p + 1, e) - 1
    else:
        own = 1
        n_join = remembered_count(state, a, e) - 1
        n_left = count_of(state, a, p + 1)
        n_right = n_left if same else count_of(state, p + 1, e)
    split_weights(state, p + 1 - a, e - p - 1, last_is_final, same, n_join, n_left, n_right,
                  state.counts[WORDS] - own, state.counts[ENDS] - last_is_final, w)


@inline
def remembered_count(state, x, e):
    """n_w of the word occurrence chars[x:e] of the current segmentation, remembered from the
    last call when the lexicon has not changed since (TOKEN's next site needs it again), and
    remembered for the next.

    Parameters
    ----------
    state : UsmState
        Mutated.
        counts[MEMO_START … MEMO_COUNT].
    x, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    if counts[MEMO_START] != x or counts[MEMO_END] != e:
        counts[MEMO_START], counts[MEMO_END] = x, e
        counts[MEMO_COUNT] = state.tables[LEXICON + SIZE, find_listed(state, x, e)]
    return counts[MEMO_COUNT]


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: a TOKEN flip, the site's words replaced (no TYPE move is under
    way: ``removed`` untouched).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : UsmState
        Mutated.
    s, v : int
    """
    if state.bound[state.site_pos[s]] != v:
        replace_words(state, s, v)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False.

    Parameters
    ----------
    state : UsmState

    Returns
    -------
    bool
    """
    return False
