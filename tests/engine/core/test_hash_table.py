"""engine.core.hash_table against Python dictionaries: entries sharing a key are all found by
walking find / find_next, per-particle tables keep their values when rehashed into larger
ones, and a pair's key is one key per pair. (Deletion is tested through keyed_lists, in
test_keyed_lists.py.)"""
import numpy as np

from engine.core import hash_table
from engine.core.hash_table import EMPTY


def entries_of(keys, key):
    """The slots holding ``key``, walked as a user of hashed keys walks them."""
    slots, slot = [], hash_table.find(keys, key)
    while slot >= 0:
        slots.append(int(slot))
        slot = hash_table.find_next(keys, key, slot)
    return slots


def test_every_entry_of_a_shared_key_is_found():
    rng = np.random.default_rng(3)
    keys = np.full(1024, EMPTY, np.int64)
    values = np.zeros(1024, np.int64)
    truth = {}
    for value, key in enumerate(rng.integers(0, 60, 400)):  # many entries share each key
        values[hash_table.insert(keys, key)] = value
        truth.setdefault(int(key), set()).add(value)
    for key, expected in truth.items():
        assert {int(values[slot]) for slot in entries_of(keys, key)} == expected
    assert hash_table.find(keys, 61) == -1
    assert hash_table.find(keys, 10**15) == -1


def test_rows_keep_their_values_when_rehashed():
    rng = np.random.default_rng(5)
    old_keys = np.full((3, 64), EMPTY, np.int32)
    old_values = np.zeros((3, 64), np.int32)
    truth = [{}, {}, {}]
    for l in range(3):
        for value, key in enumerate(rng.choice(10**6, 30, replace=False)):
            old_values[l, hash_table.insert(old_keys[l], np.int32(key))] = value
            truth[l][int(key)] = value
    new_keys = np.full((3, 256), EMPTY, np.int32)
    new_values = np.zeros((3, 256), np.int32)
    hash_table.reinsert_rows(old_keys, old_values, new_keys, new_values)
    for l in range(3):
        assert np.count_nonzero(new_keys[l] != EMPTY) == len(truth[l])
        for key, value in truth[l].items():
            assert new_values[l, hash_table.find(new_keys[l], np.int32(key))] == value


def test_pair_keys_tell_pairs_apart():
    pairs = [(a, b) for a in (0, 1, 7, 2**31 - 1) for b in (0, 1, 7, 2**31 - 1)]
    keys = {int(hash_table.pair_key(a, b)) for a, b in pairs}
    assert len(keys) == len(pairs) and min(keys) >= 0


def test_find_three_finds_what_find_finds():
    # a small table at load 3/4: long probe runs, keys found at their home and further on,
    # keys absent (a run ending in an empty slot), the same key asked twice
    rng = np.random.default_rng(11)
    keys = np.full(64, EMPTY, np.int64)
    for key in rng.choice(1000, 48, replace=False):
        hash_table.insert(keys, key)
    asked = [int(k) for k in keys[keys != EMPTY]] + [1000, 1001, 5000]
    for a, b, c in rng.choice(asked, (300, 3)):
        expected = tuple(int(hash_table.find(keys, k)) for k in (a, b, c))
        assert tuple(int(x) for x in hash_table.find_three(keys, a, b, c)) == expected
    home_found = [int(k) for k in keys[keys != EMPTY]
                  if hash_table.find(keys, k) == hash_table.home(k, 64)]
    assert 0 < len(home_found) < 48  # both cases occurred
