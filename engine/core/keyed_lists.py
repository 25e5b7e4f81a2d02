"""A hash table of doubly-linked lists, in flat arrays: key → the items filed under it.

Liang et al. §4.4 keep "a hash table mapping type t to a doubly-linked list of sites with type
t", so that TYPE finds a type's sites without scanning the corpus and a site changes type in
O(1). Keys are non-negative int64; items are 0 … n − 1, each in at most one list. The table is
engine.core.hash_table's (open addressing, linear probing, backward-shift deletion) with a
list's head and size beside each key; a slot lives exactly as long as its list is non-empty.

Arrays (preallocated; kernels never allocate):

slot_key : int64[C]     key in the slot, −1 when empty
slot_head : int64[C]    first item of the slot's list
slot_size : int64[C]    number of items in the list
item_next, item_prev : int64[n]   list links (−1 at the ends)

C is a power of two, and every function takes the table's capacity from the length of the
slot arrays it is given. Two ways to use it:

- **exact keys** (the HMM's types): ``hash_table.find``, ``file_item``, ``unfile_item``; a
  table of at least 2n slots never fills.
- **hashed keys** (the segmentation model's words, keyed by ``engine.core.word_hash``): several
  entries may share a key, and the caller decides which is its own — e.g. by comparing the
  symbols of the list's head with its word — walking ``hash_table.find`` then
  ``hash_table.find_next``, and creating its entry with ``new_slot`` when none matched. Such a
  table can also *grow*: the arrays are allocated for the most entries there can be, the
  caller passes their first ``capacity`` slots (views ``a[:capacity]``) and calls ``grow`` to
  double the capacity when a new entry would load the table above 1/2. A small table stays in
  the processor's cache, which is what makes a lookup cost a few nanoseconds.

Setting items aside. slot_size counts a list's items, but a caller may take items out of the
count for a while and leave them on the list (decrementing slot_size itself): the slot then
lives as long as its list is not empty, even at size 0, and each such item is later either
counted again, then kept or taken off with ``unlink`` (or uncounted ones with ``detach``). The
segmentation model's TYPE moves do so: most of the sites they take out go back unchanged, and
leaving them on their lists saves two list updates in memory far apart.
"""
from engine.core import hash_table
from engine.core.hash_table import EMPTY
from engine.core.jit import kernel


@kernel
def new_slot(slot_key, slot_head, slot_size, key):
    """A new entry for ``key`` with an empty list, in the first empty slot of its probe run.
    The table must have an empty slot; the caller fills the list (``push``) before the next
    deletion, which would otherwise treat the slot as live but empty.

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    key : int

    Returns
    -------
    int64
        The slot.
    """
    i = hash_table.insert(slot_key, key)
    slot_head[i], slot_size[i] = -1, 0
    return i


@kernel
def push(slot_head, slot_size, item_next, item_prev, slot, item):
    """Put ``item`` at the front of the list of ``slot``.

    Parameters
    ----------
    slot_head, slot_size : int64[C]
        The table's lists, mutated.
    item_next, item_prev : int64[n]
        The links, mutated.
    slot, item : int
    """
    head = slot_head[slot]
    item_next[item], item_prev[item] = head, -1
    if head >= 0:
        item_prev[head] = item
    slot_head[slot] = item
    slot_size[slot] += 1


@kernel
def unlink(slot_key, slot_head, slot_size, item_next, item_prev, slot, item):
    """Take ``item`` out of the list of ``slot``, deleting the slot when its list empties.

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    item_next, item_prev : int64[n]
        The links, mutated.
    slot, item : int

    Returns
    -------
    bool
        Whether the slot was deleted.
    """
    slot_size[slot] -= 1
    return detach(slot_key, slot_head, slot_size, item_next, item_prev, slot, item)


@kernel
def detach(slot_key, slot_head, slot_size, item_next, item_prev, slot, item):
    """Take ``item`` out of the list of ``slot`` without counting it (it was set aside, see
    the module's notes), deleting the slot when its list empties.

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    item_next, item_prev : int64[n]
        The links, mutated.
    slot, item : int

    Returns
    -------
    bool
        Whether the slot was deleted.
    """
    before, after = item_prev[item], item_next[item]
    if before >= 0:
        item_next[before] = after
    else:
        slot_head[slot] = after
    if after >= 0:
        item_prev[after] = before
    if slot_head[slot] < 0:
        delete_slot(slot_key, slot_head, slot_size, slot)
        return True
    return False


@kernel
def file_item(slot_key, slot_head, slot_size, item_next, item_prev, key, item):
    """Put ``item`` at the front of the list of the exact key ``key`` (creating the key if new).

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    item_next, item_prev : int64[n]
        The links, mutated.
    key, item : int
    """
    i = hash_table.find(slot_key, key)
    if i < 0:
        i = new_slot(slot_key, slot_head, slot_size, key)
    push(slot_head, slot_size, item_next, item_prev, i, item)


@kernel
def unfile_item(slot_key, slot_head, slot_size, item_next, item_prev, key, item):
    """Take ``item`` out of the list of the exact key ``key`` (deleting the key when its list
    empties).

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    item_next, item_prev : int64[n]
        The links, mutated.
    key, item : int
    """
    unlink(slot_key, slot_head, slot_size, item_next, item_prev, hash_table.find(slot_key, key),
           item)


@kernel
def delete_slot(slot_key, slot_head, slot_size, i):
    """Empty slot i, moving later entries of its probe run back so lookups still find them.

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[C]
        The table, mutated.
    i : int
    """
    j = hash_table.next_displaced(slot_key, i, i)
    while j >= 0:
        slot_key[i], slot_head[i], slot_size[i] = slot_key[j], slot_head[j], slot_size[j]
        i = j
        j = hash_table.next_displaced(slot_key, i, j)
    slot_key[i] = EMPTY


@kernel
def grow(slot_key, slot_head, slot_size, capacity, spare_key, spare_head, spare_size):
    """Double a growing table's capacity from ``capacity`` and rehash its entries; return the
    new capacity. Lists stay as they are: only their slots move.

    Parameters
    ----------
    slot_key, slot_head, slot_size : int64[≥ 2 · capacity]
        The whole allocated arrays; the table is their first ``capacity`` slots.
    capacity : int
        The capacity in use, a power of two.
    spare_key, spare_head, spare_size : int64[≥ capacity / 2]
        Room for the live entries while they are moved (the table's load is at most 1/2).
    """
    live = 0
    for i in range(capacity):
        if slot_key[i] != EMPTY:
            spare_key[live], spare_head[live] = slot_key[i], slot_head[i]
            spare_size[live] = slot_size[i]
            live += 1
    doubled = 2 * capacity
    slot_key[:doubled] = EMPTY
    keys, heads, sizes = slot_key[:doubled], slot_head[:doubled], slot_size[:doubled]
    for j in range(live):
        i = new_slot(keys, heads, sizes, spare_key[j])
        heads[i], sizes[i] = spare_head[j], spare_size[j]
    return doubled
