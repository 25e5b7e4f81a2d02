"""Segmented text on the pages: utterances of symbols whose sites are the gaps between them (a
boundary or not). Its corpus picker (built in, a synthetic Zipf lexicon, or an upload), the
utterances drawn with their boundaries coloured against gold, and the Type blocks view."""
import html

import pandas as pd
import streamlit as st

from datasets.segmented import SEGMENTATION, SegmentedCorpus
from datasets.synthetic import zipf_corpus
from ui.corpus_choice import builtin, generated, upload
from ui.corpus_picker import CorpusPicker
from ui.kinds.registry import View, register
from ui.settings import Setting
from ui.theme import ROW_FONT, mark_style, row_number

BOUNDARY_STYLE = {
    "correct": ("│", "#2e7d32", "a boundary gold has too"),
    "spurious": ("│", "#d1495b", "a boundary gold does not have"),
    "missed": ("┆", "#e08e0b", "a gold boundary not found"),
    "found": ("│", "#3d3d3d", "a boundary"),
}


def legend(kinds=("correct", "spurious", "missed")):
    parts = [f"<span style='color:{BOUNDARY_STYLE[k][1]};font-weight:700'>"
             f"{BOUNDARY_STYLE[k][0]}</span> {BOUNDARY_STYLE[k][2]}" for k in kinds]
    return "<div style='font-size:0.9rem;color:#555'>" + " &nbsp;·&nbsp; ".join(parts) + "</div>"


def utterance_html(text, labels, marks=None, number=None):
    """One utterance: its symbols, and after symbol i the boundary labels[i] ('' = none).

    marks: {symbol index: (kind, "changed"?)} — the site after that symbol is highlighted
    (Type blocks page).
    """
    marks = marks or {}
    out = []
    for i, symbol in enumerate(text):
        out.append(html.escape(symbol))
        if i == len(text) - 1:
            break
        kind = labels[i]
        glyph, colour, _ = BOUNDARY_STYLE.get(kind, ("", "", ""))
        mark = marks.get(i)
        style = f"color:{colour};font-weight:700;" if kind else ""
        content = glyph if kind else "&thinsp;"
        if mark:
            style += mark_style(mark) + "border-radius:3px;padding:0 1px;"
            content = glyph if kind else "·"
        out.append(f"<span style='{style}'>{content}</span>")
    return f"<div style='{ROW_FONT} line-height:1.9'>{row_number(number)}{''.join(out)}</div>"


def segmentation_panel(who, passes, model, state, first, count, table_key):
    """The segmentation of chain ``who`` after ``passes`` passes, utterances first … first +
    count − 1 (boundaries coloured against gold), beside its lexicon, each word marked when
    the gold lexicon has it."""
    last = min(first + count, len(model.texts))
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{who}'s segmentation after pass {passes:,}** "
                    f"(utterances {first + 1}–{last})")
        rows = [utterance_html(model.texts[u], model.boundary_labels(state, u), number=u + 1)
                for u in range(first, last)]
        st.markdown("".join(rows) + legend(), unsafe_allow_html=True)
    with right:
        lexicon = model.lexicon(state)
        gold = set(model.gold_lexicon)
        st.markdown(f"**{who}'s lexicon: {len(lexicon):,} words** (gold: {len(gold):,})")
        table = pd.DataFrame({"word": list(lexicon), "count": list(lexicon.values())})
        table["in gold lexicon"] = table.word.isin(gold)
        st.dataframe(table, height=330, hide_index=True, key=table_key)


# --- the corpus picker ------------------------------------------------------------------------
SOURCES = {"builtin": "Built-in: nursery talk", "synthetic": "Synthetic (Zipf lexicon)",
           "upload": "Upload a file"}
SETTINGS = (
    Setting("source", "builtin", str, "the corpus", choices=tuple(SOURCES)),
    Setting("syn_n", 300, int, "the number of utterances", 20, 2000),
    Setting("syn_lex", 60, int, "the lexicon size", 5, 500),
    Setting("syn_sym", 6, int, "the number of symbols", 2, 26),
    Setting("syn_s", 1.0, float, "the Zipf exponent", 0.5, 2.0),
    Setting("syn_seed", 0, int, "the corpus seed", 0, 2**31 - 1),
)


@st.cache_data(max_entries=8, show_spinner=False)
def synthetic(n_utterances, lexicon_size, n_symbols, zipf_exponent, seed):
    return zipf_corpus(n_utterances=n_utterances, lexicon_size=lexicon_size, n_symbols=n_symbols,
                       zipf_exponent=zipf_exponent, seed=seed)


def choose_synthetic(key):
    """The synthetic corpus's sliders; the SegmentedCorpus, or None after saying why not."""
    n = st.slider("Utterances", 20, 2000, step=20, key=f"{key}_syn_n")
    lexicon = st.slider("Lexicon size", 5, 500, key=f"{key}_syn_lex")
    symbols = st.slider("Symbols", 2, 26, key=f"{key}_syn_sym")
    exponent = st.slider("Zipf exponent", 0.5, 2.0, step=0.1, key=f"{key}_syn_s")
    seed = st.number_input("Corpus seed", 0, 2**31 - 1, key=f"{key}_syn_seed")
    return generated(synthetic, n, lexicon, symbols, exponent, int(seed))


def choose(key):
    """Sidebar widgets; the chosen SegmentedCorpus, or None when the choice is unusable (an
    error has been shown)."""
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key=f"{key}_source")
    if source == "builtin":
        return builtin(SEGMENTATION.name)
    if source == "synthetic":
        return choose_synthetic(key)
    corpus = upload(SEGMENTATION, key, "Plain segmented text: one utterance per line, words "
                                       "separated by spaces")
    if corpus is not None and corpus.blank_lines:
        st.caption(f"{corpus.blank_lines:,} blank lines were skipped.")
    return corpus


# --- the Type blocks view ---------------------------------------------------------------------
SMALL_CORPORA = ("Nursery talk (first utterances)", "Synthetic: 3 symbols, 8 words")


def small_corpus(source, size, seed):
    if source == SMALL_CORPORA[0]:
        return SegmentedCorpus(builtin(SEGMENTATION.name).utterances[:size], 0,
                               f"nursery talk, first {size}")
    return zipf_corpus(n_utterances=size, lexicon_size=8, n_symbols=3, mean_words=3.0, seed=seed)


VIEW = register(View(
    name=SEGMENTATION.name, picker=CorpusPicker("seg", SEGMENTATION, SETTINGS, choose),
    unit="Utterances", corpora=SMALL_CORPORA, small_corpus=small_corpus,
    analysis="segmentation",
    edge_help=("the words the pivot boundary separates (b = 1) or joins (b = 0); ⟩ marks that "
               "the last word ends its utterance (part of the type)"),
    conflict_text="same type, left out (conflict)",
    caption=("Utterances with a site of this type come first ({n:,}); the boundaries are the "
             "segmentation after the move, coloured against gold."),
    n_units=lambda model: len(model.texts),
    row=lambda model, state, u, marks: utterance_html(
        model.texts[u], model.boundary_labels(state, u), marks, number=u + 1),
    legend=legend,
    status=lambda model, state: f"{len(model.lexicon(state)):,} words in the lexicon",
    lessons=("Word segmentation", "Particle filter", "Sampler race (with a segmentation model)")))
