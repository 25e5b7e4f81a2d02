"""A site's two weights, p(b_s = 0 / 1 | rest) by eq. 4, from the counts without the site's
own fragments (merged M against upper U and lower L), behind the interface's token_weights and
site_weights.
"""
import numpy as np

from engine.core import hash_table
from engine.core.jit import inline
from engine.kernels import interface
from engine.models.ptsg.kernels.layout import L_KEY, M_KEY, U_KEY, implements
from engine.models.ptsg.kernels.keys import fragment_root, key_above
from engine.models.ptsg.kernels.counts import slot_count


@inline
def log_term(log_alpha_mu, n):
    """log(n + α μ), from log α μ (which may be far below any float).

    Parameters
    ----------
    log_alpha_mu : float64
    n : int

    Returns
    -------
    float64
    """
    if n == 0:
        value = log_alpha_mu
    else:
        value = np.log(n + np.exp(log_alpha_mu))
    return value


@inline
def weigh(state, w, mu_m, mu_u, mu_l, n_m, n_u, n_l, same, n_x):
    """w[0], w[1] ∝ p(b_s = 0 / 1 | rest) (eq. 4) from the counts without the site's own
    fragments, the shared 1 / (α + n_R) cancelled:

      b = 0 draws M from θ_R:               α μ_M + n_M
      b = 1 draws U from θ_R, then L from θ_X:
            (α μ_U + n_U) (α μ_L + n_L + [L = U]) / (α + n_X + [X = R])

    Parameters
    ----------
    state : PtsgState
    w : float64[≥ 2]
        Output.
    mu_m, mu_u, mu_l : float64
        log μ of M, U, L.
    n_m, n_u, n_l : int
        Their counts.
    same : bool
        L = U (the same fragment: drawn twice).
    n_x : int
        n_X + [X = R]: the draws from θ_X before L's.
    """
    log_alpha = state.params[1]
    log_w0 = log_term(log_alpha + mu_m, n_m)
    log_w1 = (log_term(log_alpha + mu_u, n_u) + log_term(log_alpha + mu_l, n_l + same)
              - np.log(state.params[0] + n_x))
    top = max(log_w0, log_w1)
    w[0] = np.exp(log_w0 - top)
    w[1] = np.exp(log_w1 - top)


@inline
def type_of(state, n):
    """The type of site node n in place: keys and log μ of M, U and L, and its fragment root.

    Parameters
    ----------
    state : PtsgState
    n : int

    Returns
    -------
    (int64, int64, int64, float64, float64, float64, int64)
        M, U, L, log μ_M, log μ_U, log μ_L, the root of M (or U).
    """
    r = fragment_root(state, n)
    key_l, mu_l = state.h_in[n], state.mu_in[n]
    if state.cut[n]:
        key_u, mu_u = state.h_in[r], state.mu_in[r]
        key_m, mu_m = key_above(state, n, 0)
    else:
        key_m, mu_m = state.h_in[r], state.mu_in[r]
        key_u, mu_u = key_above(state, n, 1)
    return key_m, key_u, key_l, mu_m, mu_u, mu_l, r


@inline
def weigh_in_place(state, w, key_m, key_u, key_l, mu_m, mu_u, mu_l, x, joined, cut):
    """eq. 4 (``weigh``) for one site of type (M, U, L) at a node labelled x whose fragments are
    still in the index: its own are discounted — M when joined (joined = 1), U and L when cut
    (cut = 1).

    Parameters
    ----------
    state : PtsgState
    w : float64[≥ 2]
        Output.
    key_m, key_u, key_l : int64
    mu_m, mu_u, mu_l : float64
    x : int
        The site's label.
    joined, cut : int
        1 − b_s and b_s.
    """
    same = key_u == key_l
    slot_m, slot_u, slot_l = hash_table.find_three(state.slot_key, key_m, key_u, key_l)
    n_m = slot_count(state, slot_m) - joined
    n_u = slot_count(state, slot_u) - cut - (cut if same else 0)
    n_l = n_u if same else slot_count(state, slot_l) - cut
    # n_X less the site's own draws from θ_X (L, and U or M when X = R), plus U's when X = R:
    # n_X − b in every case
    weigh(state, w, mu_m, mu_u, mu_l, n_m, n_u, n_l, same, state.n_root[x] - cut)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: eq. 4 from the index's counts, less the site's own fragments
    (U and L when cut, M when not); nothing is written.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : PtsgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    n = state.site_node[s]
    key_m, key_u, key_l, mu_m, mu_u, mu_l, _ = type_of(state, n)
    b = np.int64(state.cut[n])
    weigh_in_place(state, w, key_m, key_u, key_l, mu_m, mu_u, mu_l, state.label[n], 1 - b, b)


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights: eq. 4 for a removed site, the only one set aside, from the type
    it had in place.

    Parameters
    ----------
    state : PtsgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    weigh_in_place(state, w, state.type_key[M_KEY], state.type_key[U_KEY],
                   state.type_key[L_KEY], state.type_mu[M_KEY], state.type_mu[U_KEY],
                   state.type_mu[L_KEY], state.label[state.site_node[s]], state.aside[0],
                   state.aside[1])
