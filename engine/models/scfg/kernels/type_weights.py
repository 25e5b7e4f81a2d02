"""TYPE's block weights g(m) (eqs. 10–11): the rising factorials under the DP, the sequential
weights under the Pitman-Yor prior, and with exact seating the tables summed out; and the order
the pivots are visited in.
"""
import numpy as np

from engine.core.jit import inline, kernel
from engine.kernels import block_weight, interface
from engine.models.scfg.kernels.layout import (ALPHA, LOG_ALPHA, T1, T2, T3, TINY_LOG, WORLD,
    WORLD_P0, WORLD_T, exact, implements)
from engine.models.scfg.kernels.counts import count_of, log_count, rule_class, tables
from engine.models.scfg.kernels.tables import world_log_weight, world_open, world_put


@inline
def base_term(state, log_p0, n):
    """block_delta's base N(r) + α P₀(r): its value or, when no rule is counted and α P₀ is
    below e^TINY_LOG, its log (block_weight.step_ratio's convention).

    Parameters
    ----------
    state : ScfgState
    log_p0 : float64
    n : int

    Returns
    -------
    float64
    """
    log_base = state.params[LOG_ALPHA] + log_p0
    if n == 0 and log_base < TINY_LOG:
        value = log_base
    else:
        value = n + np.exp(log_base)
    return value


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: eq. 10's terms for the DP — value 0 draws r₁, value 1 draws r₂
    then r₃ (one term when they are one rule), each from n + α.

    Parameters
    ----------
    state : ScfgState, its block removed
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 4]
        Output.

    Returns
    -------
    int
        3 or 4 terms.
    """
    k1, k2, k3 = state.type_key[s0, T1], state.type_key[s0, T2], state.type_key[s0, T3]
    base[0] = base_term(state, state.type_logp0[s0, T1], count_of(state, k1))
    d0[0], d1[0], sign[0] = 1 - v0, 1 - v1, 1.0
    j = 1
    if k2 == k3:
        base[1] = base_term(state, state.type_logp0[s0, T2], count_of(state, k2))
        d0[1], d1[1], sign[1] = 2 * v0, 2 * v1, 1.0
        j = 2
    else:
        base[1] = base_term(state, state.type_logp0[s0, T2], count_of(state, k2))
        d0[1], d1[1], sign[1] = v0, v1, 1.0
        base[2] = base_term(state, state.type_logp0[s0, T3], count_of(state, k3))
        d0[2], d1[2], sign[2] = v0, v1, 1.0
        j = 3
    base[j] = state.params[ALPHA] + state.n_rules[0]
    d0[j], d1[j], sign[j] = 1 + v0, 1 + v1, -1.0
    return j + 1


@inline
def world_add(state, i, kk, cc, cnt, cn, ct, times):
    """Add ``times`` draws of the type's rule i (0: r₁, 1: r₂, 2: r₃) to the small world of the
    type's three rules: their counts (cnt) and their restaurants' N_L (cn) and T_l (ct).

    Parameters
    ----------
    state : ScfgState
    i, times : int
    kk, cc : int64[3]
        The rules' keys and restaurants.
    cnt, cn : int64[3]
        Mutated.
    ct : float64[3]
        Mutated.
    """
    before = cnt[i]
    for j in range(3):
        if cc[j] == cc[i]:
            cn[j] += times
            ct[j] += tables(state, before + times) - tables(state, before)
    for j in range(3):
        if kk[j] == kk[i]:
            cnt[j] += times


@inline
def world_log_p(state, i, kk, cc, cnt, cn, ct, log_p0):
    """log P(r_i | the small world): eq. 5.

    Parameters
    ----------
    state : ScfgState
    i : int
    kk, cc, cnt, cn : int64[3]
    ct, log_p0 : float64[3]

    Returns
    -------
    float64
    """
    return (log_count(state, cnt[i], log_p0[i], ct[i]) + state.log_pois[cc[i]]
            - np.log(cn[i] + state.params[ALPHA]))


@inline
def world_reset(state, s0):
    """The small world of the type of removed site s0 as the index has it: its three rules'
    keys, restaurants and counts, and their restaurants' N_L and T_l (work_i's WORLD rows,
    work_f's WORLD_T and WORLD_P0).

    Parameters
    ----------
    state : ScfgState, mutated (its world)
    s0 : int
    """
    kk, cc, cnt, cn = (state.work_i[WORLD], state.work_i[WORLD + 1], state.work_i[WORLD + 2],
                       state.work_i[WORLD + 3])
    ct, log_p0 = state.work_f[WORLD_T], state.work_f[WORLD_P0]
    for j in range(3):
        kk[j], log_p0[j] = state.type_key[s0, j], state.type_logp0[s0, j]
        cc[j] = rule_class(state, kk[j])
        cnt[j], cn[j], ct[j] = count_of(state, kk[j]), state.cls_n[cc[j]], state.cls_t[cc[j]]


@kernel
def sequential_log_g(state, s0, size, log_g, prefix):
    """log g(m) − log g(0) of eq. 10 drawn in the paper's order (the size − m uncut sites' r₁,
    then r₂ and r₃ of each of the m cut sites), each from eq. 5 given the draws before it: the
    block weight under the Pitman-Yor prior, whose tables (T = N^d) make g no product of rising
    factorials. O(size) when r₁'s length is neither r₂'s nor r₃'s (the cut sites' draws do not
    depend on how many r₁ came before), else O(size²).

    Parameters
    ----------
    state : ScfgState, the block removed (its world used as work)
    s0, size : int
    log_g : float64[≥ size + 1]
        Output, m = the cut sites.
    prefix : float64[≥ size + 1]
        Work: Σ of the first k draws of r₁.
    """
    kk, cc, cnt, cn = (state.work_i[WORLD], state.work_i[WORLD + 1], state.work_i[WORLD + 2],
                       state.work_i[WORLD + 3])
    ct, log_p0 = state.work_f[WORLD_T], state.work_f[WORLD_P0]
    world_reset(state, s0)
    prefix[0] = 0.0
    for k in range(size):
        prefix[k + 1] = prefix[k] + world_log_p(state, T1, kk, cc, cnt, cn, ct, log_p0)
        world_add(state, T1, kk, cc, cnt, cn, ct, 1)
    apart = cc[T1] != cc[T2] and cc[T1] != cc[T3]
    world_reset(state, s0)
    cut_part = 0.0
    for m in range(size + 1):
        if not apart:  # the m cut sites' draws after the size − m draws of r₁
            world_reset(state, s0)
            world_add(state, T1, kk, cc, cnt, cn, ct, size - m)
            cut_part = 0.0
            for _ in range(m):
                cut_part += cut_draws(state, kk, cc, cnt, cn, ct, log_p0)
        elif m > 0:
            cut_part += cut_draws(state, kk, cc, cnt, cn, ct, log_p0)
        log_g[m] = prefix[size - m] + cut_part
    top = log_g[0]
    for m in range(size + 1):
        log_g[m] -= top


@inline
def cut_draws(state, kk, cc, cnt, cn, ct, log_p0):
    """log P(r₂ | ·) + log P(r₃ | · + r₂): one cut site's draws, added to the small world.

    Parameters
    ----------
    state : ScfgState
    kk, cc, cnt, cn : int64[3]
    ct, log_p0 : float64[3]

    Returns
    -------
    float64
    """
    total = world_log_p(state, T2, kk, cc, cnt, cn, ct, log_p0)
    world_add(state, T2, kk, cc, cnt, cn, ct, 1)
    total += world_log_p(state, T3, kk, cc, cnt, cn, ct, log_p0)
    world_add(state, T3, kk, cc, cnt, cn, ct, 1)
    return total


rising_block_weights = inline(block_weight.rising_block_weights)  # the DP's, compiled here


@implements(interface.block_weights)
def _block_weights(state, s0, v0, v1, size, linear, out, work):
    """interface.block_weights: the DP's rising factorials (``block_delta``), or under the
    Pitman-Yor prior eq. 10's draws in turn (``sequential_log_g``, log form) or, with exact
    seating, the exact g(m) with the type's tables summed out (``exact_log_g``).

    Parameters
    ----------
    state : ScfgState, the block removed
    s0, v0, v1, size : int
    linear : bool
    out : float64[2, ≥ size + 1]
        Output.
    work : float64[4, ≥ max(size + 1, block_weight.MAX_DELTA_TERMS)]

    Returns
    -------
    bool
    """
    if state.log_pois.shape[0] == 1:
        return rising_block_weights(state, s0, v0, v1, size, linear, out, work)
    if exact(state):
        exact_log_g(state, s0, size, work[1])
    else:
        sequential_log_g(state, s0, size, work[1], work[0])
    for m in range(size + 1):  # m sites set to v1: m cut when v1 = 1
        out[0, m] = work[1, m] if v1 == 1 else work[1, size - m] - work[1, size]
    return False


@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: the forest sweep takes its pivots as it walks the trees.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    bool
    """
    return True


@kernel
def exact_log_g(state, s0, size, log_g):
    """TYPE's g(m) − g(0) in logs with exact seating: the block's type's three rules (and
    the pending ones) with their tables summed out, for m = 0 … size cut sites.

    Parameters
    ----------
    state : ScfgState, the block removed (its world used as work)
    s0, size : int
    log_g : float64[≥ size + 1]
        Output.
    """
    m = 0
    for j in range(3):
        m = world_put(state, m, state.type_key[s0, j], state.type_logp0[s0, j], 0)
    m = world_open(state, m)
    k1, p1 = state.type_key[s0, T1], state.type_logp0[s0, T1]
    k2, p2 = state.type_key[s0, T2], state.type_logp0[s0, T2]
    k3, p3 = state.type_key[s0, T3], state.type_logp0[s0, T3]
    world_put(state, m, k1, p1, size)
    for cuts in range(size + 1):
        log_g[cuts] = world_log_weight(state, m)
        world_put(state, m, k1, p1, -1)
        world_put(state, m, k2, p2, 1)
        world_put(state, m, k3, p3, 1)
    top = log_g[0]
    for cuts in range(size + 1):
        log_g[cuts] -= top
