"""How a page draws a model's corpus and analysis, by the kind of display the model declares
(``model.display``): "segmentation" (utterances with boundaries between symbols) or "tagging"
(sentences with a state on every word). A new model of either kind is drawn with no new page
code; a new kind is one class here."""
from dataclasses import replace

from datasets.builtin import nursery_talk, tagged_builtin
from datasets.segmented import SegmentedCorpus
from datasets.synthetic import zipf_corpus
from ui.segmentation import legend, tagged_sentence_html, utterance_html


class SegmentationView:
    """Utterances of symbols; a site is the gap after a symbol; boundaries coloured vs gold."""

    unit = "Utterances"
    corpora = ("Nursery talk (first utterances)", "Synthetic: 3 symbols, 8 words")
    analysis = "segmentation"
    edge_help = ("the words the pivot boundary separates (b = 1) or joins (b = 0); ⟩ marks that "
                 "the last word ends its utterance (part of the type)")
    conflict_text = "same type, left out (conflict)"

    @staticmethod
    def corpus(source, size, seed):
        if source == SegmentationView.corpora[0]:
            full = nursery_talk()
            return SegmentedCorpus(full.utterances[:size], 0, f"nursery talk, first {size}")
        return zipf_corpus(n_utterances=size, lexicon_size=8, n_symbols=3, mean_words=3.0,
                           seed=seed)

    @staticmethod
    def n_units(model):
        return len(model.texts)

    @staticmethod
    def row(model, state, u, marks):
        return utterance_html(model.texts[u], model.boundary_labels(state, u), marks,
                              number=u + 1)

    @staticmethod
    def legend():
        return legend()

    @staticmethod
    def status(model, state):
        return f"{len(model.lexicon(state)):,} words in the lexicon"

    caption = ("Utterances with a site of this type come first ({n:,}); the boundaries are the "
               "segmentation after the move, coloured against gold.")


class TaggingView:
    """Sentences of words, each token a site showing its state 1 … K."""

    unit = "Sentences"
    corpora = ("Simple sentences (first sentences)",)
    analysis = "tagging"
    edge_help = ("the states before and after the pivot token and its word (· is a sentence "
                 "edge)")
    conflict_text = "same type, left out (conflict or state outside the slice)"

    @staticmethod
    def corpus(source, size, seed):
        full = tagged_builtin()
        return replace(full, sentences=full.sentences[:size], tags=full.tags[:size],
                       name=f"simple sentences, first {size}")

    @staticmethod
    def n_units(model):
        return len(model.sentences)

    @staticmethod
    def row(model, state, u, marks):
        a, b = model.sent_start[u], model.sent_start[u + 1]
        return tagged_sentence_html(model.sentences[u], model.values(state)[a:b], marks,
                                    number=u + 1)

    @staticmethod
    def legend():
        return ""

    @staticmethod
    def status(model, state):
        measures = model.measures(state)
        if "acc_many_to_one" not in measures:
            return f"{len(set(model.values(state))):,} states used"
        return f"many-to-one accuracy {measures['acc_many_to_one']:.1%}"

    caption = ("Sentences with a token of this type come first ({n:,}); each word carries its "
               "state after the move.")


VIEWS = {"segmentation": SegmentationView, "tagging": TaggingView}


def view_of(model_class):
    """The view of a model class, or None when it declares no display a page can draw."""
    return VIEWS.get(getattr(model_class, "display", None))
