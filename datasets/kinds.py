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
    looks : what a file of this kind plainly is, in a message ("Penn-bracketed trees")
    recognise : (text) -> whether the start of a file's text is plainly this kind's, so that
        another kind's reader can say what it was given (``mistaken``); a text that may be
        this kind's or another's is not recognised
    """

    name: str
    label: str
    unit: str
    builtin: Callable
    read: Callable
    formats: dict
    suffixes: tuple
    unit_sizes: Callable
    looks: str
    recognise: Callable

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


SAMPLE = 65536  # bytes of a file that its kind is recognised from: a few hundred lines


def sample_lines(text, count=200):
    """The first ``count`` lines of ``text`` that are not blank: what a recogniser looks at."""
    return [line for line in text.splitlines()[:2 * count] if line.strip()][:count]


def read_start(path):
    """The first ``SAMPLE`` bytes of the file at ``path`` (what ``mistaken`` looks at)."""
    with open(path, "rb") as file:
        return file.read(SAMPLE)


def recognised(text, reading):
    """The kind other than ``reading`` (a Kind) whose format ``text`` (str, or a file's bytes)
    plainly has, or None."""
    if isinstance(text, bytes):
        text = text[:SAMPLE].decode("utf-8", "replace")
    text = text[:SAMPLE].removeprefix("\ufeff")
    return next((kind for kind in kinds().values()
                 if kind.name != reading.name and kind.recognise(text)), None)


def mistaken(text, reading, name, readers=""):
    """What a reader of ``reading`` says of a file ``name`` whose ``text`` is plainly of
    another kind: "trees.txt looks like Penn-bracketed trees (the tree fragments lessons read
    those), not segmented text" (``readers``: who reads that other kind, given the Kind; the
    parenthesis is left out when it gives ""); None when the text is no other kind's."""
    other = recognised(text, reading)
    if other is None:
        return None
    who = readers(other) if readers else ""
    return f"{name} looks like {other.looks}{f' ({who})' if who else ''}, not {reading.label}"
