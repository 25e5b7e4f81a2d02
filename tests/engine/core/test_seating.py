"""Invariants of engine.core.seating after random sequences of seat / unseat / seat_at on many
groups, both representations, and exact undo (unseat_exact, reseat_exact) of random runs.

The structure is read back from its arrays here in Python: every group's doubly-linked list
of items, the free stack, the counts, and (explicit) which table each customer sits at.
"""
from collections import Counter

import numpy as np
import pytest

from engine.core import seating as seats
from engine.core.seating import (CUSTOMERS, FREE_TOP, HEAD, KIND, LIVE, MULT, NEXT, PREV, SIZE,
                                 TABLES, EXPLICIT, HISTOGRAM)

REPRESENTATIONS = ["explicit", "histogram"]
GROUPS, CUSTOMERS_MAX = 6, 48


def group_items(seating, g):
    """Group g's items in list order, checking the back links and that the list ends."""
    items, before = [], -1
    k = int(seating.group[g, HEAD])
    while k >= 0:
        assert len(items) < seating.item.shape[0], f"group {g}'s list does not end"
        assert seating.item[k, PREV] == before, f"item {k}'s back link"
        items.append(k)
        before, k = k, int(seating.item[k, NEXT])
    return items


def check_invariants(seating, where):
    """Everything that must hold between operations. where: {customer: group} of the customers
    seated now (by the test's own bookkeeping)."""
    kind = int(seating.counts[KIND])
    n_items = seating.item.shape[0]
    per_group = Counter(where.values())
    live = []
    for g in range(seating.group.shape[0]):
        items = group_items(seating, g)
        live += items
        sizes = [int(seating.item[k, SIZE]) for k in items]
        mults = [int(seating.item[k, MULT]) for k in items]
        assert all(s >= 1 for s in sizes) and all(m >= 1 for m in mults)
        if kind == EXPLICIT:
            assert all(m == 1 for m in mults)
        else:  # bins strictly increasing in size
            assert all(a < b for a, b in zip(sizes, sizes[1:])), sizes
        assert seating.group[g, CUSTOMERS] == sum(s * m for s, m in zip(sizes, mults))
        assert seating.group[g, CUSTOMERS] == per_group[g]
        assert seating.group[g, TABLES] == sum(mults) == len(seats.table_sizes(seating, g))
        assert sorted(seats.table_sizes(seating, g)) == seats.table_sizes(seating, g)
        assert sum(seats.table_sizes(seating, g)) == per_group[g]
        if not items:
            assert seating.group[g, HEAD] == -1
    # the live items: each in one list; with the free stack, every item exactly once
    assert len(set(live)) == len(live)
    assert seating.counts[LIVE] == len(live)
    top = int(seating.counts[FREE_TOP])
    assert top + len(live) == n_items
    assert sorted(live + [int(k) for k in seating.free[:top]]) == list(range(n_items))
    if kind == EXPLICIT:
        at = Counter()
        for c, g in where.items():
            k = int(seating.seat_of[c])
            assert k in group_items(seating, g), f"customer {c}'s table is not in group {g}"
            at[k] += 1
        assert at == Counter({k: int(seating.item[k, SIZE]) for k in live})
    else:
        assert seating.seat_of.shape == (0,)


def random_seating(rng, representation, discount=0.0, seated=30):
    """A seating with ``seated`` customers in random groups, and {customer: group}."""
    seating = seats.new_seating(representation, GROUPS, CUSTOMERS_MAX, CUSTOMERS_MAX, discount)
    where = {}
    for c in rng.permutation(CUSTOMERS_MAX)[:seated]:
        c, g = int(c), int(rng.integers(GROUPS))
        seats.seat(rng, seating, g, c, float(rng.choice([0.3, 1.0, 5.0])))
        where[c] = g
    return seating, where


def sizes_of(seating):
    return [seats.table_sizes(seating, g) for g in range(GROUPS)]


def moved(sizes, old, new):
    """The sorted sizes with one table of size ``old`` (0: none) made ``new`` (0: closed)."""
    out = list(sizes)
    if old:
        out.remove(old)
    if new:
        out.append(new)
    return sorted(out)


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("discount", [0.0, 0.5])
def test_random_seat_and_unseat_keep_the_invariants(representation, discount):
    rng = np.random.default_rng(11 if discount else 12)
    seating, where = random_seating(rng, representation, discount, seated=0)
    check_invariants(seating, where)
    for step in range(1500):
        free = [c for c in range(CUSTOMERS_MAX) if c not in where]
        if free and (not where or rng.random() < 0.55):
            c, g = int(rng.choice(free)), int(rng.integers(GROUPS))
            before = seats.table_sizes(seating, g)
            if rng.random() < 0.5:
                size = seats.seat(rng, seating, g, c, float(rng.choice([0.2, 1.0, 4.0])))
            else:  # seat_at: a new table, or an existing one when the group has any
                size = seats.seat_at(rng, seating, g, c, not before or rng.random() < 0.3)
            assert seats.table_sizes(seating, g) == moved(before, size - 1, size)
            where[c] = g
        else:
            c = int(rng.choice(list(where)))
            g = where.pop(c)
            before = seats.table_sizes(seating, g)
            own = int(seating.item[seating.seat_of[c], SIZE]) if representation == "explicit" \
                else None
            size = seats.unseat(rng, seating, g, c)
            if own is not None:  # explicit: the customer leaves its own table
                assert size == own
            assert seats.table_sizes(seating, g) == moved(before, size, size - 1)
        check_invariants(seating, where)
    assert seating.counts[KIND] == (EXPLICIT if representation == "explicit" else HISTOGRAM)


def structure(seating, in_order):
    """What the seating holds now: each group's counts and items with their SIZE and MULT (in
    list order when ``in_order``, else as a set), the free stack, the counts."""
    groups = []
    for g in range(GROUPS):
        items = [(k, int(seating.item[k, SIZE]), int(seating.item[k, MULT]))
                 for k in group_items(seating, g)]
        groups.append((seating.group[g, :HEAD].tolist(), items if in_order else sorted(items)))
    top = int(seating.counts[FREE_TOP])
    return groups, seating.free[:top].tolist(), seating.counts.tolist()


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("order", ["unseats then seats", "interleaved"])
def test_undo_in_reverse_order_restores_the_seating_exactly(representation, order):
    """Random runs of unseat and seat (as a Metropolis-Hastings proposal would make), undone
    in reverse order by unseat_exact and reseat_exact: every group's table sizes, every
    previously seated customer's table (explicit), and indeed the same items (ids, sizes and
    multiplicities) in each group and the same free stack. The histogram's lists come back in
    the same order too (kept sorted by size); an explicit list may not, as a reopened table is
    put at the head of its group's list (the seating, and so its law, is the same)."""
    rng = np.random.default_rng(21 if order == "interleaved" else 22)
    for trial in range(150):
        discount = float(rng.choice([0.0, 0.4]))
        seating, where = random_seating(rng, representation, discount,
                                        seated=int(rng.integers(1, 37)))
        in_order = representation == "histogram"
        sizes, seat_of = sizes_of(seating), seating.seat_of.copy()
        state = structure(seating, in_order)
        n_ops = int(rng.integers(1, 12))
        if order == "interleaved":
            kinds = rng.random(n_ops) < 0.5
        else:
            n_unseats = int(rng.integers(0, n_ops + 1))
            kinds = np.arange(n_ops) < n_unseats
        log = []
        for is_unseat in kinds:
            if is_unseat and where:
                c = int(rng.choice(list(where)))
                g = where.pop(c)
                k = seats.table_of(seating, c)
                log.append(("unseat", g, c, seats.unseat(rng, seating, g, c), k))
            else:
                free = [c for c in range(CUSTOMERS_MAX) if c not in where]
                c, g = int(rng.choice(free)), int(rng.integers(GROUPS))
                size = seats.seat(rng, seating, g, c, float(rng.choice([0.2, 1.0, 4.0])))
                where[c] = g
                log.append(("seat", g, c, size, -1))
            check_invariants(seating, where)
        for op, g, c, size, k in reversed(log):
            if op == "seat":
                seats.unseat_exact(seating, g, c, size)
                del where[c]
            else:
                seats.reseat_exact(seating, g, c, size, k)
                where[c] = g
            check_invariants(seating, where)
        assert sizes_of(seating) == sizes
        if representation == "explicit":
            before = [c for c in range(CUSTOMERS_MAX) if c in where]
            assert np.array_equal(seating.seat_of[before], seat_of[before])
        assert structure(seating, in_order) == state


CORRUPTIONS = {
    "a size off by one": lambda s, k: s.item.__setitem__((k, SIZE), s.item[k, SIZE] + 1),
    "a group's customers": lambda s, k: s.group.__setitem__((0, CUSTOMERS),
                                                            s.group[0, CUSTOMERS] + 1),
    "a group's tables": lambda s, k: s.group.__setitem__((0, TABLES), s.group[0, TABLES] - 1),
    "a back link": lambda s, k: s.item.__setitem__((k, PREV), k),
    "a leaked item": lambda s, k: s.counts.__setitem__(FREE_TOP, s.counts[FREE_TOP] - 1),
    "the live count": lambda s, k: s.counts.__setitem__(LIVE, s.counts[LIVE] + 1),
    "a multiplicity": lambda s, k: s.item.__setitem__((k, MULT), 0),
    # explicit: a customer of another table said to sit at item k
    "a customer's table": lambda s, k: s.seat_of.__setitem__(
        int(np.flatnonzero(s.seat_of[:12] != k)[0]), k),
}


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_the_checks_catch_a_corrupted_seating(representation, corruption):
    """The invariants have teeth: one wrong entry in a valid seating is caught."""
    if corruption == "a customer's table" and representation == "histogram":
        pytest.skip("the histogram keeps no customer's table")
    rng = np.random.default_rng(31)
    seating = seats.new_seating(representation, GROUPS, CUSTOMERS_MAX, CUSTOMERS_MAX)
    where = {}
    for c in range(12):
        seats.seat(rng, seating, 0, c, 1.0)
        where[c] = 0
    assert len(group_items(seating, 0)) >= 2
    check_invariants(seating, where)
    k = int(seating.item[seating.group[0, HEAD], NEXT])  # the second item: it has a PREV
    CORRUPTIONS[corruption](seating, k)
    with pytest.raises(AssertionError):
        check_invariants(seating, where)
