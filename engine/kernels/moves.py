"""TOKEN and TYPE moves and sweeps, written once against the model interface.

TOKEN (eq. 4) resamples one site from its conditional; TYPE (Fig. 4) gathers the type block
TB(z, s0) around a pivot, draws m from eq. 7 and sets a uniformly random m of the block's sites.
Annealing is the inverse temperature ``inv_temp`` (1.0 = plain sampling); TYPE-greedy is
``greedy=True``. Every function mutates the model state in place.
"""

import numpy as np

from engine.core.draw import (draw_log_weights, draw_weights, random_index, random_permutation,
                              random_subset)
from engine.core.jit import inline, kernel
from engine.core.sort import sort_prefix
from engine.kernels.interface import (add_site, block_candidates, block_delta, conflicts,
                                      get_value, n_sites, n_values, remove_site, reseats,
                                      set_value, site_weights, token_weights)

# Terms of g(m) one block may need (eq. 9): a few outcomes and rows per site value.
MAX_DELTA_TERMS = 64



@kernel
def weights_by_removal(rng, state, s, w):
    """token_weights for models with no faster way: remove the site, weigh it, put it back."""
    v = get_value(state, s)
    remove_site(state, s)
    site_weights(state, s, w)
    add_site(state, s, v)


@kernel
def set_by_removal(rng, state, s, v):
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
        token_weights(rng, state, s, w)
        if inv_temp != 1.0:
            for v in range(k):
                w[v] = w[v] ** inv_temp
        v = draw_weights(rng, w, k)
        # most moves keep the value: then nothing is written, unless the model reseats
        if v != old or reseats(state):
            set_value(rng, state, s, v)
        changed += v != old
    return changed


@kernel
def token_move(rng, state, s, inv_temp, w):
    """Resample site s alone (a one-site token_sweep); return its new value."""
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
    block); return the block size and whether a site was left out for a conflict."""
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
    """Whether a[:n] is in increasing order."""
    for i in range(1, n):
        if a[i] < a[i - 1]:
            return False
    return True


@inline  # per m of every block
def step_ratio(m, size, n_terms, base, d0, d1, sign):
    """g(m + 1) / g(m) of eq. 9, from the terms ``block_delta`` wrote, as (linear part, log
    part): from m to m + 1 term j's count moves by d1 − d0, a factor or two, so g is updated by
    the ratio of those factors instead of recomputing every rising factorial (lgamma) per m.

    A term whose base is too small for linear arithmetic (a long new word's α₀P₀ in the
    segmentation model) is written by the model as its log, a negative number — a base itself
    is always positive. Its factors (base + k) are then k for the integers k ≥ 1, next to which
    such a base vanishes, and base itself for k = 0, which goes to the log part.
    """
    num = 1.0
    den = 1.0
    log_part = 0.0
    for j in range(n_terms):
        step = int(d1[j] - d0[j])
        if step == 0:
            continue
        count = m * d1[j] + (size - m) * d0[j]
        tiny = base[j] < 0.0
        b = 0.0 if tiny else base[j]
        # factors of the count's new rising-factorial terms (or of those taken away); the
        # integer part is summed first, or a small base would be rounded away
        grows = step > 0
        above = sign[j] > 0
        for i in range(abs(step)):
            k = count + i if grows else count - 1 - i
            if tiny and k == 0:
                log_part += base[j] if grows == above else -base[j]
            elif grows == above:
                num *= b + k
            else:
                den *= b + k
    return num / den, log_part


@inline
def delta_terms(state, s0, v0, v1, base, d0, d1, sign):
    """block_delta's terms, refused when there are more than MAX_DELTA_TERMS: the buffers are
    sized for that many, and a model that writes past them would corrupt the next row."""
    n_terms = block_delta(state, s0, v0, v1, base, d0, d1, sign)
    if n_terms > MAX_DELTA_TERMS:
        raise ValueError("block_delta wrote more terms of eq. 9 than MAX_DELTA_TERMS "
                         "(engine/kernels/moves.py): raise the limit")
    return n_terms


@kernel
def block_log_g(state, s0, v0, v1, size, log_g, base, d0, d1, sign):
    """log g(m) − log g(0) of eq. 9 for m = 0 … size (m = sites set to v1), written into
    log_g[: size + 1]; only the ratios of g matter to eq. 7 and to TYPE-greedy.

    The block must be removed (``gather_block``); base, d0, d1, sign are work buffers of
    length MAX_DELTA_TERMS (see ``step_ratio``).
    """
    n_terms = delta_terms(state, s0, v0, v1, base, d0, d1, sign)
    terms_log_g(size, n_terms, log_g, base, d0, d1, sign)


@kernel
def terms_log_g(size, n_terms, log_g, base, d0, d1, sign):
    """log g(m) − log g(0) for m = 0 … size into log_g from block_delta's terms."""
    total = 0.0
    log_g[0] = total
    for m in range(size):
        ratio, log_part = step_ratio(m, size, n_terms, base, d0, d1, sign)
        total += np.log(ratio) + log_part
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


# p(m) of eq. 7 without logs: p(m) = w[m] · SCALE^k[m] with w[m] in [1, SCALE). The entries
# with k ≤ K − 2 (K the largest k) are below the largest entry by a factor SCALE and are left
# out of the draw; a one-step ratio outside [STEP_MIN, STEP_MAX] (which could overflow w) sends
# the block to the log path.
SCALE = 2.0 ** 300
STEP_MIN, STEP_MAX = 2.0 ** -600, 2.0 ** 600


@kernel
def draw_m_scaled(rng, size, n_terms, base, d0, d1, sign, w, k):
    """Draw m from p(m) ∝ C(size, m) g(m) (eq. 7 at inverse temperature 1) in linear
    arithmetic, no logs or exps. Return m, or −1 when a term or a step needs the log path
    (``choose_m``).

    w, k : float64[≥ size + 1]
        Output: p(m) = w[m] · SCALE^k[m] up to a common factor (``scaled_log_p`` takes logs).
    """
    for j in range(n_terms):
        if base[j] < 0.0:
            return -1
    # the one-step ratio p(m + 1) / p(m) = w[m + 1] / k[m + 1]: C(size, m) gives (size − m) /
    # (m + 1), and each factor of step_ratio is linear in m; filled factor by factor, the
    # loops over m have no branches and vectorise
    for m in range(size):
        w[m + 1] = size - m
        k[m + 1] = m + 1.0
    for j in range(n_terms):
        step = int(d1[j] - d0[j])
        at_zero = size * d0[j]  # the count at m = 0
        grows = step > 0
        row = w if grows == (sign[j] > 0) else k
        b = base[j]
        for i in range(abs(step)):
            first = at_zero + i if grows else at_zero - 1 - i
            for m in range(size):  # (the integer part first: a small base would round away)
                row[m + 1] *= b + (first + step * m)
    value, scale, top = 1.0, 0.0, 0.0
    w[0], k[0] = value, scale
    for m in range(1, size + 1):
        ratio = w[m] / k[m]
        if not STEP_MIN <= ratio <= STEP_MAX:
            return -1
        value *= ratio
        while value >= SCALE:
            value /= SCALE
            scale += 1.0
        while value < 1.0:
            value *= SCALE
            scale -= 1.0
        w[m], k[m] = value, scale
        top = max(top, scale)
    total = 0.0
    for m in range(size + 1):
        total += scaled_weight(w[m], k[m], top)
    u = rng.random() * total
    last = 0
    for m in range(size + 1):
        weight = scaled_weight(w[m], k[m], top)
        if weight <= 0.0:
            continue
        last = m
        u -= weight
        if u < 0.0:
            return m
    return last  # only reached through rounding: the last m with positive weight


@kernel
def scaled_weight(w, k, top):
    """w · SCALE^(k − top) for the draw: exact for k ≥ top − 1, 0 below (negligible)."""
    if k == top:
        return w
    if k == top - 1.0:
        return w / SCALE
    return 0.0


@kernel
def scaled_log_p(size, w, k):
    """Turn draw_m_scaled's w[: size + 1], k[: size + 1] in place into log p(m) in w."""
    for m in range(size + 1):
        w[m] = np.log(w[m]) + k[m] * np.log(SCALE)


@inline
def draw_one_site(rng, state, s0, v0, v1, inv_temp, greedy, w, p, k):
    """choose_m for a block of one (removed) site: eq. 7 with |S| = 1 is the site's conditional
    between v0 and v1 (eq. 4), which the model weighs directly (``site_weights``, into w:
    float64[≥ n_values]) for less than eq. 9's terms cost. p, k receive p(m) as in
    ``draw_m_scaled``."""
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
def sample_block(rng, state, s0, v1, inv_temp, greedy, bufs_int, bufs_float, chosen):
    """type_move without writing log p(m) when it was drawn without logs; return type_move's
    four figures and whether log p(m) still needs ``scaled_log_p`` (on bufs_float rows 1, 0)."""
    if n_values(state) == 2:
        v0, v1 = 0, 1
    else:
        v0 = get_value(state, s0)
    candidates, block, before = bufs_int[0], bufs_int[1], bufs_int[2]
    log_g, log_p = bufs_float[0], bufs_float[1]
    base, d0, d1, sign = bufs_float[2], bufs_float[3], bufs_float[4], bufs_float[5]
    size, n_cand = gather_block(state, s0, v0, v1, candidates, block, before)
    if size == 1 and n_values(state) <= base.shape[0]:  # half the blocks, once converged
        m = draw_one_site(rng, state, s0, v0, v1, inv_temp, greedy, base, log_p, log_g)
        scaled = True
    else:
        n_terms = delta_terms(state, s0, v0, v1, base, d0, d1, sign)
        m = -1
        if inv_temp == 1.0 and not greedy:
            m = draw_m_scaled(rng, size, n_terms, base, d0, d1, sign, log_p, log_g)
        scaled = m >= 0
        if not scaled:
            terms_log_g(size, n_terms, log_g, base, d0, d1, sign)
            m = choose_m(rng, log_g, size, inv_temp, greedy, log_p)
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
        Rows: work, log_p (output: unnormalised log p(m) over m = 0 … |S|), and the terms of
        eq. 9 (base, d0, d1, sign).
    chosen : uint8[n_sites]
        Output: chosen[i] = 1 when block[i] was set to v1.
    """
    size, m, changed, n_cand, scaled = sample_block(rng, state, s0, v1, inv_temp, greedy,
                                                    bufs_int, bufs_float, chosen)
    if scaled:
        scaled_log_p(size, bufs_float[1], bufs_float[0])
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
    size, scaled = 0, False
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
        size, m, c, n_cand, scaled = sample_block(rng, state, s0, v1, inv_temp, greedy,
                                                  bufs_int, bufs_float, chosen)
        totals[5] = n_cand
        for j in range(size):
            visited[bufs_int[1, j]] = 1
        totals[0] += 1
        totals[1] += size
        totals[2] += c
    if scaled:  # log p(m) of the last move only: the earlier ones were overwritten
        scaled_log_p(size, bufs_float[1], bufs_float[0])
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
