"""Pairs ⟨w′, w⟩ and their customers: a pair's id (its group in the seating), a customer's
arrival at a table (weight n_k, or α₁ P₁(w) for a new one, P₁ the shared unigram level),
leaving and returning, and the predictive probability of a word in a context.
"""
import math

from engine.core import hash_table, keyed_lists, seating as seats
from engine.core.jit import inline, kernel
from engine.models.bigram.kernels.layout import (ALL_TABLES, ALPHA0, ALPHA1, BASE, CONTEXT,
    CUSTOMERS, DISH, LENGTH, LOG_BASE, NEXT, PAIR_CAPACITY, PAIR_TOP, PREV, SLOT_HEAD, SLOT_KEY,
    SLOT_SIZE, TABLES, seating_of)
from engine.models.bigram.kernels.lexicon import grown


@inline
def pair_key(state, r, w):
    """The exact key of the pair ⟨r, w⟩ of word ids: r·W + w.

    Parameters
    ----------
    state : BigramState
    r, w : int

    Returns
    -------
    int64
    """
    return r * state.word.shape[0] + w


@kernel
def pair_id(state, r, w):
    """The id of the pair ⟨r, w⟩ (word ids), or −1 when it has no customers.

    Parameters
    ----------
    state : BigramState
    r, w : int

    Returns
    -------
    int64
    """
    slot = hash_table.find(state.pairs[SLOT_KEY, :state.counts[PAIR_CAPACITY]],
                            pair_key(state, r, w))
    return -1 if slot < 0 else state.pairs[SLOT_HEAD, slot]


@kernel
def pair_for(state, r, w):
    """The id of the pair ⟨r, w⟩, made when new (one slot per live pair: the table doubles at
    half its capacity).

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w : int

    Returns
    -------
    int64
    """
    g = pair_id(state, r, w)
    if g >= 0:
        return g
    counts = state.counts
    # one slot per live pair: double at half the capacity
    if 2 * (state.pair_free.shape[0] - counts[PAIR_TOP] + 1) > counts[PAIR_CAPACITY]:
        counts[PAIR_CAPACITY] = grown(state.pairs, counts[PAIR_CAPACITY], state.spare)
    counts[PAIR_TOP] -= 1
    g = state.pair_free[counts[PAIR_TOP]]
    state.pair_info[g, CONTEXT], state.pair_info[g, DISH] = r, w
    used = counts[PAIR_CAPACITY]
    p = state.pairs
    keyed_lists.file_item(p[SLOT_KEY, :used], p[SLOT_HEAD, :used], p[SLOT_SIZE, :used],
                          state.pair_links[NEXT], state.pair_links[PREV], pair_key(state, r, w), g)
    return g


@kernel
def drop_pair_if_empty(state, g):
    """Free pair g's id and its slot when it has no customers left.

    Parameters
    ----------
    state : BigramState
        Mutated.
    g : int
    """
    if state.seat_group[g, seats.CUSTOMERS] > 0:
        return
    r, w = state.pair_info[g, CONTEXT], state.pair_info[g, DISH]
    used = state.counts[PAIR_CAPACITY]
    p = state.pairs
    keyed_lists.unfile_item(p[SLOT_KEY, :used], p[SLOT_HEAD, :used], p[SLOT_SIZE, :used],
                            state.pair_links[NEXT], state.pair_links[PREV], pair_key(state, r, w),
                            g)
    state.pair_free[state.counts[PAIR_TOP]] = g
    state.counts[PAIR_TOP] += 1


@inline
def p1_numerator(state, w):
    """t_w + α₀P₀(w): P₁(w) times (t + α₀).

    Parameters
    ----------
    state : BigramState
    w : int

    Returns
    -------
    float64
    """
    return state.word[w, TABLES] + state.base[BASE, state.word[w, LENGTH]]


@kernel
def new_table_weight(state, w):
    """α₁ P₁(w): the weight of a new table for dish w.

    Parameters
    ----------
    state : BigramState
    w : int

    Returns
    -------
    float64
    """
    return (state.params[ALPHA1] * p1_numerator(state, w)
            / (state.counts[ALL_TABLES] + state.params[ALPHA0]))


@kernel
def customer_arrives(rng, state, r, w, c, table):
    """Customer c of dish w comes into restaurant r: at a new table (table = 1), an existing
    one drawn by size (table = 0) or by the restaurant's rule (table = −1).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    r, w, c, table : int

    Returns
    -------
    int64
        The size of its table.
    """
    return arrive(rng, state, r, w, c, table, -1)


@inline
def arrive(rng, state, r, w, c, table, g):
    """customer_arrives inlined: for TOKEN's put_site, which seats a site's customers in a loop
    and knows most of their pairs' ids already.

    Parameters
    ----------
    rng, state, r, w, c, table
        As customer_arrives'.
    g : int
        The pair ⟨r, w⟩'s id, or −1 to look it up (and make it when new).

    Returns
    -------
    int64
    """
    if g < 0:
        g = pair_for(state, r, w)
    if table < 0:
        size = seats.seat(rng, seating_of(state), g, c, new_table_weight(state, w))
    else:
        size = seats.seat_at(rng, seating_of(state), g, c, table == 1)
    counted_in(state, r, w, size == 1, 1)
    return size


@kernel
def customer_leaves(rng, state, r, w, c):
    """Customer c of dish w leaves restaurant r.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    r, w, c : int

    Returns
    -------
    int64
        The size its table had.
    """
    g = pair_id(state, r, w)
    size = seats.unseat(rng, seating_of(state), g, c)
    counted_in(state, r, w, size == 1, -1)
    drop_pair_if_empty(state, g)
    return size


@kernel
def customer_unarrives(state, r, w, c, size):
    """Undo ``customer_arrives`` (which returned ``size``), what came after it undone.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w, c, size : int
    """
    g = pair_id(state, r, w)
    seats.unseat_exact(seating_of(state), g, c, size)
    counted_in(state, r, w, size == 1, -1)
    drop_pair_if_empty(state, g)


@kernel
def customer_returns(state, r, w, c, size, table):
    """Undo ``customer_leaves`` (which returned ``size``; ``table``: seating.table_of before),
    what came after it undone.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w, c, size, table : int
    """
    g = pair_for(state, r, w)
    seats.reseat_exact(seating_of(state), g, c, size, table)
    counted_in(state, r, w, size == 1, 1)


@inline
def counted_in(state, r, w, table_changed, sign):
    """Restaurant r's customers, and when a table opened or closed, t_w and t, by ``sign``.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w : int
    table_changed : bool
    sign : int
    """
    state.word[r, CUSTOMERS] += sign
    if table_changed:
        state.word[w, TABLES] += sign
        state.counts[ALL_TABLES] += sign


@kernel
def predictive(state, r, w, length):
    """log P(dish | restaurant r) for a word of ``length`` symbols with id w (−1: no tokens),
    any seating summed out: log (n⟨r,w⟩ + α₁P₁(w)) / (n_r + α₁).

    Parameters
    ----------
    state : BigramState
    r : int
        −1: a context with no customers.
    w, length : int

    Returns
    -------
    float64
    """
    alpha0, alpha1 = state.params[ALPHA0], state.params[ALPHA1]
    denominator = (state.word[r, CUSTOMERS] if r >= 0 else 0) + alpha1
    tables = state.word[w, TABLES] if w >= 0 else 0
    if tables == 0:  # no table anywhere, so no customer: α₁ α₀P₀ / (t + α₀), in logs
        return (math.log(alpha1) + state.base[LOG_BASE, length]
                - math.log((state.counts[ALL_TABLES] + alpha0) * denominator))
    g = pair_id(state, r, w) if r >= 0 else -1
    n = state.seat_group[g, seats.CUSTOMERS] if g >= 0 else 0
    p1 = (tables + state.base[BASE, length]) / (state.counts[ALL_TABLES] + alpha0)
    return math.log((n + alpha1 * p1) / denominator)
