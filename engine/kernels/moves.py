"""TOKEN and TYPE moves and sweeps, written once against the model interface.

TOKEN (eq. 4) resamples one site from its conditional; TYPE (Fig. 4) gathers the type block
TB(z, s0) around a pivot, draws m from eq. 7 and sets a uniformly random m of the block's sites.
Annealing is the inverse temperature ``inv_temp`` (1.0 = plain sampling); TYPE-greedy is
``greedy=True``. Every function mutates the model state in place.
"""

import numpy as np

from engine.core.draw import (draw_log_weights, draw_weights, random_index, random_permutation,
                              random_subset)
from engine.core.jit import kernel
from engine.kernels.interface import (add_site, block_candidates, block_delta, conflicts,
                                      get_value, n_sites, n_values, remove_site, set_value,
                                      site_weights, token_weights)

# Terms of g(m) one block may need (eq. 9): a few outcomes and rows per site value.
MAX_DELTA_TERMS = 64


@kernel
def weights_by_removal(state, s, w):
    """token_weights for models with no faster way: remove the site, weigh it, put it back."""
    v = get_value(state, s)
    remove_site(state, s)
    site_weights(state, s, w)
    add_site(state, s, v)


@kernel
def set_by_removal(state, s, v):
    """set_value for models with no faster way."""
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
    # The loop calls the model directly, with no per-site helper taking the state in between:
    # each such call layer, passing a large state tuple, was measured at ~0.2 µs per site.
    k = n_values(state)
    changed = 0
    for s in range(start, stop):
        old = get_value(state, s)
        token_weights(state, s, w)
        if inv_temp != 1.0:
            for v in range(k):
                w[v] = w[v] ** inv_temp
        v = draw_weights(rng, w, k)
        if v != old:  # most moves keep the value: then nothing is written
            set_value(state, s, v)
            changed += 1
    return changed


@kernel
def token_move(rng, state, s, inv_temp, w):
    """Resample site s alone (a one-site token_sweep); return its new value."""
    token_sweep(rng, state, s, s + 1, inv_temp, w)
    return get_value(state, s)


@kernel
def gather_block(state, s0, v0, v1, candidates, block, before):
    """Build and remove the type block TB(z, s0) (§4.4), restricted to sites valued v0 or v1.

    The sites of s0's type are visited in increasing order; one joins when it does not conflict
    with the sites already removed (and has a value of the slice). Every block site is removed.

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
    size = 1
    n_cand = block_candidates(state, s0, candidates)
    for i in range(n_cand):
        s = candidates[i]
        if s == s0 or conflicts(state, s):
            continue
        value = get_value(state, s)
        if value != v0 and value != v1:
            continue
        before[size] = value
        remove_site(state, s)
        block[size] = s
        size += 1
    return size, n_cand


@kernel
def block_log_g(state, s0, v0, v1, size, log_g, base, d0, d1, sign):
    """log g(m) − log g(0) of eq. 9 for m = 0 … size (m = sites set to v1), written into
    log_g[: size + 1]; only the ratios of g matter to eq. 7 and to TYPE-greedy.

    The block must be removed (``gather_block``); base, d0, d1, sign are work buffers of
    length MAX_DELTA_TERMS.
    """
    n_terms = block_delta(state, s0, v0, v1, base, d0, d1, sign)
    total = 0.0
    log_g[0] = total
    # from m to m + 1, term j's count moves by d1 − d0 (a factor or two): update g(m) by the
    # ratio of those factors instead of recomputing every rising factorial (lgamma) per m
    for m in range(size):
        ratio = 1.0
        for j in range(n_terms):
            count = m * d1[j] + (size - m) * d0[j]
            step = int(d1[j] - d0[j])
            factor = 1.0
            # (the integer part is summed first: base may be tiny, like α₀P₀ of a long word,
            # and base + count − i would round it away)
            for i in range(step):              # the count grows: new factors
                factor *= base[j] + (count + i)
            for i in range(1, 1 - step):       # it shrinks: factors taken away
                factor /= base[j] + (count - i)
            ratio = ratio * factor if sign[j] > 0 else ratio / factor
        total += np.log(ratio)
        log_g[m + 1] = total


@kernel
def choose_m(rng, log_g, size, inv_temp, greedy, log_p):
    """Draw m from p(m) ∝ C(size, m) g(m)^inv_temp (eq. 7), or pick TYPE-greedy's m.

    log_p[: size + 1] receives the unnormalised log p(m) that was drawn from. Greedy compares
    the all-v0 and all-v1 assignments, p(b_S = v0…v0) ∝ g(0) against p(b_S = v1…v1) ∝ g(|S|).
    """
    log_c = 0.0  # log C(size, m), updated by C(size, m + 1) = C(size, m) (size − m) / (m + 1)
    for m in range(size + 1):
        log_p[m] = log_c + inv_temp * log_g[m]
        log_c += np.log((size - m) / (m + 1.0))
    if greedy:
        return 0 if log_g[0] > log_g[size] else size
    return draw_log_weights(rng, log_p, size + 1)


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
    bufs_float : float64[6, max(n_sites + 1, MAX_DELTA_TERMS)]
        Rows: log_g, log_p (output: unnormalised log p(m) over m = 0 … |S|), base, d0, d1, sign.
    chosen : uint8[n_sites]
        Output: chosen[i] = 1 when block[i] was set to v1.
    """
    if n_values(state) == 2:
        v0, v1 = 0, 1
    else:
        v0 = get_value(state, s0)
    candidates, block, before = bufs_int[0], bufs_int[1], bufs_int[2]
    log_g, log_p = bufs_float[0], bufs_float[1]
    size, n_cand = gather_block(state, s0, v0, v1, candidates, block, before)
    block_log_g(state, s0, v0, v1, size, log_g,
                bufs_float[2], bufs_float[3], bufs_float[4], bufs_float[5])
    m = choose_m(rng, log_g, size, inv_temp, greedy, log_p)
    random_subset(rng, size, m, chosen)
    changed = 0
    for i in range(size):
        v = v1 if chosen[i] else v0
        if v != before[i]:
            changed += 1
        add_site(state, block[i], v)
    return size, m, changed, n_cand


@kernel
def type_sweep(rng, state, order, start, max_moves, visited, skip, inv_temp, greedy,
               bufs_int, bufs_float, chosen, totals):
    """TYPE over pivots order[start:], stopping after max_moves moves; return where it stopped.

    With ``skip`` (the skip approximation of §4.4) a pivot already in a block sampled this
    sweep is passed over; ``visited`` (uint8[n_sites]) records those sites and must be zero
    at the start of a sweep. For models with K > 2 values each move draws the slice's other
    value uniformly from 0 … K−1 (§4.4, binary slices); when it equals the pivot's value the
    move would change nothing and is not made.

    Parameters
    ----------
    order : int64[n_sites]
        Pivot order of this sweep (``new_order``).
    totals : int64[6]
        Output: moves made, total block size, sites changed, and the last move's v0, v1 and
        number of candidates (the sites of its pivot's type).
        The last move's block, old values, log p(m) and chosen sites stay in the buffers
        (see ``type_move``).

    Returns
    -------
    int
        Index into order of the next pivot to consider (order.shape[0] when the sweep is done).
    """
    k = n_values(state)
    totals[:3] = 0
    i = start
    while i < order.shape[0] and totals[0] < max_moves:
        s0 = order[i]
        i += 1
        if skip and visited[s0]:
            continue
        v1 = 1
        if k > 2:
            v1 = random_index(rng, k)
            if v1 == get_value(state, s0):
                continue
        totals[3] = get_value(state, s0) if k > 2 else 0
        totals[4] = v1
        size, m, c, n_cand = type_move(rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float,
                                       chosen)
        totals[5] = n_cand
        for j in range(size):
            visited[bufs_int[1, j]] = 1
        totals[0] += 1
        totals[1] += size
        totals[2] += c
    return i


@kernel
def new_order(rng, order):
    """Refill order (int64[n_sites]) with a uniformly random permutation of the sites."""
    for i in range(order.shape[0]):
        order[i] = i
    random_permutation(rng, order)


@kernel
def count_sites(state):
    """The model's number of sites (for sizing buffers from Python)."""
    return n_sites(state)


@kernel
def count_values(state):
    """The number of values a site can take."""
    return n_values(state)


@kernel
def value_of(state, s):
    """b_s, for Python callers."""
    return get_value(state, s)
