"""Gao & Johnson's explicit Gibbs samplers and the point estimators (EM, variational Bayes),
written once against the model interface's parameters group (engine.kernels.interface).

An explicit sampler holds parameters θ drawn from their posterior given the current analysis
(eq. 5) fixed for a whole sweep, so each site (pointwise, eq. 6) or sentence (blocked: forward
filtering, backward sampling) is drawn from p(· | θ, the rest) without reading the counts. So
the values change alone (put_value) and the counts are rebuilt once, when the kernel returns
(recount): on 25k tokens a rebuild costs 0.6 ms, updating the counts at each of a sweep's ~6k
changes 2 ms. Every kernel here returns with the counts those of the values.

A point estimator holds parameters too, but re-estimates them from expected counts (EM: the
likelihood's maximum, eq. 2; VB: the mean-field posterior, eq. 4); the analysis it keeps is the
tagging its parameters decode to, so that the trace's measures and log-probability read it like
any sampler's.
"""
from engine.core.draw import draw_weights
from engine.core.jit import kernel
from engine.kernels.interface import (draw_parameters, estimate_work_size, expected_counts,
                                      expected_from_values, explicit_sentence, explicit_weights,
                                      get_value, n_sites, n_values, parameter_size, put_value,
                                      recount, reestimate, sentence_sites, set_value)


@kernel
def explicit_token_sweep(rng, state, theta, start, stop, w):
    """The explicit pointwise sampler (GSe,p) over sites start … stop − 1 in order.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated in place
    theta : float64[parameter_size(state)]   the parameters, drawn at the sweep's start
    start, stop : int
    w : float64[n_values]   work; on return the last site's weights

    Returns
    -------
    int
        How many sites changed value.
    """
    k = n_values(state)
    changed = 0
    for s in range(start, stop):
        explicit_weights(state, theta, s, w)
        v = draw_weights(rng, w, k)
        if v != get_value(state, s):
            put_value(state, s, v)
            changed += 1
    if changed:
        recount(state)
    return changed


@kernel
def explicit_sentence_sweep(rng, state, theta, start, stop, new, work):
    """The explicit blocked sampler (GSe,b) over sentences start … stop − 1: each one's analysis
    drawn exactly given θ (no Metropolis-Hastings step: θ does not depend on it).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    theta : float64[parameter_size(state)]
        The parameters, drawn at the sweep's start.
    start, stop : int
    new : int64[longest sentence]
        Output: the last sentence's analysis.
    work : float64[sentence_work_size(state)]

    Returns
    -------
    int
        How many sites changed value.
    """
    changed = 0
    for u in range(start, stop):
        first, last = sentence_sites(state, u)
        explicit_sentence(rng, state, theta, u, new, work)
        changed += put_values(state, first, last, new)
    if changed:
        recount(state)
    return changed


# A rebuild of the counts costs about as much as this many count updates (HMM, 25k tokens:
# 0.6 ms against ~0.3 µs per changed token)
REBUILD_SHARE = 16


@kernel
def assign_values(rng, state, values):
    """Every site's value from ``values``, the counts kept up: site by site when few change
    (EM near convergence), else by one rebuild.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    values : int64[n_sites]

    Returns
    -------
    int
        How many sites changed.
    """
    n = n_sites(state)
    changed = 0
    for s in range(n):
        changed += values[s] != get_value(state, s)
    if changed * REBUILD_SHARE > n:
        put_values(state, 0, n, values)
        recount(state)
        return changed
    for s in range(n):
        if values[s] != get_value(state, s):
            set_value(rng, state, s, values[s])
    return changed


@kernel
def put_values(state, start, stop, values):
    """put_value(s, values[s − start]) for s = start … stop − 1 (counts left stale).

    Parameters
    ----------
    state : model state, mutated
    start, stop : int
    values : int64[≥ stop − start]

    Returns
    -------
    int
        How many sites changed.
    """
    changed = 0
    for s in range(start, stop):
        v = values[s - start]
        if v != get_value(state, s):
            put_value(state, s, v)
            changed += 1
    return changed


@kernel
def point_start(state, expected, theta, decoded, work, variational):
    """A point estimator's start: its first parameters from the current analysis (EM the
    posterior mean given it — its counts plus the prior's pseudo-counts, which keeps every
    probability above 0 — VB the exact posterior Dir(counts + prior)), and the E-step under
    them, which gives their objective and the expected counts the first iteration re-estimates
    from. The analysis stays as it is (a trace's row 0 shows the start).

    Parameters
    ----------
    state : model state
    expected : float64[parameter_size(state)]
        Output: the E-step's expected counts under the first parameters.
    theta : float64[parameter_size(state)]
        Output: the first parameters.
    decoded : int64[n_sites]
        Work: their decoding.
    work : float64[estimate_work_size(state)]
    variational : bool

    Returns
    -------
    (float, float)
        log Σ of theta's weights (the E-step's), reestimate's KL (0 for EM).
    """
    expected_from_values(state, expected, 0.0 if variational else 1.0)
    kl = reestimate(state, expected, theta, variational, work)
    return expected_counts(state, theta, expected, decoded, work), kl


@kernel
def point_iteration(rng, state, theta, expected, decoded, work, variational):
    """One EM or VB iteration: the M-step from the last E-step's expected counts into theta,
    the E-step under the new theta (its objective and expected counts), the analysis set to
    its decoding — so that a trace row shows the parameters the iteration ended with.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state, mutated
    theta, expected : float64[parameter_size(state)]   the parameters, the expected counts
        (both updated)
    decoded : int64[n_sites]   work: the decoding
    work : float64[estimate_work_size(state)]
    variational : bool

    Returns
    -------
    (float, float, int)
        log Σ of the new theta's weights (the E-step's), KL of the new variational posterior
        (0 for EM), sites changed.
    """
    kl = reestimate(state, expected, theta, variational, work)
    log_z = expected_counts(state, theta, expected, decoded, work)
    return log_z, kl, assign_values(rng, state, decoded)


@kernel
def count_parameters(state):
    """parameter_size, for Python callers sizing buffers.

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return parameter_size(state)


@kernel
def estimate_work(state):
    """estimate_work_size, for Python callers sizing buffers.

    Parameters
    ----------
    state : model state

    Returns
    -------
    int
    """
    return estimate_work_size(state)


@kernel
def draw_theta(rng, state, theta):
    """draw_parameters, for Python callers (an explicit sampler's sweep starts with it).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : model state
    theta : float64[parameter_size(state)]
        Output.
    """
    draw_parameters(rng, state, theta)


@kernel
def copy_values(state, start, stop, out):
    """The values of sites start … stop − 1.

    Parameters
    ----------
    state : model state
    start, stop : int
    out : int64[≥ stop − start]
        Output.
    """
    for s in range(start, stop):
        out[s - start] = get_value(state, s)
