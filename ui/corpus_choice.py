"""Choosing a corpus in the sidebar: the built-in one, a synthetic one, or an upload.

A file that cannot be read is reported with the loader's message (it names the line) and the
previous corpus stays in use, so a running race is never lost to a bad upload.
"""
import streamlit as st

from datasets.builtin import nursery_talk
from datasets.errors import CorpusError
from datasets.segmented import read_segmented
from datasets.synthetic import zipf_corpus

SOURCES = ("Built-in: nursery talk", "Synthetic (Zipf lexicon)", "Upload a file")


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


def choose_corpus(key):
    """Sidebar widgets; return the chosen SegmentedCorpus, or None when the choice is unusable
    (an error has been shown)."""
    source = st.radio("Corpus", SOURCES, key=f"{key}_source")
    if source == SOURCES[0]:
        return builtin()
    if source == SOURCES[1]:
        n = st.slider("Utterances", 20, 2000, 300, step=20, key=f"{key}_syn_n")
        lexicon = st.slider("Lexicon size", 5, 500, 60, key=f"{key}_syn_lex")
        symbols = st.slider("Symbols", 2, 26, 6, key=f"{key}_syn_sym")
        exponent = st.slider("Zipf exponent", 0.5, 2.0, 1.0, step=0.1, key=f"{key}_syn_s")
        seed = st.number_input("Corpus seed", 0, 2**31 - 1, 0, key=f"{key}_syn_seed")
        try:
            return synthetic(n, lexicon, symbols, exponent, int(seed))
        except ValueError as err:
            st.error(f"Cannot make this corpus: {err}")
            return None
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
