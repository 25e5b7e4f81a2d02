"""The unigram segmentation model's conformance case and its exact oracle: the USM from its
predictive probabilities with plain dictionaries (Goldwater et al. 2009), and the particle
filter's unigram model with the learned lexicon summed over every seating (Börschinger &
Johnson 2011)."""
import functools
import math
from functools import cache

from scipy.special import logsumexp

from engine.models.usm.model import UsmModel
from tests.conformance.case import Case
from tests.conformance.cases.segmentation import (every_segmentation, large_corpus,
                                                  learned_base, n_sites)
from tests.statistical.exact import binary_assignments, normalised, z_index

# the utterances of tests/statistical/test_usm_samplers_exact.py
USM_TEXTS = ("ab", "ab", "bab", "abab")  # 7 sites, 128 segmentations; `a|b ⟩` occurs 4 times
USM_HYPER = dict(alpha0=1.0, p_boundary=0.5, rho=2.0)  # α₀ = 1: far from flat
# the particle filter's model: the learned lexicon, small α and φ (a peaked posterior that what
# the particles learn moves)
USM_PF_TEXTS = ("ab", "ba", "ab", "a")  # 3 sites: 8 segmentations


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


def usm_exact_p(texts, power=1.0, **hyper):
    """p(segmentation | texts)^power normalised over all 2^|S| segmentations, indexed by the
    sites' bits (site 0 lowest, as ``z_index``)."""
    n_symbols = len(set("".join(texts)))
    return normalised(every_segmentation(
        texts, lambda words: usm_log_p(words, n_symbols=n_symbols, **hyper)), power)


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
    n_symbols = len(set("".join(texts))) + 1
    log_p = every_segmentation(
        texts, lambda words: learned_usm_log_p(words, alpha, rho, phi, n_symbols))
    return logsumexp(log_p), normalised(log_p)


CASE = Case(
    UsmModel,
    particles=(lambda: UsmModel(USM_PF_TEXTS, alpha0=1.0, rho=2.0).particles(phi=0.5),
               cache(lambda: learned_usm_exact(USM_PF_TEXTS, alpha=1.0, rho=2.0, phi=0.5))),
    tiny=lambda: UsmModel(USM_TEXTS, **USM_HYPER),
    exact_p=cache(lambda power=1.0: usm_exact_p(USM_TEXTS, power, **USM_HYPER)),
    analyses=lambda: binary_assignments(n_sites(USM_TEXTS)),
    row=z_index,
    large=lambda: UsmModel(large_corpus(), alpha0=2.0),
    thin=6)
