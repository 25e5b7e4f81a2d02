"""Choosing a corpus in the sidebar: what every kind's corpus picker (ui/kinds/) shares — its
built-in corpus, an upload read by the kind's reader, a generator's refusal said in words.

A file that cannot be read is reported with the reader's message (it names the line) and the
previous corpus stays in use, so a running race is never lost to a bad upload. What the file
gives (its name, its words quoted by the reader) is shown as typed (ui.settings.plain).
"""
import streamlit as st

from datasets import kinds
from datasets.errors import CorpusError
from ui.kinds.registry import views
from ui.settings import plain

@st.cache_data(show_spinner=False)
def builtin(kind_name):
    """The built-in corpus of the kind called ``kind_name``."""
    return kinds.get(kind_name).builtin()


@st.cache_data(max_entries=8, show_spinner=False)
def _read(kind_name, data, file_name, reading):
    return kinds.get(kind_name).read(data, file_name, **dict(reading))


def read_file(kind, file, **reading):
    """An uploaded file read as a corpus of ``kind`` with the kind's ``reading`` choices; None
    after saying why it cannot be read. A file that is plainly another kind's data is said to
    be, with the lessons that read it: in the refusal, or in a warning when it was read."""
    mistake = kinds.mistaken(file.getvalue(), kind, file.name, readers=lessons_reading)
    try:
        corpus = _read(kind.name, file.getvalue(), file.name, tuple(reading.items()))
    except CorpusError as err:
        st.error(f"{plain(mistake)}: {plain(err)}" if mistake
                 else f"Cannot read {plain(file.name)}: {plain(err)}")
        return None
    if mistake:
        st.warning(f"{plain(mistake)}: here it is read as {kind.label} all the same.",
                   icon=":material/warning:")
    return corpus


def lessons_reading(kind):
    """The lessons that read a kind of data, as a message says them: "A, B and C read those"
    ("" when no page does)."""
    view = views().get(kind.name)
    if view is None or not view.lessons:
        return ""
    *first, last = view.lessons
    return f"{', '.join(first)} and {last} read those" if first else f"{last} reads those"


def suffixes_text(suffixes):
    """File endings as a reader sees them: ".conllu, .txt or .tsv"."""
    dotted = [f".{suffix}" for suffix in suffixes]
    return dotted[0] if len(dotted) == 1 else f"{', '.join(dotted[:-1])} or {dotted[-1]}"


def wrong_suffix(kind, file_name):
    """Why a file of this name is not a corpus of ``kind`` (None: its ending is one the kind
    reads): the endings it reads and, when another kind of data reads this ending, the
    lessons that take that kind."""
    suffix = file_name.rpartition(".")[2].lower() if "." in file_name else ""
    if suffix in kind.suffixes:
        return None
    message = (f"Cannot read {plain(file_name)}: this page reads {kind.label} from a file ending in "
               f"{suffixes_text(kind.suffixes)}.")
    others = [view for view in views().values() if view.picker is not None
              and view.picker.data is not kind and suffix in view.picker.data.suffixes]
    for view in others:
        *first, last = view.lessons
        message += (f" A .{plain(suffix)} file is {view.picker.data.label}: "
                    f"{', '.join(first)} and {last} read it.")
    return message


def upload(kind, key, label, **reading):
    """An upload box for a corpus of ``kind``; the corpus (``read_file``), or None after saying
    why there is none. The box takes any file and a wrong ending is refused here, in words
    that name the endings the kind reads (the browser's own refusal names none)."""
    file = st.file_uploader(f"{label} ({suffixes_text(kind.suffixes)})", key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    refusal = wrong_suffix(kind, file.name)
    if refusal:
        st.error(refusal)
        return None
    return read_file(kind, file, **reading)


def cap_note(key, most):
    """Under the upload box, while the corpus is an upload: how much of a file the page reads
    (``most``: "3,000 utterances"), said before a file is chosen and read."""
    if str(st.session_state.get(f"{key}_source", "")).startswith("upload"):
        st.caption(f"This page reads at most the first {most} of a file (the command line "
                   "reads any corpus: docs/command-line.md).")


def first_units(kind, corpus, most, why):
    """``corpus`` (of ``kind``; None stays None) cut to its first ``most`` units, said with the
    page's reason ``why``, before any model is built on all of it."""
    if corpus is None or kind.n_units(corpus) <= most:
        return corpus
    st.warning(f"{plain(corpus.name)} has {kind.n_units(corpus):,} {kind.unit}: this page reads "
               f"the first {most:,} ({why}).", icon=":material/content_cut:")
    return corpus.head(most)


def generated(make, *settings):
    """``make(*settings)``, or None after saying why the generator refused the settings."""
    try:
        return make(*settings)
    except ValueError as err:
        st.error(f"Cannot make this corpus: {err}")
        return None
