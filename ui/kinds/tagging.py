"""Tagged text on the pages: sentences of words, each token a site with a state. Its corpus
picker (built in, synthetic from a known HMM, or an upload in a format told from the text or
chosen), sentences drawn with each token's state, and the Type blocks view."""
import html
from dataclasses import replace

import streamlit as st

from datasets.synthetic import hmm_corpus
from datasets.tagged import AUTO, TAGGING, detect_format
from datasets.text import decode
from ui.corpus_choice import builtin, generated, upload
from ui.corpus_picker import CorpusPicker
from ui.kinds.registry import View, register
from ui.settings import Setting
from ui.theme import ROW_FONT, mark_style, row_number

STATE_COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                 "#ff9da7", "#9c755f", "#bab0ac"]


def tagged_sentence_html(words, states, marks=None, number=None):
    """One sentence: each word with its state as a coloured subscript; marks as in
    ui.kinds.segmentation.utterance_html, keyed by token index (the Type blocks page)."""
    marks = marks or {}
    out = []
    for i, (word, k) in enumerate(zip(words, states)):
        colour = STATE_COLOURS[(k - 1) % len(STATE_COLOURS)]
        style = "padding:1px 3px;border-radius:3px;"
        mark = marks.get(i)
        if mark:
            style += mark_style(mark)
        out.append(f"<span style='{style}'>{html.escape(word)}<sub style='color:{colour};"
                   f"font-weight:700'>{k}</sub></span>")
    return f"<div style='{ROW_FONT} line-height:2.1'>{row_number(number)}{' '.join(out)}</div>"


# --- the corpus picker ------------------------------------------------------------------------
SOURCES = {"builtin": "Built-in: simple sentences", "synthetic": "Synthetic (known HMM)",
           "upload": "Upload a file"}
SPARSITIES = (0.01, 0.05, 0.1, 0.5, 1.0)
SETTINGS = (
    Setting("source", "builtin", str, "the corpus", choices=tuple(SOURCES)),
    Setting("syn_n", 200, int, "the number of sentences", 20, 2000),
    Setting("syn_k", 5, int, "the number of true states", 2, 20),
    Setting("syn_v", 60, int, "the vocabulary size", 10, 1000),
    Setting("syn_s", 0.1, float, "the sparsity", choices=SPARSITIES),
    Setting("syn_seed", 0, int, "the corpus seed", 0, 2**31 - 1),
    Setting("format", AUTO, str, "the file format", choices=tuple(TAGGING.formats)),
    Setting("lower", False, bool, "lowercasing"),
)


@st.cache_data(max_entries=8, show_spinner=False)
def synthetic(n_sentences, n_states, vocabulary, sparsity, seed):
    return hmm_corpus(n_sentences=n_sentences, n_states=n_states, vocabulary=vocabulary,
                      sparsity=sparsity, seed=seed)


def choose_synthetic(key):
    """The synthetic corpus's widgets; the TaggedCorpus, or None after saying why not."""
    n = st.slider("Sentences", 20, 2000, step=20, key=f"{key}_syn_n")
    states = st.slider("True states", 2, 20, key=f"{key}_syn_k")
    vocabulary = st.slider("Vocabulary", 10, 1000, key=f"{key}_syn_v")
    sparsity = st.select_slider("Sparsity (Dirichlet parameter)", SPARSITIES, key=f"{key}_syn_s")
    seed = st.number_input("Corpus seed", 0, 2**31 - 1, key=f"{key}_syn_seed")
    return generated(synthetic, n, states, vocabulary, sparsity, int(seed))


def choose(key):
    """Sidebar widgets for a tagged corpus; the TaggedCorpus, or None after showing why not."""
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key=f"{key}_source")
    if source == "builtin":
        return builtin(TAGGING.name)
    if source == "synthetic":
        return choose_synthetic(key)
    file_format = st.selectbox("Format", list(TAGGING.formats), format_func=TAGGING.formats.get,
                               key=f"{key}_format")
    lowercase = st.checkbox("Lowercase the words", key=f"{key}_lower")
    corpus = upload(TAGGING, key, "A tagged corpus", format=file_format, lowercase=lowercase)
    if corpus is not None and file_format == AUTO:  # say what was told, so it can be overridden
        told = detect_format(decode(st.session_state[f"{key}_upload"].getvalue()))
        st.caption(f"Read as {TAGGING.formats[told]} (told from the text; choose another "
                   "format above if that is wrong).")
    return corpus


# --- the Type blocks view ---------------------------------------------------------------------
SMALL_CORPORA = ("Simple sentences (first sentences)",)


def small_corpus(source, size, seed):
    full = builtin(TAGGING.name)
    return replace(full, sentences=full.sentences[:size], tags=full.tags[:size],
                   name=f"simple sentences, first {size}")


def sentence_row(model, state, u, marks):
    a, b = model.sent_start[u], model.sent_start[u + 1]
    return tagged_sentence_html(model.sentences[u], model.values(state)[a:b], marks, number=u + 1)


def status(model, state):
    measures = model.measures(state)
    if "acc_many_to_one" not in measures:
        return f"{len(set(model.values(state))):,} states used"
    return f"many-to-one accuracy {measures['acc_many_to_one']:.1%}"


VIEW = register(View(
    name=TAGGING.name, picker=CorpusPicker("tag", TAGGING, SETTINGS, choose),
    unit="Sentences", corpora=SMALL_CORPORA, small_corpus=small_corpus, analysis="tagging",
    edge_help="the states before and after the pivot token and its word (· is a sentence edge)",
    conflict_text="same type, left out (conflict or state outside the slice)",
    caption=("Sentences with a token of this type come first ({n:,}); each word carries its "
             "state after the move."),
    n_units=lambda model: len(model.sentences),
    row=sentence_row,
    legend=lambda: "",
    status=status,
    lessons=("HMM tag trajectories", "HMM estimators", "Sampler race (with the HMM)")))
