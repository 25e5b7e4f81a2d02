"""EVALB with COLLINS.prm (engine/scoring/evalb.py) against examples counted by hand."""
from collections import Counter

import pytest

from engine.scoring.evalb import brackets, score, scored_label

# "the dog barked ." — gold: (S (NP the dog) (VP barked) .)
GOLD = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")),
                 ("VP", ("VBD", "barked")), (".", ".")))


def test_identical_trees_score_one():
    result = score([GOLD], [GOLD])
    assert result["f1"] == 1.0 and result["precision"] == 1.0 and result["recall"] == 1.0
    # S(0,3) NP(0,2) VP(2,3): ROOT, the preterminals and "." are not brackets.
    assert brackets(GOLD) == Counter({("S", 0, 3): 1, ("NP", 0, 2): 1, ("VP", 2, 3): 1})
    assert result["per_sentence"] == [(1, 3, 3, 3)]


def test_one_wrong_bracket():
    # The test tree groups "dog barked" as a VP(1,3) and has no NP: test brackets S(0,3),
    # VP(1,3), VP(2,3) — 3; gold S(0,3), NP(0,2), VP(2,3) — 3; matched S and VP(2,3) — 2.
    # P = 2/3, R = 2/3, F1 = 2/3.
    test = ("ROOT", ("S", ("DT", "the"), ("VP", ("NN", "dog"), ("VP", ("VBD", "barked"))),
                     (".", ".")))
    result = score([GOLD], [test])
    assert (result["matched"], result["gold"], result["test"]) == (2, 3, 3)
    assert result["precision"] == pytest.approx(2 / 3)
    assert result["recall"] == pytest.approx(2 / 3)
    assert result["f1"] == pytest.approx(2 / 3)


def test_duplicate_brackets_match_one_to_one():
    # A unary NP → NP gives NP(0,2) twice in the gold; the test has it once. Gold 4 brackets
    # (S, NP, NP, VP), test 3, matched 3: P = 1, R = 3/4, F1 = 2·(3/4)/(7/4) = 6/7.
    gold = ("ROOT", ("S", ("NP", ("NP", ("DT", "the"), ("NN", "dog"))),
                     ("VP", ("VBD", "barked"))))
    test = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBD", "barked"))))
    result = score([gold], [test])
    assert (result["matched"], result["gold"], result["test"]) == (3, 4, 3)
    assert result["f1"] == pytest.approx(6 / 7)
    # The other way round the extra test NP matches nothing: P = 3/4, R = 1.
    assert score([test], [gold])["precision"] == pytest.approx(3 / 4)


def test_unary_chain_counts_every_level():
    # (S (VP (VB go))): S(0,1) and VP(0,1); the preterminal VB is not a bracket.
    tree = ("ROOT", ("S", ("VP", ("VB", "go"))))
    assert brackets(tree) == Counter({("S", 0, 1): 1, ("VP", 0, 1): 1})
    # A test without the VP level: gold 2, test 1, matched 1 — P = 1, R = 1/2.
    result = score([tree], [("ROOT", ("S", ("VB", "go")))])
    assert (result["precision"], result["recall"]) == (1.0, 0.5)


def test_punctuation_at_the_edges_shifts_spans():
    # `` Go . '' : the quotes and the full stop are deleted with their words, so "Go" is
    # word 0 and every bracket spans (0,1); a PRN over a lone comma is left over nothing and
    # dropped.
    tree = ("ROOT", ("S", ("``", "``"), ("VP", ("VB", "Go"), ("PRN", (",", ","))), (".", "."),
                     ("''", "''")))
    assert brackets(tree) == Counter({("S", 0, 1): 1, ("VP", 0, 1): 1})
    # A test tree that puts the full stop inside the VP scores the same: the spans skip it.
    test = ("ROOT", ("S", ("``", "``"), ("VP", ("VB", "Go"), (",", ","), (".", ".")),
                     ("''", "''")))
    assert score([tree], [test])["f1"] == 1.0


def test_punctuation_is_read_from_the_gold_tags():
    # The test tags the final "." as NN: it is still deleted, because the gold says ".".
    test = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")),
                     ("VP", ("VBD", "barked"), ("NN", "."))))
    result = score([GOLD], [test])
    # Test brackets S(0,3) NP(0,2) VP(2,3): all match.
    assert result["f1"] == 1.0


def test_advp_equals_prt():
    gold = ("ROOT", ("VP", ("VB", "give"), ("PRT", ("RP", "up"))))
    test = ("ROOT", ("VP", ("VB", "give"), ("ADVP", ("RP", "up"))))
    assert score([gold], [test])["f1"] == 1.0
    assert scored_label("PRT") == scored_label("ADVP") == "ADVP"


def test_function_tags_and_indices_are_cut():
    assert scored_label("NP-SBJ-1") == "NP"
    assert scored_label("NP=2") == "NP"
    assert scored_label("-LRB-") == "-LRB-"  # a leading "-" is part of the label
    gold = ("ROOT", ("S", ("NP-SBJ", ("PRP", "I")), ("VP", ("VBD", "ran"), ("ADVP-TMP",
                                                                          ("RB", "today")))))
    test = ("ROOT", ("S", ("NP", ("PRP", "I")), ("VP", ("VBD", "ran"), ("ADVP", ("RB", "today")))))
    assert score([gold], [test])["f1"] == 1.0


def test_traces_and_empty_constituents_are_removed():
    # (SBAR (-NONE- 0) (S (-NONE- *T*))) dominates only traces: no bracket, no word.
    gold = ("ROOT", ("S", ("NP-SBJ", ("PRP", "He")), ("VP", ("VBD", "said"), ("SBAR", (
        "-NONE-", "0"), ("S", ("-NONE-", "*T*-1")))), (".", ".")))
    assert brackets(gold) == Counter({("S", 0, 2): 1, ("NP", 0, 1): 1, ("VP", 1, 2): 1})
    test = ("ROOT", ("S", ("NP", ("PRP", "He")), ("VP", ("VBD", "said")), (".", ".")))
    assert score([gold], [test])["f1"] == 1.0


def test_wrapper_brackets_are_not_counted():
    wrapped = ("", ("TOP", ("S", ("NP", ("PRP", "He")), ("VP", ("VBD", "ran")))))
    assert brackets(wrapped) == Counter({("S", 0, 2): 1, ("NP", 0, 1): 1, ("VP", 1, 2): 1})


def test_max_length_counts_punctuation_but_not_traces():
    # GOLD has 4 words with its "."; a 2-word sentence with a trace has length 2.
    short = ("ROOT", ("S", ("NP", ("-NONE-", "*")), ("NP", ("PRP", "He")),
                      ("VP", ("VBD", "ran"))))
    result = score([GOLD, short], [GOLD, short], max_length=3)
    assert result["sentences"] == 1 and result["per_sentence"][0][0] == 2
    assert score([GOLD, short], [GOLD, short], max_length=4)["sentences"] == 2


def test_length_mismatch_names_the_sentence():
    test = ("ROOT", ("S", ("NP", ("NN", "dog")), ("VP", ("VBD", "barked")), (".", ".")))
    with pytest.raises(ValueError, match="sentence 2: length mismatch"):
        score([GOLD, GOLD], [GOLD, test])


def test_word_mismatch_names_the_sentence():
    test = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "cat")), ("VP", ("VBD", "barked")),
                     (".", ".")))
    with pytest.raises(ValueError, match="sentence 1: word mismatch at word 2"):
        score([GOLD], [test])


def test_different_numbers_of_trees_are_refused():
    with pytest.raises(ValueError, match="1 gold trees but 2 test trees"):
        score([GOLD], [GOLD, GOLD])
