"""Choosing a corpus in the sidebar — segmented or tagged: the built-in one, a synthetic one, or
an upload.

A file that cannot be read is reported with the loader's message (it names the line) and the
previous corpus stays in use, so a running race is never lost to a bad upload.
"""
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
import streamlit as st

from datasets.builtin import nursery_talk, tagged_builtin
from datasets.errors import CorpusError
from datasets.segmented import read_segmented
from datasets.synthetic import hmm_corpus, zipf_corpus
from datasets.tagged import read_tagged
from ui.settings import Setting

SOURCES = {"builtin": "Built-in: nursery talk", "synthetic": "Synthetic (Zipf lexicon)",
           "upload": "Upload a file"}
UPLOAD_NOTE = "An uploaded file cannot travel in a link: the link opens the upload box."
SEGMENTED_SETTINGS = (
    Setting("source", "builtin", str, "the corpus", choices=tuple(SOURCES)),
    Setting("syn_n", 300, int, "the number of utterances", 20, 2000),
    Setting("syn_lex", 60, int, "the lexicon size", 5, 500),
    Setting("syn_sym", 6, int, "the number of symbols", 2, 26),
    Setting("syn_s", 1.0, float, "the Zipf exponent", 0.5, 2.0),
    Setting("syn_seed", 0, int, "the corpus seed", 0, 2**31 - 1),
)


@st.cache_data(show_spinner=False)
def builtin():
    return nursery_talk()


@st.cache_data(max_entries=8, show_spinner=False)
def synthetic(n_utterances, lexicon_size, n_symbols, zipf_exponent, seed):
    return zipf_corpus(n_utterances=n_utterances, lexicon_size=lexicon_size, n_symbols=n_symbols,
                       zipf_exponent=zipf_exponent, seed=seed)


@st.cache_data(max_entries=8, show_spinner=False)
def uploaded(data, name):
    return read_segmented(data, name)


def choose_corpus_synthetic(key):
    """The synthetic corpus's sliders; the SegmentedCorpus, or None after saying why not."""
    n = st.slider("Utterances", 20, 2000, step=20, key=f"{key}_syn_n")
    lexicon = st.slider("Lexicon size", 5, 500, key=f"{key}_syn_lex")
    symbols = st.slider("Symbols", 2, 26, key=f"{key}_syn_sym")
    exponent = st.slider("Zipf exponent", 0.5, 2.0, step=0.1, key=f"{key}_syn_s")
    seed = st.number_input("Corpus seed", 0, 2**31 - 1, key=f"{key}_syn_seed")
    return generated(synthetic, n, lexicon, symbols, exponent, int(seed))


def generated(make, *settings):
    """``make(*settings)``, or None after saying why the generator refused the settings."""
    try:
        return make(*settings)
    except ValueError as err:
        st.error(f"Cannot make this corpus: {err}")
        return None


def choose_corpus(key):
    """Sidebar widgets; return the chosen SegmentedCorpus, or None when the choice is unusable
    (an error has been shown)."""
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key=f"{key}_source")
    if source == "builtin":
        return builtin()
    if source == "synthetic":
        return choose_corpus_synthetic(key)
    file = st.file_uploader("Plain segmented text: one utterance per line, words separated by "
                            "spaces", type=["txt"], key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    try:
        corpus = uploaded(file.getvalue(), file.name)
    except CorpusError as err:
        st.error(f"Cannot read {file.name}: {err}")
        return None
    if corpus.blank_lines:
        st.caption(f"{corpus.blank_lines:,} blank lines were skipped.")
    return corpus


TAGGED_SOURCES = {"builtin": "Built-in: simple sentences", "synthetic": "Synthetic (known HMM)",
                  "upload": "Upload a file"}
SPARSITIES = (0.01, 0.05, 0.1, 0.5, 1.0)
TAGGED_FORMATS = {"conllu": "CoNLL-U (UPOS)", "conllu-xpos": "CoNLL-U (XPOS)",
                  "wordtag": "word/TAG tokens, a sentence per line",
                  "wordtag-lines": "word TAG per line, blank line between sentences"}


@st.cache_data(show_spinner=False)
def tagged_builtin_corpus():
    return tagged_builtin()


@st.cache_data(max_entries=8, show_spinner=False)
def synthetic_tagged(n_sentences, n_states, vocabulary, sparsity, seed):
    return hmm_corpus(n_sentences=n_sentences, n_states=n_states, vocabulary=vocabulary,
                      sparsity=sparsity, seed=seed)


@st.cache_data(max_entries=8, show_spinner=False)
def uploaded_tagged(data, name, file_format, lowercase):
    return read_tagged(data, name, format=file_format, lowercase=lowercase)


TAGGED_SETTINGS = (
    Setting("source", "builtin", str, "the corpus", choices=tuple(TAGGED_SOURCES)),
    Setting("syn_n", 200, int, "the number of sentences", 20, 2000),
    Setting("syn_k", 5, int, "the number of true states", 2, 20),
    Setting("syn_v", 60, int, "the vocabulary size", 10, 1000),
    Setting("syn_s", 0.1, float, "the sparsity", choices=SPARSITIES),
    Setting("syn_seed", 0, int, "the corpus seed", 0, 2**31 - 1),
    Setting("format", "conllu", str, "the file format", choices=tuple(TAGGED_FORMATS)),
    Setting("lower", False, bool, "lowercasing"),
)


def choose_tagged_corpus(key):
    """Sidebar widgets for a tagged corpus; the TaggedCorpus, or None after showing why not."""
    source = st.radio("Corpus", list(TAGGED_SOURCES), format_func=TAGGED_SOURCES.get,
                      key=f"{key}_source")
    if source == "builtin":
        return tagged_builtin_corpus()
    if source == "synthetic":
        n = st.slider("Sentences", 20, 2000, step=20, key=f"{key}_syn_n")
        states = st.slider("True states", 2, 20, key=f"{key}_syn_k")
        vocabulary = st.slider("Vocabulary", 10, 1000, key=f"{key}_syn_v")
        sparsity = st.select_slider("Sparsity (Dirichlet parameter)", SPARSITIES,
                                    key=f"{key}_syn_s")
        seed = st.number_input("Corpus seed", 0, 2**31 - 1, key=f"{key}_syn_seed")
        return generated(synthetic_tagged, n, states, vocabulary, sparsity, int(seed))
    file_format = st.selectbox("Format", list(TAGGED_FORMATS), format_func=TAGGED_FORMATS.get,
                               key=f"{key}_format")
    lowercase = st.checkbox("Lowercase the words", key=f"{key}_lower")
    file = st.file_uploader("A tagged corpus", type=["conllu", "txt", "tsv"], key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    try:
        return uploaded_tagged(file.getvalue(), file.name, file_format, lowercase)
    except CorpusError as err:
        st.error(f"Cannot read {file.name}: {err}")
        return None


@dataclass(frozen=True)
class CorpusPicker:
    """The corpus choice of one kind of model (its ``display``): the sidebar widgets
    (``choose(key)``), their settings (named ``{code}_…`` on a page that has several pickers),
    and how to count the corpus's units."""

    code: str
    settings: tuple
    choose: Callable
    unit: str
    unit_sizes: Callable  # corpus -> int array: each unit's symbols or tokens
    upload_note: str = UPLOAD_NOTE

    def n_units(self, corpus):
        return len(self.unit_sizes(corpus))

    def units_within(self, corpus, n_sites, limit):
        """How many of the corpus's first units keep a model of ``n_sites`` sites (for the
        whole corpus) within ``limit`` sites, its sites taken as spread like the units' sizes
        (with 1% to spare)."""
        sizes = np.cumsum(self.unit_sizes(corpus))
        return max(1, int(np.searchsorted(sizes, 0.99 * limit * sizes[-1] / n_sites,
                                          side="right")))


PICKERS = {
    "segmentation": CorpusPicker("seg", SEGMENTED_SETTINGS, choose_corpus, "utterances",
                                 lambda corpus: np.array([len(text) for text in corpus.texts])),
    "tagging": CorpusPicker("tag", TAGGED_SETTINGS, choose_tagged_corpus, "sentences",
                            lambda corpus: np.array([len(s) for s in corpus.sentences])),
}


def picker_of(model_class):
    """The corpus picker of a model class (None: it reads no corpus, or none is defined)."""
    return PICKERS.get(model_class.display) if model_class.needs_data else None


def all_picker_settings():
    """Every picker's settings, named ``{code}_{name}`` (a page offering every model)."""
    return tuple(replace(setting, name=f"{picker.code}_{setting.name}")
                 for picker in PICKERS.values() for setting in picker.settings)



# --- a corpus of words (the Restaurants lesson's Figure 2): segmented or tagged, words only ---
WORD_SOURCES = {"nursery": "Built-in: nursery talk", "tagged": "Built-in: simple sentences",
                "synthetic": "Synthetic (Zipf lexicon)",
                "upload": "Upload: plain segmented text or CoNLL-U"}
WORD_SETTINGS = (
    Setting("source", "nursery", str, "the corpus", choices=tuple(WORD_SOURCES)),
    *SEGMENTED_SETTINGS[1:],
)


@dataclass(frozen=True)
class WordCorpus:
    """Sentences (utterances) as tuples of words, and a name for the user."""

    name: str
    sentences: tuple


def choose_word_corpus(key):
    """Sidebar widgets; the chosen WordCorpus, or None after showing why it is unusable. An
    upload ending in .conllu is read as CoNLL-U (its FORM column), any other as plain
    segmented text."""
    source = st.radio("Corpus of words", list(WORD_SOURCES), format_func=WORD_SOURCES.get,
                      key=f"{key}_source")
    if source == "nursery":
        corpus = builtin()
        return WordCorpus(corpus.name, corpus.utterances)
    if source == "tagged":
        corpus = tagged_builtin_corpus()
        return WordCorpus(corpus.name, corpus.sentences)
    if source == "synthetic":
        segmented = choose_corpus_synthetic(key)
        return None if segmented is None else WordCorpus(segmented.name, segmented.utterances)
    file = st.file_uploader("Plain segmented text (one utterance per line, words separated by "
                            "spaces) or CoNLL-U", type=["txt", "conllu"], key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    try:
        if file.name.lower().endswith(".conllu"):
            corpus = uploaded_tagged(file.getvalue(), file.name, "conllu", False)
            return WordCorpus(corpus.name, corpus.sentences)
        corpus = uploaded(file.getvalue(), file.name)
        return WordCorpus(corpus.name, corpus.utterances)
    except CorpusError as err:
        st.error(f"Cannot read {file.name}: {err}")
        return None
