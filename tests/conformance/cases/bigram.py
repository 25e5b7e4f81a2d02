"""The HDP bigram segmentation model's conformance case and its exact oracle: its marginal over
segmentations with the seatings summed out (SPEC §6), and the particle filter's bigram model
with the learned lexicon, summed over every seating of both levels (Börschinger & Johnson
2011)."""
import functools
import math
from functools import cache

from scipy.special import logsumexp

from engine.models.bigram.model import BigramModel
from tests.conformance.case import Case
from tests.conformance.cases.segmentation import (every_segmentation, large_corpus,
                                                  learned_base, n_sites)
from tests.statistical.exact import binary_assignments, normalised, z_index

BIGRAM_TEXTS = ("abb", "ba", "abab")  # 6 sites, 64 segmentations, 23 of them above 1%
BIGRAM_HYPER = dict(alpha0=10.0, alpha1=5.0, p_boundary=0.5, p_utterance=0.5)
BIGRAM_PF_TEXTS = ("aba", "ba")  # 3 sites: 8 segmentations, a posterior a wrong weight moves


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
    segmentations, indexed by the sites' bits (as ``z_index``)."""
    n_symbols = len(set("".join(texts)))
    return normalised(every_segmentation(
        texts, lambda words: bigram_log_p(words, n_symbols=n_symbols, **hyper)), power)


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
    tests.conformance.cases.usm.learned_usm_exact."""
    n_symbols = len(set("".join(texts))) + 1
    log_p = every_segmentation(
        texts, lambda words: learned_bigram_log_p(words, alpha0, alpha1, p_end, phi, n_symbols))
    return logsumexp(log_p), normalised(log_p)


CASE = Case(
    BigramModel,
    particles=(lambda: BigramModel(BIGRAM_PF_TEXTS, alpha0=1.0, alpha1=1.0,
                                   p_utterance=0.5).particles(phi=1.0),
               cache(lambda: learned_bigram_exact(BIGRAM_PF_TEXTS, alpha0=1.0, alpha1=1.0,
                                                  p_end=0.5, phi=1.0))),
    tiny=lambda: BigramModel(BIGRAM_TEXTS, **BIGRAM_HYPER),
    exact_p=cache(lambda power=1.0: bigram_exact_p(BIGRAM_TEXTS, power, **BIGRAM_HYPER)),
    analyses=lambda: binary_assignments(n_sites(BIGRAM_TEXTS)),
    row=z_index,
    # the invariants on the other representation (tests/statistical tests both exactly)
    large=lambda: BigramModel(large_corpus(), alpha0=5.0, alpha1=2.0, seating="explicit"),
    reseats=True,
    log_marginal=lambda model, values: model.exact_log_marginal(
        model.state_from_values(values).bound),
    thin=4)
