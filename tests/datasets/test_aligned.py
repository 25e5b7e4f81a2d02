"""Word-aligned pairs: the reader's errors name the line, and KFTT's forests have the sizes the
design measured."""
import statistics

import pytest

from datasets import aligned
from datasets.errors import CorpusError
from engine.models.scfg.forest import forest
from tests.corpora import KFTT_AUTO, KFTT_GOLD, KFTT_PAIRS


def test_pairs_and_alignments_are_read_from_two_files_or_one():
    two = aligned.read("a b ||| x y\nc ||| z\n", "1-0 0-1\n\n")
    assert two.source == (("a", "b"), ("c",)) and two.target == (("x", "y"), ("z",))
    assert two.links == (((0, 1), (1, 0)), ())
    one = aligned.read("a b ||| x y ||| 1-0 0-1 0-1\nc ||| z\n")
    assert one.links == two.links and len(one) == 2


@pytest.mark.parametrize("pairs, links, message", [
    ("a b ||| x\nc d\n", None, "line 2: a pair must read"),
    ("a b ||| x ||| 0-0 ||| 1\n", None, "line 1: a pair must read"),
    ("a ||| x\n", "0-0\n0-0\n", "the alignments have 2 lines and the pairs 1"),
    ("a b ||| x\nc ||| y\n", "0-0\n1-0\n", "line 2: link 1-0 points to source word 1, but "
                                           "the source sentence has 1 words"),
    ("a ||| x y\n", "0-2\n", "line 1: link 0-2 points to target word 2"),
    ("a ||| x\n", "0:0\n", "line 1: '0:0' is not a link"),
    (" ||| x\n", "\n", "line 1: the source sentence is empty"),
    ("", "", "no sentence pairs"),
])
def test_bad_input_names_the_line_and_the_problem(pairs, links, message):
    with pytest.raises(CorpusError, match=message.replace("(", r"\(")):
        aligned.read(pairs, links)


def test_an_ideographic_space_separates_words():
    corpus = aligned.read("今日\u3000は ||| today\n", "0-0\n")
    assert corpus.source == (("今日", "は"),)


def kftt(alignment):
    for path in (KFTT_PAIRS, alignment):
        if not path.exists():
            pytest.skip(f"{path} is missing")
    return aligned.read(KFTT_PAIRS.read_bytes(), alignment.read_bytes(), "KFTT")


def test_kftt_hand_alignments_give_the_forests_measured_before():
    corpus = kftt(KFTT_GOLD)
    assert len(corpus) == 582
    assert len(corpus.source[350]) == 17  # U+3000 splits words: line 351
    forests = [forest(len(f), len(e), links)
               for f, e, links in zip(corpus.source, corpus.target, corpus.links)]
    nodes = [fo.n_nodes for fo in forests]
    edges = [fo.n_edges for fo in forests]
    assert statistics.mean(nodes) == pytest.approx(44.7, abs=0.05)
    assert statistics.mean(edges) == pytest.approx(105.9, abs=0.05)
    assert max(nodes) == 406 and max(edges) == 3682
    assert max(fo.n_trees() for fo in forests) > 10 ** 15


def test_kftt_automatic_alignments_are_read():
    corpus = kftt(KFTT_AUTO)
    assert len(corpus) == 582 and sum(map(len, corpus.links)) > 10_000


def test_an_upload_of_two_files_names_the_alignments_file_in_a_link_error():
    corpus = aligned.read_upload(b"a b ||| x y\n", "pairs.txt", alignments=b"0-1 1-0\n",
                                 alignments_name="links.txt")
    assert corpus.links == (((0, 1), (1, 0)),)
    with pytest.raises(CorpusError, match=r"in links.txt: line 1: link 2-0 points to source word "
                                          r"2, but the source sentence has 2 words"):
        aligned.read_upload(b"a b ||| x y\n", "pairs.txt", alignments=b"2-0\n",
                            alignments_name="links.txt")
    with pytest.raises(CorpusError, match=r"^line 1: .*'\|\|\|'"):  # the pairs' own errors
        aligned.read_upload(b"a b x y\n", "pairs.txt", alignments=b"0-0\n")


def test_the_built_in_pairs_are_the_aligned_kinds_and_build_the_scfg_model():
    from datasets import kinds
    from engine.models import registry
    corpus = kinds.get("aligned").builtin()
    assert len(corpus) == 48 and corpus.name == "Built-in: small Japanese–English pairs"
    model = registry.get("scfg").build()
    assert (model.n_sites, model.v_f, model.v_e) == (396, 33, 34)
