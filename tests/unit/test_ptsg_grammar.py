"""The grammar a PTSG sample gives the parser (Liang et al. fn. 6): each rule's probability is
the posterior mean's, recomputed here from the sample's counts, α, the base's PCFG and s; and
the grammar parses the training sentences back into their trees."""
import math
from collections import Counter

import numpy as np
import pytest

from datasets.trees import debinarise, leaves
from engine.core.rng import make_rng
from engine.models.ptsg.grammar import BASE_MARK, posterior_grammar
from engine.models.ptsg.model import PtsgModel
from engine.parsing.cky import Parser
from tests.conformance.cases.ptsg import CHAIN, DOG, SHORT

ALPHA, STOP = 0.7, 0.4


def binary_logp(grammar, parent, left, right):
    """log p(parent → left right) in the grammar, or None."""
    index = grammar.symbol_index
    a, b, c = index[parent], index[left], index[right]
    for r in range(grammar.left_start[b], grammar.left_start[b + 1]):
        if grammar.rule_parent[r] == a and grammar.rule_right[r] == c:
            return float(grammar.rule_logp[r])
    return None


def test_rules_of_single_rule_fragments_are_the_posterior_mean():
    """Every node cut (η = 1): each fragment is one rule, seen n_r times. X → B C then has
    (n_r + α P(r) s_B s_C) / (n_X + α) with both children ending fragments, α P(r)(1 − s_B) s_C
    / (n_X + α) with B going on inside a base fragment, and X′ → B C P(r) s_B s_C."""
    model = PtsgModel([DOG, CHAIN, SHORT, DOG], alpha=ALPHA, stop=STOP, rare=1)
    state = model.new_state(make_rng(0), eta=1.0)
    grammar = posterior_grammar(model, state)
    rules = Counter()
    lhs = Counter()

    def count(tree):
        if isinstance(tree[1], str):
            rules[tree[0], tree[1]] += 1
        else:
            rules[tree[0], tree[1][0], tree[2][0]] += 1
            count(tree[1]), count(tree[2])
        lhs[tree[0]] += 1

    for tree in model.trees:
        count(tree)
    checked = 0
    for rule, n in rules.items():
        if len(rule) == 2:
            continue
        x, b, c = rule
        p = n / lhs[x]
        total = lhs[x] + ALPHA
        assert binary_logp(grammar, x, b, c) == pytest.approx(
            math.log((n + ALPHA * p * STOP * STOP) / total), abs=1e-12)
        assert binary_logp(grammar, x, b + BASE_MARK, c) == pytest.approx(
            math.log(ALPHA * p * (1 - STOP) * STOP / total), abs=1e-12)
        assert binary_logp(grammar, x + BASE_MARK, b, c + BASE_MARK) == pytest.approx(
            math.log(p * STOP * (1 - STOP)), abs=1e-12)
        checked += 1
    assert checked >= 6  # the binary rules of these trees


def test_a_sampled_grammar_parses_its_training_sentences_into_their_trees():
    """After TYPE has built bigger fragments, the grammar still derives every training
    sentence, and with them seen, the most probable derivation is its tree."""
    from engine.samplers import make_sampler
    model = PtsgModel([DOG, CHAIN, SHORT], alpha=ALPHA, stop=STOP, rare=1)
    rng = make_rng(1)
    state = model.new_state(rng, eta=1.0)
    sampler = make_sampler("type")
    for _ in range(20):
        sampler.sweep(rng, state)
    assert np.count_nonzero(model.values(state) == 0)  # some fragments span several rules
    parser = Parser(posterior_grammar(model, state))
    for tree in model.trees:
        parse, log_p = parser.parse(list(leaves(tree)))
        assert parse is not None and math.isfinite(log_p)
        assert debinarise(parse) == debinarise(tree)
