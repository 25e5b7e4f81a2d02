"""A hash table of doubly-linked lists, in flat arrays: key → the items filed under it.

Liang et al. §4.4 keep "a hash table mapping type t to a doubly-linked list of sites with type
t", so that TYPE finds a type's sites without scanning the corpus and a site changes type in
O(1). Keys are non-negative int64; items are 0 … n − 1, each in at most one list. The table is
open addressing with linear probing and backward-shift deletion; it holds at most n keys, so a
capacity of at least 2n (a power of two) keeps probes short and never fills.

Arrays (all preallocated; kernels never allocate):

slot_key : int64[C]     key in the slot, −1 when empty
slot_head : int64[C]    first item of the slot's list
slot_size : int64[C]    number of items in the list
item_next, item_prev : int64[n]   list links (−1 at the ends)
"""
import numpy as np

from engine.core.jit import kernel

MIX = np.uint64(0x9E3779B97F4A7C15)  # spreads consecutive keys over the table


@kernel
def home(key, capacity):
    """Where the probe for ``key`` starts: middle bits of key · MIX (capacity ≤ 2³²)."""
    return np.int64(((np.uint64(key) * MIX) >> np.uint64(32)) & np.uint64(capacity - 1))


@kernel
def find(slot_key, key):
    """The slot holding ``key``, or −1."""
    mask = slot_key.shape[0] - 1
    i = home(key, slot_key.shape[0])
    while slot_key[i] != -1:
        if slot_key[i] == key:
            return i
        i = (i + 1) & mask
    return -1


@kernel
def file_item(slot_key, slot_head, slot_size, item_next, item_prev, key, item):
    """Put ``item`` at the front of the list of ``key`` (creating the key if new)."""
    mask = slot_key.shape[0] - 1
    i = home(key, slot_key.shape[0])
    while slot_key[i] != -1 and slot_key[i] != key:
        i = (i + 1) & mask
    if slot_key[i] == -1:
        slot_key[i], slot_head[i], slot_size[i] = key, -1, 0
    head = slot_head[i]
    item_next[item], item_prev[item] = head, -1
    if head >= 0:
        item_prev[head] = item
    slot_head[i] = item
    slot_size[i] += 1


@kernel
def unfile_item(slot_key, slot_head, slot_size, item_next, item_prev, key, item):
    """Take ``item`` out of the list of ``key`` (deleting the key when its list empties)."""
    i = find(slot_key, key)
    before, after = item_prev[item], item_next[item]
    if before >= 0:
        item_next[before] = after
    else:
        slot_head[i] = after
    if after >= 0:
        item_prev[after] = before
    slot_size[i] -= 1
    if slot_size[i] == 0:
        delete_slot(slot_key, slot_head, slot_size, i)


@kernel
def delete_slot(slot_key, slot_head, slot_size, i):
    """Empty slot i, moving later entries of its probe run back so lookups still find them."""
    mask = slot_key.shape[0] - 1
    j = i
    while True:
        j = (j + 1) & mask
        if slot_key[j] == -1:
            break
        h = home(slot_key[j], slot_key.shape[0])
        # entry j stays unless its home lies cyclically outside (i, j]
        if (i <= j and i < h <= j) or (i > j and (h > i or h <= j)):
            continue
        slot_key[i], slot_head[i], slot_size[i] = slot_key[j], slot_head[j], slot_size[j]
        i = j
    slot_key[i] = -1
