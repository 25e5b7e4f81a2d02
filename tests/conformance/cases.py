"""One case per registered model: what the conformance suite needs to test every sampler the
model offers. Adding a model to the lab = its module + kernels + one ``Case`` here.

A case gives
- ``tiny``: a model small enough to enumerate every analysis (a few dozen to a few hundred);
- ``exact_p(power)``: the exact posterior over those analyses, raised to ``power`` and
  normalised, computed INDEPENDENTLY of the engine (tests/statistical/exact.py: scipy and plain
  dictionaries from the model's definition), so a bug shared by the kernels cannot hide;
- ``analyses()``: every analysis of the tiny model as ``model.values`` writes it, row i being
  the analysis whose probability is ``exact_p()[i]``;
- ``row(values)``: the row of one analysis (``model.values(state)``) in ``exact_p``;
- ``large``: a bigger model (more sites, types and sentences) for the invariant tests, which
  need no enumeration;
- ``value_offset``: ``model.values`` minus the interface's site value (get_value): 0 when the
  model writes site values, 1 for the HMM (states 1 … K for site values 0 … K − 1);
- ``init``: keyword arguments of ``model.new_state`` for a random start;
- ``log_marginal(model, values)``: the model's own log-probability of an analysis, which the
  exact posterior must equal up to a constant: ``loglik`` by default; for a model whose
  analyses carry seats, its exact sum over them;
- ``reseats``: whether the model's choices carry seats that its moves draw afresh (the
  interface's ``reseats``), so that re-adding an analysis need not restore its probability;
- ``particles``: for a model that offers the particle filter (its ``populations``), a tiny
  model's population (``model.particles``) and its exact (log p(texts), posterior over
  segmentations), recomputed independently of the engine (test_populations.py);
- ``draws`` and ``thin``: how many states the exact tests count, and how many sweeps apart.
  ``thin`` is chosen so that the thinned chain's autocorrelation time is about 1 for the
  posterior's largest cells (measured: the HMM's label-switching pairs need 8 sweeps).
"""
import itertools
from dataclasses import dataclass, field
from functools import cache
from typing import Callable

import numpy as np

from engine.models.bigram.model import BigramModel
from engine.models.hmm.model import HmmModel
from engine.models.toy.model import ToyModel
from engine.models.usm.model import UsmModel
from tests.statistical.exact import (bigram_exact_p, hmm_exact_p, learned_bigram_exact,
                                     learned_usm_exact, tag_index, toy_assignments, toy_exact_p,
                                     usm_exact_p, z_index)


@dataclass(frozen=True)
class Case:
    tiny: Callable[[], object]
    exact_p: Callable[[float], np.ndarray]
    analyses: Callable[[], np.ndarray]
    row: Callable[[np.ndarray], int]
    large: Callable[[], object]
    value_offset: int = 0
    init: dict = field(default_factory=lambda: {"eta": 0.5})
    draws: int = 8_000
    thin: int = 4
    burn_in: int = 50
    reseats: bool = False
    particles: tuple = None
    log_marginal: Callable = lambda model, values: model.loglik(model.state_from_values(values))


# --- the toy: n copies of `ab`, 2^6 analyses -----------------------------------------------------
TOY_N = 6


def _toy_case():
    return Case(
        tiny=lambda: ToyModel(TOY_N),
        exact_p=cache(lambda power=1.0: toy_exact_p(TOY_N, power)),
        analyses=lambda: toy_assignments(TOY_N),
        row=z_index,
        large=lambda: ToyModel(40),
        thin=2)


# --- word segmentation: the utterances of tests/statistical/test_usm_samplers_exact.py ------------
USM_TEXTS = ("ab", "ab", "bab", "abab")  # 7 sites, 128 segmentations; `a|b ⟩` occurs 4 times
USM_HYPER = dict(alpha0=1.0, p_boundary=0.5, rho=2.0)  # α₀ = 1: far from flat


def usm_large_corpus(seed=1, n_utterances=40):
    """Utterances of 1–4 words from a small lexicon over 'abc', so words and pairs repeat."""
    rng = np.random.default_rng(seed)
    lexicon = ["a", "b", "ab", "ba", "abc", "ca", "bca", "cc"]
    return ["".join(rng.choice(lexicon, size=rng.integers(1, 5))) for _ in range(n_utterances)]


# the particle filter's model: the learned lexicon, small α and φ (a peaked posterior that what
# the particles learn moves)
USM_PF_TEXTS = ("ab", "ba", "ab", "a")  # 3 sites: 8 segmentations


def _usm_case():
    n_sites = sum(len(t) - 1 for t in USM_TEXTS)
    return Case(
        particles=(lambda: UsmModel(USM_PF_TEXTS, alpha0=1.0, rho=2.0).particles(phi=0.5),
                   cache(lambda: learned_usm_exact(USM_PF_TEXTS, alpha=1.0, rho=2.0,
                                                   phi=0.5))),
        tiny=lambda: UsmModel(USM_TEXTS, **USM_HYPER),
        exact_p=cache(lambda power=1.0: usm_exact_p(USM_TEXTS, power, **USM_HYPER)),
        analyses=lambda: toy_assignments(n_sites),
        row=z_index,
        large=lambda: UsmModel(usm_large_corpus(), alpha0=2.0),
        thin=6)


# --- the bigram model: its marginal over segmentations, seatings summed out ----------------------
BIGRAM_TEXTS = ("abb", "ba", "abab")  # 6 sites, 64 segmentations, 23 of them above 1%
BIGRAM_HYPER = dict(alpha0=10.0, alpha1=5.0, p_boundary=0.5, p_utterance=0.5)


BIGRAM_PF_TEXTS = ("aba", "ba")  # 3 sites: 8 segmentations, a posterior a wrong weight moves


def _bigram_case():
    n_sites = sum(len(t) - 1 for t in BIGRAM_TEXTS)
    return Case(
        particles=(lambda: BigramModel(BIGRAM_PF_TEXTS, alpha0=1.0, alpha1=1.0,
                                       p_utterance=0.5).particles(phi=1.0),
                   cache(lambda: learned_bigram_exact(BIGRAM_PF_TEXTS, alpha0=1.0, alpha1=1.0,
                                                      p_end=0.5, phi=1.0))),
        tiny=lambda: BigramModel(BIGRAM_TEXTS, **BIGRAM_HYPER),
        exact_p=cache(lambda power=1.0: bigram_exact_p(BIGRAM_TEXTS, power, **BIGRAM_HYPER)),
        analyses=lambda: toy_assignments(n_sites),
        row=z_index,
        # the invariants on the other representation (tests/statistical tests both exactly)
        large=lambda: BigramModel(usm_large_corpus(), alpha0=5.0, alpha1=2.0,
                                  seating="explicit"),
        reseats=True,
        log_marginal=lambda model, values: model.exact_log_marginal(
            model.state_from_values(values).bound),
        thin=4)


# --- part-of-speech tagging: the sentences of tests/statistical/test_hmm_samplers_exact.py -------
HMM_SENTENCES = (("a", "b", "a"), ("a", "b"))  # 5 tokens, K = 2: 32 taggings
HMM_STATES = 2
HMM_PRIOR = dict(alpha=0.5, alpha_emit=0.5)


def hmm_large_corpus(seed=1, n_sentences=30):
    rng = np.random.default_rng(seed)
    words = ["the", "a", "dog", "cat", "runs", "sees", "big", "."]
    return [list(rng.choice(words, size=rng.integers(1, 7))) for _ in range(n_sentences)]


def _hmm_taggings(n_tokens, k):
    """Every tagging (states 1 … K), row i the one ``tag_index`` maps to i."""
    return np.array([flat[::-1] for flat in itertools.product(range(1, k + 1), repeat=n_tokens)])


def _hmm_case():
    n_tokens = sum(len(s) for s in HMM_SENTENCES)
    return Case(
        tiny=lambda: HmmModel(HMM_SENTENCES, HMM_STATES, **HMM_PRIOR),
        exact_p=cache(lambda power=1.0: hmm_exact_p(HMM_SENTENCES, HMM_STATES, power,
                                                    **HMM_PRIOR)),
        analyses=lambda: _hmm_taggings(n_tokens, HMM_STATES),
        row=lambda values: tag_index(values, HMM_STATES),
        # K = 3 so TYPE's binary slices {k, k′} and values outside them are exercised
        large=lambda: HmmModel(hmm_large_corpus(), 3),
        value_offset=1,
        thin=8)


CASES = {"toy": _toy_case(), "usm": _usm_case(), "bigram": _bigram_case(), "hmm": _hmm_case()}
