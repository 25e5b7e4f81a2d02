"""TOKEN (SPEC §6): a site's customers taken away, "one word" weighed against "two words"
summing over the new customers' tables (``hypothesis_weights``), and the chosen words'
customers seated from their exact conditional; behind the interface's token functions.
"""
import math

from engine.core import seating as seats
from engine.core.draw import draw_weights
from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.segmentation.sites import same_halves, site_span
from engine.models.bigram.kernels.layout import (ALL_TABLES, ALPHA0, ALPHA1, ARRIVING, BASE, CTX,
    CUSTOMERS, DISH_OF, FOUND, JOINED_PAIRS, LENGTH, LENGTH_OF, LOG_BASE, REST_CUSTOMERS, REST_PAIR,
    REST_TABLES, SEATED, SPLIT_PAIRS, TABLES, TAKEN, TOKENS, UNKNOWN, WORD_AT, implements)
from engine.models.bigram.kernels.lexicon import count_token, remove_token, word_id
from engine.models.bigram.kernels.customers import arrive, customer_leaves, pair_id
from engine.models.bigram.kernels.neighbours import follower, left_context


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
