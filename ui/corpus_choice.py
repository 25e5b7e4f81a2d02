"""Choosing a corpus in the sidebar: what every kind's corpus picker (ui/kinds/) shares — its
built-in corpus, an upload read by the kind's reader, a generator's refusal said in words.

A file that cannot be read is reported with the reader's message (it names the line) and the
previous corpus stays in use, so a running race is never lost to a bad upload.
"""
from dataclasses import dataclass
from typing import Callable

import streamlit as st

from datasets import kinds
from datasets.errors import CorpusError

UPLOAD_NOTE = "An uploaded file cannot travel in a link: the link opens the upload box."


@dataclass(frozen=True)
class CorpusPicker:
    """The corpus choice of one kind of data: the sidebar widgets (``choose(key)``: the
    corpus, or None after saying why there is none), their settings (named ``{code}_…`` on a
    page with several pickers) and the kind (datasets.kinds.Kind) it reads."""

    code: str
    data: kinds.Kind
    settings: tuple
    choose: Callable
    upload_note: str = UPLOAD_NOTE


@st.cache_data(show_spinner=False)
def builtin(kind_name):
    """The built-in corpus of the kind called ``kind_name``."""
    return kinds.get(kind_name).builtin()


@st.cache_data(max_entries=8, show_spinner=False)
def _read(kind_name, data, file_name, reading):
    return kinds.get(kind_name).read(data, file_name, **dict(reading))


def read_file(kind, file, **reading):
    """An uploaded file read as a corpus of ``kind`` with the kind's ``reading`` choices; None
    after saying why it cannot be read."""
    try:
        return _read(kind.name, file.getvalue(), file.name, tuple(reading.items()))
    except CorpusError as err:
        st.error(f"Cannot read {file.name}: {err}")
        return None


def upload(kind, key, label, **reading):
    """An upload box for a corpus of ``kind``; the corpus (``read_file``), or None after saying
    why there is none."""
    file = st.file_uploader(label, type=list(kind.suffixes), key=f"{key}_upload")
    if file is None:
        st.info("Choose a file to upload.")
        return None
    return read_file(kind, file, **reading)


def generated(make, *settings):
    """``make(*settings)``, or None after saying why the generator refused the settings."""
    try:
        return make(*settings)
    except ValueError as err:
        st.error(f"Cannot make this corpus: {err}")
        return None
