"""The HDP bigram segmentation model of Goldwater, Griffiths & Johnson (2009) behind the model
interface, with its restaurants' seating tracked exactly (Blunsom et al. 2009; SPEC §6).

Every utterance starts in the context `$` and ends with the word `$`. Each word w′ (and `$`) is a
restaurant whose customers are the words following it; a customer of dish w sits at one of the
tables labelled w with weight n_k, or at a new table with weight α₁ P₁(w), where

    P₁(w) = (t_w + α₀ P₀(w)) / (t + α₀)

is the shared unigram level (t_w: tables labelled w in all the bigram restaurants; t: all
tables) with its own seating summed out (its base P₀ is fixed: P₀(`$`) = p$, P₀(x₁…x_M) =
(1 − p$) p# (1 − p#)^(M−1) / |Σ|^M). The state is the segmentation and the bigram restaurants'
seating; its probability is the product, in corpus order, of every customer's (word, table)
probability (``log_likelihood``).

Sites are the non-final symbols, as for the unigram model. TOKEN at a site takes away the
customers of the one or two words there and of the word after them (their tables drawn by
exchangeability in the histogram representation), weighs "one word" against "two words"
summing over the new customers' tables, then seats the chosen words' customers from their exact
conditional (``hypothesis_weights``). SENTENCE proposes an utterance by dynamic programming
from the other utterances' frozen counts (engine.models.bigram.sentence).

Identifiers. A word type has an id (0 is `$`) while it has tokens; the lexicon maps a word's key
(engine.core.word_hash) to its ids (almost always one; symbols are compared, so two words never
share an id), and each id keeps its occurrences in a list so that one of them can be compared.
A pair ⟨w′, w⟩ with customers has an id, which is its group in the seating (engine.core.seating).
A customer is numbered by the start of its word token, or T + (the utterance's last symbol) for
the `$` that ends an utterance.
"""
from collections import namedtuple

import math

from engine.core import hash_table, keyed_lists, seating as seats
from engine.core.draw import draw_weights
from engine.core.jit import inline, kernel
from engine.core.special import log_rising
from engine.core.seating import Seating
from engine.core.word_hash import same_symbols, word_key
from engine.core.word_hash import fill_prefix_hashes  # noqa: F401 (the model's hashes)
from engine.kernels import interface
from engine.kernels.interface import for_state
from engine.models.segmentation.sites import (implement_sites, same_halves, site_span, word_end,
                                              word_start)

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


# --- the lexicon ----------------------------------------------------------------------------------
@kernel
def word_id(state, x, e):
    """The id of the word chars[x:e], or −1 when it has no tokens.

    Parameters
    ----------
    state : BigramState
    x, e : int

    Returns
    -------
    int64
    """
    length = e - x
    used = state.counts[LEX_CAPACITY]
    keys, heads = state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used]
    key = word_key(state.prefix, state.power, x, e)
    slot = hash_table.find(keys, key)
    while slot >= 0:
        w = heads[slot]
        while w >= 0:
            if state.word[w, LENGTH] == length and same_symbols(state.chars, state.word[w, REP],
                                                                x, length):
                return w
            w = state.links[NEXT, w]
        slot = hash_table.find_next(keys, key, slot)
    return -1


@kernel
def new_word(state, x, e):
    """A new id for the word chars[x:e], filed in the lexicon (live slots ≤ live words:
    doubling at half the live words keeps the load ≤ 1/2).

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int

    Returns
    -------
    int64
    """
    counts = state.counts
    counts[WORD_TOP] -= 1
    counts[LIVE_WORDS] += 1
    w = state.word_free[counts[WORD_TOP]]
    key = word_key(state.prefix, state.power, x, e)
    state.word[w, REP], state.word[w, LENGTH], state.word[w, KEY] = -1, e - x, key
    state.word[w, TOKENS] = state.word[w, CUSTOMERS] = state.word[w, TABLES] = 0
    # live slots ≤ live words: doubling at half the live words keeps the load ≤ 1/2
    if 2 * counts[LIVE_WORDS] > counts[LEX_CAPACITY]:
        counts[LEX_CAPACITY] = grown(state.lexicon, counts[LEX_CAPACITY], state.spare)
    used = counts[LEX_CAPACITY]
    keys, heads, sizes = (state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used],
                          state.lexicon[SLOT_SIZE, :used])
    slot = hash_table.find(keys, key)
    if slot < 0:
        slot = keyed_lists.new_slot(keys, heads, sizes, key)
    keyed_lists.push(heads, sizes, state.links[NEXT], state.links[PREV], slot, w)
    return w


@kernel
def grown(table, capacity, spare):
    """Double a growing keyed_lists table (rows SLOT_KEY, SLOT_HEAD, SLOT_SIZE).

    Parameters
    ----------
    table : int64[3, C]
        Mutated.
    capacity : int
        The capacity in use.
    spare : int64[3, C / 2]
        Work.

    Returns
    -------
    int
        The new capacity.
    """
    return keyed_lists.grow(table[SLOT_KEY], table[SLOT_HEAD], table[SLOT_SIZE], capacity,
                            spare[SLOT_KEY], spare[SLOT_HEAD], spare[SLOT_SIZE])


@kernel
def add_token(state, x, e):
    """Count the word token chars[x:e].

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int

    Returns
    -------
    int64
        Its id.
    """
    return count_token(state, x, e, word_id(state, x, e))


@kernel
def count_token(state, x, e, w):
    """Count the word token chars[x:e] whose id ``word_id`` gave as w (negative: none, a new
    word): the id's occurrences are a list whose head is REP.

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e, w : int

    Returns
    -------
    int64
        Its id.
    """
    if w < 0:
        w = new_word(state, x, e)
    # the id's occurrences are a list whose head is REP
    head = state.word[w, REP]
    state.occ[OCC_NEXT, x], state.occ[OCC_PREV, x] = head, -1
    if head >= 0:
        state.occ[OCC_PREV, head] = x
    state.word[w, REP] = x
    state.word[w, TOKENS] += 1
    state.counts[WORDS] += 1
    state.occ[WORD_AT, x] = w
    state.occ[WORD_ENDING, e - 1] = w
    return w


@kernel
def remove_token(state, x, e):
    """Uncount the word token chars[x:e] (its customers gone already); an id left without tokens
    leaves the lexicon.

    Parameters
    ----------
    state : BigramState
        Mutated.
    x, e : int
    """
    w = state.occ[WORD_AT, x]
    occ = state.occ
    before, after = occ[OCC_PREV, x], occ[OCC_NEXT, x]
    if before >= 0:
        occ[OCC_NEXT, before] = after
    else:
        state.word[w, REP] = after
    if after >= 0:
        occ[OCC_PREV, after] = before
    occ[WORD_AT, x] = occ[WORD_ENDING, e - 1] = -1
    state.word[w, TOKENS] -= 1
    state.counts[WORDS] -= 1
    if state.word[w, TOKENS] == 0:
        used = state.counts[LEX_CAPACITY]
        keys, heads, sizes = (state.lexicon[SLOT_KEY, :used], state.lexicon[SLOT_HEAD, :used],
                              state.lexicon[SLOT_SIZE, :used])
        slot = hash_table.find(keys, state.word[w, KEY])
        while not slot_holds(state, slot, w):
            slot = hash_table.find_next(keys, state.word[w, KEY], slot)
        keyed_lists.unlink(keys, heads, sizes, state.links[NEXT], state.links[PREV], slot, w)
        state.word_free[state.counts[WORD_TOP]] = w
        state.counts[WORD_TOP] += 1
        state.counts[LIVE_WORDS] -= 1


@kernel
def slot_holds(state, slot, w):
    """Whether id w is on the list of lexicon slot ``slot`` (< counts[LEX_CAPACITY]).

    Parameters
    ----------
    state : BigramState
    slot, w : int

    Returns
    -------
    bool
    """
    v = state.lexicon[SLOT_HEAD, slot]  # (slot < counts[LEX_CAPACITY])
    while v >= 0 and v != w:
        v = state.links[NEXT, v]
    return v == w


# --- pairs and customers ----------------------------------------------------------------------------
@inline
def pair_key(state, r, w):
    """The exact key of the pair ⟨r, w⟩ of word ids: r·W + w.

    Parameters
    ----------
    state : BigramState
    r, w : int

    Returns
    -------
    int64
    """
    return r * state.word.shape[0] + w


@kernel
def pair_id(state, r, w):
    """The id of the pair ⟨r, w⟩ (word ids), or −1 when it has no customers.

    Parameters
    ----------
    state : BigramState
    r, w : int

    Returns
    -------
    int64
    """
    slot = hash_table.find(state.pairs[SLOT_KEY, :state.counts[PAIR_CAPACITY]],
                            pair_key(state, r, w))
    return -1 if slot < 0 else state.pairs[SLOT_HEAD, slot]


@kernel
def pair_for(state, r, w):
    """The id of the pair ⟨r, w⟩, made when new (one slot per live pair: the table doubles at
    half its capacity).

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w : int

    Returns
    -------
    int64
    """
    g = pair_id(state, r, w)
    if g >= 0:
        return g
    counts = state.counts
    # one slot per live pair: double at half the capacity
    if 2 * (state.pair_free.shape[0] - counts[PAIR_TOP] + 1) > counts[PAIR_CAPACITY]:
        counts[PAIR_CAPACITY] = grown(state.pairs, counts[PAIR_CAPACITY], state.spare)
    counts[PAIR_TOP] -= 1
    g = state.pair_free[counts[PAIR_TOP]]
    state.pair_info[g, CONTEXT], state.pair_info[g, DISH] = r, w
    used = counts[PAIR_CAPACITY]
    p = state.pairs
    keyed_lists.file_item(p[SLOT_KEY, :used], p[SLOT_HEAD, :used], p[SLOT_SIZE, :used],
                          state.pair_links[NEXT], state.pair_links[PREV], pair_key(state, r, w), g)
    return g


@kernel
def drop_pair_if_empty(state, g):
    """Free pair g's id and its slot when it has no customers left.

    Parameters
    ----------
    state : BigramState
        Mutated.
    g : int
    """
    if state.seat_group[g, seats.CUSTOMERS] > 0:
        return
    r, w = state.pair_info[g, CONTEXT], state.pair_info[g, DISH]
    used = state.counts[PAIR_CAPACITY]
    p = state.pairs
    keyed_lists.unfile_item(p[SLOT_KEY, :used], p[SLOT_HEAD, :used], p[SLOT_SIZE, :used],
                            state.pair_links[NEXT], state.pair_links[PREV], pair_key(state, r, w),
                            g)
    state.pair_free[state.counts[PAIR_TOP]] = g
    state.counts[PAIR_TOP] += 1


@inline
def p1_numerator(state, w):
    """t_w + α₀P₀(w): P₁(w) times (t + α₀).

    Parameters
    ----------
    state : BigramState
    w : int

    Returns
    -------
    float64
    """
    return state.word[w, TABLES] + state.base[BASE, state.word[w, LENGTH]]


@kernel
def new_table_weight(state, w):
    """α₁ P₁(w): the weight of a new table for dish w.

    Parameters
    ----------
    state : BigramState
    w : int

    Returns
    -------
    float64
    """
    return (state.params[ALPHA1] * p1_numerator(state, w)
            / (state.counts[ALL_TABLES] + state.params[ALPHA0]))


@kernel
def customer_arrives(rng, state, r, w, c, table):
    """Customer c of dish w comes into restaurant r: at a new table (table = 1), an existing
    one drawn by size (table = 0) or by the restaurant's rule (table = −1).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    r, w, c, table : int

    Returns
    -------
    int64
        The size of its table.
    """
    return arrive(rng, state, r, w, c, table, -1)


@inline
def arrive(rng, state, r, w, c, table, g):
    """customer_arrives inlined: for TOKEN's put_site, which seats a site's customers in a loop
    and knows most of their pairs' ids already.

    Parameters
    ----------
    rng, state, r, w, c, table
        As customer_arrives'.
    g : int
        The pair ⟨r, w⟩'s id, or −1 to look it up (and make it when new).

    Returns
    -------
    int64
    """
    if g < 0:
        g = pair_for(state, r, w)
    if table < 0:
        size = seats.seat(rng, seating_of(state), g, c, new_table_weight(state, w))
    else:
        size = seats.seat_at(rng, seating_of(state), g, c, table == 1)
    counted_in(state, r, w, size == 1, 1)
    return size


@kernel
def customer_leaves(rng, state, r, w, c):
    """Customer c of dish w leaves restaurant r.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    r, w, c : int

    Returns
    -------
    int64
        The size its table had.
    """
    g = pair_id(state, r, w)
    size = seats.unseat(rng, seating_of(state), g, c)
    counted_in(state, r, w, size == 1, -1)
    drop_pair_if_empty(state, g)
    return size


@kernel
def customer_unarrives(state, r, w, c, size):
    """Undo ``customer_arrives`` (which returned ``size``), what came after it undone.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w, c, size : int
    """
    g = pair_id(state, r, w)
    seats.unseat_exact(seating_of(state), g, c, size)
    counted_in(state, r, w, size == 1, -1)
    drop_pair_if_empty(state, g)


@kernel
def customer_returns(state, r, w, c, size, table):
    """Undo ``customer_leaves`` (which returned ``size``; ``table``: seating.table_of before),
    what came after it undone.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w, c, size, table : int
    """
    g = pair_for(state, r, w)
    seats.reseat_exact(seating_of(state), g, c, size, table)
    counted_in(state, r, w, size == 1, 1)


@inline
def counted_in(state, r, w, table_changed, sign):
    """Restaurant r's customers, and when a table opened or closed, t_w and t, by ``sign``.

    Parameters
    ----------
    state : BigramState
        Mutated.
    r, w : int
    table_changed : bool
    sign : int
    """
    state.word[r, CUSTOMERS] += sign
    if table_changed:
        state.word[w, TABLES] += sign
        state.counts[ALL_TABLES] += sign


@kernel
def predictive(state, r, w, length):
    """log P(dish | restaurant r) for a word of ``length`` symbols with id w (−1: no tokens),
    any seating summed out: log (n⟨r,w⟩ + α₁P₁(w)) / (n_r + α₁).

    Parameters
    ----------
    state : BigramState
    r : int
        −1: a context with no customers.
    w, length : int

    Returns
    -------
    float64
    """
    alpha0, alpha1 = state.params[ALPHA0], state.params[ALPHA1]
    denominator = (state.word[r, CUSTOMERS] if r >= 0 else 0) + alpha1
    tables = state.word[w, TABLES] if w >= 0 else 0
    if tables == 0:  # no table anywhere, so no customer: α₁ α₀P₀ / (t + α₀), in logs
        return (math.log(alpha1) + state.base[LOG_BASE, length]
                - math.log((state.counts[ALL_TABLES] + alpha0) * denominator))
    g = pair_id(state, r, w) if r >= 0 else -1
    n = state.seat_group[g, seats.CUSTOMERS] if g >= 0 else 0
    p1 = (tables + state.base[BASE, length]) / (state.counts[ALL_TABLES] + alpha0)
    return math.log((n + alpha1 * p1) / denominator)


# --- words around a site ------------------------------------------------------------------------------
@inline
def is_start(state, a):
    """Whether symbol a starts its utterance.

    Parameters
    ----------
    state : BigramState
    a : int

    Returns
    -------
    bool
    """
    return a == 0 or state.final[a - 1]


@inline
def left_context(state, a):
    """The id of the word before the one starting at a (`$` at an utterance's start).

    Parameters
    ----------
    state : BigramState
    a : int

    Returns
    -------
    int64
    """
    return END if is_start(state, a) else state.occ[WORD_ENDING, a - 1]


@inline
def follower(state, e):
    """(id, customer) of what follows a word ending at e − 1: the next word, or the `$` that
    ends the utterance.

    Parameters
    ----------
    state : BigramState
    e : int

    Returns
    -------
    (int64, int64)
    """
    if state.final[e - 1]:
        return END, state.chars.shape[0] + e - 1
    return state.occ[WORD_AT, e], e


# --- TOKEN ------------------------------------------------------------------------------------------
@inline
def hypothesis_weights(state, k, ctx, dish, length, rest_pairs, rest_customers, rest_tables,
                       out):
    """Σ over the tables of k customers arriving in order (customer i of word ``dish[i]`` in
    restaurant ``ctx[i]``) of the product of their (word, table) probabilities given the rest,
    for each choice m of the first k − 1 customers' tables (bit i: customer i opens a table),
    the last customer's summed.

    Labels are word ids, or negative for words with no tokens in the rest (equal labels, equal
    words). For every word with no table in the rest, the first customer to open one
    contributes α₀P₀(w), which may underflow: it is left out here (the caller adds its log), so
    every term has it once.

    Parameters
    ----------
    state : BigramState
    k : int
    ctx, dish, length : int64[≥ k]
        Each customer's restaurant, word label and word length.
    rest_pairs, rest_customers, rest_tables : int64[≥ k]
        Each customer's counts in the rest: n⟨r, w⟩, n_r, t_w.
    out : float64[≥ 2^(k−1)]
        Output: out[m].

    Returns
    -------
    float64
        Σ out.
    """
    alpha0, alpha1 = state.params[ALPHA0], state.params[ALPHA1]
    total = 0.0
    for m in range(1 << (k - 1)):
        weight = 1.0
        for i in range(k):
            n, customers, tables = rest_pairs[i], rest_customers[i], rest_tables[i]
            all_tables = state.counts[ALL_TABLES]
            for j in range(i):
                opened = (m >> j) & 1
                all_tables += opened
                if ctx[j] == ctx[i]:
                    customers += 1
                    n += dish[j] == dish[i]
                if opened and dish[j] == dish[i]:
                    tables += 1
            if tables == 0:
                p1_num = 1.0  # α₀P₀(w) factored out: this customer is the dish's first table
            else:
                p1_num = tables + state.base[BASE, length[i]]
            new = alpha1 * p1_num / (all_tables + alpha0)
            if i == k - 1:
                weight *= (n + new) / (customers + alpha1)
            elif (m >> i) & 1:
                weight *= new / (customers + alpha1)
            else:
                weight *= n / (customers + alpha1)
        out[m] = weight
        total += weight
    return total


@inline
def rest_counts(state, i, r, w, rest_pairs, rest_customers, rest_tables, pair_ids):
    """Customer i's counts in the rest.

    Parameters
    ----------
    state : BigramState
    i : int
    r, w : int
        Ids, negative when absent.
    rest_pairs, rest_customers, rest_tables : int64[≥ i + 1]
        Output at i: n⟨r, w⟩, n_r, t_w.
    pair_ids : int64[≥ i + 1]
        Output at i: the pair ⟨r, w⟩'s id, −1 when it has no customers.
    """
    rest_customers[i] = state.word[r, CUSTOMERS] if r >= 0 else 0
    rest_tables[i] = state.word[w, TABLES] if w >= 0 else 0
    g = pair_id(state, r, w) if r >= 0 and w >= 0 else -1
    rest_pairs[i] = state.seat_group[g, seats.CUSTOMERS] if g >= 0 else 0
    pair_ids[i] = g


@kernel
def site_hypotheses(state, a, p, e, w):
    """With site p's customers taken away: w[0] ∝ P(one word chars[a:e] | rest), w[1] ∝
    P(two words chars[a:p+1], chars[p+1:e] | rest), each summed over the new customers'
    tables; state.scratch[h] holds hypothesis h's terms by the first customers' tables, and
    state.labels the customers' labels and counts. Called right after take_away_site, whose
    labels[TAKEN] it reads (``rest_id``).

    Parameters
    ----------
    state : BigramState
        Mutated.
        (scratch and labels).
    a, p, e : int
    w : float64[≥ 2]
        Output.
    """
    left = left_context(state, a)
    right, _ = follower(state, e)
    joined, first = rest_id(state, 0, a, e), rest_id(state, 1, a, p + 1)
    second = rest_id(state, 2, p + 1, e)
    # labels: ids, or distinct negative codes for words without tokens (equal words, equal codes)
    if joined < 0:
        joined = -3
    if first < 0:
        first = -1
    if second < 0:
        second = -1 if first == -1 and same_halves(state, a, p, e) else -2
    state.labels[FOUND, 0], state.labels[FOUND, 1], state.labels[FOUND, 2] = joined, first, second
    ctx, dish, length = state.labels[CTX], state.labels[DISH_OF], state.labels[LENGTH_OF]
    pairs_, customers, tables = (state.labels[REST_PAIR], state.labels[REST_CUSTOMERS],
                                 state.labels[REST_TABLES])
    right_length = state.word[right, LENGTH]
    # one word: ⟨left, w⟩, ⟨w, right⟩
    ctx[0], dish[0], length[0] = left, joined, e - a
    ctx[1], dish[1], length[1] = joined, right, right_length
    for i in range(2):
        rest_counts(state, i, ctx[i], dish[i], pairs_, customers, tables,
                    state.labels[JOINED_PAIRS])
    scale_joined = unopened_log_base(state, 2, dish, length, tables)
    w[0] = hypothesis_weights(state, 2, ctx, dish, length, pairs_, customers, tables,
                              state.scratch[0])
    # two words: ⟨left, w1⟩, ⟨w1, w2⟩, ⟨w2, right⟩
    ctx[0], dish[0], length[0] = left, first, p + 1 - a
    ctx[1], dish[1], length[1] = first, second, e - p - 1
    ctx[2], dish[2], length[2] = second, right, right_length
    for i in range(3):
        rest_counts(state, i, ctx[i], dish[i], pairs_, customers, tables,
                    state.labels[SPLIT_PAIRS])
    scale_split = unopened_log_base(state, 3, dish, length, tables)
    w[1] = hypothesis_weights(state, 3, ctx, dish, length, pairs_, customers, tables,
                              state.scratch[1])
    # the factored-out bases back, relative to the larger (one exp per site)
    if scale_joined > scale_split:
        w[1] *= math.exp(scale_split - scale_joined)
    else:
        w[0] *= math.exp(scale_joined - scale_split)


@inline
def rest_id(state, i, x, e):
    """The id of the word chars[x:e] in the rest (−1: no tokens left), word i of the site (0
    joined, 1 and 2 the halves): take_away_site knew the ids of the site's own words, which
    keep them while they have tokens, so only the other hypothesis's are looked up.

    Parameters
    ----------
    state : BigramState
    i, x, e : int

    Returns
    -------
    int64
    """
    w = state.labels[TAKEN, i]
    if w == UNKNOWN:
        w = word_id(state, x, e)
    elif state.word[w, TOKENS] == 0:
        w = -1
    return w


@inline
def unopened_log_base(state, k, dish, length, tables):
    """Σ log α₀P₀(w) over the distinct dishes with no table in the rest.

    Parameters
    ----------
    state : BigramState
    k : int
        The customers.
    dish : int64[≥ k]
        Their words' labels (``hypothesis_weights``).
    length : int64[≥ k]
        Their words' lengths.
    tables : int64[≥ k]
        Their words' t_w in the rest.

    Returns
    -------
    float64
    """
    total = 0.0
    for i in range(k):
        if tables[i] == 0:
            seen = False
            for j in range(i):
                seen = seen or dish[j] == dish[i]
            if not seen:
                total += state.base[LOG_BASE, length[i]]
    return total


@kernel
def take_away_site(rng, state, a, p, e):
    """Take away the customers and tokens of the word(s) in [a, e) (site p's boundary as it
    is), and the customer of what follows them.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    a, p, e : int
    """
    right, c_right = follower(state, e)
    left = left_context(state, a)
    taken = state.labels[TAKEN]
    if state.bound[p]:
        first, second = state.occ[WORD_AT, a], state.occ[WORD_AT, p + 1]
        taken[0], taken[1], taken[2] = UNKNOWN, first, second
        customer_leaves(rng, state, second, right, c_right)
        customer_leaves(rng, state, first, second, p + 1)
        customer_leaves(rng, state, left, first, a)
        remove_token(state, p + 1, e)
        remove_token(state, a, p + 1)
    else:
        joined = state.occ[WORD_AT, a]
        taken[0], taken[1], taken[2] = joined, UNKNOWN, UNKNOWN
        customer_leaves(rng, state, joined, right, c_right)
        customer_leaves(rng, state, left, joined, a)
        remove_token(state, a, e)


@inline
def put_site(rng, state, a, p, e, v, choice):
    """Give the taken-away span [a, e) one word (v = 0) or two (v = 1) and seat their customers
    in order: the first ones at a new table or an existing one as bit i of ``choice`` says, the
    last by the restaurant's rule.

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated (labels' ARRIVING and SEATED rows used as work).
    a, p, e, v, choice : int
    """
    state.bound[p] = v
    left = left_context(state, a)
    right, c_right = follower(state, e)
    found = state.labels[FOUND]  # the words' ids in the rest, as token_weights found them
    ctx, dish = state.labels[CTX], state.labels[DISH_OF]
    customer, table = state.labels[ARRIVING], state.labels[SEATED]
    if v:
        first = count_token(state, a, p + 1, found[1])
        # two new equal halves: the second token is the first's new id
        second = count_token(state, p + 1, e, first if found[2] == found[1] else found[2])
        ctx[0], dish[0], customer[0], table[0] = left, first, a, choice & 1
        ctx[1], dish[1], customer[1], table[1] = first, second, p + 1, (choice >> 1) & 1
    else:
        first = count_token(state, a, e, found[0])
        ctx[0], dish[0], customer[0], table[0] = left, first, a, choice & 1
    k = 2 + v
    ctx[k - 1], dish[k - 1], customer[k - 1], table[k - 1] = dish[k - 2], right, c_right, -1
    # the pairs site_hypotheses found need no lookup: pairs are only made between then and now
    pair_ids = state.labels[SPLIT_PAIRS] if v else state.labels[JOINED_PAIRS]
    # one call site, so that customer_arrives is inlined once (each call passes the whole state)
    for i in range(k):
        arrive(rng, state, ctx[i], dish[i], customer[i], table[i], pair_ids[i])


@implements(interface.reseats)
def _reseats(state):
    """interface.reseats: True, TOKEN's weights take the site's customers away.

    Parameters
    ----------
    state : BigramState

    Returns
    -------
    bool
    """
    return True


@implements(interface.token_weights)
def _token_weights(rng, state, s, w):
    """interface.token_weights: the site's customers leave (``take_away_site``) and the two
    hypotheses are weighed (``site_hypotheses``).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    s : int
    w : float64[≥ 2]
        Output.
    """
    a, p, e = site_span(state, s)
    take_away_site(rng, state, a, p, e)
    site_hypotheses(state, a, p, e, w)


@implements(interface.set_value)
def _set_value(rng, state, s, v):
    """interface.set_value: how the words' first customers sit is drawn from hypothesis v's terms
    (2 for one word, 4 for two), then they are seated (``put_site``).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    s, v : int
    """
    a, p, e = site_span(state, s)
    # how the words' first customers sit: hypothesis v's terms (2 for one word, 4 for two)
    choice = draw_weights(rng, state.scratch[v], 2 + 2 * v)
    put_site(rng, state, a, p, e, v, choice)


# --- building and scoring -------------------------------------------------------------------------
@kernel
def seat_corpus(rng, state):
    """Count every word of the segmentation ``bound`` and seat its customers in corpus order,
    each by the restaurant's rule (sequential seating).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    """
    t = state.chars.shape[0]
    for x in range(t):
        if state.bound[x]:
            add_token(state, word_start(state.bound, x), x + 1)
    x = 0
    while x < t:
        e = word_end(state.bound, x)
        w = state.occ[WORD_AT, x]
        customer_arrives(rng, state, left_context(state, x), w, x, -1)
        if state.final[e - 1]:
            customer_arrives(rng, state, w, END, t + e - 1, -1)
        x = e


@kernel
def log_likelihood(state):
    """log P(segmentation, seating) from the running counts: per restaurant r, n_r customers and
    T_r tables, T_r log α₁ − log α₁^(n_r); per table, log (n_k − 1)!; and the unigram level's
    Pólya urn over the tables' labels, Σ_w log (α₀P₀(w))^(t_w) − log α₀^(t).

    Parameters
    ----------
    state : BigramState

    Returns
    -------
    float64
    """
    alpha0, alpha1 = state.params[ALPHA0], state.params[ALPHA1]
    seating = seating_of(state)
    total = -(math.lgamma(alpha0 + state.counts[ALL_TABLES]) - math.lgamma(alpha0))
    total += state.counts[ALL_TABLES] * math.log(alpha1)
    for w in range(state.word.shape[0]):
        if w == END or state.word[w, TOKENS] > 0:
            n_r = state.word[w, CUSTOMERS]
            total -= math.lgamma(alpha1 + n_r) - math.lgamma(alpha1)
            tables = state.word[w, TABLES]
            if tables:
                base = state.base[BASE, state.word[w, LENGTH]]
                if base > 0.0:
                    total += log_rising(base, tables)
                else:  # α₀P₀ underflows: b (b + 1) … (b + t − 1) → b (t − 1)!
                    total += state.base[LOG_BASE, state.word[w, LENGTH]] + math.lgamma(tables)
    for g in range(state.pair_info.shape[0]):
        if state.seat_group[g, seats.CUSTOMERS] > 0:
            total += seats.log_tables_term(seating, g)
    return total


@kernel
def reseat_sweep(rng, state):
    """Every customer in corpus order leaves and comes back with the segmentation fixed: a
    Gibbs sweep over the seating alone (the note's Fig. 2, circles).

    Parameters
    ----------
    rng : numpy.random.Generator
    state : BigramState
        Mutated.
    """
    t = state.chars.shape[0]
    x = 0
    while x < t:
        e = word_end(state.bound, x)
        w = state.occ[WORD_AT, x]
        left = left_context(state, x)
        customer_leaves(rng, state, left, w, x)
        customer_arrives(rng, state, left, w, x, -1)
        if state.final[e - 1]:
            customer_leaves(rng, state, w, END, t + e - 1)
            customer_arrives(rng, state, w, END, t + e - 1, -1)
        x = e
