"""How a page draws a model's corpus and analysis, by the kind of display the model declares
(``model.display``): "segmentation" (utterances with boundaries between symbols) or "tagging"
(sentences with a state on every word). A new model of either kind is drawn with no new page
code; a new kind is one View here."""
from dataclasses import dataclass, replace
from typing import Callable

from datasets.builtin import nursery_talk, tagged_builtin
from datasets.segmented import SegmentedCorpus
from datasets.synthetic import zipf_corpus
from ui.segmentation import legend, tagged_sentence_html, utterance_html


@dataclass(frozen=True)
class View:
    """How one kind of model is drawn on a page.

    corpus(source, size, seed) builds a small corpus from one of ``corpora``; n_units(model)
    counts its utterances or sentences; row(model, state, u, marks) is unit u's HTML, with the
    sites in ``marks`` highlighted; legend() and status(model, state) go above the rows;
    ``caption`` is formatted with n, the number of units shown first."""

    unit: str
    corpora: tuple
    analysis: str
    edge_help: str
    conflict_text: str
    caption: str
    corpus: Callable
    n_units: Callable
    row: Callable
    legend: Callable
    status: Callable


def _segmentation_corpus(source, size, seed):
    if source == SEGMENTATION_CORPORA[0]:
        full = nursery_talk()
        return SegmentedCorpus(full.utterances[:size], 0, f"nursery talk, first {size}")
    return zipf_corpus(n_utterances=size, lexicon_size=8, n_symbols=3, mean_words=3.0, seed=seed)


def _tagging_corpus(source, size, seed):
    full = tagged_builtin()
    return replace(full, sentences=full.sentences[:size], tags=full.tags[:size],
                   name=f"simple sentences, first {size}")


def _tagged_row(model, state, u, marks):
    a, b = model.sent_start[u], model.sent_start[u + 1]
    return tagged_sentence_html(model.sentences[u], model.values(state)[a:b], marks, number=u + 1)


def _tagging_status(model, state):
    measures = model.measures(state)
    if "acc_many_to_one" not in measures:
        return f"{len(set(model.values(state))):,} states used"
    return f"many-to-one accuracy {measures['acc_many_to_one']:.1%}"


SEGMENTATION_CORPORA = ("Nursery talk (first utterances)", "Synthetic: 3 symbols, 8 words")

# utterances of symbols; a site is the gap after a symbol; boundaries coloured against gold
SEGMENTATION = View(
    unit="Utterances", corpora=SEGMENTATION_CORPORA, analysis="segmentation",
    edge_help=("the words the pivot boundary separates (b = 1) or joins (b = 0); ⟩ marks that "
               "the last word ends its utterance (part of the type)"),
    conflict_text="same type, left out (conflict)",
    caption=("Utterances with a site of this type come first ({n:,}); the boundaries are the "
             "segmentation after the move, coloured against gold."),
    corpus=_segmentation_corpus,
    n_units=lambda model: len(model.texts),
    row=lambda model, state, u, marks: utterance_html(
        model.texts[u], model.boundary_labels(state, u), marks, number=u + 1),
    legend=legend,
    status=lambda model, state: f"{len(model.lexicon(state)):,} words in the lexicon")

# sentences of words, each token a site showing its state 1 … K
TAGGING = View(
    unit="Sentences", corpora=("Simple sentences (first sentences)",), analysis="tagging",
    edge_help="the states before and after the pivot token and its word (· is a sentence edge)",
    conflict_text="same type, left out (conflict or state outside the slice)",
    caption=("Sentences with a token of this type come first ({n:,}); each word carries its "
             "state after the move."),
    corpus=_tagging_corpus,
    n_units=lambda model: len(model.sentences),
    row=_tagged_row,
    legend=lambda: "",
    status=_tagging_status)

VIEWS = {"segmentation": SEGMENTATION, "tagging": TAGGING}


def view_of(model_class):
    """The view of a model class, or None when it declares no display a page can draw."""
    return VIEWS.get(getattr(model_class, "display", None))
