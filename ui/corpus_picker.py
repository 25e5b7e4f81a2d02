"""A kind's corpus picker: what a view of a kind of data (ui/kinds/) offers in the sidebar,
declared; ui/corpus_choice.py holds the widgets and readers the pickers share."""
from dataclasses import dataclass
from typing import Callable

from datasets import kinds

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
