"""The USM state (``UsmState``) and the constants naming the rows of its flat arrays: the
counts, the two indexes' tables, their links and the word bases; the parameters' slots. The
package's docstring says what the state means.
"""
from collections import namedtuple

from engine.kernels import block_weight, interface
from engine.kernels.interface import for_state
from engine.models.segmentation.sites import implement_sites


# rows of UsmState.counts, of its tables (lexicon, pairs, spare), of its links and of its base
WORDS, ENDS, LEX_LIVE, LEX_CAPACITY, PAIR_LIVE, PAIR_CAPACITY, LINEAR = range(7)
MEMO_START, MEMO_END, MEMO_COUNT = range(7, 10)
# a TYPE block's words (``block_candidates``): its sites set aside, the lexicon slots of w, w1
# and w2 (UNSEEN: not looked up yet), w1's and w2's lengths (BLOCK_LEN1 = 0: no block) and
# whether w2 ends its utterance
ASIDE, BLOCK_JOIN, BLOCK_LEFT, BLOCK_RIGHT, BLOCK_LEN1, BLOCK_LEN2, BLOCK_FINAL = range(10, 17)
N_COUNTS = 17
UNSEEN = -2
KEY, HEAD, SIZE = range(3)
LEXICON, PAIRS, SPARE = 0, 3, 6  # the first rows of the tables (UsmState.tables)
PREFIX, POWER = range(2)
OCC_NEXT, OCC_PREV, PAIR_NEXT, PAIR_PREV = range(4)
BASE, LOG_BASE, PARAMS = range(3)


class UsmState(namedtuple("UsmState", [
        "chars", "bound", "final", "utt_start", "site_pos", "site_of", "hashes", "base",
        "tables", "links", "counts", "removed"])):
    """State of the USM (T symbols, S sites, tables of C slots).

    chars : int32[T]         symbol codes, utterances concatenated
    bound : uint8[T]         1 when a word ends at this symbol (always 1 at an utterance's end)
    final : uint8[T]         1 at the last symbol of each utterance
    utt_start : int64[U + 1] where each of the U utterances starts (and T at the end)
    site_pos : int32[S]      the symbol each site follows
    site_of : int32[T]       the site after each symbol (−1 at utterance ends)
    hashes : uint64[2, T + 1]
                             prefix hashes of chars (engine.core.word_hash), for O(1) word keys,
                             and HASH_BASE^k (rows PREFIX, POWER)
    base : float64[3, L + 1]
                             α₀ P₀(w) for words of length 0 … L (the longest utterance), and its log
                             (rows BASE, LOG_BASE); and the model's α₀ and ρ (row PARAMS, entries
                             ALPHA0, RHO: in this array, not one of their own, as a call passes
                             every array of the state)
    tables : int64[9, C]     two keyed_lists tables and room to grow one, each three rows KEY,
                             HEAD, SIZE (slot_key, slot_head, slot_size) from LEXICON, PAIRS and
                             SPARE: the lexicon (a word's key, the start of its first
                             occurrence, n_w), the boundary index (a type's key, the symbol of
                             its first boundary, how many) and the spare rows, which hold one
                             table's entries while it grows (each table uses only its first
                             counts[LEX_CAPACITY] or counts[PAIR_CAPACITY] slots, doubling as it
                             fills)
    links : int32[4, T]      the lists' links (keyed_lists' item_next, item_prev): rows
                             OCC_NEXT, OCC_PREV the next and previous occurrence of a word, by
                             the occurrence's start; rows PAIR_NEXT, PAIR_PREV those of a
                             boundary, by its symbol
    counts : int64[17]       N (words), E (utterance-final words), words in the lexicon and its
                             capacity in use, boundary types and their capacity in use, the
                             longest word length worked linearly (α₀P₀ ≥ LINEAR_MIN), a word
                             chars[start:end] with its n_w, remembered by TOKEN (end = −1:
                             none; any change to the lexicon forgets it), the sites set aside,
                             and the words of the TYPE block under way (``block_candidates``)
    removed : uint8[T]       1 on the symbols of words removed inside a TYPE move

    Arrays of one kind and length share a 2-D array: a call that is not inlined passes every array
    of the state (~7 words each), and its cost grows with them — eight more one-element fields
    made TYPE 25 % slower, three fewer arrays (hashes, tables, base) 20 % faster. A TYPE block
    site's two calls (remove_site, add_site) pass only the arrays they need (``SlotView``,
    ``SiteView``).
    The site maps and the links are 32-bit: a TYPE sweep reads them all over the corpus, and
    halving their bytes took 5–10 % off its time (more when other programs crowd the
    processor's cache; docs/benchmarks.md).
    """

    __slots__ = ()
    # Python-side names for the rows of the grouped arrays (kernels index them by constant)
    lexicon = property(lambda self: self.tables[LEXICON:LEXICON + 3])
    pairs = property(lambda self: self.tables[PAIRS:PAIRS + 3])
    lex_key = property(lambda self: self.lexicon[KEY])
    lex_head = property(lambda self: self.lexicon[HEAD])
    lex_count = property(lambda self: self.lexicon[SIZE])
    pair_key = property(lambda self: self.pairs[KEY])
    pair_head = property(lambda self: self.pairs[HEAD])
    pair_size = property(lambda self: self.pairs[SIZE])
    prefix = property(lambda self: self.hashes[PREFIX])
    power = property(lambda self: self.hashes[POWER])
    occ_next = property(lambda self: self.links[OCC_NEXT])
    occ_prev = property(lambda self: self.links[OCC_PREV])
    pair_next = property(lambda self: self.links[PAIR_NEXT])
    pair_prev = property(lambda self: self.links[PAIR_PREV])


ALPHA0, RHO = 0, 1
MIN_CAPACITY = 1024
# α₀P₀ of the longest word worked in linear arithmetic: a product of two such bases and a few
# terms of order 1e-9 … 1e9·N stays far from float64's ends (1e-308 … 1e308)
LINEAR_MIN = 1e-120

implements = for_state(UsmState, inlined=("remove_site", "add_site"))
implement_sites(implements)


implements(interface.block_weights)(block_weight.rising_block_weights)
