"""Kinds of data by name: datasets/ registers each kind's reader, built-in corpus and measure;
ui/kinds a view of each kind a model names; a model of a kind no page draws, or a corpus model
whose kind has no picker, is refused in words."""
import numpy as np
import pytest

from datasets import kinds
from datasets.errors import CorpusError
from engine.models import registry
from ui.kinds.registry import UnknownKind, view_of, views


def test_every_kind_module_registers_its_kind():
    found = kinds.kinds()
    assert {"segmentation", "tagging"} <= set(found)
    for name, kind in found.items():
        corpus = kind.builtin()
        assert kind.name == name and kind.n_units(corpus) > 0
        assert kind.unit_sizes(corpus).sum() > 0


def test_an_unknown_kind_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match=r"no kind of data is called 'graphs': datasets/ reads "
                                         r".*segmentation.*tagging"):
        kinds.get("graphs")


def read_other(data, name):
    return data


def test_a_second_module_cannot_take_a_kinds_name():
    other = kinds.Kind("tagging", "other", "units", builtin=list, read=read_other,
                       formats={}, suffixes=(), unit_sizes=len, looks="other units",
                       recognise=bool)
    with pytest.raises(ValueError, match="registered already, by datasets.tagged"):
        kinds.register(other)
    assert kinds.get("tagging").read.__module__ == "datasets.tagged"


def test_readers_tell_the_tagged_format_from_the_text():
    tagging = kinds.get("tagging")
    corpus = tagging.read(b"the/DET dog/NOUN\na/DET cat/NOUN runs/VERB\n", "t.txt",
                          format="auto", lowercase=False)
    assert corpus.tags == (("DET", "NOUN"), ("DET", "NOUN", "VERB"))
    assert tagging.unit_sizes(corpus).tolist() == [2, 3]
    with pytest.raises(CorpusError, match="cannot tell the corpus's format"):
        tagging.read("one two three\n", "t.txt", format="auto", lowercase=False)


def test_units_within_keeps_a_model_under_its_limit():
    segmentation = kinds.get("segmentation")
    corpus = segmentation.read("ab c\nde\nfgh ij\n" * 100, "s.txt")
    sizes = segmentation.unit_sizes(corpus)
    assert sizes.tolist()[:3] == [3, 2, 5]
    n = segmentation.units_within(corpus, n_sites=int(sizes.sum()), limit=100)
    assert np.cumsum(sizes)[n - 1] <= 0.99 * 100 < np.cumsum(sizes)[n]


def test_every_registered_model_has_a_view_of_its_kind():
    for model_class in registry.models().values():
        view = view_of(model_class)
        assert view.name == model_class.display
        if model_class.needs_data:  # its picker reads the kind it names
            assert view.picker.data is kinds.get(model_class.display)


class GraphModel:
    label, display, needs_data = "A graph model", "graphs", True


class CopiesFromAFile:
    label, display, needs_data = "Copies from a file", "copies", True


def test_a_model_of_a_kind_no_page_draws_is_refused_in_words():
    with pytest.raises(UnknownKind) as refused:
        view_of(GraphModel)
    message = str(refused.value)
    assert message.startswith("A graph model analyses data of the kind “graphs”")
    assert "ui/kinds/graphs.py" in message and "segmentation" in message


def test_a_corpus_model_of_a_kind_without_a_picker_is_refused():
    assert views()["copies"].picker is None  # the toy's kind: its options make its data
    with pytest.raises(UnknownKind, match="reads a corpus, but the view of the kind “copies” "
                                          "has no corpus picker"):
        view_of(CopiesFromAFile)
