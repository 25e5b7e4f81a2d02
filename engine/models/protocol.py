"""What a model offers to the samplers, the command line and the pages: one Protocol.

The samplers reach a model's *state* through the Numba interface (engine.kernels.interface);
everything else reaches the *model object* through the Python surface below. A model module
defines a class with these members and registers it (engine.models.registry), and from then on
the command line, the warm-up, the pages' model pickers and the Home table offer it, and the
conformance suite (tests/conformance) runs every sampler it names against exact enumeration.
"""
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class Option:
    """A setting of a model: a hyperparameter (α, K, …), an initialisation (m) or a way of
    reading its data (a format). The command line makes a flag of it and the pages a widget.

    name : the keyword the model's ``build`` takes
    flag : the command-line flag
    kind : float, int, str or bool (a switch)
    default : the value when not given (None: the model decides, e.g. K from the gold tags)
    help : one line for --help and the widget's tooltip
    low, high : the accepted range (inclusive), for numbers
    choices : the accepted values, for strings
    reads : whether it says how to read the corpus file (a format) rather than what the model
        is: a page that reads the corpus itself (ui/corpus_choice.py) does not offer it
    """

    name: str
    flag: str
    kind: type
    default: Any
    help: str
    low: float = None
    high: float = None
    choices: tuple = None
    reads: bool = False

    def check(self, value):
        """The value, or a ValueError naming the setting and what to give."""
        if value is None or self.kind is bool:
            return value
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{self.flag} must be one of {', '.join(self.choices)} "
                             f"(got {value!r})")
        if self.low is not None and not (self.low <= value <= self.high):
            raise ValueError(f"{self.flag} must be between {self.low:g} and {self.high:g} "
                             f"(got {value:g})")
        return value


class SiteView(NamedTuple):
    """How a page names a site's type and its values.

    type_text : the type t(z, s) in the model's words (`ab|c · abc`, `3 → “dog” → ·`)
    value_names : a name for each value 0 … n_values − 1
    """

    type_text: str
    value_names: tuple


@runtime_checkable
class Model(Protocol):
    """Every registered model offers these (a class with them is a model).

    Class attributes
    ----------------
    name : the registry's key and the command line's ``--model``
    label : what a page calls it
    summary : one sentence for the Home table
    samplers : the registered samplers it offers (engine.samplers)
    options : its settings (``Option``s); ``build`` takes them as keywords
    init_options : initialisations beyond η (the toy's m)
    needs_data : whether it reads a corpus file (the toy does not)
    order : where it stands in lists (the lessons' order)
    display : how pages draw its analysis ("segmentation", "tagging", …; see ui/views.py)
    trace_labels : {trace column: what a page calls it} for its measures and scalars, the
        headline measure first
    state_class : its state's namedtuple class, which implements the kernel interface
    kernel_modules : the modules whose ``for_state(state_class)`` implementations it uses
    """

    name: ClassVar[str]
    label: ClassVar[str]
    summary: ClassVar[str]
    samplers: ClassVar[tuple]
    options: ClassVar[tuple]
    init_options: ClassVar[tuple]
    needs_data: ClassVar[bool]
    order: ClassVar[int]
    display: ClassVar[str]
    trace_labels: ClassVar[dict]
    state_class: ClassVar[type]
    kernel_modules: ClassVar[tuple]

    notes: tuple  # what reading the corpus left out (blank lines, …), for the user

    # --- making one -------------------------------------------------------------------------
    @classmethod
    def build(cls, path=None, **options) -> "Model":
        """The model of the corpus file at ``path`` (None: its built-in corpus) with these
        settings. Raises datasets.errors.CorpusError or ValueError with a message for the user."""

    @classmethod
    def tiny(cls) -> "Model":
        """A model small enough to compile and run every kernel in milliseconds (warm-up)."""

    # --- states -----------------------------------------------------------------------------
    n_sites: int

    def new_state(self, rng, eta=None, **init):
        """An initial state (Liang et al. §5.2: η, or the model's own init_options)."""

    def state_from_values(self, values: np.ndarray):
        """The state of an analysis as ``values`` gives it, counts built from scratch."""

    def clone_state(self, state):
        """An independent copy of a state (nothing shared but the corpus's read-only arrays)."""

    def values(self, state) -> np.ndarray:
        """The analysis as one number per site, in site order, as the model writes it (the
        site's value, or for the HMM its state 1 … K); ``state_from_values`` reads it back."""

    # --- scoring ----------------------------------------------------------------------------
    def loglik(self, state) -> float:
        """The exact collapsed log-probability (eq. 3), recomputed from the values alone."""

    def loglik_running(self, state) -> float:
        """The same from the state's running counts (equal to ``loglik`` when they are right)."""

    def counts(self, state) -> dict:
        """The state's running count tables in a canonical form (comparable across states
        built in different orders, e.g. a hash table as a sorted list)."""

    def measures(self, state) -> dict:
        """The accuracy figures against gold for the trace ({} without gold)."""

    def scalars(self, state) -> dict:
        """A few numbers that say what the analysis looks like (the number of words, of states
        used), from the running counts, cheap enough for every trace row."""

    # --- showing and exchanging analyses ------------------------------------------------------
    def describe_site(self, state, s) -> SiteView:
        """A page's names for site s's type and values."""

    def site_place(self, s) -> tuple:
        """(sentence, position in it) of site s."""

    def write_analysis(self, state) -> str:
        """The analysis as text in the model's readable format."""

    def read_analysis(self, path):
        """The state of an analysis file in that format (checked against the corpus)."""

    # Optional: ``populations`` (class attribute): the population samplers it offers (the particle
    # filter), with ``particle_options`` (Options of ``particles``) and ``particles(**options)``,
    # the model's side of the filter (engine.samplers.particle); ``aliases``: other names it
    # answers to (registry.get).
    # Optional: ``warm_lesson(self)`` runs once at start-up any kernel the model's lesson page
    # uses beyond the samplers' (the toy's exact posterior); the warm-up calls it when present.


class CorpusModel:
    """Defaults for a model that reads a corpus (every model but the toy): no initialisation
    beyond η, and nothing left out of the corpus until ``build`` says so.

    Such a model also offers ``from_corpus(corpus, **options)``: the model of a corpus object
    as datasets/ reads it (the options without ``reads``); the pages build models so."""

    init_options = ()
    needs_data = True
    notes = ()  # what reading the corpus left out (blank lines, …), for the user
