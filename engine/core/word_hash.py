"""Words as substrings of a corpus: keys in O(1) from prefix hashes, and exact comparison.

The corpus is one array of symbol codes (``chars``, non-negative ints); a word is a substring
chars[x:e]. With the prefix hashes H[i] of chars[:i] (a polynomial in HASH_BASE, wrapping
modulo 2⁶⁴) the hash of any substring is H[e] − H[x]·B^(e−x), two loads and two multiplies
whatever the word's length. A word's key holds its length and most of that hash, as a
non-negative int64, the key type of ``engine.core.keyed_lists``.

A key is a hash: two different words of one length share one with probability about 2⁻⁵⁵ per
pair. Code that needs exact identity (the segmentation model's lexicon) compares symbols with
``same_symbols`` whenever keys are equal; summary figures (the lexicon precision of
``engine.scoring.metrics``) accept the ~n²/2⁵⁶ chance.
"""
import numpy as np

from engine.core.jit import kernel

# odd, so its powers stay invertible modulo 2⁶⁴; unrelated to hash_table.MIX, which scrambles
# keys again to pick a slot
HASH_BASE = np.uint64(0xC2B2AE3D27D4EB4F)
KEYED_LENGTHS = 255  # word lengths a key tells apart exactly


@kernel
def fill_prefix_hashes(chars, prefix, power):
    """prefix[i] = hash of chars[:i], power[i] = HASH_BASE^i, in wrapping uint64 arithmetic.

    Parameters
    ----------
    chars : int32[T]
        Symbol codes (≥ 0; a code c enters the polynomial as c + 1, so no symbol is a zero
        digit).
    prefix, power : uint64[T + 1]
        Output, written in place.
    """
    prefix[0] = 0
    power[0] = 1
    for i in range(chars.shape[0]):
        prefix[i + 1] = prefix[i] * HASH_BASE + np.uint64(chars[i] + 1)
        power[i + 1] = power[i] * HASH_BASE


@kernel
def word_key(prefix, power, x, e):
    """The key of the word chars[x:e] (e > x), from the arrays of ``fill_prefix_hashes``: a
    non-negative int64 whose low 8 bits are the length (KEYED_LENGTHS for any longer word)
    and the 55 above them the top bits of the substring hash times HASH_BASE (which carries
    its low bits up: a short word's hash is small). So two words of one key have one length
    unless they are that long.

    Parameters
    ----------
    prefix, power : uint64[T + 1]
        The corpus's prefix hashes and HASH_BASE's powers.
    x, e : int
        The word's first symbol and the symbol after its last.

    Returns
    -------
    int64
    """
    h = (prefix[e] - prefix[x] * power[e - x]) * HASH_BASE
    length = min(e - x, KEYED_LENGTHS)
    return np.int64(((h >> np.uint64(9)) << np.uint64(8)) | np.uint64(length))


@kernel
def fill_word_keys(prefix, power, starts, ends, keys):
    """keys[i] = word_key of chars[starts[i]:ends[i]].

    Parameters
    ----------
    prefix, power : uint64[T + 1]
        The corpus's prefix hashes and HASH_BASE's powers.
    starts, ends : int64[n]
        The words.
    keys : int64[n]
        Output.
    """
    for i in range(starts.shape[0]):
        keys[i] = word_key(prefix, power, starts[i], ends[i])


@kernel
def same_symbols(chars, x, y, length):
    """Whether chars[x : x + length] and chars[y : y + length] hold the same symbols.

    Parameters
    ----------
    chars : int32[T]
    x, y, length : int

    Returns
    -------
    bool
    """
    if x == y:
        return True
    for i in range(length):
        if chars[x + i] != chars[y + i]:
            return False
    return True
