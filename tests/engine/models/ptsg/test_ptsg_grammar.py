"""The grammar a PTSG sample gives the parser (Liang et al. fn. 6): each rule's probability is
the posterior mean's, recomputed here from the sample's counts, α, the base's PCFG and s; and
the grammar parses the training sentences back into their trees."""
import math
from collections import Counter

import numpy as np
import pytest

from datasets.trees import debinarise, leaves
from engine.core.rng import make_rng
from engine.models.ptsg.grammar import BASE_MARK, INNER_MARK, posterior_grammar, snapshot
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
    grammar = posterior_grammar(model, [state])
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


def whole_tree_weights(grammar, alpha):
    """The weights n̄_f of the root label's rules whose children are both inner nodes of seen
    fragments (here: the whole trees' fragments): p (n̄_ROOT+S + α), every sample having 4
    trees (ROOT → S collapsed into ROOT+S)."""
    symbols, parents = grammar.symbols, np.asarray(grammar.rule_parent)
    lefts = np.searchsorted(np.asarray(grammar.left_start), np.arange(len(parents)),
                            side="right") - 1
    return sorted(round(math.exp(grammar.rule_logp[r]) * (4 + alpha), 12)
                  for r in range(len(parents))
                  if symbols[parents[r]] == "ROOT+S" and INNER_MARK in symbols[lefts[r]]
                  and INNER_MARK in symbols[grammar.rule_right[r]])


def test_the_grammar_of_several_samples_averages_their_counts():
    """fn. 6's mean over samples: each fragment weighs its count averaged over them. Every
    tree one fragment (η = 0: DOG twice, CHAIN, SHORT) against every rule one (η = 1, no
    whole-tree fragment): the whole trees weigh 2, 1, 1 alone and 1, ½, ½ beside the other;
    a sample twice is that sample."""
    model = PtsgModel([DOG, CHAIN, SHORT, DOG], alpha=ALPHA, stop=STOP, rare=1)
    whole, rules = (model.new_state(make_rng(0), eta=eta) for eta in (0.0, 1.0))
    assert whole_tree_weights(posterior_grammar(model, [whole]), ALPHA) == [1, 1, 2]
    assert whole_tree_weights(posterior_grammar(model, [whole, rules]), ALPHA) == [0.5, 0.5, 1]
    assert whole_tree_weights(posterior_grammar(model, [rules]), ALPHA) == []
    once, twice = (posterior_grammar(model, [snapshot(whole)] * k) for k in (1, 2))
    np.testing.assert_allclose(twice.rule_logp, once.rule_logp, atol=1e-12)


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
    parser = Parser(posterior_grammar(model, [state]))
    for tree in model.trees:
        parse, log_p = parser.parse(list(leaves(tree)))
        assert parse is not None and math.isfinite(log_p)
        assert debinarise(parse) == debinarise(tree)


def test_held_out_trees_are_spread_through_the_treebank_and_never_learnt_from():
    from engine.models.ptsg.model import held_out_split
    assert held_out_split(tuple(range(10)), 0.3) == ((0, 1, 2, 4, 5, 7, 8), (3, 6, 9))
    assert held_out_split(tuple(range(3)), 0.1) == ((0, 1), (2,))  # at least one held out
    assert held_out_split(tuple(range(3)), 0.0) == ((0, 1, 2), ())
    with pytest.raises(ValueError, match="at least two trees"):
        held_out_split((DOG,), 0.2)
    model = PtsgModel([DOG, CHAIN, SHORT, DOG], rare=1, held_out=0.25)
    assert model.held_out == (DOG,) and len(model.trees) == 3


def test_the_held_out_measure_is_evalbs_f1_of_the_sampled_grammars_parses():
    """The measure parses the held-out sentence with the posterior-mean grammar: the same
    sentence learnt three times is parsed back into its tree (F1 = 1); a model without held-out
    trees has no measure."""
    from engine.scoring import evalb
    model = PtsgModel([DOG, CHAIN, DOG, SHORT, DOG, DOG], alpha=ALPHA, stop=STOP, rare=1,
                      held_out=0.2)
    assert model.held_out == (DOG,)
    state = model.new_state(make_rng(2), eta=0.5)
    parses, scores, kept = model.parse_held_out(state)
    assert kept == [DOG] and parses == [DOG]
    assert model.measures(state) == {"f1": evalb.score(kept, parses)["f1"]} == {"f1": 1.0}
    assert PtsgModel([DOG, SHORT], rare=1).measures(state) == {}


def test_a_derivation_outlines_the_fragments_it_was_built_from():
    """With α tiny the base's rules weigh nothing, so the most probable derivation of a
    sentence learnt once is the sample's own fragmentation of its tree (each label of DOG
    occurs once, so no other combination of its fragments derives it): ``derivation`` gives
    that tree and, in preorder, the state's cuts (the root cut too)."""
    from engine.models.ptsg.grammar import derivation, derivation_parser
    model = PtsgModel([DOG], alpha=1e-6, stop=STOP, rare=1)
    tree, start = model.trees[0], model.packed.tree_start
    rng = make_rng(3)
    for _ in range(5):
        state = model.state_from_values((rng.random(model.n_sites) < 0.5).astype(np.uint8))
        grammar = posterior_grammar(model, [state])
        parse, _ = derivation_parser(grammar).parse(list(leaves(tree)))
        assert any(BASE_MARK in symbol or "#" in symbol for symbol in flat_symbols(parse)) \
            or state.cut.all()
        plain, cut = derivation(parse, grammar)
        assert plain == tree
        assert cut.tolist() == state.cut[start[0]:start[1]].tolist()


def test_a_derivation_reads_labels_from_the_grammar_not_their_spelling():
    """The Penn tags `''` and `#` end in or hold the marks of base and inner symbols; each
    preterminal of a whole-tree fragment is still read as inside it."""
    from engine.models.ptsg.grammar import derivation, derivation_parser
    quoted = ("ROOT", ("S", ("NP", ("#", "#"), ("CD", "5")), ("VP", ("VBZ", "sells"),
                                                              ("''", "''"))))
    model = PtsgModel([quoted], alpha=1e-6, stop=STOP, rare=1)
    state = model.new_state(make_rng(0), eta=0.0)  # the whole tree one fragment
    grammar = posterior_grammar(model, [state])
    plain, cut = derivation(derivation_parser(grammar).parse(list(leaves(quoted)))[0], grammar)
    assert plain == model.trees[0] and cut.tolist() == [1] + [0] * (len(cut) - 1)


def flat_symbols(tree):
    """Every node's symbol of a tree, in preorder."""
    if isinstance(tree[1], str):
        return [tree[0]]
    return [tree[0], *flat_symbols(tree[1]), *flat_symbols(tree[2])]
