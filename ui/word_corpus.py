"""A corpus of words for the Restaurants lesson's Figure 2: sentences (utterances) as tuples of
words, from segmented or tagged text — built in, synthetic, or an upload."""
from dataclasses import dataclass

import streamlit as st

from datasets.segmented import SEGMENTATION
from datasets.tagged import TAGGING
from ui.corpus_choice import builtin, read_file, suffixes_text
from ui.kinds import segmentation
from ui.settings import Setting, plain

SOURCES = {"nursery": "Built-in: nursery talk", "tagged": "Built-in: simple sentences",
           "synthetic": "Synthetic (Zipf lexicon)",
           "upload": "Upload: plain segmented text or CoNLL-U"}
SETTINGS = (
    Setting("source", "nursery", str, "the corpus", choices=tuple(SOURCES)),
    *segmentation.SETTINGS[1:],  # the synthetic corpus's
)


@dataclass(frozen=True)
class WordCorpus:
    """Sentences (utterances) as tuples of words, and a name for the user."""

    name: str
    sentences: tuple


def of_segmented(corpus):
    """The words of a SegmentedCorpus (None stays None)."""
    return None if corpus is None else WordCorpus(corpus.name, corpus.utterances)


def of_tagged(corpus):
    """The words of a TaggedCorpus, without their tags (None stays None)."""
    return None if corpus is None else WordCorpus(corpus.name, corpus.sentences)


UPLOADS = {  # an upload's ending → how its words are read
    "txt": lambda file: of_segmented(read_file(SEGMENTATION, file)),
    "conllu": lambda file: of_tagged(read_file(TAGGING, file, format="conllu", lowercase=False)),
}


def choose_word_corpus(key):
    """Sidebar widgets; the chosen WordCorpus, or None after showing why it is unusable. An
    upload ending in .conllu is read as CoNLL-U (its FORM column), any other as plain
    segmented text."""
    source = st.radio("Corpus of words", list(SOURCES), format_func=SOURCES.get,
                      key=f"{key}_source")
    if source == "nursery":
        return of_segmented(builtin(SEGMENTATION.name))
    if source == "tagged":
        return of_tagged(builtin(TAGGING.name))
    if source == "synthetic":
        return of_segmented(segmentation.choose_synthetic(key))
    file = st.file_uploader("Plain segmented text (one utterance per line, words separated by "
                            f"spaces) or CoNLL-U ({suffixes_text(UPLOADS)})", key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    suffix = file.name.rpartition(".")[2].lower()
    if suffix not in UPLOADS:  # the box takes any file, to say here what it reads
        st.error(f"Cannot read {plain(file.name)}: this page reads plain segmented text (.txt) or "
                 "CoNLL-U (.conllu).")
        return None
    return UPLOADS[suffix](file)
