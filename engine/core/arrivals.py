"""Customers arriving at one Chinese restaurant, one at a time: the Restaurants lesson's
restaurant, kept in both seating representations at once (Blunsom et al. 2009, Fig. 1 and 3).

The restaurant of ``engine.core.restaurant`` over V dishes with a fixed base P. Each arrival
draws its dish from the predictive distribution

    P(w | seating) = (n_w − d·t_w + (α + d·T) P(w)) / (n + α),

then its table from the conditional given the dish (an existing table of w with weight
n_k − d, a new one with (α + d·T) P(w)): together, the Chinese restaurant (Pitman-Yor) process
run forward. The explicit restaurant draws; the histogram restaurant is given the same move
(the new customer joins a table of the same size), so the two always hold the same state in
their two forms.

Arrivals has the few methods a page's play / step / reset controls call (``sweep``, ``tick``,
``finished``, ``total_sweeps``): one customer is one step.
"""
from collections import Counter

import numpy as np

from engine.core import restaurant as lone
from engine.core import seating as seats
from engine.core.rng import make_rng

MAX_CUSTOMERS = 2000


class Arrivals:
    """A restaurant filling up: ``total`` customers at most, dishes 0 … V − 1 of base ``base``.

    Parameters
    ----------
    base : sequence of float
        P(w) of each dish, summing to 1.
    alpha, discount : float
        α and d (d = 0: the Dirichlet process; Pitman-Yor: 0 ≤ d < 1, α > −d).
    seed : int
        The seed of the arrivals' Generator.
    total : int
        How many customers will arrive (1 … MAX_CUSTOMERS).
    """

    def __init__(self, base, alpha, discount, seed, total):
        base = np.asarray(base, dtype=np.float64)
        if base.ndim != 1 or len(base) == 0 or (base <= 0).any() or abs(base.sum() - 1) > 1e-9:
            raise ValueError("the base must give every dish a positive probability, summing to 1")
        if not 1 <= total <= MAX_CUSTOMERS:
            raise ValueError(f"the number of customers must be between 1 and {MAX_CUSTOMERS:,} "
                             f"(got {total})")
        self.base, self.log_base = base, np.log(base)
        self.explicit = lone.new_restaurant(len(base), alpha, discount, "explicit", total)
        self.histogram = lone.new_restaurant(len(base), alpha, discount, "histogram", total)
        self.rng = make_rng(seed)
        self.total_sweeps = total
        self.dishes = []   # each customer's dish, in arrival order
        self.opened = []   # whether each customer opened a table

    # --- the controls' protocol ---------------------------------------------------------------
    @property
    def finished(self):
        return len(self.dishes) >= self.total_sweeps

    def sweep(self, steps=1):
        """The next ``steps`` customers arrive (fewer when the restaurant is full)."""
        for _ in range(min(steps, self.total_sweeps - len(self.dishes))):
            self.arrive()

    def tick(self, clock, steps, budget):
        """One tick of play: ``steps`` arrivals (each takes microseconds: no clock needed)."""
        self.sweep(steps)

    # --- one arrival ----------------------------------------------------------------------------
    def predictive(self):
        """float64[V]: P(the next customer's dish = w | seating) for every dish w."""
        if not self.dishes:  # the first customer's dish is the base's (α = 0 would divide 0/0)
            return self.base.copy()
        return np.array([lone.predictive(self.explicit, w, self.base[w])
                         for w in range(len(self.base))])

    def arrive(self):
        """A customer draws a dish and a table; return (dish, whether a table was opened)."""
        p = self.predictive()
        dish = int(self.rng.choice(len(p), p=p / p.sum()))
        c = len(self.dishes)
        opened = bool(lone.add_customer(self.rng, self.explicit, dish, self.base[dish], c))
        seating = self.explicit.seating
        size = int(seating.item[seats.table_of(seating, c), seats.SIZE])
        seats.reseat_exact(self.histogram.seating, dish, c, size, -1)
        self.histogram.totals[lone.N] += 1
        self.histogram.totals[lone.T] += opened
        self.dishes.append(dish)
        self.opened.append(opened)
        return dish, opened

    # --- reading the state ----------------------------------------------------------------------
    @property
    def customers(self):
        return len(self.dishes)

    @property
    def tables(self):
        return int(self.explicit.totals[lone.T])

    def table_list(self):
        """[(dish, [customers in arrival order])] per open table, in the order tables opened."""
        seating, by_table = self.explicit.seating, {}
        for c, dish in enumerate(self.dishes):
            by_table.setdefault(int(seats.table_of(seating, c)), (dish, []))[1].append(c)
        return list(by_table.values())

    def histogram_view(self):
        """{dish: {table size: number of tables}} as the histogram representation stores it."""
        seating = self.histogram.seating
        return {w: dict(sorted(Counter(seats.table_sizes(seating, w)).items()))
                for w in range(len(self.base)) if seating.group[w, seats.TABLES] > 0}

    def log_probability(self):
        """log P(seating, dishes) of the customers so far (any order: exchangeable)."""
        return float(lone.log_probability(self.explicit, self.log_base))

    def new_table_probability(self):
        """P(the next customer opens a table) = (α + d·T) / (n + α)."""
        if not self.dishes:
            return 1.0
        alpha, d = self.explicit.params
        return float((alpha + d * self.tables) / (self.customers + alpha))
