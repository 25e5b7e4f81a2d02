"""TOKEN's cut (eq. 8): a site's type (r₁; r₂ and r₃) and the weights of leaving it uncut or cut,
behind the interface's token functions; with exact seating the three rules' tables summed out.
"""
import numpy as np

from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.scfg.kernels.layout import exact, implements
from engine.models.scfg.kernels.rules import rule_key
from engine.models.scfg.kernels.counts import file_rule, rule_root, unfile_rule
from engine.models.scfg.kernels.tables import world_log_weight, world_open, world_put, world_seat
from engine.models.scfg.kernels.edge import overlay_add, overlay_predictive


@kernel
def type_of(state, n):
    """The type of node n (on the tree, not a root): the keys and log P₀ of r₁, the rule its
    rule root r would root with n inside it, r₂, the one r would root with n cut, and r₃, the
    one n would root when cut; and r.

    Parameters
    ----------
    state : ScfgState (``cut`` as it was on return)
    n : int

    Returns
    -------
    (int64, float64, int64, float64, int64, float64, int)
    """
    r = rule_root(state, n)
    old = state.cut[n]
    state.cut[n] = 0
    k1, p1 = rule_key(state, r)
    state.cut[n] = 1
    k2, p2 = rule_key(state, r)
    k3, p3 = rule_key(state, n)
    state.cut[n] = old
    return k1, p1, k2, p2, k3, p3, r


@inline
def weigh(state, w, k1, p1, k2, p2, k3, p3, cut):
    """eq. 8 in linear form into w[0], w[1]: P(r₁ | N) against P(r₂ | N) P(r₃ | N′), N′ = N + r₂
    (under the Pitman-Yor prior r₂ also adds to its length's N_L and T_l), N the index less the
    site's own rules — r₂ and r₃ when ``cut`` is 1, r₁ when 0, none when −1 (a removed site) —
    held as negative counts on the overlays (their restaurants' counts and tables too).

    Parameters
    ----------
    state : ScfgState (its overlays used as work)
    w : float64[≥ 2]
        Output.
    k1, k2, k3 : int64
    p1, p2, p3 : float64
    cut : int
    """
    m, mc = 0, 0
    if cut == 1:
        m, mc = overlay_add(state, m, mc, k2, -1)
        m, mc = overlay_add(state, m, mc, k3, -1)
    elif cut == 0:
        m, mc = overlay_add(state, m, mc, k1, -1)
    w0 = overlay_predictive(state, m, mc, k1, p1)
    w1 = overlay_predictive(state, m, mc, k2, p2)
    m, mc = overlay_add(state, m, mc, k2, 1)
    w1 += overlay_predictive(state, m, mc, k3, p3)
    top = max(w0, w1)
    w[0], w[1] = np.exp(w0 - top), np.exp(w1 - top)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: eq. 8 with the site's own rules discounted (r₂ and r₃ when it
    is cut, r₁ when not).

    Parameters
    ----------
    rng : numpy.random.Generator
        Unused: the weights draw nothing.
    state : ScfgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    n = state.site_node[s]
    if exact(state):
        exact_cut_weights(state, n, w)
        return
    k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
    weigh(state, w, k1, p1, k2, p2, k3, p3, state.cut[n])


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: z = v at the site's node, its rules unfiled and the new ones
    filed (nothing when z = v already); with exact seating the tables of the site's three
    rules (and the pending ones) drawn again, whatever z was.

    Parameters
    ----------
    rng : numpy.random.Generator
        Exact seating's draws.
    state : ScfgState, mutated
    s, v : int
    """
    n = state.site_node[s]
    if v != state.cut[n]:
        r = rule_root(state, n)
        unfile_rule(state, r)
        if state.cut[n]:
            unfile_rule(state, n)
        state.cut[n] = v
        file_rule(state, r)
        if v:
            file_rule(state, n)
    if exact(state):
        k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
        m = world_put(state, 0, k1, p1, 0)
        m = world_put(state, m, k2, p2, 0)
        m = world_put(state, m, k3, p3, 0)
        world_seat(rng, state, world_open(state, m))


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: the cut at the site's node.

    Parameters
    ----------
    state : ScfgState
    s : int

    Returns
    -------
    int64
    """
    return np.int64(state.cut[state.site_node[s]])


@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: the nodes that are no pair's root.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    int
    """
    return state.site_node.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: a cut is 0 or 1.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    int
    """
    return 2


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: with exact seating (the site's rules' tables are drawn after every
    cut draw); without it rules carry no seats.

    Parameters
    ----------
    state : ScfgState

    Returns
    -------
    bool
    """
    return exact(state)


@kernel
def exact_cut_weights(state, n, w):
    """TOKEN's cut at node n with exact seating: w[0] ∝ p(uncut), w[1] ∝ p(cut), the tables of
    r₁, r₂, r₃ (and of the pending rules) summed out given the others' — the site's own
    occurrences taken away first.

    Parameters
    ----------
    state : ScfgState (its world used as work)
    n : int
    w : float64[≥ 2]
        Output.
    """
    k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
    cut = np.int64(state.cut[n])
    m = world_put(state, 0, k1, p1, cut - 1)
    m = world_put(state, m, k2, p2, -cut)
    m = world_put(state, m, k3, p3, -cut)
    m = world_open(state, m)
    world_put(state, m, k1, p1, 1)
    w0 = world_log_weight(state, m)
    world_put(state, m, k1, p1, -1)
    world_put(state, m, k2, p2, 1)
    world_put(state, m, k3, p3, 1)
    w1 = world_log_weight(state, m)
    top = max(w0, w1)
    w[0], w[1] = np.exp(w0 - top), np.exp(w1 - top)
