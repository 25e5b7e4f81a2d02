"""The counts the samplers read: N(r) from the rule index (``engine.core.keyed_lists``), T_r
(eq. 6) and the length classes' N_L(l) and T_l under the Pitman-Yor prior (eq. 7), the
predictive probability of a rule (eq. 4 under the DP, eq. 5 under the Pitman-Yor prior), and
filing a rule in the index or out of it.
"""
import numpy as np

from engine.core import hash_table
from engine.core.jit import inline, kernel
from engine.core.keyed_lists import file_item, unfile_item
from engine.models.scfg.kernels.layout import ALPHA, CLASS_SHIFT, DISCOUNT, LOG_ALPHA, TABLES
from engine.models.scfg.kernels.rules import rule_key


@inline
def count_of(state, key):
    """N(r): the rule's occurrences in the index.

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    slot = hash_table.find(state.slot_key, key)
    return state.slot_size[slot] if slot >= 0 else 0


@inline
def rule_class(state, key):
    """The restaurant of a rule: its length under the Pitman-Yor prior, 0 under the DP.

    Parameters
    ----------
    state : ScfgState
    key : int64

    Returns
    -------
    int64
    """
    return key >> CLASS_SHIFT if state.log_pois.shape[0] > 1 else 0


@inline
def tables(state, n):
    """T_r = N(r)^d (eq. 6), 0 for a rule not in use (0^0 would be 1).

    Parameters
    ----------
    state : ScfgState
    n : int

    Returns
    -------
    float64
    """
    d = state.params[DISCOUNT]
    return n ** d if n > 0 and d > 0.0 else 0.0


@inline
def log_count(state, n, log_p0, t_cls):
    """log(N(r) − d T_r + (d T_l + α) P₀(r)), the numerator of eq. 5 (eq. 4's N(r) + α P₀(r)
    when d = 0), exact also where the base term underflows a float.

    Parameters
    ----------
    state : ScfgState
    n : int
        N(r).
    log_p0 : float64
    t_cls : float64
        T_l of the rule's length.

    Returns
    -------
    float64
    """
    d = state.params[DISCOUNT]
    if d > 0.0:
        log_base = np.log(d * t_cls + state.params[ALPHA]) + log_p0
        a = n - d * tables(state, n)
    else:
        log_base = state.params[LOG_ALPHA] + log_p0
        a = float(n)
    if n == 0:
        return log_base
    return np.log(a) + np.log1p(np.exp(log_base - np.log(a)))


@inline
def log_predictive(state, key, n, log_p0, dn, dt):
    """log P(r | N): eq. 4 under the DP, eq. 5 under the Pitman-Yor prior (its Poisson length
    prior included), with the rule's restaurant changed by dn rules and dt tables.

    Parameters
    ----------
    state : ScfgState
    key : int64
    n : int
        N(r).
    log_p0 : float64
    dn : int
        Rules added to (negative: taken from) N_L(l), n under the DP.
    dt : float64
        Tables added to T_l.

    Returns
    -------
    float64
    """
    c = rule_class(state, key)
    return (log_count(state, n, log_p0, state.cls_t[c] + dt) + state.log_pois[c]
            - np.log(state.cls_n[c] + dn + state.params[ALPHA]))


@inline
def count_rule(state, key, sign):
    """n, N_L(l) and T_l when one occurrence of ``key`` is filed (sign 1) or taken out (−1),
    before the index changes its count.

    Parameters
    ----------
    state : ScfgState, mutated
    key : int64
    sign : int
    """
    c = rule_class(state, key)
    state.n_rules[0] += sign
    state.cls_n[c] += sign
    if state.params[DISCOUNT] > 0.0:  # tables only under the Pitman-Yor prior: no lookup else
        n = count_of(state, key)
        state.cls_t[c] += tables(state, n + sign) - tables(state, n)


@kernel
def file_rule(state, r):
    """Name the rule rooted at r (cut, on the tree) and file it in the index.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    """
    key, log_p0 = rule_key(state, r)
    file_known(state, r, key, log_p0)


@kernel
def unfile_rule(state, r):
    """Take the rule rooted at r out of the index.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    """
    count_rule(state, state.key[r], -1)
    if state.u[r]:  # exact seating: its table goes with it
        state.work_i[TABLES, rule_class(state, state.key[r])] -= 1
        state.u[r] = 0
    unfile_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
                state.item_prev, state.key[r], r)


@inline
def rule_root(state, n):
    """The root of the rule n is inside or at the frontier of: its nearest cut ancestor.

    Parameters
    ----------
    state : ScfgState
    n : int
        A node on the tree, not a root.

    Returns
    -------
    int
    """
    r = state.up[n]
    while not state.cut[r]:
        r = state.up[r]
    return r


@inline
def file_known(state, r, key, log_p0):
    """File the rule rooted at r whose key is known.

    Parameters
    ----------
    state : ScfgState, mutated
    r : int
    key : int64
    log_p0 : float64
    """
    count_rule(state, key, 1)
    state.key[r], state.logp0[r] = key, log_p0
    file_item(state.slot_key, state.slot_head, state.slot_size, state.item_next,
              state.item_prev, key, r)
