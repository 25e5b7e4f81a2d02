"""Who sits at which table: the seating of Chinese restaurants, in two representations behind
one set of functions (Blunsom, Cohn, Goldwater & Johnson 2009, §4 and Fig. 3).

A *group* is one dish in one restaurant (a bigram restaurant's tables labelled with one word):
its customers, its tables and how many customers each table has. Groups are numbered
0 … G − 1 by the caller (the bigram model's pairs ⟨w′, w⟩; a lone restaurant's dishes), and so
are customers (0 … C − 1: whatever identifies a customer to the caller, e.g. the start of the
word token).

- **explicit**: every customer's table (``seat_of``), and per group a list of its tables, each
  with its size: the naive bookkeeping of the note's §3.
- **histogram**: per group, how many tables have m customers, for each m that occurs (the
  note's Algorithms 1–2). A leaving customer's table is drawn in proportion to its size: by
  exchangeability every customer of the group is equally likely to be the one at any seat, so
  which table a particular customer "really" sat at does not matter (the note's §4).

Both keep per group a doubly-linked list of *items* in a pool of flat arrays: an item is a table
(explicit: MULT = 1) or a bin of MULT tables of SIZE customers each (histogram, kept in
increasing SIZE, so the bins a move needs, SIZE ± 1, are neighbours). Free items are a stack,
so undoing a run of operations in reverse order reuses the same items: that is what lets a
rejected Metropolis-Hastings proposal restore a seating exactly (``unseat_exact``,
``reseat_exact``).

A Pitman-Yor restaurant (discount d ∈ [0, 1); d = 0 is the Dirichlet process) seats a customer
at an existing table k with weight SIZE_k − d; the caller gives the weight of a new table
((α + d·T) × base probability), which depends on what the caller knows (its base).
"""
from collections import namedtuple

import math

import numpy as np

from engine.core.jit import kernel

EXPLICIT, HISTOGRAM = 0, 1
REPRESENTATIONS = {"explicit": EXPLICIT, "histogram": HISTOGRAM}
# columns of Seating.group, Seating.item; entries of Seating.counts
CUSTOMERS, TABLES, HEAD = range(3)
SIZE, MULT, NEXT, PREV = range(4)
KIND, FREE_TOP, LIVE = range(3)


class Seating(namedtuple("Seating", ["group", "item", "free", "seat_of", "discount", "counts"])):
    """The seating of G groups (I items in the pool, C customers).

    group : int64[G, 3]   columns CUSTOMERS (n of the group), TABLES (t), HEAD (first item, −1)
    item : int64[I, 4]    columns SIZE (customers at the table or at each table of the bin),
                          MULT (tables: 1 for explicit), NEXT, PREV (the group's list)

    A group's or an item's fields are a row, so one move reads one cache line of each.
    free : int64[I]       stack of free items, the first counts[FREE_TOP] entries
    seat_of : int64[C]    explicit: each customer's table (the item); histogram: length 0
    discount : float64[1] d
    counts : int64[3]     KIND (EXPLICIT or HISTOGRAM), FREE_TOP, LIVE (items in use)
    """

    __slots__ = ()


def new_seating(representation, n_groups, n_items, n_customers, discount=0.0):
    """An empty seating: ``representation`` "explicit" or "histogram"; room for n_items tables
    (or bins) in all and customers numbered below n_customers."""
    if representation not in REPRESENTATIONS:
        raise ValueError(f"the seating is kept explicitly or as a histogram, not "
                         f"{representation!r}: choose one of {', '.join(REPRESENTATIONS)}")
    if not 0.0 <= discount < 1.0:
        raise ValueError(f"a Pitman-Yor discount d must be in [0, 1) (got {discount})")
    kind = REPRESENTATIONS[representation]
    group = np.zeros((n_groups, 3), np.int64)
    group[:, HEAD] = -1
    return Seating(group=group, item=np.zeros((n_items, 4), np.int64),
                   free=np.arange(n_items - 1, -1, -1, dtype=np.int64),
                   seat_of=np.full(n_customers if kind == EXPLICIT else 0, -1, np.int64),
                   discount=np.array([discount]),
                   counts=np.array([kind, n_items, 0], np.int64))


# --- the item pool and the groups' lists ---------------------------------------------------------
@kernel
def take_item(seating):
    """A free item (the top of the stack).

    Parameters
    ----------
    seating : Seating
        Mutated.

    Returns
    -------
    int64
        The item.
    """
    seating.counts[FREE_TOP] -= 1
    seating.counts[LIVE] += 1
    return seating.free[seating.counts[FREE_TOP]]


@kernel
def give_back(seating, g, k):
    """Unlink item k from group g's list and free it.

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, k : int
    """
    item = seating.item
    before, after = item[k, PREV], item[k, NEXT]
    if before >= 0:
        item[before, NEXT] = after
    else:
        seating.group[g, HEAD] = after
    if after >= 0:
        item[after, PREV] = before
    seating.free[seating.counts[FREE_TOP]] = k
    seating.counts[FREE_TOP] += 1
    seating.counts[LIVE] -= 1


@kernel
def insert_item(seating, g, size, before, after):
    """A new item of one table with ``size`` customers between items ``before`` and ``after``
    of group g's list (−1: the list's start or end).

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, size, before, after : int

    Returns
    -------
    int64
        The item.
    """
    k = take_item(seating)
    item = seating.item
    item[k, SIZE], item[k, MULT], item[k, PREV], item[k, NEXT] = size, 1, before, after
    if before >= 0:
        item[before, NEXT] = k
    else:
        seating.group[g, HEAD] = k
    if after >= 0:
        item[after, PREV] = k
    return k


@kernel
def one_fewer(seating, g, k):
    """Take one table from item k (freeing it when none is left).

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, k : int
    """
    seating.item[k, MULT] -= 1
    if seating.item[k, MULT] == 0:
        give_back(seating, g, k)


# --- a table opens, grows, shrinks -----------------------------------------------------------------
@kernel
def open_table(seating, g):
    """A new table of one customer in group g.

    Parameters
    ----------
    seating : Seating
        Mutated.
    g : int

    Returns
    -------
    int64
        Its item.
    """
    seating.group[g, TABLES] += 1
    head = seating.group[g, HEAD]
    if seating.counts[KIND] == HISTOGRAM and head >= 0 and seating.item[head, SIZE] == 1:
        seating.item[head, MULT] += 1
        return head
    return insert_item(seating, g, 1, -1, head)


@kernel
def grow(seating, g, k):
    """One more customer at a table of item k.

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, k : int

    Returns
    -------
    int64
        The item now holding that table.
    """
    item = seating.item
    size = item[k, SIZE] + 1
    if seating.counts[KIND] == EXPLICIT:
        item[k, SIZE] = size
        return k
    after = item[k, NEXT]
    if after >= 0 and item[after, SIZE] == size:
        item[after, MULT] += 1
        bigger = after
    else:
        bigger = insert_item(seating, g, size, k, after)
    one_fewer(seating, g, k)
    return bigger


@kernel
def shrink(seating, g, k):
    """One customer fewer at a table of item k (the table closes when it empties).

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, k : int

    Returns
    -------
    int64
        The item now holding that table, or −1 when it closed.
    """
    item = seating.item
    size = item[k, SIZE] - 1
    if size == 0:
        seating.group[g, TABLES] -= 1
        one_fewer(seating, g, k)
        return -1
    if seating.counts[KIND] == EXPLICIT:
        item[k, SIZE] = size
        return k
    before = item[k, PREV]
    if before >= 0 and item[before, SIZE] == size:
        item[before, MULT] += 1
        smaller = before
    else:
        smaller = insert_item(seating, g, size, before, k)
    one_fewer(seating, g, k)
    return smaller


# --- drawing tables --------------------------------------------------------------------------------
@kernel
def existing_weight(seating, g):
    """Σ over group g's tables of (SIZE − d): the weight of joining any existing table.

    Parameters
    ----------
    seating : Seating
    g : int

    Returns
    -------
    float64
    """
    return seating.group[g, CUSTOMERS] - seating.discount[0] * seating.group[g, TABLES]


@kernel
def pick_item(seating, g, r, discount):
    """The item whose tables hold the point r ∈ [0, Σ MULT·(SIZE − discount)) of group g.

    Parameters
    ----------
    seating : Seating
    g : int
    r, discount : float64

    Returns
    -------
    int64
    """
    item = seating.item
    k = seating.group[g, HEAD]
    while True:
        r -= item[k, MULT] * (item[k, SIZE] - discount)
        if r < 0.0 or item[k, NEXT] < 0:
            return k
        k = item[k, NEXT]


@kernel
def seat_at(rng, seating, g, c, new):
    """Seat customer c in group g: at a new table when ``new``, else at an existing table drawn
    with weight SIZE − d.

    Parameters
    ----------
    rng : numpy.random.Generator
    seating : Seating
        Mutated.
    g, c : int
    new : bool

    Returns
    -------
    int64
        The size of the customer's table after it sat (1: opened).
    """
    if new:
        k = open_table(seating, g)
    else:
        r = rng.random() * existing_weight(seating, g)
        k = grow(seating, g, pick_item(seating, g, r, seating.discount[0]))
    seating.group[g, CUSTOMERS] += 1
    if seating.counts[KIND] == EXPLICIT:
        seating.seat_of[c] = k
    return seating.item[k, SIZE]


@kernel
def seat(rng, seating, g, c, new_weight):
    """Seat customer c in group g by the restaurant's rule: an existing table k with weight
    SIZE_k − d, a new one with ``new_weight``.

    Parameters
    ----------
    rng : numpy.random.Generator
    seating : Seating
        Mutated.
    g, c : int
    new_weight : float64

    Returns
    -------
    int64
        The size of its table (1: opened).
    """
    old = existing_weight(seating, g)
    # an empty restaurant's first customer opens a table whatever the weight (α may be < 0)
    return seat_at(rng, seating, g, c,
                   old <= 0.0 or rng.random() * (old + new_weight) < new_weight)


@kernel
def unseat(rng, seating, g, c):
    """Customer c leaves group g: from its own table (explicit) or from a table drawn in
    proportion to its size (histogram, by exchangeability).

    Parameters
    ----------
    rng : numpy.random.Generator
    seating : Seating
        Mutated.
    g, c : int

    Returns
    -------
    int64
        The size that table had (1: it closed).
    """
    if seating.counts[KIND] == EXPLICIT:
        k = seating.seat_of[c]
    else:
        k = pick_item(seating, g, rng.random() * seating.group[g, CUSTOMERS], 0.0)
    size = seating.item[k, SIZE]
    shrink(seating, g, k)
    seating.group[g, CUSTOMERS] -= 1
    return size


# --- undoing exactly -------------------------------------------------------------------------------
@kernel
def item_of_size(seating, g, size):
    """Group g's item with tables of ``size`` customers (histogram).

    Parameters
    ----------
    seating : Seating
    g, size : int

    Returns
    -------
    int64
    """
    k = seating.group[g, HEAD]
    while seating.item[k, SIZE] != size:
        k = seating.item[k, NEXT]
    return k


@kernel
def unseat_exact(seating, g, c, size):
    """Undo ``seat`` of customer c (which returned ``size``), the operations since undone.

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, c, size : int
    """
    if seating.counts[KIND] == EXPLICIT:
        k = seating.seat_of[c]
    else:
        k = item_of_size(seating, g, size)
    shrink(seating, g, k)
    seating.group[g, CUSTOMERS] -= 1


@kernel
def table_of(seating, c):
    """The table (item) customer c sits at (explicit), −1 for the histogram: what
    ``reseat_exact`` needs besides the size, read before ``unseat``.

    Parameters
    ----------
    seating : Seating
    c : int

    Returns
    -------
    int64
    """
    return seating.seat_of[c] if seating.counts[KIND] == EXPLICIT else -1


@kernel
def reseat_exact(seating, g, c, size, k):
    """Undo ``unseat`` of customer c, which returned ``size`` from the table (item) k that
    ``table_of`` gave before it; the operations since undone. It sits at that table again,
    reopened when it had closed (the free stack gives the same item back).

    Parameters
    ----------
    seating : Seating
        Mutated.
    g, c, size, k : int
    """
    if size == 1:
        k = open_table(seating, g)
    elif seating.counts[KIND] == EXPLICIT:
        k = grow(seating, g, k)
    else:
        k = grow(seating, g, item_of_size(seating, g, size - 1))
    seating.group[g, CUSTOMERS] += 1
    if seating.counts[KIND] == EXPLICIT:
        seating.seat_of[c] = k


# --- reading it ------------------------------------------------------------------------------------
@kernel
def log_tables_term(seating, g):
    """Σ over group g's tables of log (1 − d)^(SIZE − 1), the tables' part of the seating's
    probability (log (SIZE − 1)! for the DP).

    Parameters
    ----------
    seating : Seating
    g : int

    Returns
    -------
    float64
    """
    d = seating.discount[0]
    total = 0.0
    k = seating.group[g, HEAD]
    while k >= 0:
        size, mult = seating.item[k, SIZE], seating.item[k, MULT]
        total += mult * (math.lgamma(size - d) - math.lgamma(1.0 - d))
        k = seating.item[k, NEXT]
    return total


@kernel
def log_restaurant_term(alpha, discount, customers, tables):
    """log of Π_{0<i<T} (α + i·d) / (α + 1)^(n−1): the rest of a restaurant's seating
    probability, given its n customers and T tables. The first customer's factor α/α is
    cancelled, so the form holds for a Pitman-Yor α ∈ (−d, 0] too.

    Parameters
    ----------
    alpha, discount : float64
    customers, tables : int

    Returns
    -------
    float64
    """
    if customers == 0:
        return 0.0
    total = -(math.lgamma(alpha + customers) - math.lgamma(alpha + 1.0))
    if discount == 0.0:
        return total + (tables - 1) * math.log(alpha)
    for i in range(1, tables):
        total += math.log(alpha + i * discount)
    return total


def table_sizes(seating, g):
    """Group g's table sizes, sorted (a canonical form of its seating, for tests and pages)."""
    sizes = []
    k = int(seating.group[g, HEAD])
    while k >= 0:
        sizes += [int(seating.item[k, SIZE])] * int(seating.item[k, MULT])
        k = int(seating.item[k, NEXT])
    return sorted(sizes)


def bytes_in_use(seating):
    """Bytes the representation needs for what is seated now: explicit, 3 words per table
    (size and the list's links) and one per customer; histogram, 4 words per bin (size, number
    of tables, links). The per-group counts are the same for both and left out."""
    live = int(seating.counts[LIVE])
    if seating.counts[KIND] == EXPLICIT:
        customers = int(seating.group[:, CUSTOMERS].sum())
        return 8 * (3 * live + customers)
    return 8 * 4 * live
