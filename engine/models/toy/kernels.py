"""The toy `ab` model of Liang et al. §2 behind the model interface.

n sites; z_i = 0 analyses the i-th `ab` as one word `ab`, z_i = 1 as two words `a`, `b`.
Words come from θ ~ Dirichlet(1, 1, 1) over {a, b, ab}, so with counts n_a, n_b, n_ab and
N = n_a + n_b + n_ab, p(z | x) ∝ 1^(n_a) 1^(n_b) 1^(n_ab) / 3^(N) = g(m)  (eq. 1).
"""
from collections import namedtuple

import numpy as np

from engine.core.draw import random_index
from engine.core.jit import kernel
from engine.core.special import log_binom, log_rising
from engine.kernels import block_weight, interface, moves
from engine.kernels.interface import for_state

# Word outcomes of the single multinomial θ; each has prior weight α μ_o = 1.
WORD_A, WORD_B, WORD_AB = 0, 1, 2
PRIOR = 1.0
PRIOR_TOTAL = 3.0

ToyState = namedtuple("ToyState", ["z", "n_word", "removed"])
ToyState.__doc__ = """State of the toy model.

z : int8[n]          the site values (1 = `a b`, 0 = `ab`)
n_word : int64[3]    running counts n_a, n_b, n_ab of the sites not removed
removed : uint8[n]   1 while a site's choices are removed (inside a move)
"""

implements = for_state(ToyState)


@kernel
def add_word_counts(n_word, v, sign):
    """Add (sign=+1) or remove (sign=−1) the words of one site with value v.

    Parameters
    ----------
    n_word : int64[3]
        n_a, n_b, n_ab, mutated.
    v, sign : int
    """
    if v == 1:
        n_word[WORD_A] += sign
        n_word[WORD_B] += sign
    else:
        n_word[WORD_AB] += sign


@implements(interface.n_sites)
def _n_sites(state):
    """interface.n_sites: n, one site per copy of `ab`.

    Parameters
    ----------
    state : ToyState

    Returns
    -------
    int
    """
    return state.z.shape[0]


@implements(interface.n_values)
def _n_values(state):
    """interface.n_values: 2 (0 = `ab`, 1 = `a b`).

    Parameters
    ----------
    state : ToyState

    Returns
    -------
    int
    """
    return 2


@implements(interface.get_value)
def _get_value(state, s):
    """interface.get_value: z_s.

    Parameters
    ----------
    state : ToyState
    s : int

    Returns
    -------
    int64
    """
    return np.int64(state.z[s])


@implements(interface.remove_site)
def _remove_site(state, s):
    """interface.remove_site: take site s's words out of the counts and mark it removed.

    Parameters
    ----------
    state : ToyState
        Mutated.
    s : int
    """
    add_word_counts(state.n_word, state.z[s], -1)
    state.removed[s] = 1


@implements(interface.add_site)
def _add_site(state, s, v):
    """interface.add_site: z_s = v, its words counted, the mark cleared.

    Parameters
    ----------
    state : ToyState
        Mutated.
    s, v : int
    """
    state.z[s] = v
    add_word_counts(state.n_word, v, 1)
    state.removed[s] = 0


@implements(interface.site_weights)
def _site_weights(state, s, w):
    """interface.site_weights: eq. 4 for a removed site, the shared denominator
    1 / ((3 + N)(4 + N)) cancelled:
      b = 0 adds `ab`:        (1 + n_ab) / (3 + N)
      b = 1 adds `a` and `b`: (1 + n_a)(1 + n_b) / ((3 + N)(4 + N))

    Parameters
    ----------
    state : ToyState
    s : int
    w : float64[≥ 2]
        Output.
    """
    n_a, n_b, n_ab = state.n_word[WORD_A], state.n_word[WORD_B], state.n_word[WORD_AB]
    total = n_a + n_b + n_ab
    w[0] = (PRIOR + n_ab) * (PRIOR_TOTAL + 1.0 + total)
    w[1] = (PRIOR + n_a) * (PRIOR + n_b)


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights by removal (moves.weights_by_removal).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ToyState
    s : int
    w : float64[≥ 2]
        Output.
    """
    moves.weights_by_removal(rng, state, s, w)


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value by removal (moves.set_by_removal).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ToyState
        Mutated.
    s, v : int
    """
    moves.set_by_removal(rng, state, s, v)


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: False, the toy seats no one.

    Parameters
    ----------
    state : ToyState

    Returns
    -------
    bool
    """
    return False

@implements(interface.pivots_in_order)
def _pivots_in_order(state):
    """interface.pivots_in_order: False, a fresh random order each sweep.

    Parameters
    ----------
    state : ToyState

    Returns
    -------
    bool
    """
    return False


@implements(interface.conflicts)
def _conflicts(state, s):
    """interface.conflicts: sites share no choice, so a site conflicts only with itself.

    Parameters
    ----------
    state : ToyState
    s : int

    Returns
    -------
    bool
    """
    return state.removed[s] != 0  # sites share no choice; only a site with itself


@implements(interface.block_candidates)
def _block_candidates(state, s0, out):
    """interface.block_candidates: every site adds the same counts, so all have one type (§2).

    Parameters
    ----------
    state : ToyState
    s0 : int
    out : int64[n]
        Output: every site.

    Returns
    -------
    int
        n.
    """
    n = state.z.shape[0]
    for i in range(n):
        out[i] = i
    return n


implements(interface.block_weights)(block_weight.rising_block_weights)


@implements(interface.block_delta)
def _block_delta(state, s0, v0, v1, base, d0, d1, sign):
    """interface.block_delta: the words a, b, ab (value 1 adds a and b, value 0 ab) and the
    1 + v draws from θ.

    Parameters
    ----------
    state : ToyState
    s0, v0, v1 : int
    base, d0, d1, sign : float64[≥ 4]
        Output: the terms.

    Returns
    -------
    int
        4.
    """
    for j, word in enumerate((WORD_A, WORD_B, WORD_AB)):
        base[j] = PRIOR + state.n_word[word]
        d0[j] = v0 if word != WORD_AB else 1 - v0
        d1[j] = v1 if word != WORD_AB else 1 - v1
        sign[j] = 1.0
    base[3] = PRIOR_TOTAL + state.n_word.sum()
    d0[3] = 1 + v0
    d1[3] = 1 + v1
    sign[3] = -1.0
    return 4


@kernel
def log_g(n, m):
    """log g(m) of eq. 1 for n sites of which m are split: 1^(m) 1^(m) 1^(n−m) / 3^(n+m).

    Parameters
    ----------
    n, m : int

    Returns
    -------
    float64
    """
    return (2.0 * log_rising(PRIOR, m) + log_rising(PRIOR, n - m)
            - log_rising(PRIOR_TOTAL, n + m))


@kernel
def log_posterior_unnormalised(n, out):
    """out[m] = log C(n, m) + log g(m) for m = 0 … n (eq. 2).

    Parameters
    ----------
    n : int
    out : float64[n + 1]
        Output.
    """
    for m in range(n + 1):
        out[m] = log_binom(n, m) + log_g(n, m)


@kernel
def add_word_counts_all(n_word, z):
    """Add the words of every site of z to n_word.

    Parameters
    ----------
    n_word : int64[3]
        Mutated.
    z : int8[n]
    """
    for v in z:
        add_word_counts(n_word, v, 1)


@kernel
def token_escape_time(rng, state, max_passes, w):
    """Passes of TOKEN until m first drops below n/2, or −1 if not within max_passes.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ToyState, mutated (the chain is run in place)
    max_passes : int
    w : float64[2]
        Work buffer for the TOKEN moves.

    Returns
    -------
    int
    """
    n = state.z.shape[0]
    for passes in range(1, max_passes + 1):
        moves.token_sweep(rng, state, 0, n, 1.0, w)
        if 2 * state.n_word[WORD_A] < n:  # n_a = m
            return passes
    return -1


@kernel
def type_draws(rng, state, out, bufs_int, bufs_float, chosen):
    """Make len(out) TYPE moves and record the m each one drew.

    On the toy every site has the one type, so each move's block is all n sites and its m is
    an exact draw from p(m | x) (eq. 7 = eq. 2), whatever the state it started from.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : ToyState, mutated
    out : int64[count]
        Output.
    bufs_int, bufs_float, chosen
        As ``moves.type_move``'s.
    """
    n = state.z.shape[0]
    for i in range(out.shape[0]):
        pivot = random_index(rng, n)
        out[i] = moves.type_move(rng, state, pivot, 1, 1.0, False, bufs_int, bufs_float, chosen)[1]
