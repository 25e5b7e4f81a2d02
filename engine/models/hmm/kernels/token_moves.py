"""TOKEN's side of the interface: the sites and their values, a site taken out and put back,
its K weights (eq. 3's predictive terms, with or without its own counts), and drawing its
value.
"""
from engine.core.jit import kernel
from engine.kernels import interface
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT, implements
from engine.models.hmm.kernels.counts import add_emission, add_trans, refresh_den
from engine.models.hmm.kernels.neighbours import count_site, next_state, prev_state, set_tag


@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: the tokens.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    return state.words.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: K.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    int
    """
    return state.trans.shape[0] - 1


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: the token's state − 1.

    Parameters
    ----------
    state : HmmState
    s : int

    Returns
    -------
    int64
    """
    return state.tag[s] - 1


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s : int
    """
    count_site(state, s, -1)
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: state v + 1, the neighbours refiled when it changes.

    Parameters
    ----------
    state : HmmState
        Mutated.
    s, v : int
    """
    if state.tag[s] != v + 1:
        set_tag(state, s, v + 1)
    count_site(state, s, 1)
    state.removed[s] = 0


@kernel
def full_count_weights(into, out, emit, inv_den, alpha, w):
    """w[k − 1] ∝ p(z_s = k | rest), k = 1 … K, for a token between states p and n emitting
    ``word``, from the counts as they are, with no correction for the token itself (Gao &
    Johnson Fig. 1 without its indicators):

      (n_{k,word} + α′) / (n_k + Vα′) · (n_{p,k} + α) · (n_{k,n} + α) / (n_{k·} + (K+1)α)

    The first transition's denominator n_{p·} + (K+1)α is the same for every k and is left out.
    Every factor is a contiguous row and the loop has no branch, so it vectorises; callers
    correct the few entries the token's own counts change.

    Parameters
    ----------
    into : int64[K+1]         n_{p,k} over k (trans[p])
    out : float64[K+1]        n_{k,n} + α over k (trans_num_t[n])
    emit : float64[K+1]       n_{k,word} + α′ over k (emit_num_t[word])
    inv_den : float64[K+1]
    alpha : float64           α
    w : float64[K]            output
    """
    for k in range(1, into.shape[0]):
        w[k - 1] = emit[k] * (into[k] + alpha) * out[k] * inv_den[k]


# The two weights functions only pick out rows and scalars for an array-level kernel: small
# enough for LLVM to inline into TOKEN's loop, so the call per site passes a few arrays, not the
# whole state (every array of a state passed to a function that is not inlined costs ~7 words).
@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights (``removed_site_weights``).

    Parameters
    ----------
    state : HmmState
    s : int
    w : float64[K]
        Output.
    """
    p, n, word = prev_state(state, s), next_state(state, s), state.words[s]
    p_denominator = ((state.emit_total[p] + state.emit.shape[1] * state.params[ALPHA_EMIT])
                     * (state.trans_total[p] + 1 + state.trans.shape[0] * state.params[ALPHA]))
    removed_site_weights(state.trans[p], state.trans_num_t[n], state.emit_num_t[word],
                         state.inv_den, state.params[ALPHA], p, n, p_denominator, w)


@kernel
def removed_site_weights(into, out, emit, inv_den, alpha, p, n, p_denominator, w):
    """site_weights for a removed token between p and n: the counts are n^{-s}, so only Fig. 1's
    indicators are left. When k = p the transition p → k is in the row of k → n, adding 1 to
    n_{k·} and, when also k = n, to n_{k,n}.

    Parameters
    ----------
    into, out, emit, inv_den, alpha
        As ``full_count_weights``'s.
    p, n : int
    p_denominator : float64
        (n_p + Vα′)(n_{p·} + 1 + (K+1)α).
    w : float64[K]
        Output.
    """
    full_count_weights(into, out, emit, inv_den, alpha, w)
    if p != 0:
        w[p - 1] = (emit[p] * (into[p] + alpha) * (out[p] + (1 if p == n else 0))
                    / p_denominator)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights (``own_token_weights``).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
    s : int
    w : float64[K]
        Output.
    """
    p, n, word, c = prev_state(state, s), next_state(state, s), state.words[s], state.tag[s]
    alpha, alpha_emit = state.params[ALPHA], state.params[ALPHA_EMIT]
    own_denominator = ((state.emit_total[c] - 1 + state.emit.shape[1] * alpha_emit)
                       * (state.trans_total[c] - 1 + state.trans.shape[0] * alpha))
    own_token_weights(state.trans[p], state.trans_num_t[n], state.emit_num_t[word],
                      state.inv_den, alpha, p, n, c, own_denominator, w)


@kernel
def own_token_weights(into, out, emit, inv_den, alpha, p, n, c, own_denominator, w):
    """token_weights for a token in state c between p and n whose choices are in the counts.

    Taking away its choices p → c, c → n and c emitting word, and adding Fig. 1's indicators,
    changes the weight of k only through n_{k,word}, n_k, n_{k·} (all at k = c: the indicator
    [p = k] cancels the removed p → c in n_{k·}), n_{p,k} (at k = c, and at k = n when p = c),
    n_{k,n} (at k = c, and at k = p when n = c) and [p = k = n]. So after the full-count
    weights only k ∈ {c, p, n} are rewritten.

    Parameters
    ----------
    into, out, emit, inv_den, alpha
        As ``full_count_weights``'s.
    p, n, c : int
    own_denominator : float64
        (n_c − 1 + Vα′)(n_{c·} − 1 + (K+1)α).
    w : float64[K]
        Output.
    """
    full_count_weights(into, out, emit, inv_den, alpha, w)
    if n != 0 and n != c:  # also covers k = p = n
        w[n - 1] = (emit[n] * (into[n] + alpha - (1 if p == c else 0))
                    * (out[n] + (1 if p == n else 0)) * inv_den[n])
    if p != 0 and p != c and p != n:
        w[p - 1] = emit[p] * (into[p] + alpha) * (out[p] - (1 if n == c else 0)) * inv_den[p]
    w[c - 1] = ((emit[c] - 1) * (into[c] + alpha - 1 - (1 if p == c == n else 0)) * (out[c] - 1)
                / own_denominator)


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: p → c, c → n become p → k, k → n (row p keeps its total), and the
    emission moves from c to k.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : HmmState
        Mutated.
    s, v : int
    """
    c, k = state.tag[s], v + 1
    if k == c:
        return
    p, n, word = prev_state(state, s), next_state(state, s), state.words[s]
    # p → c, c → n become p → k, k → n: row p keeps its total
    add_trans(state, p, c, -1)
    add_trans(state, c, n, -1)
    add_trans(state, p, k, 1)
    add_trans(state, k, n, 1)
    state.trans_total[c] -= 1
    state.trans_total[k] += 1
    add_emission(state, c, word, -1)
    add_emission(state, k, word, 1)
    refresh_den(state, c)
    refresh_den(state, k)
    set_tag(state, s, k)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False.

    Parameters
    ----------
    state : HmmState

    Returns
    -------
    bool
    """
    return False
