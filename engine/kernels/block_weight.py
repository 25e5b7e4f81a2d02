"""The block weight g(m) of eq. 7, p(m) ∝ C(|S|, m) g(m), in the two forms TYPE reads, and the
Dirichlet-process family's g(m) from the rising factorials of eq. 9.

A model gives g(m) through ``interface.block_weights``, in one of two forms:

- *log*: log g(m) − log g(0) for m = 0 … |S| (only the ratios of g matter to eq. 7 and to
  TYPE-greedy);
- *linear*: p(m) itself as w[m] · SCALE^k[m] (engine.core.draw.scale_steps), built from the
  one-step ratios p(m + 1) / p(m) without a log or an exp; ``binomial_steps`` writes C(|S|, m)'s
  share of them, the model multiplies in g's.

A Dirichlet-process model (the toy, the USM, the HMM) writes eq. 9's terms
(``interface.block_delta``) and registers ``rising_block_weights`` as its block_weights; a model
whose g is not such a product (a Pitman-Yor process, a forest) writes its own.
"""
import numpy as np

from engine.core.draw import scale_steps
from engine.core.jit import inline, kernel
from engine.kernels.interface import block_delta

# Terms of g(m) one block may need (eq. 9): a few outcomes and rows per site value.
MAX_DELTA_TERMS = 64


def rising_block_weights(state, s0, v0, v1, size, linear, out, work):
    """``interface.block_weights`` of a Dirichlet-process model, from its ``block_delta``
    terms: the linear form when asked and no term or step is out of linear range, else the
    log form. Registered by each such model (``implements(interface.block_weights)(…)``).

    Parameters
    ----------
    state : model state implementing block_delta, its block removed
    s0, v0, v1, size : int
        The pivot, the slice {v0, v1} and |S| ≥ 2.
    linear : bool
        Whether the linear form is wanted (plain sampling: no temperature, not greedy).
    out : float64[2, ≥ size + 1]
        Output: row 0 log g(m) − log g(0) (log form) or the scale exponents k[m], row 1 the
        mantissas w[m] (linear form).
    work : float64[4, ≥ MAX_DELTA_TERMS]
        eq. 9's terms: rows base, d0, d1, sign (``interface.block_delta``).

    Returns
    -------
    bool
        True for the linear form, False for the log form.
    """
    base, d0, d1, sign = work[0], work[1], work[2], work[3]
    n_terms = delta_terms(state, s0, v0, v1, base, d0, d1, sign)
    done = (linear and rising_steps(size, n_terms, base, d0, d1, sign, out[1], out[0])
            and scale_steps(size, out[1], out[0]))
    if not done:
        terms_log_g(size, n_terms, out[0], base, d0, d1, sign)
    return done


@inline
def delta_terms(state, s0, v0, v1, base, d0, d1, sign):
    """block_delta's terms, refused when there are more than MAX_DELTA_TERMS: the buffers are
    sized for that many, and a model that writes past them would corrupt the next row.

    Parameters
    ----------
    state : model state implementing block_delta, its block removed
    s0, v0, v1 : int
        The pivot and the slice {v0, v1}.
    base, d0, d1, sign : float64[≥ MAX_DELTA_TERMS]
        Output: the terms (``interface.block_delta``).

    Returns
    -------
    int
        The number of terms written.
    """
    n_terms = block_delta(state, s0, v0, v1, base, d0, d1, sign)
    if n_terms > MAX_DELTA_TERMS:
        raise ValueError("block_delta wrote more terms of eq. 9 than MAX_DELTA_TERMS "
                         "(engine/kernels/block_weight.py): raise the limit")
    return n_terms


@kernel
def block_log_g(state, s0, v0, v1, size, log_g, base, d0, d1, sign):
    """log g(m) − log g(0) of eq. 9 for m = 0 … size (m = sites set to v1), from the model's
    block_delta terms.

    Parameters
    ----------
    state : model state implementing block_delta, its block removed (``moves.gather_block``)
    s0, v0, v1, size : int
        The pivot, the slice {v0, v1} and |S|.
    log_g : float64[≥ size + 1]
        Output.
    base, d0, d1, sign : float64[≥ MAX_DELTA_TERMS]
        Work: the terms (see ``step_ratio``).
    """
    n_terms = delta_terms(state, s0, v0, v1, base, d0, d1, sign)
    terms_log_g(size, n_terms, log_g, base, d0, d1, sign)


@kernel
def terms_log_g(size, n_terms, log_g, base, d0, d1, sign):
    """log g(m) − log g(0) for m = 0 … size from block_delta's terms.

    Parameters
    ----------
    size, n_terms : int
        |S| and the number of terms.
    log_g : float64[≥ size + 1]
        Output.
    base, d0, d1, sign : float64[≥ n_terms]
        The terms (``interface.block_delta``).
    """
    total = 0.0
    log_g[0] = total
    for m in range(size):
        ratio, log_part = step_ratio(m, size, n_terms, base, d0, d1, sign)
        total += np.log(ratio) + log_part
        log_g[m + 1] = total


@inline  # per m of every block
def step_ratio(m, size, n_terms, base, d0, d1, sign):
    """g(m + 1) / g(m) of eq. 9 from block_delta's terms: from m to m + 1 term j's count moves
    by d1 − d0, a factor or two, so g is updated by the ratio of those factors instead of
    recomputing every rising factorial (lgamma) per m.

    A term whose base is too small for linear arithmetic (a long new word's α₀P₀ in the
    segmentation model) is written by the model as its log, a negative number — a base itself
    is always positive. Its factors (base + k) are then k for the integers k ≥ 1, next to which
    such a base vanishes, and base itself for k = 0, which goes to the log part.

    Parameters
    ----------
    m, size, n_terms : int
    base, d0, d1, sign : float64[≥ n_terms]
        The terms (``interface.block_delta``).

    Returns
    -------
    (float, float)
        The ratio's linear part and its log part.
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


@inline  # per block: a call costs more than its loop on the small blocks of the HMM
def binomial_steps(size, w, k):
    """C(size, m + 1) / C(size, m) = (size − m) / (m + 1) as w[m + 1] / k[m + 1] for
    m = 0 … size − 1: the linear form's steps before g's factors are multiplied in.

    Parameters
    ----------
    size : int
    w, k : float64[≥ size + 1]
        Output, entries 1 … size.
    """
    for m in range(size):
        w[m + 1] = size - m
        k[m + 1] = m + 1.0


@inline  # per block, like binomial_steps
def rising_steps(size, n_terms, base, d0, d1, sign, w, k):
    """The one-step ratios p(m + 1) / p(m) = w[m + 1] / k[m + 1] of eq. 7 from block_delta's
    terms, each factor of ``step_ratio`` being linear in m: filled factor by factor, the loops
    over m have no branches and vectorise. Return False, writing nothing, when a base is too
    small for linear arithmetic (written as its log).

    Parameters
    ----------
    size, n_terms : int
    base, d0, d1, sign : float64[≥ n_terms]
        The terms (``interface.block_delta``).
    w, k : float64[≥ size + 1]
        Output, entries 1 … size.

    Returns
    -------
    bool
        Whether the steps were written.
    """
    linear = True
    for j in range(n_terms):
        linear = linear and base[j] >= 0.0
    if linear:
        binomial_steps(size, w, k)
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
    return linear
