"""engine.core.keyed_lists against a dictionary of sets, in both of its uses: exact keys (the
HMM's types) and hashed keys shared by several entries, told apart by the caller, in a table
that grows (the segmentation model's words); and the word keys of engine.core.word_hash."""
from collections import defaultdict

import numpy as np
import pytest

from engine.core import hash_table, keyed_lists
from engine.core.word_hash import fill_prefix_hashes, same_symbols, word_key


def empty_table(capacity, n_items):
    return (np.full(capacity, -1, np.int64), np.full(capacity, -1, np.int64),
            np.zeros(capacity, np.int64), np.full(n_items, -1, np.int64),
            np.full(n_items, -1, np.int64))


def list_of(slot_head, item_next, slot):
    items, x = [], slot_head[slot]
    while x >= 0:
        items.append(int(x))
        x = item_next[x]
    return items


def check_exact(table, truth):
    slot_key, slot_head, slot_size, item_next, item_prev = table
    assert np.count_nonzero(slot_key >= 0) == len(truth)
    for key, items in truth.items():
        slot = hash_table.find(slot_key, key)
        assert slot >= 0
        listed = list_of(slot_head, item_next, slot)
        assert sorted(listed) == sorted(items) and slot_size[slot] == len(items)
        for a, b in zip(listed, listed[1:]):
            assert item_prev[b] == a


def test_exact_keys_file_and_unfile_like_a_dictionary_of_sets():
    """Keys come and go thousands of times in a small table: backward-shift deletion must keep
    every remaining key findable."""
    rng = np.random.default_rng(0)
    n_items = 300
    table = empty_table(1024, n_items)
    key_of = np.full(n_items, -1)
    truth = defaultdict(set)
    for step in range(20_000):
        item = int(rng.integers(n_items))
        if key_of[item] >= 0:
            keyed_lists.unfile_item(*table, key_of[item], item)
            truth[key_of[item]].discard(item)
            if not truth[key_of[item]]:
                del truth[key_of[item]]
            key_of[item] = -1
        else:
            key = int(rng.integers(400)) * 7919  # spread, with runs of colliding homes
            keyed_lists.file_item(*table, key, item)
            truth[key].add(item)
            key_of[item] = key
        if step % 1000 == 0:
            check_exact(table, truth)
    check_exact(table, truth)
    assert hash_table.find(table[0], 10**12) == -1


def test_hashed_keys_shared_by_several_entries_in_a_growing_table():
    """Words are items' labels; a word's key is deliberately coarse (label % 5), so many words
    share a key and the caller walks find / find_next comparing labels, as the segmentation
    model compares symbols. The table starts at 8 slots in use and doubles (grow) as it fills."""
    rng = np.random.default_rng(1)
    n_items, capacity = 2000, 4096
    keys, heads, sizes, item_next, item_prev = empty_table(capacity, n_items)
    spare = [np.zeros(capacity // 2, np.int64) for _ in range(3)]
    label = rng.integers(0, 600, size=n_items)
    used, live = 8, 0
    filed = np.zeros(n_items, bool)
    truth = defaultdict(set)

    def slot_of(word):
        k = word % 5
        slot = hash_table.find(keys[:used], k)
        while slot >= 0 and label[heads[slot]] != word:
            slot = hash_table.find_next(keys[:used], k, slot)
        return slot

    for step in range(30_000):
        item = int(rng.integers(n_items))
        word = int(label[item])
        if filed[item]:
            slot = slot_of(word)
            if keyed_lists.unlink(keys[:used], heads[:used], sizes[:used], item_next, item_prev,
                                  slot, item):
                live -= 1
            truth[word].discard(item)
        else:
            slot = slot_of(word)
            if slot < 0:
                if 2 * (live + 1) > used:
                    used = keyed_lists.grow(keys, heads, sizes, used, *spare)
                slot = keyed_lists.new_slot(keys[:used], heads[:used], sizes[:used], word % 5)
                live += 1
            keyed_lists.push(heads, sizes, item_next, item_prev, slot, item)
            truth[word].add(item)
        filed[item] = not filed[item]
    assert used > 8 and np.count_nonzero(keys[:used] >= 0) == live
    assert live == sum(1 for items in truth.values() if items)
    for word, items in truth.items():
        slot = slot_of(word)
        if not items:
            assert slot == -1
            continue
        assert sorted(list_of(heads, item_next, slot)) == sorted(items)
        assert sizes[slot] == len(items)


def test_word_keys_are_equal_for_equal_words_and_tell_lengths_apart():
    chars = np.array([3, 1, 4, 1, 5, 3, 1, 4, 1, 5, 9, 3, 1], np.int32)
    prefix, power = np.empty(14, np.uint64), np.empty(14, np.uint64)
    fill_prefix_hashes(chars, prefix, power)
    assert word_key(prefix, power, 0, 5) == word_key(prefix, power, 5, 10)  # 3 1 4 1 5
    assert word_key(prefix, power, 1, 2) == word_key(prefix, power, 12, 13)  # 1
    assert word_key(prefix, power, 0, 5) != word_key(prefix, power, 0, 4)
    assert word_key(prefix, power, 0, 2) != word_key(prefix, power, 1, 3)
    keys = [word_key(prefix, power, x, e) for x in range(13) for e in range(x + 1, 14)]
    assert min(keys) >= 0
    assert same_symbols(chars, 0, 5, 5) and not same_symbols(chars, 0, 5, 6)


@pytest.mark.parametrize("length", [1, 2, 254, 255, 300])
def test_word_key_low_bits_hold_the_length_up_to_its_limit(length):
    chars = np.zeros(length, np.int32)
    prefix, power = np.empty(length + 1, np.uint64), np.empty(length + 1, np.uint64)
    fill_prefix_hashes(chars, prefix, power)
    assert word_key(prefix, power, 0, length) & 0xFF == min(length, 255)
