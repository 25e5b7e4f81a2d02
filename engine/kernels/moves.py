"""TOKEN and TYPE moves and sweeps, written once against the model interface.

TOKEN (eq. 4) resamples one site from its conditional; TYPE (Fig. 4) gathers the type block
TB(z, s0) around a pivot, draws m from eq. 7 — p(m) ∝ C(|S|, m) g(m), the block weight g(m)
given by the model (``interface.block_weights``; engine.kernels.block_weight) — and sets a
uniformly random m of the block's sites. ONE-STAGE (Peng & Gildea 2014, eq. 12) draws the
block's sites one after another, each from its conditional given the earlier ones: not the
block's law (each step is normalised as if the later sites did not exist), so it is offered
as the paper has it, approximate, and corrected by Metropolis-Hastings (exact). Annealing is the inverse temperature ``inv_temp``
(1.0 = plain sampling); TYPE-greedy is ``greedy=True``. Every function mutates the model state
in place.
"""

from typing import NamedTuple

import numpy as np

from engine.core.draw import (draw_log_weights, draw_scaled, draw_weights, random_index,
                              random_permutation, random_subset, scaled_to_log)
from engine.core.jit import inline, kernel
from engine.core.sort import sort_prefix
from engine.kernels.interface import (add_site, block_candidates, block_weights, conflicts,
                                      get_value, n_sites, n_values, pivots_in_order,
                                      remove_site, reseats, set_value, site_weights,
                                      token_weights)


class Pass(NamedTuple):
    """How a call of a sweep kernel moves (``type_sweep``, ``forest.forest_walk``)."""

    max_moves: int   # at most this many moves this call
    inv_temp: float  # inverse temperature of the posterior's part of every conditional
    greedy: bool     # TYPE-greedy: each block all-v0 or all-v1, the more probable
    stages: int      # how a block is drawn (``block_move``): TWO_STAGE, ONE_STAGE, ONE_STAGE_MH
    skip: bool       # the skip approximation (§4.4): a site in a block this sweep is no pivot


class BlockBuffers(NamedTuple):
    """TYPE's buffers over a sweep: ``type_move``'s (the last block stays in them) and the
    sites the sweep has put in blocks."""

    visited: np.ndarray  # uint8[n_sites]: in a block this sweep (zeroed at a sweep's start)
    ints: np.ndarray     # int64[3, n_sites]: the last block's candidates, sites, old values
    floats: np.ndarray   # float64[6, ≥ n_sites + 1]: its log p(m), and work
    chosen: np.ndarray   # uint8[n_sites]: which of its sites were drawn
    totals: np.ndarray   # int64[…]: what the call did (each kernel's own layout)


@kernel
def weights_by_removal(rng, state, s, w):
    """token_weights for models with no faster way: remove the site, weigh it, put it back.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state (left as it was)
    s : int
    w : float64[≥ n_values]
        Output: the site's weights (``interface.site_weights``).
    """
    v = get_value(state, s)
    remove_site(state, s)
    site_weights(state, s, w)
    add_site(state, s, v)


@kernel
def set_by_removal(rng, state, s, v):
    """set_value for models with no faster way.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    s, v : int
    """
    if v != get_value(state, s):
        remove_site(state, s)
        add_site(state, s, v)


@kernel
def token_sweep(rng, state, start, stop, inv_temp, w):
    """TOKEN over sites start … stop−1 in order: each b_s from p(b_s | rest)^inv_temp (eq. 4).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state (namedtuple of arrays), mutated in place
    start, stop : int
        The sites to visit.
    inv_temp : float64
        Inverse temperature; 1.0 samples the posterior's conditional.
    w : float64[n_values]
        Work buffer; on return w[v] holds the last site's tempered, unnormalised weights.

    Returns
    -------
    int
        How many sites changed value.
    """
    k = n_values(state)
    changed = 0
    for s in range(start, stop):
        changed += token_step(rng, state, s, inv_temp, w, k)
    return changed


@kernel
def token_scan(rng, state, order, inv_temp, w):
    """TOKEN at the sites of ``order`` in turn: with a random permutation, a random-scan sweep,
    whose sites lie scattered through the model's arrays as a TYPE block's do (the benchmarks
    compare TYPE's sweep with it).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    order : int64[≤ n_sites]
    inv_temp : float64
    w : float64[n_values]
        Work, as token_sweep's.

    Returns
    -------
    int
        How many sites changed value.
    """
    k = n_values(state)
    changed = 0
    for i in range(order.shape[0]):
        changed += token_step(rng, state, order[i], inv_temp, w, k)
    return changed


@inline
def token_step(rng, state, s, inv_temp, w, k):
    """TOKEN's move at site s: b_s from p(b_s | rest)^inv_temp (eq. 4); 1 when it changed.

    Inlined: the sweeps call the model directly, with no per-site call taking the state in
    between (each such call layer, passing a large state tuple, was measured at ~0.2 µs per
    site).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    s : int
    inv_temp : float64
    w : float64[k]
        Work.
    k : int
        n_values.

    Returns
    -------
    int
    """
    old = get_value(state, s)
    token_weights(rng, state, s, w)
    if inv_temp != 1.0:
        for v in range(k):
            w[v] = w[v] ** inv_temp
    v = draw_weights(rng, w, k)
    # most moves keep the value: then nothing is written, unless the model reseats
    if v != old or reseats(state):
        set_value(rng, state, s, v)
    return int(v != old)


@kernel
def token_move(rng, state, s, inv_temp, w):
    """Resample site s alone (a one-site token_sweep).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    s : int
    inv_temp : float64
    w : float64[n_values]
        Work; on return the site's tempered weights.

    Returns
    -------
    int
        The site's new value.
    """
    token_sweep(rng, state, s, s + 1, inv_temp, w)
    return get_value(state, s)


@inline
def gather_block(state, s0, v0, v1, candidates, block, before):
    """Build and remove the type block TB(z, s0) (§4.4), restricted to sites valued v0 or v1.

    The sites of s0's type are visited in increasing order; one joins when it does not conflict
    with the sites already removed (and has a value of the slice). Every block site is removed.
    A model may list the sites in another order (sorting is a cost): they are then visited in
    that order, and only when one of them conflicts — the one case where the order decides the
    block — put back, sorted and visited again. Conflicts are mutual, so a pass without one
    takes every site of the slice whatever the order.

    Parameters
    ----------
    state : model state, mutated (block sites removed)
    s0 : int
        Pivot site; always block[0].
    v0, v1 : int
        The binary slice {v0, v1} (0 and 1 for binary models).
    candidates : int64[n_sites]
        Output: the sites of s0's type (``block_candidates``), for showing which conflicted.
    block : int64[n_sites]
        Output: the block's sites, pivot first.
    before : int64[n_sites]
        Output: each block site's value before the move.

    Returns
    -------
    (int, int)
        |S|, the block size, and the number of candidates.
    """
    before[0] = get_value(state, s0)
    remove_site(state, s0)
    block[0] = s0
    n_cand = block_candidates(state, s0, candidates)
    size, conflicted = take_sites(state, s0, v0, v1, candidates, n_cand, block, before)
    if conflicted and not is_sorted(candidates, n_cand):
        for i in range(1, size):
            add_site(state, block[i], before[i])
        sort_prefix(candidates, n_cand)
        size, _ = take_sites(state, s0, v0, v1, candidates, n_cand, block, before)
    return size, n_cand


@inline
def take_sites(state, s0, v0, v1, candidates, n_cand, block, before):
    """gather_block's pass over candidates[:n_cand] in their order (the pivot already in the
    block): each candidate of the slice that conflicts with no removed site is removed and
    joins the block.

    Parameters
    ----------
    state : model state, mutated (block sites removed)
    s0, v0, v1 : int
        The pivot and the slice {v0, v1}.
    candidates : int64[≥ n_cand]
    n_cand : int
    block, before : int64[n_sites]
        Output from entry 1 on: the sites and their old values.

    Returns
    -------
    (int, bool)
        The block size, and whether a site was left out for a conflict.
    """
    size = 1
    conflicted = False
    for i in range(n_cand):
        s = candidates[i]
        if s == s0:
            continue
        if conflicts(state, s):
            conflicted = True
            continue
        value = get_value(state, s)
        if value != v0 and value != v1:
            continue
        before[size] = value
        remove_site(state, s)
        block[size] = s
        size += 1
    return size, conflicted


@kernel
def is_sorted(a, n):
    """Whether a[:n] is in increasing order.

    Parameters
    ----------
    a : int64[≥ n]
    n : int

    Returns
    -------
    bool
    """
    for i in range(1, n):
        if a[i] < a[i - 1]:
            return False
    return True


@kernel
def choose_m(rng, log_g, size, inv_temp, greedy, log_p):
    """Draw m from p(m) ∝ C(size, m) g(m)^inv_temp (eq. 7), or pick TYPE-greedy's m. Greedy
    compares the all-v0 and all-v1 assignments, p(b_S = v0…v0) ∝ g(0) against
    p(b_S = v1…v1) ∝ g(|S|).

    Parameters
    ----------
    rng : numpy.random.Generator
    log_g : float64[≥ size + 1]
        log g(m) − log g(0).
    size : int
    inv_temp : float64
    greedy : bool
    log_p : float64[≥ size + 1]
        Output: the unnormalised log p(m) that was drawn from.

    Returns
    -------
    int
        m.
    """
    log_c = 0.0  # log C(size, m), updated by C(size, m + 1) = C(size, m) (size − m) / (m + 1)
    for m in range(size + 1):
        log_p[m] = log_c + inv_temp * log_g[m]
        log_c += np.log((size - m) / (m + 1.0))
    if greedy:
        return 0 if log_g[0] > log_g[size] else size
    return draw_log_weights(rng, log_p, size + 1)


@inline
def draw_one_site(rng, state, s0, v0, v1, inv_temp, greedy, w, p, k):
    """choose_m for a block of one (removed) site: eq. 7 with |S| = 1 is the site's conditional
    between v0 and v1 (eq. 4), which the model weighs directly (``site_weights``) for less than
    its g(m) costs.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, the site s0 removed
    s0, v0, v1 : int
        The site and the slice {v0, v1}.
    inv_temp : float64
    greedy : bool
    w : float64[≥ n_values]
        Work: the site's weights.
    p, k : float64[≥ 2]
        Output: p(m) for m = 0, 1 in scaled linear form (engine.core.draw.scale_steps).

    Returns
    -------
    int
        m.
    """
    site_weights(state, s0, w)
    p[0], p[1] = w[v0], w[v1]
    if inv_temp != 1.0:
        p[0], p[1] = p[0] ** inv_temp, p[1] ** inv_temp
    k[0], k[1] = 0.0, 0.0
    if greedy:
        m = 0 if p[0] > p[1] else 1
    else:
        m = 1 if rng.random() * (p[0] + p[1]) >= p[0] else 0
    return m


@inline
def draw_m(rng, state, s0, v0, v1, size, inv_temp, greedy, bufs_float):
    """m for a removed block of size ≥ 2 from eq. 7, p(m) ∝ C(size, m) g(m)^inv_temp, the model
    giving g(m) (``block_weights``), or TYPE-greedy's m.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, its block removed
    s0, v0, v1, size : int
        The pivot, the slice {v0, v1} and |S|.
    inv_temp : float64
    greedy : bool
    bufs_float : float64[6, ≥ size + 1]
        Rows 0 and 1: output, p(m) in scaled linear form (k in row 0, w in row 1) or log g(m)
        in row 0 and log p(m) in row 1; rows 2 … 5: the model's work.

    Returns
    -------
    (int, bool)
        m, and whether p(m) is in scaled linear form (``scaled_to_log`` turns it to logs).
    """
    scaled = block_weights(state, s0, v0, v1, size, inv_temp == 1.0 and not greedy,
                           bufs_float[:2], bufs_float[2:])
    if scaled:
        m = draw_scaled(rng, bufs_float[1], bufs_float[0], size + 1)
    else:
        m = choose_m(rng, bufs_float[0], size, inv_temp, greedy, bufs_float[1])
    return m, scaled


@inline
def sample_block(rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float, chosen):
    """type_move without writing log p(m) when it was drawn without logs.

    Parameters
    ----------
    rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float, chosen
        As ``type_move``'s.

    Returns
    -------
    (int, int, int, int, bool)
        type_move's four figures, and whether log p(m) still needs ``scaled_to_log`` (on
        bufs_float rows 1, 0).
    """
    if n_values(state) == 2:
        v0, v1 = 0, 1
    else:
        v0 = get_value(state, s0)
    candidates, block, before = bufs_int[0], bufs_int[1], bufs_int[2]
    size, n_cand = gather_block(state, s0, v0, v1, candidates, block, before)
    if size == 1 and n_values(state) <= bufs_float.shape[1]:  # half the blocks, once converged
        m = draw_one_site(rng, state, s0, v0, v1, inv_temp, greedy, bufs_float[2],
                          bufs_float[1], bufs_float[0])
        scaled = True
    else:
        m, scaled = draw_m(rng, state, s0, v0, v1, size, inv_temp, greedy, bufs_float)
    if 0 < m < size:
        random_subset(rng, size, m, chosen)
    else:  # all sites alike, most moves once converged: no draws needed
        chosen[:size] = 1 if m else 0
    changed = 0
    for i in range(size):
        v = v1 if chosen[i] else v0
        if v != before[i]:
            changed += 1
        add_site(state, block[i], v)
    return size, m, changed, n_cand, scaled


TWO_STAGE, ONE_STAGE, ONE_STAGE_MH = 0, 1, 2  # how a block move draws (``block_move``)


@inline
def block_move(rng, state, s0, v1, inv_temp, greedy, stages, bufs_int, bufs_float, chosen):
    """A block move around pivot s0: TYPE's (eq. 7, ``sample_block``) or one-stage's
    (``one_stage_block``), as ``stages`` says (TWO_STAGE, ONE_STAGE, ONE_STAGE_MH).

    Parameters
    ----------
    rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float, chosen
        As ``type_move``'s (greedy: TYPE's only).
    stages : int

    Returns
    -------
    (int, int, int, int, bool)
        As ``sample_block``'s (one-stage: its log p(m) rows untouched, ``scaled`` False).
    """
    if stages == TWO_STAGE:
        size, m, changed, n_cand, scaled = sample_block(rng, state, s0, v1, inv_temp, greedy,
                                                        bufs_int, bufs_float, chosen)
    else:
        size, m, changed, n_cand = one_stage_block(rng, state, s0, v1, inv_temp,
                                                   stages == ONE_STAGE_MH, bufs_int,
                                                   bufs_float, chosen)
        scaled = False
    return size, m, changed, n_cand, scaled


@kernel
def one_stage_block(rng, state, s0, v1, inv_temp, corrected, bufs_int, bufs_float, chosen):
    """One-stage sampling of the type block of s0 (Peng & Gildea eq. 12): its sites, the pivot
    first and then in site order, each drawn from its conditional given the sites before it,
    q_i(z_i) = w_i(z_i)^β / Σ_v w_i(v)^β. That is not p(z_S | rest) ∝ g(m)^β; with
    ``corrected`` the draw is a Metropolis-Hastings proposal, accepted with probability
    min(1, g(m′)^β q(z) / (g(m)^β q(z′))), q(z) being the old values' sequential probability
    replayed in the same order (an order fixed by the block alone, so the reverse move has
    it too), and the move is exact.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    s0, v1 : int
        As ``type_move``'s.
    inv_temp : float64
    corrected : bool
    bufs_int, bufs_float, chosen
        As ``type_move``'s: rows candidates, block, before; row 0 of bufs_float holds
        log g(m) − log g(0) (corrected), row 1 the sites' weights; chosen[i] = 1 where
        block[i] was drawn v1 (the proposal, kept or not).

    Returns
    -------
    (int, int, int, int)
        |S|, m of the values the block has now, sites changed, candidates.
    """
    v0 = 0 if n_values(state) == 2 else get_value(state, s0)
    if n_values(state) == 2:
        v1 = 1
    candidates, block, before = bufs_int[0], bufs_int[1], bufs_int[2]
    size, n_cand = gather_block(state, s0, v0, v1, candidates, block, before)
    in_site_order(block, before, size, n_values(state))
    log_q_old, m_old, accept = 0.0, 0, True
    if corrected and size > 1:
        block_weights(state, s0, v0, v1, size, False, bufs_float[:2], bufs_float[2:])
        log_q_old = sequence(rng, state, block, before, size, v0, v1, inv_temp, False,
                             bufs_float[1], chosen)
        for i in range(size):
            m_old += 1 if before[i] == v1 else 0
            remove_site(state, block[i])
    log_q_new = sequence(rng, state, block, before, size, v0, v1, inv_temp, True,
                         bufs_float[1], chosen)
    m = 0
    for i in range(size):
        m += chosen[i]
    if corrected and size > 1:
        log_ratio = (inv_temp * (bufs_float[0, m] - bufs_float[0, m_old]) + log_q_old
                     - log_q_new)
        accept = log_ratio >= 0.0 or rng.random() < np.exp(log_ratio)
        if not accept:
            for i in range(size):
                remove_site(state, block[i])
            for i in range(size):
                add_site(state, block[i], before[i])
            m = m_old
    changed = 0
    if accept:
        for i in range(size):
            changed += (v1 if chosen[i] else v0) != before[i]
    return size, m, changed, n_cand


@kernel
def sequence(rng, state, block, before, size, v0, v1, inv_temp, draw, w, chosen):
    """The removed block's sites put back one after another, each from its conditional given
    those before it (tempered, between v0 and v1): drawn (``draw``: chosen[i] = 1 for v1) or
    the old values ``before``. Returns log q of the values put back.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, its block removed; mutated (the block added back)
    block, before : int64[≥ size]
    size, v0, v1 : int
    inv_temp : float64
    draw : bool
    w : float64[≥ n_values]
        Work.
    chosen : uint8[≥ size]
        Output when drawing.

    Returns
    -------
    float64
    """
    log_q = 0.0
    for i in range(size):
        site_weights(state, block[i], w)
        p0, p1 = w[v0] ** inv_temp, w[v1] ** inv_temp
        if draw:
            chosen[i] = 1 if rng.random() * (p0 + p1) >= p0 else 0
            one = chosen[i] == 1
        else:
            one = before[i] == v1
        log_q += np.log((p1 if one else p0) / (p0 + p1))
        add_site(state, block[i], v1 if one else v0)
    return log_q


@kernel
def in_site_order(block, before, size, k):
    """Sort block[1:size] by site, before[1:size] with it (the pivot stays first): the order
    one-stage draws in, which the block alone decides.

    Parameters
    ----------
    block, before : int64[≥ size]
        Mutated.
    size, k : int
        The block's size and the number of values (a site and its value packed as site·k + v).
    """
    for i in range(1, size):
        block[i] = block[i] * k + before[i]
    sort_prefix(block[1:size], size - 1)
    for i in range(1, size):
        before[i] = block[i] % k
        block[i] = block[i] // k


@kernel
def type_move(rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float, chosen):
    """One TYPE move around pivot s0 (Fig. 4); return (|S|, m, sites changed, candidates).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    s0 : int
        Pivot; its current value is v0, the slice is {v0, v1} (binary models: v0, v1 = 0, 1).
    v1 : int
        The other value of the slice; for binary models pass 1.
    inv_temp : float64
    greedy : bool
        TYPE-greedy: all-v0 or all-v1, whichever is more probable.
    bufs_int : int64[3, n_sites]
        Rows: candidates (output: the sites of s0's type), block (output: the block's sites),
        before (output: their old values).
    bufs_float : float64[6, max(n_sites + 1, block_weight.MAX_DELTA_TERMS)]
        Rows: work, log_p (output: unnormalised log p(m) over m = 0 … |S|), and the model's
        work for g(m) (``interface.block_weights``).
    chosen : uint8[n_sites]
        Output: chosen[i] = 1 when block[i] was set to v1.
    """
    size, m, changed, n_cand, scaled = sample_block(rng, state, s0, v1, inv_temp, greedy,
                                                    bufs_int, bufs_float, chosen)
    if scaled:
        scaled_to_log(bufs_float[1], bufs_float[0], size + 1)
    return size, m, changed, n_cand


@kernel
def type_sweep(rng, state, order, start, how, buffers):
    """TYPE over pivots order[start:], stopping after ``how.max_moves`` moves; return where it
    stopped.

    With ``how.skip`` (the skip approximation of §4.4) a pivot already in a block sampled this
    sweep is passed over; ``buffers.visited`` records those sites and must be zero at the start
    of a sweep. For models with K > 2 values each move draws the slice's other
    value uniformly from 0 … K−1 (§4.4, binary slices); when it equals the pivot's value the
    move would change nothing and is not made.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    order : int64[n_sites]
        Pivot order of this sweep (``new_order``).
    start : int
    how : Pass
    buffers : BlockBuffers
        Mutated: the last move's block, old values, log p(m) and chosen sites stay in them;
        ``totals`` (int64[6]) is the output: moves made, total block size, sites changed, and
        the last move's v0, v1 and number of candidates (the sites of its pivot's type).

    Returns
    -------
    int
        Index into order of the next pivot to consider (order.shape[0] when the sweep is done).
    """
    visited, bufs_int, bufs_float, totals = (buffers.visited, buffers.ints, buffers.floats,
                                             buffers.totals)
    k = n_values(state)
    totals[:3] = 0
    i = start
    size, scaled = 0, False
    while i < order.shape[0] and totals[0] < how.max_moves:
        s0 = order[i]
        i += 1
        if how.skip and visited[s0]:
            continue
        v1 = 1
        if k > 2:
            v1 = random_index(rng, k)
            if v1 == get_value(state, s0):
                continue
        totals[3] = get_value(state, s0) if k > 2 else 0
        totals[4] = v1
        size, m, c, n_cand, scaled = block_move(rng, state, s0, v1, how.inv_temp, how.greedy,
                                                how.stages, bufs_int, bufs_float,
                                                buffers.chosen)
        totals[5] = n_cand
        for j in range(size):
            visited[bufs_int[1, j]] = 1
        totals[0] += 1
        totals[1] += size
        totals[2] += c
    if scaled:  # log p(m) of the last move only: the earlier ones were overwritten
        scaled_to_log(bufs_float[1], bufs_float[0], size + 1)
    return i


@kernel
def new_order(rng, state, order, at_random):
    """Refill ``order`` with TYPE's pivots for a sweep: the sites in order, or a uniformly
    random permutation of them when asked (``at_random``) or when the model says so
    (``pivots_in_order``).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state
    order : int64[n_sites]
        Output.
    at_random : bool
    """
    for i in range(order.shape[0]):
        order[i] = i
    if at_random or not pivots_in_order(state):
        random_permutation(rng, order)


@kernel
def count_sites(state):
    """The model's number of sites (for sizing buffers from Python).

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return n_sites(state)


@kernel
def count_values(state):
    """The number of values a site can take.

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return n_values(state)


@kernel
def value_of(state, s):
    """b_s, for Python callers.

    Parameters
    ----------
    state : model state
    s : int

    Returns
    -------
    int
    """
    return get_value(state, s)
