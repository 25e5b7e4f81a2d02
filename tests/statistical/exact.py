"""Exact enumeration of the toy and USM posteriors and a chi-square goodness-of-fit helper.

Everything here is computed independently of the engine: g(m) from eq. 1 with scipy's gammaln,
the USM from its predictive probabilities with plain dictionaries.
"""
import functools
import itertools
import math

import numpy as np
from scipy import stats
from scipy.special import gammaln, logsumexp


def toy_log_g(n, m):
    """log g(m) = log 1^(m) 1^(m) 1^(n−m) / 3^(n+m), with a^(k) = Γ(a+k)/Γ(a) (eq. 1)."""
    m = np.asarray(m, dtype=float)
    return 2 * gammaln(1 + m) + gammaln(1 + n - m) - (gammaln(3 + n + m) - gammaln(3))


def toy_assignments(n):
    """All 2^n assignments z as rows of an int array, row i = the bits of i (site 0 = lowest bit)."""
    return np.array(list(itertools.product([0, 1], repeat=n)))[:, ::-1]


def toy_exact_p(n, power=1.0):
    """p(z | x)^power normalised over all 2^n assignments, indexed like ``z_index``."""
    z = toy_assignments(n)
    log_p = power * toy_log_g(n, z.sum(axis=1))
    return np.exp(log_p - logsumexp(log_p))


def z_index(z):
    """The row of ``toy_assignments`` equal to z (sites as bits, site 0 lowest)."""
    return int(np.dot(np.asarray(z, dtype=np.int64), 1 << np.arange(len(z))))


def chi_square_p(counts, probs, min_expected=5.0):
    """p-value of observed counts against probabilities; cells expected below ``min_expected``
    are pooled into one cell so the chi-square approximation holds."""
    counts = np.asarray(counts, dtype=float)
    expected = np.asarray(probs, dtype=float) * counts.sum()
    small = expected < min_expected
    obs = np.r_[counts[~small], counts[small].sum()]
    exp = np.r_[expected[~small], expected[small].sum()]
    if exp[-1] == 0:  # nothing pooled: drop the empty cell
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp).pvalue


# --- the unigram segmentation model, recomputed from its definition ------------------------------
def usm_log_p(utterances, alpha0=20.0, p_boundary=0.5, rho=2.0, n_symbols=None):
    """log p of a segmented corpus (lists of words) under the USM, as a product of predictive
    probabilities in corpus order with plain dictionaries (Goldwater et al. 2009)."""
    if n_symbols is None:
        n_symbols = len({c for words in utterances for w in words for c in w})
    counts, n, ends, total = {}, 0, 0, 0.0
    for words in utterances:
        for i, w in enumerate(words):
            final = i == len(words) - 1
            p0 = p_boundary * (1 - p_boundary) ** (len(w) - 1) / n_symbols ** len(w)
            total += math.log((counts.get(w, 0) + alpha0 * p0) / (n + alpha0))
            total += math.log(((ends if final else n - ends) + rho / 2) / (n + rho))
            counts[w] = counts.get(w, 0) + 1
            n += 1
            ends += final
    return total


def split_by_bits(texts, bits):
    """The segmentation of texts whose sites (non-final symbols in corpus order) have ``bits``."""
    out, k = [], 0
    for text in texts:
        words, start = [], 0
        for i in range(len(text) - 1):
            if bits[k]:
                words.append(text[start:i + 1])
                start = i + 1
            k += 1
        words.append(text[start:])
        out.append(words)
    return out


def usm_exact_p(texts, power=1.0, **hyper):
    """p(segmentation | texts)^power normalised over all 2^|S| segmentations, indexed by the
    sites' bits (site 0 lowest, as ``z_index``)."""
    n_sites = sum(len(t) - 1 for t in texts)
    bits = toy_assignments(n_sites)
    n_symbols = len(set("".join(texts)))
    log_p = power * np.array([usm_log_p(split_by_bits(texts, b), n_symbols=n_symbols, **hyper)
                              for b in bits])
    return np.exp(log_p - logsumexp(log_p))


# --- the HDP bigram segmentation model, summed over its seatings from its definition -------------
def bigram_log_p(utterances, alpha0, alpha1, p_boundary, p_utterance, n_symbols):
    """log p(segmentation) under the HDP bigram model (SPEC §6): every customer — each word in
    the restaurant of the word before it (`$` at an utterance's start), and the `$` that ends
    each utterance — joins one of its word's tables in that restaurant with probability
    n⟨r,w⟩ / (n_r + α₁) (summed over those tables) or opens one with α₁ P₁(w) / (n_r + α₁),
    P₁(w) = (t_w + α₀ P₀(w)) / (t + α₀); summed over every sequence of such choices, in corpus
    order, with plain dictionaries (the choices' effect is carried by table counts alone)."""
    customers = []
    for words in utterances:
        context = "$"
        for word in list(words) + ["$"]:
            customers.append((context, word))
            context = word

    def log_p0(word):
        if word == "$":
            return math.log(alpha0 * p_utterance)
        return (math.log(alpha0 * (1 - p_utterance) * p_boundary)
                + (len(word) - 1) * math.log(1 - p_boundary) - len(word) * math.log(n_symbols))

    @functools.lru_cache(maxsize=None)
    def rest(i, tables):
        """log Σ over the choices of customers i… given the tables per pair so far."""
        if i == len(customers):
            return 0.0
        pair_tables = dict(tables)
        r, w = customers[i]
        n_pair = sum(1 for c in customers[:i] if c == (r, w))
        n_r = sum(1 for c in customers[:i] if c[0] == r)
        t_w = sum(t for (_, dish), t in tables if dish == w)
        t = sum(t for _, t in tables)
        p1 = (t_w + math.exp(log_p0(w))) / (t + alpha0)
        options = []
        if n_pair:
            options.append(math.log(n_pair / (n_r + alpha1)) + rest(i + 1, tables))
        opened = dict(pair_tables)
        opened[(r, w)] = opened.get((r, w), 0) + 1
        options.append(math.log(alpha1 * p1 / (n_r + alpha1))
                       + rest(i + 1, tuple(sorted(opened.items()))))
        return float(logsumexp(options))

    return rest(0, ())


def bigram_exact_p(texts, power=1.0, **hyper):
    """p(segmentation | texts)^power under the bigram model, normalised over all 2^|S|
    segmentations, indexed by the sites' bits (as ``usm_exact_p``)."""
    n_sites = sum(len(t) - 1 for t in texts)
    n_symbols = len(set("".join(texts)))
    log_p = power * np.array([bigram_log_p(split_by_bits(texts, b), n_symbols=n_symbols, **hyper)
                              for b in toy_assignments(n_sites)])
    return np.exp(log_p - logsumexp(log_p))


# --- the Bayesian HMM, recomputed from its definition ---------------------------------------------
def hmm_log_p(sentences, tags, n_states, alpha=0.1, alpha_emit=0.1):
    """log p(tags, words) under the collapsed HMM: predictive probabilities in corpus order,
    each sentence from and back to the boundary state 0, with plain dictionaries."""
    vocabulary = len({w for s in sentences for w in s})
    trans, trans_row, emit, emit_row = {}, {}, {}, {}
    total = 0.0

    def step(table, row_table, row, col, prior, outcomes):
        nonlocal total
        total += math.log((table.get((row, col), 0) + prior)
                          / (row_table.get(row, 0) + outcomes * prior))
        table[row, col] = table.get((row, col), 0) + 1
        row_table[row] = row_table.get(row, 0) + 1

    for words, states in zip(sentences, tags):
        previous = 0
        for word, k in zip(words, states):
            step(trans, trans_row, previous, k, alpha, n_states + 1)
            step(emit, emit_row, k, word, alpha_emit, vocabulary)
            previous = k
        step(trans, trans_row, previous, 0, alpha, n_states + 1)
    return total


def hmm_exact_p(sentences, n_states, power=1.0, **prior):
    """p(tags | words)^power normalised over all K^N taggings, indexed by ``tag_index``."""
    n = sum(len(s) for s in sentences)
    log_p = []
    for flat in itertools.product(range(1, n_states + 1), repeat=n):
        flat = flat[::-1]  # token 0 is the lowest digit, as in tag_index
        tags, start = [], 0
        for s in sentences:
            tags.append(flat[start:start + len(s)])
            start += len(s)
        log_p.append(power * hmm_log_p(sentences, tags, n_states, **prior))
    log_p = np.array(log_p)
    return np.exp(log_p - logsumexp(log_p))


def tag_index(tags, n_states):
    """The row of ``hmm_exact_p`` of a flat tagging (states 1 … K, token 0 lowest digit)."""
    return int(np.dot(np.asarray(tags, dtype=np.int64) - 1, n_states ** np.arange(len(tags))))


# --- Börschinger & Johnson's unigram model with the learned lexical model, summed over seatings ---
def learned_base(word, label_counts, label_symbols, phi, n_symbols):
    """P₀(word) with θ ~ Dir(φ) on the n_symbols symbols (`#` one of them) integrated out: each
    symbol's predictive given the labels' symbols and the word's own earlier symbols, then `#`."""
    seen, p = dict(label_counts), 1.0
    for i, c in enumerate(word + "#"):
        p *= (seen.get(c, 0) + phi) / (label_symbols + i + n_symbols * phi)
        seen[c] = seen.get(c, 0) + 1
    return p


def learned_usm_log_p(utterances, alpha, rho, phi, n_symbols):
    """log p(segmentation) under the unigram model with the learned lexical model, summed over
    every seating: each word token joins a table of its word with probability size / (n + α) or
    opens one with α P₀(word | the labels so far) / (n + α), then the utterance ends or goes on
    (Beta(ρ/2, ρ/2)). ``n_symbols`` counts `#`."""
    tokens = [(w, i == len(words) - 1) for words in utterances for i, w in enumerate(words)]

    @functools.cache
    def total(k, tables):
        # tables: sorted tuple of (word, sorted tuple of table sizes): the seating so far
        if k == len(tokens):
            return 1.0
        word, final = tokens[k]
        seating = dict(tables)
        n = sum(sum(sizes) for sizes in seating.values())
        ends = sum(1 for _, f in tokens[:k] if f)
        end = ((ends if final else n - ends) + rho / 2) / (n + rho)
        labels, symbols = {}, 0
        for w, sizes in seating.items():
            for c in w + "#":
                labels[c] = labels.get(c, 0) + len(sizes)
            symbols += (len(w) + 1) * len(sizes)
        mine = seating.get(word, ())
        options = [(size / (n + alpha), mine[:i] + (size + 1,) + mine[i + 1:])
                   for i, size in enumerate(mine)]
        options.append((alpha * learned_base(word, labels, symbols, phi, n_symbols) / (n + alpha),
                        mine + (1,)))
        out = 0.0
        for p, sizes in options:
            seating[word] = tuple(sorted(sizes))
            out += p * end * total(k + 1, tuple(sorted(seating.items())))
        return out

    return math.log(total(0, ()))


def learned_usm_exact(texts, alpha, rho, phi):
    """(log Z, posterior) for the learned-lexicon unigram model: Z = p(texts), summed over every
    segmentation and seating; posterior over the 2^|S| segmentations indexed as ``z_index``."""
    n_sites = sum(len(t) - 1 for t in texts)
    n_symbols = len(set("".join(texts))) + 1
    log_p = np.array([learned_usm_log_p(split_by_bits(texts, b), alpha, rho, phi, n_symbols)
                      for b in toy_assignments(n_sites)])
    log_z = logsumexp(log_p)
    return log_z, np.exp(log_p - log_z)


def learned_bigram_log_p(utterances, alpha0, alpha1, p_end, phi, n_symbols):
    """log p(segmentation) under the HDP bigram model with the learned lexical model, summed over
    every seating of both levels: each word (and the `$` ending each utterance) joins a table
    of its pair in the restaurant of the word before it (`$` at an utterance's start) with
    probability size / (n_before + α₁), or opens one with α₁ / (n_before + α₁) × the unigram
    restaurant's choice: one of the word's unigram tables (size / (t + α₀)) or a new one
    (α₀ P₀′ / (t + α₀); P₀′(`$`) = p$, P₀′(w) = (1 − p$) P₀(w | the labels so far))."""
    tokens = []
    for words in utterances:
        before = "$"
        for w in [*words, "$"]:
            tokens.append((before, w))
            before = w

    def replaced(sizes, i, size):
        return tuple(sorted(sizes[:i] + (size,) + sizes[i + 1:]))

    @functools.cache
    def total(k, bigram, unigram):
        # bigram: sorted ((before, w), table sizes); unigram: sorted (w, table sizes)
        if k == len(tokens):
            return 1.0
        before, word = tokens[k]
        pairs, words = dict(bigram), dict(unigram)
        n_before = sum(sum(s) for (b, _), s in pairs.items() if b == before)
        t = sum(sum(s) for s in words.values())
        labels, symbols = {}, 0
        for w, sizes in words.items():
            if w != "$":
                for c in w + "#":
                    labels[c] = labels.get(c, 0) + len(sizes)
                symbols += (len(w) + 1) * len(sizes)
        base = p_end if word == "$" else (1 - p_end) * learned_base(word, labels, symbols, phi,
                                                                    n_symbols)
        mine, uni = pairs.get((before, word), ()), words.get(word, ())
        options = [(size / (n_before + alpha1), replaced(mine, i, size + 1), uni)
                   for i, size in enumerate(mine)]
        opened = tuple(sorted(mine + (1,)))
        new_table = alpha1 / (n_before + alpha1)
        options += [(new_table * size / (t + alpha0), opened, replaced(uni, i, size + 1))
                    for i, size in enumerate(uni)]
        options.append((new_table * alpha0 * base / (t + alpha0), opened,
                        tuple(sorted(uni + (1,)))))
        out = 0.0
        for p, pair_sizes, word_sizes in options:
            pairs[(before, word)], words[word] = pair_sizes, word_sizes
            out += p * total(k + 1, tuple(sorted(pairs.items())), tuple(sorted(words.items())))
        return out

    return math.log(total(0, (), ()))


def learned_bigram_exact(texts, alpha0, alpha1, p_end, phi):
    """(log Z, posterior over segmentations) for the learned-lexicon bigram model, as
    ``learned_usm_exact``."""
    n_sites = sum(len(t) - 1 for t in texts)
    n_symbols = len(set("".join(texts))) + 1
    log_p = np.array([learned_bigram_log_p(split_by_bits(texts, b), alpha0, alpha1, p_end, phi,
                                           n_symbols) for b in toy_assignments(n_sites)])
    log_z = logsumexp(log_p)
    return log_z, np.exp(log_p - log_z)
