"""Penn trees: the reader (every wrapper, trees over lines and on one line, each error naming its
line), EVALB's cleanup, binarisation and its exact inverse (on every GUM tree), unknown-word
classes, the built-in treebank and the trees kind."""
from collections import Counter

import pytest

from datasets import kinds
from datasets.builtin import trees_builtin
from datasets.errors import CorpusError
from datasets.trees import (MAX_DEPTH, MAX_WORDS, TREES, TreeCorpus, binarise, clean,
                            debinarise, detect_format, format_tree, format_trees, leaves,
                            map_rare, map_unknown, preterminals, read_file, read_formatted,
                            read_trees, unknown_class)
from tests.corpora import FOLDER

GUM = sorted((FOLDER / "gum-const").glob("*.ptb"))

DOG = ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBZ", "barks"))))
DOG_TEXT = "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"


# --- reading ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [f"(ROOT {DOG_TEXT})", f"(TOP {DOG_TEXT})", f"( {DOG_TEXT})",
                                  f"({DOG_TEXT})", DOG_TEXT, f"( (ROOT {DOG_TEXT}))",
                                  "(TOP\n  (S\n    (NP (DT the)\n (NN dog))\n(VP (VBZ barks))))"])
def test_every_wrapper_gives_one_root(text):
    assert read_trees(text).trees == (DOG,)


def test_an_unlabelled_wrapper_over_several_constituents_becomes_root():
    tree, = read_trees("( (NP (NN Dogs)) (VP (VBP bark)))").trees
    assert tree == ("ROOT", ("NP", ("NN", "Dogs")), ("VP", ("VBP", "bark")))


def test_several_trees_per_line_blank_lines_or_none_crlf_and_a_bom():
    text = (f"(ROOT {DOG_TEXT}) ( (NP (NN cat)))\r\n\r\n\r\n(TOP (INTJ (UH hi)))\n"
            f"(ROOT\n  (NP (NNS cats)))")
    corpus = read_trees(b"\xef\xbb\xbf" + text.encode(), "t.ptb")
    assert corpus.name == "t.ptb"
    assert corpus.trees == (DOG, ("ROOT", ("NP", ("NN", "cat"))),
                            ("ROOT", ("INTJ", ("UH", "hi"))), ("ROOT", ("NP", ("NNS", "cats"))))
    assert corpus.lines == (1, 1, 4, 5)
    assert corpus.words(0) == ("the", "dog", "barks") and corpus.n_words == 6
    assert corpus.head(2) == TreeCorpus(corpus.trees[:2], "t.ptb, first 2 sentences", (1, 1))


def test_words_may_hold_any_character_but_brackets_and_spaces():
    tree, = read_trees("(ROOT (NP (-LRB- [) (CD 3/4) (NNP a.b@c.org) (: --) (-RRB- ])))").trees
    assert leaves(tree) == ("[", "3/4", "a.b@c.org", "--", "]")


def test_a_file_is_read_and_named(tmp_path):
    path = tmp_path / "two.mrg"
    path.write_text(f"{DOG_TEXT}\n\n{DOG_TEXT}\n")
    corpus = read_file(path)
    assert corpus.name == "two.mrg" and corpus.trees == (DOG, DOG) and corpus.lines == (1, 3)
    with pytest.raises(CorpusError, match="no such file"):
        read_file(tmp_path / "missing.ptb")


def test_written_trees_read_back():
    corpus = read_trees(f"(ROOT {DOG_TEXT})\n(ROOT (NP (-LRB- -LRB-) (NN x) (-RRB- -RRB-)))")
    assert format_tree(DOG) == f"(ROOT {DOG_TEXT})"
    assert read_trees(format_trees(corpus.trees)).trees == corpus.trees


def refused(text, line, *phrases, binarised=False):
    """Reading ``text`` fails at ``line`` with a message holding every phrase."""
    with pytest.raises(CorpusError) as error:
        read_trees(text, binarised=binarised)
    assert error.value.line == line and str(error.value).startswith(f"line {line}: ")
    for phrase in phrases:
        assert phrase in str(error.value)


def test_an_unclosed_tree_names_where_it_opened_and_where_the_next_seems_to_start():
    refused(f"{DOG_TEXT}\n\n(ROOT (S (NP (DT a) (NN cat))\n  (VP (VBD sat)))\n(ROOT (NP (NN x)))",
            3, "not closed", "1 ')' is missing", "new tree seems to start at line 5")
    refused(f"{DOG_TEXT}\n\n(ROOT (S (NP (DT a) (NN cat\n", 3, "4 ')' are missing")


def test_an_extra_closing_bracket_is_named():
    refused(f"{DOG_TEXT}\n{DOG_TEXT})\n", 2, "a ')' that closes nothing", "delete it")


def test_words_without_their_own_preterminal_are_refused():
    refused("(ROOT\n (NP the dog))", 2, "NP has 2 words directly under it", "(TAG the)")
    refused("(ROOT (NP (DT the)\n dog))", 1, "the word 'dog' is directly under NP beside",
            "its own preterminal, e.g. (TAG dog)")
    refused("(ROOT dog)", 1, "the word 'dog' is directly under the root", "(ROOT (TAG dog))")
    refused("\n\ndog (ROOT (NN dog))", 3, "the word 'dog' is outside any tree")


def test_a_label_with_a_space_is_refused():
    refused("(ROOT\n  (NP SBJ (DT the) (NN dog)))", 2, "the label 'NP SBJ' has a space",
            "NP-SBJ")


@pytest.mark.parametrize("text, line, phrase", [
    ("(ROOT (S ()))", 1, "an empty tree '()'"),
    ("\n()", 2, "an empty tree '()'"),
    ("(ROOT (S (NP ) (VP (VBZ barks))))", 1, "the constituent (NP) is empty"),
    ("(ROOT (S\n ( (NP (NN x)))))", 2, "a constituent without a label inside a tree"),
    ("(ROOT (S (NP (-NONE- *T*-1))))", 1, "no words but empty elements"),
])
def test_empty_trees_and_unlabelled_inner_constituents_are_refused(text, line, phrase):
    refused(text, line, phrase)


@pytest.mark.parametrize("label", ["NP+NN", "NP*", "@NP|<DT>", "N*P"])
def test_labels_reserved_for_binarised_trees_are_refused(label):
    refused(f"(ROOT\n (S ({label} (NN x))))", 2, f"the label {label!r}",
            "read the file as binarised trees")


def test_binarised_trees_are_read_with_their_marks_and_roots():
    text = "(ROOT+S* (NP+NN dogs) (@S|<NP> (VP+VBP bark) (. .)))\n( (ROOT+NP+NNP Anna))"
    corpus = read_trees(text, binarised=True)
    assert corpus.trees == (("ROOT+S*", ("NP+NN", "dogs"),
                             ("@S|<NP>", ("VP+VBP", "bark"), (".", "."))),
                            ("ROOT+NP+NNP", "Anna"))
    assert debinarise(corpus.trees[0]) == ("ROOT", ("S", ("NP", ("NN", "dogs")),
                                                    ("VP", ("VBP", "bark")), (".", ".")))


def test_a_file_without_trees_is_refused():
    for text in ("", "\n  \n\n"):
        with pytest.raises(CorpusError, match="the file has no trees: write one or more") as e:
            read_trees(text)
        assert e.value.line is None


def test_size_limits_name_the_tree():
    words = " ".join(f"(NN w{i})" for i in range(MAX_WORDS + 1))
    refused(f"{DOG_TEXT}\n(ROOT (NP {words}))", 2, f"more than {MAX_WORDS} words")
    deep = "(X " * (MAX_DEPTH + 1) + "(NN x)" + ")" * (MAX_DEPTH + 1)
    refused(f"\n{deep}", 2, f"more than {MAX_DEPTH} brackets deep")


def test_bytes_that_are_not_utf8_name_their_line():
    with pytest.raises(CorpusError, match=r"^line 2: the file is not UTF-8"):
        read_trees(b"(ROOT (NN a))\n(ROOT (NN \xff))")


# --- the kind ---------------------------------------------------------------------------------
def test_the_kind_is_registered_and_reads_its_builtin_treebank():
    kind = kinds.get("trees")
    assert kind is TREES and kind.unit == "sentences" and "ptb" in kind.suffixes
    corpus = kind.builtin()
    assert corpus.name == "Built-in: small treebank" and corpus == trees_builtin()
    assert 60 <= kind.n_units(corpus) <= 120
    sizes = kind.unit_sizes(corpus)
    assert sizes.tolist() == [len(corpus.words(i)) for i in range(len(corpus.trees))]
    assert sizes.sum() == corpus.n_words


def test_the_kind_tells_binarised_trees_from_the_text():
    binarised = "(ROOT+S (NP+NN dogs) (VP+VBP bark))"
    assert detect_format(binarised) == "binarised"
    assert detect_format(f"(ROOT {DOG_TEXT})\n(ROOT (NP (-NONE- *T*-1) (NN x)))") == "penn"
    assert TREES.read(binarised.encode(), "a.ptb", format="auto").trees[0][0] == "ROOT+S"
    with pytest.raises(CorpusError, match="read the file as binarised trees"):
        read_formatted(binarised, "a.ptb", format="penn")
    assert read_formatted(DOG_TEXT, format="binarised").trees == (DOG,)
    with pytest.raises(ValueError, match="format must be one of auto, penn, binarised"):
        read_formatted(DOG_TEXT, format="brackets")


def test_the_builtin_treebank_is_clean_binarises_and_repeats_itself():
    trees = trees_builtin().trees
    assert all(clean(tree) == tree for tree in trees)  # no traces, function tags or empties
    rules = Counter()
    for tree in trees:
        binary = binarise(tree)
        assert all(len(node) in (2, 3) for node in nodes(binary))
        assert debinarise(binary) == tree
        rules.update((node[0], *(c[0] for c in node[1:])) for node in nodes(binary)
                     if not isinstance(node[1], str))
    # constructions recur, so fragments do: most rule tokens are of rules used 5 times or more
    assert sum(n for n in rules.values() if n >= 5) > 0.6 * sum(rules.values())
    labels = {node[0] for tree in trees for node in nodes(tree)}
    assert {"SBAR", "WHNP", "SQ", "SBARQ", "PP", "ADJP", "CC", ",", "."} <= labels


def nodes(tree):
    """Every constituent of a tree (preterminals included), top-down."""
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(child for child in node[1:] if not isinstance(child, str))
    return out


# --- clean ------------------------------------------------------------------------------------
def test_clean_removes_traces_and_the_constituents_they_leave_empty():
    tree, = read_trees("(ROOT (SBARQ (WHNP-1 (WP What)) (SQ (VBD did) (NP-SBJ (PRP she)) "
                       "(VP (VB see) (NP (-NONE- *T*-1)))) (. ?)))").trees
    assert clean(tree) == ("ROOT", ("SBARQ", ("WHNP", ("WP", "What")),
                                    ("SQ", ("VBD", "did"), ("NP", ("PRP", "she")),
                                     ("VP", ("VB", "see"))), (".", "?")))


def test_clean_cuts_function_tags_and_indices_but_keeps_dash_labels():
    tree = ("ROOT", ("S-TPC-2", ("NP-SBJ=1", ("-LRB-", "-LRB-"), ("NNP", "A"), ("-RRB-", "-RRB-")),
                     ("VP", ("VBD", "left"), ("S", ("NP-SBJ", ("-NONE-", "*")),
                                                ("VP", ("-NONE-", "*?*"))))))
    assert clean(tree) == ("ROOT", ("S", ("NP", ("-LRB-", "-LRB-"), ("NNP", "A"),
                                          ("-RRB-", "-RRB-")), ("VP", ("VBD", "left"))))


def test_clean_refuses_a_tree_of_only_empty_elements():
    with pytest.raises(ValueError, match="nothing is left of the tree"):
        clean(("ROOT", ("S", ("-NONE-", "*"))))


# --- binarise and debinarise ------------------------------------------------------------------
FLAT = ("ROOT", ("S", ("NP", ("DT", "the"), ("JJ", "big"), ("JJ", "red"), ("NN", "dog")),
                 ("VP", ("VBZ", "barks")), (".", ".")))


@pytest.mark.parametrize("markov, first, second", [
    (0, "@NP", "@NP"), (1, "@NP|<DT>", "@NP|<JJ>"), (2, "@NP|<DT>", "@NP|<DT><JJ>"),
    (None, "@NP|<DT>", "@NP|<DT><JJ>")])
def test_binarise_collapses_chains_and_markovises(markov, first, second):
    s_first = "@S" if markov == 0 else "@S|<NP>"
    assert binarise(FLAT, markov) == (
        "ROOT+S",
        ("NP", ("DT", "the"), (first, ("JJ", "big"), (second, ("JJ", "red"), ("NN", "dog")))),
        (s_first, ("VP+VBZ", "barks"), (".", ".")))


def test_orders_differ_where_more_siblings_are_remembered():
    tree = ("ROOT", ("NP", *[(tag, tag.lower()) for tag in ("DT", "JJ", "JJR", "NN", "NNS")]))
    labels = {m: [node[0] for node in nodes(binarise(tree, m)) if node[0].startswith("@")]
              for m in (2, None)}
    assert labels[2] == ["@NP|<DT>", "@NP|<DT><JJ>", "@NP|<JJ><JJR>"]
    assert labels[None] == ["@NP|<DT>", "@NP|<DT><JJ>", "@NP|<DT><JJ><JJR>"]


def test_unary_chains_collapse_down_to_the_preterminal_and_at_the_root():
    tree = ("ROOT", ("S", ("VP", ("VB", "Go"))))
    assert binarise(tree) == ("ROOT+S+VP+VB", "Go")
    assert debinarise(binarise(tree)) == tree
    inner = ("ROOT", ("S", ("NP", ("NNP", "Anna")), ("VP", ("S", ("VP", ("VBD", "left"))))))
    assert binarise(inner) == ("ROOT+S", ("NP+NNP", "Anna"), ("VP+S+VP+VBD", "left"))


def test_binarise_refuses_what_it_writes_and_a_bad_order():
    with pytest.raises(ValueError, match="binarised already"):
        binarise(binarise(FLAT))
    for markov in (-1, 1.5):
        with pytest.raises(ValueError, match="markov must be an integer >= 0 or None"):
            binarise(FLAT, markov)


def test_debinarise_drops_cut_marks():
    marked = ("ROOT+S", ("NP*", ("DT", "the"), ("@NP|<DT>*", ("JJ", "big"), ("NN*", "dog"))),
              ("VP+VBZ*", "barks"))
    assert debinarise(marked) == ("ROOT", ("S", ("NP", ("DT", "the"), ("JJ", "big"),
                                                 ("NN", "dog")), ("VP", ("VBZ", "barks"))))


def test_leaves_and_preterminals_in_order():
    assert preterminals(FLAT) == [("DT", "the"), ("JJ", "big"), ("JJ", "red"), ("NN", "dog"),
                                  ("VBZ", "barks"), (".", ".")]
    assert leaves(binarise(FLAT, None)) == ("the", "big", "red", "dog", "barks", ".")


@pytest.fixture(scope="module")
def gum_trees():
    if not GUM:
        pytest.skip(f"the GUM trees are not in {FOLDER / 'gum-const'} (README, Standard corpora)")
    return [clean(tree) for path in GUM for tree in read_file(path).trees]


@pytest.mark.parametrize("markov", [0, 1, 2, None])
def test_debinarise_undoes_binarise_on_every_gum_tree(gum_trees, markov):
    assert len(gum_trees) > 4000
    for tree in gum_trees:
        binary = binarise(tree, markov)
        assert debinarise(binary) == tree
    # every node of the last binarised tree has two children or one word
    assert all(len(node) == 3 or isinstance(node[1], str) for node in nodes(binary))


# --- unknown words ----------------------------------------------------------------------------
@pytest.mark.parametrize("word, first, expected", [
    ("running", False, "UNK-LC-ing"), ("Kindness", False, "UNK-C-ness"),
    ("Kindness", True, "UNK-INITC-ness"), ("NASA", False, "UNK-CAPS"),
    ("U.S.", False, "UNK-CAPS-DOT"), ("1990", False, "UNK-NUM"), ("1990s", False, "UNK-LC-NUM"),
    ("3.5", False, "UNK-NUM-DOT"),
    ("well-known", False, "UNK-LC-DASH"), ("self-appointed", False, "UNK-LC-DASH-ed"),
    ("cats", False, "UNK-LC-s"), ("is", False, "UNK-LC"), ("quickly", False, "UNK-LC-ly"),
    ("electricity", False, "UNK-LC-ity"), ("%", False, "UNK"), ("iPhone", False, "UNK-LC")])
def test_unknown_classes(word, first, expected):
    assert unknown_class(word, first=first) == expected


def test_map_rare_replaces_words_seen_fewer_than_min_count_times():
    trees = [("ROOT", ("S", ("NP", ("NNP", "Zorbas")), ("VP", ("VBD", "barked")))),
             ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBD", "barked")))),
             ("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBD", "walked"))))]
    mapped, vocabulary = map_rare(trees, min_count=2)
    assert vocabulary == {"the", "dog", "barked"}
    assert [leaves(tree) for tree in mapped] == [("UNK-INITC-s", "barked"),
                                                 ("the", "dog", "barked"),
                                                 ("the", "dog", "UNK-LC-ed")]
    assert mapped[1] == trees[1]  # only words change
    assert map_rare(trees + trees[1:2], min_count=3)[1] == {"the", "dog", "barked"}
    assert map_rare(trees, min_count=1) == (trees, {"Zorbas", "the", "dog", "barked", "walked"})


def test_map_unknown_keeps_known_words():
    assert map_unknown(["Rex", "barked", "loudly"], {"barked"}) == ("UNK-INITC", "barked",
                                                                   "UNK-LC-ly")
