"""One Chinese restaurant whose dishes have a fixed base probability: the DP (d = 0) or
Pitman-Yor (0 ≤ d < 1, α > −d) seating of Blunsom et al. (2009) §2, over the seating
representations of ``engine.core.seating`` (a dish is a group, numbered 0 … V − 1).

A customer of dish w sits at existing table k with weight n_k − d and at a new table with
weight (α + d·T) P(w); the predictive probability of dish w is

    P(w | seating) = (n_w − d·t_w + (α + d·T) P(w)) / (n + α).

The lesson draws one; the tests check its law of tables against Stirling numbers and exact
enumeration; the note's Figure 2 takes its stars from ``mean_tables``.
"""
from collections import namedtuple

import math

import numpy as np

from engine.core import seating as seats
from engine.core.jit import kernel
from engine.core.seating import CUSTOMERS, TABLES

ALPHA, DISCOUNT = 0, 1
N, T = 0, 1  # rows of Restaurant.totals


class Restaurant(namedtuple("Restaurant", ["seating", "params", "totals"])):
    """A restaurant of V dishes.

    seating : engine.core.seating.Seating   groups = dishes
    params : float64[2]                     α, d
    totals : int64[2]                       n (customers), T (tables)
    """

    __slots__ = ()


def new_restaurant(n_dishes, alpha, discount=0.0, representation="histogram",
                   max_customers=1024):
    """An empty restaurant with room for ``max_customers`` (numbered 0 … max_customers − 1)."""
    if not 0.0 <= discount < 1.0:
        raise ValueError(f"the discount d must be in [0, 1) (got {discount})")
    if not (math.isfinite(alpha) and alpha > -discount and (discount > 0 or alpha > 0)):
        raise ValueError(f"the concentration α must be > −d (got α = {alpha}, d = {discount})")
    seating = seats.new_seating(representation, n_dishes, max_customers, max_customers, discount)
    return Restaurant(seating, np.array([alpha, discount]), np.zeros(2, np.int64))


@kernel
def new_table_weight(restaurant, base_p):
    """(α + d·T) P(w): the weight of opening a table for a dish of base probability base_p.

    Parameters
    ----------
    restaurant : Restaurant
    base_p : float64

    Returns
    -------
    float64
    """
    alpha, d = restaurant.params[ALPHA], restaurant.params[DISCOUNT]
    return (alpha + d * restaurant.totals[T]) * base_p


@kernel
def add_customer(rng, restaurant, dish, base_p, c):
    """Customer c arrives for ``dish`` (base probability base_p), seated from its conditional.

    Parameters
    ----------
    rng : numpy.random.Generator
    restaurant : Restaurant
        Mutated.
    dish, c : int
    base_p : float64

    Returns
    -------
    bool
        Whether it opened a table.
    """
    size = seats.seat(rng, restaurant.seating, dish, c, new_table_weight(restaurant, base_p))
    restaurant.totals[N] += 1
    restaurant.totals[T] += size == 1
    return size == 1


@kernel
def remove_customer(rng, restaurant, dish, c):
    """Customer c of ``dish`` leaves.

    Parameters
    ----------
    rng : numpy.random.Generator
    restaurant : Restaurant
        Mutated.
    dish, c : int

    Returns
    -------
    bool
        Whether a table closed.
    """
    size = seats.unseat(rng, restaurant.seating, dish, c)
    restaurant.totals[N] -= 1
    restaurant.totals[T] -= size == 1
    return size == 1


@kernel
def predictive(restaurant, dish, base_p):
    """P(next customer's dish = dish | seating).

    Parameters
    ----------
    restaurant : Restaurant
    dish : int
    base_p : float64
        P(dish).

    Returns
    -------
    float64
    """
    group, d = restaurant.seating.group, restaurant.params[DISCOUNT]
    own = group[dish, CUSTOMERS] - d * group[dish, TABLES]
    return (own + new_table_weight(restaurant, base_p)) / (restaurant.totals[N]
                                                           + restaurant.params[ALPHA])


@kernel
def log_probability(restaurant, log_base):
    """log P(seating, dishes) of the customers seated, in any order (exchangeable):
    Σ_{i<T} log(α + i·d) − log α^(n) + Σ_tables log (1 − d)^(n_k − 1) + Σ_w t_w log P(w).

    Parameters
    ----------
    restaurant : Restaurant
    log_base : float64[V]
        log P(w) of each dish.

    Returns
    -------
    float64
    """
    alpha, d = restaurant.params[ALPHA], restaurant.params[DISCOUNT]
    total = seats.log_restaurant_term(alpha, d, restaurant.totals[N], restaurant.totals[T])
    for w in range(log_base.shape[0]):
        tables = restaurant.seating.group[w, TABLES]
        if tables:
            total += tables * log_base[w] + seats.log_tables_term(restaurant.seating, w)
    return total


@kernel
def seat_in_order(rng, restaurant, dishes, base, opened):
    """Customers 0 … n − 1 arrive in order, customer i for dishes[i].

    Parameters
    ----------
    rng : numpy.random.Generator
    restaurant : Restaurant
        Mutated.
    dishes : int64[n]
    base : float64[V]
        Each dish's base probability.
    opened : uint8[n]
        Output: whether customer i opened a table.
    """
    for i in range(dishes.shape[0]):
        opened[i] = add_customer(rng, restaurant, dishes[i], base[dishes[i]], i)


@kernel
def gibbs_reseat(rng, restaurant, dishes, base, sweeps):
    """``sweeps`` Gibbs sweeps over the seating: each customer i in turn leaves and comes back
    (for dishes[i]), drawn from its conditional given everyone else.

    Parameters
    ----------
    rng : numpy.random.Generator
    restaurant : Restaurant
        Mutated.
    dishes : int64[n]
        The seated customers' dishes.
    base : float64[V]
        Each dish's base probability.
    sweeps : int
    """
    for _ in range(sweeps):
        for i in range(dishes.shape[0]):
            remove_customer(rng, restaurant, dishes[i], i)
            add_customer(rng, restaurant, dishes[i], base[dishes[i]], i)


@kernel
def mean_tables(rng, restaurant, dishes, base, samples, thin, out):
    """Empirical mean tables per dish: the seating of ``dishes`` (already seated) Gibbs-sampled
    ``samples`` times, ``thin`` sweeps apart.

    Parameters
    ----------
    rng : numpy.random.Generator
    restaurant : Restaurant
        Mutated.
    dishes : int64[n]
    base : float64[V]
    samples, thin : int
    out : float64[V]
        Output: out[w] = mean t_w over the samples.
    """
    out[:] = 0.0
    for _ in range(samples):
        gibbs_reseat(rng, restaurant, dishes, base, thin)
        for w in range(out.shape[0]):
            out[w] += restaurant.seating.group[w, TABLES]
    out /= samples


def tables_per_dish(restaurant):
    """int64[V]: t_w."""
    return restaurant.seating.group[:, TABLES].copy()
