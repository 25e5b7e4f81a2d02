"""TYPE's sites (§3): a site removed with its type remembered and its rules out of the index,
added back cut or uncut, its own weights and the sites it conflicts with.
"""
from engine.kernels import interface
from engine.models.scfg.kernels.layout import GATHERING, META, T1, T2, T3, exact, implements
from engine.models.scfg.kernels.counts import file_known, rule_root, unfile_rule
from engine.models.scfg.kernels.tables import pend_add
from engine.models.scfg.kernels.token_cut import type_of, weigh


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site: the site's type remembered (``type_key``), its rules (r₁, or r₂
    and r₃) taken out of the index and their roots marked gone (``conflicts``).

    Parameters
    ----------
    state : ScfgState, mutated
    s : int
    """
    n = state.site_node[s]
    pivot = state.work_i[META, GATHERING] - 1
    if pivot >= 0:  # a site of the pivot's block: block_candidates found its type the pivot's
        r = rule_root(state, n)
        for j in range(3):
            state.type_key[s, j], state.type_logp0[s, j] = (state.type_key[pivot, j],
                                                            state.type_logp0[pivot, j])
    else:
        k1, p1, k2, p2, k3, p3, r = type_of(state, n)
        state.type_key[s, T1], state.type_key[s, T2], state.type_key[s, T3] = k1, k2, k3
        state.type_logp0[s, T1], state.type_logp0[s, T2], state.type_logp0[s, T3] = p1, p2, p3
    state.type_root[s] = r
    unfile_rule(state, r)
    if state.cut[n]:
        unfile_rule(state, n)
    state.gone[r] += 1
    state.gone[n] += 1
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: z = v and the rules of that value, known from the site's type,
    filed again.

    Parameters
    ----------
    state : ScfgState, mutated
    s, v : int
    """
    n = state.site_node[s]
    r = state.type_root[s]
    state.work_i[META, GATHERING] = 0  # the block is gathered
    state.cut[n] = v
    if v:
        file_known(state, r, state.type_key[s, T2], state.type_logp0[s, T2])
        file_known(state, n, state.type_key[s, T3], state.type_logp0[s, T3])
    else:
        file_known(state, r, state.type_key[s, T1], state.type_logp0[s, T1])
    state.gone[r] -= 1
    state.gone[n] -= 1
    state.removed[s] = 0
    if exact(state):  # no random stream here: the type's tables stay summed out for now
        for j in range(3):
            pend_add(state, state.type_key[s, j])


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights: eq. 8 for a removed site from the type it had in place, the
    index's counts being N.

    Parameters
    ----------
    state : ScfgState
    s : int
    w : float64[≥ 2]
        Output.
    """
    weigh(state, w, state.type_key[s, T1], state.type_logp0[s, T1], state.type_key[s, T2],
          state.type_logp0[s, T2], state.type_key[s, T3], state.type_logp0[s, T3], -1)


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: whether a rule the site's value touches — the one rooted at its
    rule root, and the one it roots when cut — was taken out by a removed site (the paper's
    nodes(r₁) ∩ nodes(r₁′) ≠ ∅ between the two sites' merged rules).

    Parameters
    ----------
    state : ScfgState
    s : int

    Returns
    -------
    bool
    """
    n = state.site_node[s]
    return (state.removed[s] != 0 or state.gone[rule_root(state, n)] > 0
            or (state.cut[n] != 0 and state.gone[n] > 0))
