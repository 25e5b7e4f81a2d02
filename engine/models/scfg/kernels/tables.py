"""Exact seating's tables (option ``exact_seating``): each rule's tables as u = 1 at the
occurrences that opened one, a move's *world* of the few rules whose tables it sums out, and the
seating probabilities of ``engine.models.scfg.seating`` over them.
"""
import math

from engine.core import hash_table
from engine.core.jit import inline, kernel
from engine.models.scfg import seating
from engine.models.scfg.kernels.layout import (ALPHA, DISCOUNT, EX_C, EX_CLS, EX_DN, EX_KEY, EX_N,
    EX_P0, EX_T, META, PEND, SCRATCH, TABLES)
from engine.models.scfg.kernels.counts import count_of, rule_class


@inline
def rule_tables(state, key):
    """t_r: the tables of the rule (Σ u over its occurrences in the index).

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    t = 0
    slot = hash_table.find(state.slot_key, key)
    if slot >= 0:
        v = state.slot_head[slot]
        while v >= 0:
            t += state.u[v]
            v = state.item_next[v]
    return t


@kernel
def seat_first(state):
    """A table for each rule in use, opened by its list's first occurrence: a valid seating to
    start a chain from (the moves draw every rule's tables again as they touch it).

    Parameters
    ----------
    state : ScfgState, mutated (u, work_i's TABLES)
    """
    for slot in range(state.slot_key.shape[0]):
        if state.slot_key[slot] != hash_table.EMPTY:
            state.u[state.slot_head[slot]] = 1
            state.work_i[TABLES, rule_class(state, state.slot_key[slot])] += 1


@inline
def world_put(state, w, key, log_p0, dn):
    """Add dn to what the option adds to rule ``key`` in the world (the EX_ rows, [:w]),
    entering it with its log P₀ if new; returns the world's new size.

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    w : int
    key : int64
    log_p0 : float64
    dn : int

    Returns
    -------
    int
    """
    i = 0
    while i < w and state.work_i[EX_KEY, i] != key:
        i += 1
    if i == w:
        state.work_i[EX_KEY, w], state.work_f[EX_P0, w], state.work_i[EX_DN, w] = key, log_p0, 0
        w += 1
    state.work_i[EX_DN, i] += dn
    return w


@kernel
def world_open(state, w):
    """Complete a move's world: the pending rules in use join it, its entries are put in
    restaurant order, and each rule's count and tables are read. Returns its size.

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    w : int

    Returns
    -------
    int
    """
    for j in range(state.work_i[META, 0]):
        slot = hash_table.find(state.slot_key, state.work_i[PEND, j])
        if slot >= 0:
            w = world_put(state, w, state.work_i[PEND, j], state.logp0[state.slot_head[slot]], 0)
    for i in range(w):
        state.work_i[EX_CLS, i] = rule_class(state, state.work_i[EX_KEY, i])
    for i in range(1, w):  # insertion sort by restaurant: a world holds a few rules
        j = i
        while j > 0 and state.work_i[EX_CLS, j - 1] > state.work_i[EX_CLS, j]:
            for row in (EX_KEY, EX_CLS, EX_DN):
                state.work_i[row, j - 1], state.work_i[row, j] = (state.work_i[row, j],
                                                                  state.work_i[row, j - 1])
            p0 = state.work_f[EX_P0]
            p0[j - 1], p0[j] = p0[j], p0[j - 1]
            j -= 1
    for i in range(w):
        state.work_i[EX_N, i] = count_of(state, state.work_i[EX_KEY, i])
        state.work_i[EX_T, i] = rule_tables(state, state.work_i[EX_KEY, i])
    return w


@inline
def restaurant_end(state, w, i):
    """The end of the world's entries of entry i's restaurant (they start at i).

    Parameters
    ----------
    state : ScfgState
    w, i : int

    Returns
    -------
    int
    """
    j = i
    while j < w and state.work_i[EX_CLS, j] == state.work_i[EX_CLS, i]:
        j += 1
    return j


@kernel
def world_log_weight(state, w):
    """log p of the option the world's EX_DN row describes, up to a factor common to every
    option of the move: per restaurant of the world, N_l log Poisson(l) − log α^(N_l) plus
    its rules' tables summed out given the restaurant's other tables
    (``seating.log_tables_summed``).

    Parameters
    ----------
    state : ScfgState (its world's EX_C and convolution rows used as work)
    w : int

    Returns
    -------
    float64
    """
    alpha, d = state.params[ALPHA], state.params[DISCOUNT]
    total = 0.0
    i = 0
    while i < w:
        j = restaurant_end(state, w, i)
        c = state.work_i[EX_CLS, i]
        n_add, t_in = 0, 0
        for q in range(i, j):
            state.work_i[EX_C, q] = state.work_i[EX_N, q] + state.work_i[EX_DN, q]
            n_add += state.work_i[EX_DN, q]
            t_in += state.work_i[EX_T, q]
        big_n = state.cls_n[c] + n_add
        total += big_n * state.log_pois[c] - (math.lgamma(alpha + big_n) - math.lgamma(alpha))
        total += seating.log_tables_summed(
            state.work_i[EX_C, i:j], state.work_f[EX_P0, i:j], state.log_stirling,
            state.work_i[TABLES, c] - t_in, alpha, d, state.work_f[i:j])
        i = j
    return total


@kernel
def seat_rule(rng, state, key, t):
    """Give rule ``key`` t tables: u = 1 at a uniformly random t of its occurrences (given
    t_r, which of them opened a table is uniform: the chain's seating is (z, t)).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated (u, work_i's TABLES)
    key : int64
    t : int
    """
    slot = hash_table.find(state.slot_key, key)
    if slot < 0:
        return
    c = rule_class(state, key)
    need, left = t, state.slot_size[slot]
    v = state.slot_head[slot]
    while v >= 0:
        take = 1 if rng.random() * left < need else 0
        state.work_i[TABLES, c] += take - state.u[v]
        state.u[v] = take
        need -= take
        left -= 1
        v = state.item_next[v]


@kernel
def world_seat(rng, state, w):
    """Draw the tables of the world's rules (after the move: their counts read again) from
    their exact conditional, restaurant by restaurant (``seating.draw_tables``); the pending
    rules, all in the world, are pending no more.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ScfgState, mutated
    w : int
        A world from ``world_open`` (its rules' order and restaurants).
    """
    alpha, d = state.params[ALPHA], state.params[DISCOUNT]
    scratch = state.work_f[SCRATCH]
    for i in range(w):
        state.work_i[EX_N, i] = count_of(state, state.work_i[EX_KEY, i])
        state.work_i[EX_T, i] = rule_tables(state, state.work_i[EX_KEY, i])
    i = 0
    while i < w:
        j = restaurant_end(state, w, i)
        t_in = 0
        for q in range(i, j):
            t_in += state.work_i[EX_T, q]
        seating.draw_tables(
            rng, state.work_i[EX_N, i:j], state.work_f[EX_P0, i:j], state.log_stirling,
            state.work_i[TABLES, state.work_i[EX_CLS, i]] - t_in, alpha, d, state.work_f[i:j],
            scratch, state.work_i[EX_C, i:j])
        for q in range(i, j):
            seat_rule(rng, state, state.work_i[EX_KEY, q], state.work_i[EX_C, q])
        i = j
    state.work_i[META, 0] = 0


@kernel
def pend_add(state, key):
    """Make rule ``key`` pending (its tables summed out until a move draws them). When the
    list is full, the pending rules no longer in use leave it (they have no tables).

    Parameters
    ----------
    state : ScfgState, mutated (work_i's PEND and META rows)
    key : int64
    """
    k = state.work_i[META, 0]
    for j in range(k):
        if state.work_i[PEND, j] == key:
            return
    if k == state.work_i[PEND].shape[0]:
        kept = 0
        for j in range(k):
            if count_of(state, state.work_i[PEND, j]) > 0:
                state.work_i[PEND, kept] = state.work_i[PEND, j]
                kept += 1
        k = kept
    state.work_i[PEND, k] = key
    state.work_i[META, 0] = k + 1
