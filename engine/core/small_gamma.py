"""Gamma(a) variates of one fixed shape a < 1, drawn many at a time: a ziggurat over log X.

The explicit samplers' parameter step draws a Gamma variate per cell of a count table, and most
cells of an HMM's emissions have a count of 0: Gamma(α′) for one α′ below 1, ~88,000 times a
sweep on EWT dev. Marsaglia & Tsang's boost (engine.core.dirichlet) takes three random numbers
and an exponential function for each; here most take one random number and some arithmetic,
and return log X (the Dirichlet draw exponentiates a whole table at once).

Y = log X of X ~ Gamma(a) has density ∝ g(y) = exp(a y − eʸ): bounded, unimodal, its mode at
m = log a. Seen from the mode, each side is a decreasing shape on t ≥ 0,

    left  f_L(t) = g(m − t) / g(m) = exp(−a (t + e⁻ᵗ − 1))    (an exponential tail, rate a)
    right f_R(t) = g(m + t) / g(m) = exp(−a (eᵗ − 1 − t))

and each is covered by a ziggurat (Marsaglia & Tsang 2000, "The ziggurat method"): LAYERS
boxes of equal area v, box i ≥ 1 the rectangle [0, x_i] × [f(x_i), f(x_{i+1})] (x_LAYERS = 0,
its top at f = 1), box 0 the rectangle [0, r] × [0, f(r)] with the tail beyond r = x_1, drawn as
a rectangle of width x_0 = v / f(r). A point uniform in the union of both sides' boxes (a side
with probability ∝ its v, a box uniformly, a place in it) is kept when it lies under the shape;
its t then has the side's law. Most points fall where box i lies under box i + 1 (t < x_{i+1})
and are kept with no test; a point in a box's wedge is tested against f, one beyond r is drawn
from the tail's exact law by rejection, and a rejected point starts again from the choice of
side. The tails: on the left Y = y_L − E / a for E ~ Exp(1) (the envelope e^{a y}), kept with
probability exp(−e^Y); on the right X = x_R + E, kept with probability (X / x_R)^{a − 1}
(the tail of Gamma(a) beyond x_R = e^{y_R}, under its envelope e^{−x}).

The tables are built once per shape in Python (SciPy's incomplete gamma function for the tails'
areas, Lambert's W for the inverse of each side's shape), the side's width r by bisection on
the condition that the last box ends at f = 1.
"""
import functools
import math

import numpy as np
from scipy import special

from engine.core.jit import inline, kernel

# boxes per side: a point beyond its box's inner part (a wedge's test, an expm1 and an exp; or
# a tail) is 1.7–1.9 % of the draws with 256, 3.1–3.5 % with 128 (a draw 5.5 against 6.9 ns)
LAYERS = 256
# rows of a table: each side's widths x_0 … x_LAYERS and heights f(x_0) … f(x_LAYERS), then one
# row of constants
X_LEFT, F_LEFT, X_RIGHT, F_RIGHT, CONSTANTS = range(5)  # draw_log: X_RIGHT = X_LEFT + 2
# the constants' row: the shape, its mode log a, the left side's probability and the scales
# that turn a uniform below it (or above it) into a box and a place, the left tail's start
# y_L and the right tail's x_R
SHAPE, MODE, P_LEFT, SCALE_LEFT, SCALE_RIGHT, Y_TAIL, X_TAIL = range(7)  # and SCALE_LEFT + 1
# below it a draw underflows to 0 too often (for a = 0.01, one in a few thousand): the Dirichlet
# draws then work in logs (engine.core.dirichlet)
LOWEST_SHAPE = 0.05


def usable(a):
    """Whether ``table`` can be built for shape a."""
    return LOWEST_SHAPE <= a < 1.0


@functools.lru_cache(maxsize=16)
def _table(a):
    out = np.zeros((5, LAYERS + 1))
    v = {}
    for side, (x_row, f_row) in enumerate(((X_LEFT, F_LEFT), (X_RIGHT, F_RIGHT))):
        xs, v[side] = _side(a, side)
        out[x_row] = xs
        # f(x_0) is never read (box 0 is a rectangle and the tail)
        out[f_row, 1:LAYERS] = [_shape(a, side, x) for x in xs[1:LAYERS]]
        out[f_row, LAYERS] = 1.0
    p_left = v[0] / (v[0] + v[1])
    m = math.log(a)
    out[CONSTANTS, :7] = (a, m, p_left, LAYERS / p_left, LAYERS / (1.0 - p_left),
                          m - out[X_LEFT, 1], math.exp(m + out[X_RIGHT, 1]))
    out.setflags(write=False)
    return out


def table(a):
    """The ziggurat of Gamma(a) for ``draw_log``: float64[5, LAYERS + 1] (a copy of the cached one).

    Parameters
    ----------
    a : float
        The shape, LOWEST_SHAPE ≤ a < 1.
    """
    a = float(a)
    if not usable(a):
        raise ValueError(f"a small-shape Gamma table needs {LOWEST_SHAPE} ≤ a < 1 (got {a})")
    return _table(a).copy()


def _shape(a, side, t):
    """f_L(t) (side 0) or f_R(t) (side 1)."""
    h = t + math.expm1(-t) if side == 0 else math.expm1(t) - t
    return math.exp(-a * h)


def _inverse(a, side, level):
    """The t ≥ 0 where the side's shape equals ``level`` (0 < level ≤ 1): with c = −log(level)
    / a and s the solution of s e⁻ˢ = e^{−1−c}, t = 1 + c − s on the left (s < 1: Lambert's W₀)
    and s − 1 − c on the right (s > 1: W₋₁)."""
    c = -math.log(level) / a
    if c == 0.0:
        return 0.0
    z = -math.exp(-1.0 - c)
    if side == 0:
        return 1.0 + c + special.lambertw(z, 0).real
    return -special.lambertw(z, -1).real - 1.0 - c


def _tail_area(a, side, r):
    """∫_r^∞ f(t) dt: P(Y beyond the side's r) times Γ(a) / g(m), where g(m) = aᵃ e⁻ᵃ."""
    scale = math.exp(special.gammaln(a) + a - a * math.log(a))
    if side == 0:
        return scale * special.gammainc(a, a * math.exp(-r))
    return scale * special.gammaincc(a, a * math.exp(r))


def _climb(a, side, r):
    """The widths x_1 = r, x_2, … of boxes of area v(r) each; returns (how far the last one
    overshoots f = 1 — positive when the boxes reach the top before the last, so r is too
    small —, the widths, v)."""
    v = r * _shape(a, side, r) + _tail_area(a, side, r)
    xs = [r]
    for _ in range(LAYERS - 2):
        level = _shape(a, side, xs[-1]) + v / xs[-1]
        if level >= 1.0:
            return 1.0, xs, v
        t = _inverse(a, side, level)
        if not math.isfinite(t):  # a level below e^−700 a: r is far too large
            return -1.0, xs, v
        xs.append(t)
    return _shape(a, side, xs[-1]) + v / xs[-1] - 1.0, xs, v


def _side(a, side):
    """One side's widths x_0 … x_LAYERS and its boxes' area v."""
    low, high = 1e-9, 1.0
    while _climb(a, side, high)[0] > 0.0:  # the top reached too early: r larger
        low, high = high, 2.0 * high
    for _ in range(200):
        middle = 0.5 * (low + high)
        if _climb(a, side, middle)[0] > 0.0:
            low = middle
        else:
            high = middle
        if high - low <= 1e-15 * high:
            break
    _, xs, v = _climb(a, side, high)
    return np.array([v / _shape(a, side, high), *xs, 0.0]), v


# what a rejected point returns in place of log X (which is always finite)
REJECTED = math.inf


@inline
def draw_log(rng, table):
    """log X of a Gamma(a) variate X, a = table[CONSTANTS, SHAPE].

    Parameters
    ----------
    rng : numpy.random.Generator
    table : float64[5, LAYERS + 1]
        From ``table(a)``.

    Returns
    -------
    float64
    """
    constants = table[CONSTANTS]
    p_left = constants[P_LEFT]
    y = REJECTED
    while y == REJECTED:
        u = rng.random()
        # the side chosen by selects, not a branch: it is a coin toss no predictor can learn
        # (a mispredicted branch a draw took a third of its time)
        right = np.int64(u >= p_left)
        w = (u - right * p_left) * constants[SCALE_LEFT + right]
        y = _in_side(rng, table, X_LEFT + 2 * right, 2.0 * right - 1.0, w)
    return y


@inline
def _in_side(rng, table, x_row, direction, w):
    """A point of the side's boxes from w uniform in [0, LAYERS): its log X when kept,
    REJECTED when not. Most are kept at once; the rest go to ``_edge``.

    Parameters
    ----------
    rng : numpy.random.Generator
    table : float64[5, LAYERS + 1]
    x_row : int     X_LEFT or X_RIGHT
    direction : float64   −1 (left) or 1 (right)
    w : float64     uniform in [0, LAYERS): the box (its integer part) and the place in it

    Returns
    -------
    float64
    """
    i = min(np.int64(w), LAYERS - 1)
    t = (w - i) * table[x_row, i]
    if t < table[x_row, i + 1]:
        y = table[CONSTANTS, MODE] + direction * t
    else:
        y = _edge(rng, table, x_row, direction, i, t)
    return y


@kernel
def _edge(rng, table, x_row, direction, i, t):
    """A point beyond box i + 1's width: in box 0, the side's tail (drawn exactly); in a wedge,
    kept when under the shape. Returns log X, or REJECTED.

    Parameters
    ----------
    rng : numpy.random.Generator
    table : float64[5, LAYERS + 1]
    x_row : int     X_LEFT or X_RIGHT
    direction : float64   −1 (left) or 1 (right)
    i : int         the box
    t : float64     the point's distance from the mode
    """
    a = table[CONSTANTS, SHAPE]
    if i == 0 and direction < 0.0:
        y_tail = table[CONSTANTS, Y_TAIL]
        while True:
            y = y_tail - rng.standard_exponential() / a
            if rng.random() < math.exp(-math.exp(y)):
                return y
    if i == 0:
        x_tail = table[CONSTANTS, X_TAIL]
        while True:
            x = x_tail + rng.standard_exponential()
            if rng.random() < math.exp((a - 1.0) * math.log(x / x_tail)):
                return math.log(x)
    low, high = table[x_row + 1, i], table[x_row + 1, i + 1]
    h = t + math.expm1(-t) if direction < 0.0 else math.expm1(t) - t
    if low + rng.random() * (high - low) < math.exp(-a * h):
        return table[CONSTANTS, MODE] + direction * t
    return REJECTED
