"""Kinds of data, by name: what a model analyses (its ``display``: "segmentation", "tagging", …)
and how a corpus of that kind is read, measured and cut.

Each kind's module in datasets/ (``segmented``, ``tagged``, …) defines its readers and registers
one ``Kind``; ``kinds()`` imports every module of the package, so a new kind of data is one new
module here (and its view in ui/kinds/) and no other file changes.
"""
import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

import numpy as np

import datasets

_KINDS = {}


@dataclass(frozen=True)
class Kind:
    """A kind of data.

    name : the kind as a model names it (its ``display``)
    label : what a page calls a corpus of it ("segmented text")
    unit : its units, plural ("utterances", "sentences")
    builtin : () -> the built-in corpus written for this project
    read : (data, name, **reading) -> a corpus from an upload's bytes or a string; raises
        datasets.errors.CorpusError naming the line (``reading``: the kind's own choices, e.g.
        a tagged corpus's format, "auto" telling it from the text)
    formats : {format: description} of the files ``read`` takes (a page offers them in this
        order, the first chosen until the user chooses)
    suffixes : the file name endings an upload box offers
    unit_sizes : corpus -> int array, the size of each unit (its symbols or tokens); the corpus
        has ``head(n)``, its first n units
    """

    name: str
    label: str
    unit: str
    builtin: Callable
    read: Callable
    formats: dict
    suffixes: tuple
    unit_sizes: Callable

    def n_units(self, corpus):
        """How many units the corpus has."""
        return len(self.unit_sizes(corpus))

    def units_within(self, corpus, n_sites, limit):
        """How many of the corpus's first units keep a model of ``n_sites`` sites (for the
        whole corpus) within ``limit`` sites, its sites taken as spread like the units' sizes
        (with 1% to spare); at least one."""
        sizes = np.cumsum(self.unit_sizes(corpus))
        return max(1, int(np.searchsorted(sizes, 0.99 * limit * sizes[-1] / n_sites,
                                          side="right")))


def register(kind):
    """Add a kind under its name (its module calls it when imported, again when Streamlit
    reloads the module after an edit); returns the kind."""
    previous = _KINDS.get(kind.name)
    if previous is not None and previous.read.__module__ != kind.read.__module__:
        raise ValueError(f"a data kind named {kind.name!r} is registered already, by "
                         f"{previous.read.__module__}")
    _KINDS[kind.name] = kind
    return kind


def kinds():
    """{name: Kind} of every kind of data, by name, importing every module of datasets/ first
    (by name too: the order in which other code imported them must not show)."""
    for module in pkgutil.iter_modules(datasets.__path__):
        if not module.ispkg:
            importlib.import_module(f"datasets.{module.name}")
    return dict(sorted(_KINDS.items()))


def get(name):
    """The kind called ``name``; an unknown name is refused with the known ones."""
    known = kinds()
    if name not in known:
        raise ValueError(f"no kind of data is called {name!r}: datasets/ reads "
                         f"{', '.join(known)}")
    return known[name]
