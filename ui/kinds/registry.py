"""The pages' views of the kinds of data, by name. A model names its kind (``display``); the view
registered under that name gives its corpus picker and how a page draws its analysis. Each
module of ui/kinds registers one view; ``views()`` imports them all, so a new kind's view is one
new module there and no page changes.
"""
import importlib
import pkgutil
from dataclasses import dataclass, replace
from typing import Callable

import streamlit as st

import ui.kinds
from ui.corpus_picker import CorpusPicker

_VIEWS = {}


@dataclass(frozen=True)
class View:
    """How the pages show one kind of data.

    name : the kind, as a model names it (its ``display``)
    picker : its corpus picker (ui.corpus_picker.CorpusPicker), or None when its models read no
        corpus (the toy: its options make its data)
    unit : what the Type blocks page's size slider counts ("Utterances"), or "" when the
        kind has no small corpora
    corpora : the small corpora the Type blocks page offers; ``small_corpus(source, size,
        seed)`` makes one (empty: a model is built from its options alone)
    analysis : what an analysis of it is called ("segmentation")
    edge_help, conflict_text : what the pivot's type shows, and the block's left-out sites
    caption : said under the units, formatted with n, the number of units shown first
    n_units(model) : its utterances or sentences; row(model, state, u, marks) : unit u as HTML,
        the sites in ``marks`` ({position: (kind, "changed"?)}) highlighted
    legend() : HTML above the units; status(model, state) : a few words on the analysis
    lessons : the lessons whose picker reads this kind, as the navigation names them (told to a
        user who uploads a file of this kind to another lesson)
    type_drawing(model, state, s) : HTML drawing site s's type, shown under the Type blocks
        page's type when given (a tree fragment is easier read drawn than bracketed)
    drawing_controls() : the widgets that change how the drawings look (the trees' labels),
        drawn under them where a page draws this kind's units
    """

    name: str
    picker: CorpusPicker | None
    unit: str
    corpora: tuple
    small_corpus: Callable | None
    analysis: str
    edge_help: str
    conflict_text: str
    caption: str
    n_units: Callable
    row: Callable
    legend: Callable
    status: Callable
    lessons: tuple = ()
    type_drawing: Callable | None = None
    drawing_controls: Callable | None = None


class UnknownKind(ValueError):
    """A model names a kind of data no view draws, or one without the corpus picker it needs."""


def register(view):
    """Add a view under its kind's name (its module calls it when imported, again when
    Streamlit reloads the module after an edit); returns the view."""
    previous = _VIEWS.get(view.name)
    if previous is not None and previous.row.__module__ != view.row.__module__:
        raise ValueError(f"a view of the kind {view.name!r} is registered already, by "
                         f"{previous.row.__module__}")
    _VIEWS[view.name] = view
    return view


def views():
    """{kind name: View} of every kind the pages draw, importing ui/kinds' modules first."""
    for module in pkgutil.iter_modules(ui.kinds.__path__):
        importlib.import_module(f"ui.kinds.{module.name}")
    return dict(_VIEWS)


def view_of(model_class):
    """The view of the kind a model class analyses; UnknownKind says what is missing."""
    known = views()
    view = known.get(model_class.display)
    if view is None:
        raise UnknownKind(f"{model_class.label} analyses data of the kind "
                          f"“{model_class.display}”, which no page can draw yet: add its view "
                          f"as ui/kinds/{model_class.display}.py (the pages draw "
                          f"{', '.join(known)})")
    if model_class.needs_data and view.picker is None:
        raise UnknownKind(f"{model_class.label} reads a corpus, but the view of the kind "
                          f"“{view.name}” has no corpus picker: give it one in "
                          f"ui/kinds/{view.name}.py")
    return view


def view_or_stop(model_class):
    """``view_of(model_class)`` for a page: on UnknownKind the page shows why and stops."""
    try:
        return view_of(model_class)
    except UnknownKind as err:
        st.error(str(err), icon=":material/error:")
        st.stop()


def picker_of(model_class):
    """The corpus picker of a model class: None for a model that reads no corpus."""
    return view_of(model_class).picker if model_class.needs_data else None


def every_picker_settings():
    """Every kind's picker settings, named ``{code}_{name}``: a page offering every model has
    a picker per kind, each keyed ``{page}_{code}``."""
    return tuple(replace(setting, name=f"{view.picker.code}_{setting.name}")
                 for view in views().values() if view.picker is not None
                 for setting in view.picker.settings)
