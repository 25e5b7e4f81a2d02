"""The HDP bigram state (``BigramState``) and the constants naming the rows of its flat arrays:
the lexicon's and the pairs' tables, the customers' links, the word bases, the parameters'
slots; and the state's seating as an engine.core.seating.Seating. The package's docstring
says what the state means.
"""
from collections import namedtuple

from engine.core.jit import inline
from engine.core.seating import Seating
from engine.kernels.interface import for_state
from engine.models.segmentation.sites import implement_sites


# columns of BigramState.word; rows of .lexicon / .pairs, .links / .pair_links, .occ; columns
# of .pair_info; rows of .base; params; counts
REP, LENGTH, KEY, TOKENS, CUSTOMERS, TABLES = range(6)
SLOT_KEY, SLOT_HEAD, SLOT_SIZE = range(3)
NEXT, PREV = range(2)
OCC_NEXT, OCC_PREV, WORD_AT, WORD_ENDING = range(4)
CONTEXT, DISH = range(2)
BASE, LOG_BASE = range(2)
ALPHA0, ALPHA1 = range(2)
ALL_TABLES, WORDS, LIVE_WORDS, WORD_TOP, PAIR_TOP, LEX_CAPACITY, PAIR_CAPACITY = range(7)
MIN_CAPACITY = 1024
(CTX, DISH_OF, LENGTH_OF, REST_PAIR, REST_CUSTOMERS, REST_TABLES, FOUND, ARRIVING, SEATED,
 TAKEN, JOINED_PAIRS, SPLIT_PAIRS) = range(12)
UNKNOWN = -2  # labels[TAKEN]: a word that was not the site's (its id is looked up)
END = 0  # the word `$`: its id, and its length in ``base``


class BigramState(namedtuple("BigramState", [
        "chars", "final", "utt_start", "site_pos", "site_of", "prefix", "power", "base", "params",
        "bound", "lexicon", "links", "word", "word_free", "occ", "pairs", "pair_links",
        "pair_info", "spare", "pair_free", "seat_group", "seat_item", "seat_free", "seat_of",
        "discount", "seat_counts", "counts", "scratch", "labels", "journal"])):
    """State of the bigram model (T symbols, U utterances, S sites; W = T + 1 word ids,
    P = T + U pair ids and customers' tables; tables of C slots).

    chars, final, utt_start, site_pos, site_of, prefix, power : the corpus, as for the USM
    base : float64[2, L + 1]   α₀P₀ by word length 1 … L and, at 0, α₀P₀(`$`) = α₀ p$; and its log
    params : float64[2]        α₀, α₁
    bound : uint8[T]           1 where a word ends (always at an utterance's end)
    lexicon : int64[3, C]      keyed_lists table: word key → its ids (SLOT_KEY, SLOT_HEAD,
                               SLOT_SIZE); its first counts[LEX_CAPACITY] slots are used, doubling
                               as it fills (a small table stays in the processor's cache)
    links : int64[2, W]        the ids' list links in the lexicon
    word : int64[W, 6]         per id, a row: REP (an occurrence's start: the head of its list), LENGTH,
                               KEY, TOKENS, CUSTOMERS (in its restaurant), TABLES (t_w)
    word_free : int64[W]       stack of free ids, the first counts[WORD_TOP]
    occ : int64[4, T]          OCC_NEXT, OCC_PREV (occurrence lists, by start), WORD_AT (the id
                               of the word starting here, −1), WORD_ENDING (of the word ending here)
    pairs : int64[3, C′]       keyed_lists table: r·W + w → the pair's id, the first
                               counts[PAIR_CAPACITY] slots used
    pair_links : int64[2, P]   the pair ids' list links
    pair_info : int64[P, 2]    per pair id: CONTEXT r, DISH w
    spare : int64[3, C″]       room for a table's entries while it grows
    pair_free : int64[P]       stack of free pair ids, the first counts[PAIR_TOP]
    seat_group … seat_counts   the seating (engine.core.seating.Seating's fields), groups = pairs
    counts : int64[7]          ALL_TABLES (t), WORDS (tokens, `$` left out), LIVE_WORDS (ids in
                               use but `$`), WORD_TOP, PAIR_TOP, LEX_CAPACITY, PAIR_CAPACITY
    scratch : float64[2, 4]    TOKEN: each hypothesis's weight per choice of its first customers'
                               tables (new or existing), from token_weights to set_value
    labels : int64[12, 3]      TOKEN: a hypothesis's customers' context, dish, dish length and
                               counts in the rest (rows CTX … REST_TABLES), the labels of
                               the site's words w, w1, w2 (row FOUND) for set_value, the
                               arriving customers and how each sits (ARRIVING, SEATED), the
                               ids of the site's words as take_away_site found them (TAKEN;
                               UNKNOWN for the other hypothesis's), and each hypothesis's
                               customers' pair ids in the rest (JOINED_PAIRS, SPLIT_PAIRS; −1:
                               none yet), which put_site seats them with
    journal : int64[3, L + 1]  SENTENCE: the sizes and tables (explicit) the removed customers
                               left, and the sizes the added ones got, for an exact undo
    """

    __slots__ = ()


implements = for_state(BigramState)
implement_sites(implements)


@inline
def seating_of(state):
    """The state's seating as an engine.core.seating.Seating (views of its arrays).

    Parameters
    ----------
    state : BigramState

    Returns
    -------
    Seating
    """
    return Seating(state.seat_group, state.seat_item, state.seat_free, state.seat_of,
                   state.discount, state.seat_counts)
