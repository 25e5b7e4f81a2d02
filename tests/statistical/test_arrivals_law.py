"""The Restaurants lesson's arriving customers (engine.core.arrivals) against references computed
here: the Chinese restaurant process run forward with dishes drawn from the predictive.

- The number of tables after n arrivals has the DP law s(n, t) α^t Γ(α)/Γ(α + n), whatever the
  base (the dishes do not change who opens a table).
- The first two customers eat the same dish with probability Σ_w P(w)(1 + α P(w))/(1 + α).
- Its histogram restaurant holds, after every arrival, the explicit restaurant's table sizes,
  and the same log-probability.

A correct engine passes at these seeds with p > 0.001; a planted bug (1.3α in the reference)
fails at the same number of draws.
"""
from collections import Counter

import numpy as np
import pytest

from engine.core import seating as seats
from engine.core.arrivals import Arrivals
from engine.core.restaurant import log_probability
from tests.statistical.exact import chi_square_p
from tests.statistical.test_restaurant_law import dp_tables_law

ALPHA = 1e-3
DRAWS = 4_000
BASE = np.array([0.5, 0.3, 0.2])


def tables_after(n, alpha, draws, seed):
    """How many of ``draws`` restaurants of n arrivals have t tables, t = 0 … n."""
    found = Counter(_arrived(alpha, n, seed * draws + i).tables for i in range(draws))
    return [found[t] for t in range(n + 1)]


def _arrived(alpha, n, seed, discount=0.0):
    arrivals = Arrivals(BASE, alpha, discount, seed, n)
    arrivals.sweep(n)
    return arrivals


@pytest.mark.parametrize("alpha, n", [(1.0, 8), (4.0, 12)])
def test_tables_follow_the_dp_law(alpha, n):
    counts = tables_after(n, alpha, DRAWS, seed=1)
    law = dp_tables_law(n, alpha)
    assert chi_square_p(counts, law) > ALPHA
    assert chi_square_p(counts, dp_tables_law(n, 1.3 * alpha)) < 1e-6  # the test has power


def test_the_first_two_customers_share_a_dish_as_the_polya_urn_says():
    alpha = 2.0
    same = sum(len(set(_arrived(alpha, 2, 10_000 + i).dishes)) == 1 for i in range(DRAWS))
    p = float(np.sum(BASE * (1 + alpha * BASE) / (1 + alpha)))
    assert chi_square_p([same, DRAWS - same], [p, 1 - p]) > ALPHA
    assert chi_square_p([same, DRAWS - same], [p * 1.1, 1 - p * 1.1]) < 1e-6


@pytest.mark.parametrize("alpha, discount", [(1.5, 0.0), (0.5, 0.6), (-0.3, 0.5)])
def test_the_histogram_holds_the_explicit_seating_after_every_arrival(alpha, discount):
    arrivals = Arrivals(BASE, alpha, discount, seed=3, total=150)
    for _ in range(150):
        arrivals.arrive()
        explicit = {}
        for dish, customers in arrivals.table_list():
            explicit.setdefault(dish, Counter())[len(customers)] += 1
        assert {w: dict(c) for w, c in explicit.items()} == arrivals.histogram_view()
    assert arrivals.tables == sum(map(sum, (c.values() for c in explicit.values())))
    assert log_probability(arrivals.histogram, arrivals.log_base) == pytest.approx(
        arrivals.log_probability(), rel=1e-12)
    assert sum(arrivals.opened) == arrivals.tables
    sizes = [len(c) for _, c in arrivals.table_list()]
    assert sum(sizes) == arrivals.customers == 150
    assert int(arrivals.histogram.seating.group[:, seats.CUSTOMERS].sum()) == 150


def test_bad_restaurants_are_refused_with_what_to_do():
    with pytest.raises(ValueError, match="α must be > −d"):
        Arrivals(BASE, 0.0, 0.0, 0, 10)
    with pytest.raises(ValueError, match="between 1 and"):
        Arrivals(BASE, 1.0, 0.0, 0, 0)
    with pytest.raises(ValueError, match="summing to 1"):
        Arrivals([0.5, 0.6], 1.0, 0.0, 0, 5)


def test_a_full_restaurant_takes_no_more_customers():
    arrivals = _arrived(1.0, 5, seed=0)
    assert arrivals.finished
    arrivals.sweep(3)
    assert arrivals.customers == 5
