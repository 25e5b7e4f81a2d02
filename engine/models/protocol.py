"""What a model offers, split into the roles it plays: each a documented ``Protocol``.

A model class says which roles it claims (``roles = (ChainModel, Presentation, …)``) and
``engine.models.registry.register`` checks, when it registers, that it has every member of each
with the right kind (class attribute, method, class method) and, for methods, the parameters the
role names. The roles:

- ``ChainModel``: what the samplers, Run, the command line and the warm-up drive (every model);
- ``Presentation``: how the pages and files show it (every model);
- ``CorpusModel``: a model of a corpus that datasets/ reads (every model but the toy);
- ``Population``: the model's side of the particle filter, whose ``particles()`` is a
  ``ParticlePopulation`` (a ``RejuvenatingPopulation`` when its particles take MCMC moves);
- ``Parameters``: a model with explicit parameters, for EM, variational Bayes and the explicit
  samplers (whose kernels reach the state through engine.kernels.interface's parameter group);
- ``Lesson``: a model whose lesson page runs kernels of its own, warmed once at start-up;
- ``Shards``: a model whose corpus the parallel inexact sampler splits over workers
  (engine.samplers.parallel).

The samplers reach a model's *state* through the Numba interface (engine.kernels.interface);
everything here is the Python surface of the *model object*. ``ModelBase`` gives the defaults
of the members a model may leave out.
"""
import inspect
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol, get_origin

from engine.core.state import clone


@dataclass(frozen=True)
class Option:
    """A setting of a model: a hyperparameter (α, K, …), an initialisation (m) or a way of
    reading its data (a format). The command line makes a flag of it and the pages a widget.

    name : the keyword the model's ``build`` takes
    flag : the command-line flag
    kind : float, int, str or bool (a switch)
    default : the value when not given (None: the model decides, e.g. K from the gold tags)
    help : one line for --help and the widget's tooltip
    low, high : the accepted range, for numbers: inclusive, unless ``low_open`` or
        ``high_open`` says that end is excluded (a probability p# with 0 < p# < 1)
    choices : the accepted values, for strings
    reads : whether it says how to read the corpus file (a format) rather than what the model
        is: a page that reads the corpus itself (ui/corpus_choice.py) does not offer it
    file : whether its value names a file the model reads beside the corpus (the command line
        declares it an input, which no output may overwrite)
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
    file: bool = False
    low_open: bool = False
    high_open: bool = False

    def check(self, value):
        """The value, or a ValueError naming the setting and what to give."""
        if value is None or self.kind is bool:
            return value
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{self.flag} must be one of {', '.join(self.choices)} "
                             f"(got {value!r})")
        if self.low is not None and not in_range(value, *self.range):
            raise ValueError(f"{self.flag} must be {range_text(*self.range)} (got {value:g})")
        return value

    @property
    def range(self):
        """(low, high, low_open, high_open): what ``in_range`` and ``range_text`` take."""
        return self.low, self.high, self.low_open, self.high_open

    def widget_range(self):
        """The inclusive (low, high) of a number box, which has no open ends: an open end
        moved in by ``OPEN_MARGIN``."""
        return (None if self.low is None else self.low + OPEN_MARGIN * self.low_open,
                None if self.high is None else self.high - OPEN_MARGIN * self.high_open)


OPEN_MARGIN = 1e-9  # the nearest a number box goes to an open end (p# = 1e-9 is near enough 0)


def in_range(value, low, high, low_open=False, high_open=False):
    """Whether ``value`` is in the range from low to high, each end excluded when open (NaN
    never is)."""
    return ((low < value if low_open else low <= value)
            and (value < high if high_open else value <= high))


def range_text(low, high, low_open=False, high_open=False):
    """The range in a message's words: "between 1 and 10" when it holds both ends, else each
    end said as it is ("above 0 and below 1", "above 0 and at most 100")."""
    if not (low_open or high_open):
        return f"between {number_text(low)} and {number_text(high)}"
    return (f"{'above' if low_open else 'at least'} {number_text(low)} and "
            f"{'below' if high_open else 'at most'} {number_text(high)}")


def number_text(value):
    """A bound in full: whole numbers with thousands separators, others to ten digits (so
    0.999999999 does not read as 1)."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:.10g}"


@dataclass(frozen=True)
class Output:
    """A file of a model's own that ``run`` can write beside the final analysis (the PTSG's
    fragment lexicon): the command line makes a flag of it.

    flag : the command-line flag (``--fragments``)
    help : one line for --help
    method : the name of the model's method ``(state) -> str`` that writes the file's text
    every_sweep : whether the file gets the text after every sweep, each after a line
        ``# sweep k`` (the forests' rules per iteration), rather than once at the end
    """

    flag: str
    help: str
    method: str
    every_sweep: bool = False


class SiteView(NamedTuple):
    """How a page names a site's type and its values.

    type_text : the type t(z, s) in the model's words (`ab|c · abc`, `3 → “dog” → ·`)
    value_names : a name for each value 0 … n_values − 1
    """

    type_text: str
    value_names: tuple


# --- the roles ------------------------------------------------------------------------------------
class ChainModel(Protocol):
    """What the samplers, Run, the command line and the warm-up drive. Every model claims it.

    Class attributes
    ----------------
    name : the registry's key and the command line's ``--model`` (derived: its folder's name)
    aliases : other names it answers to in ``registry.get`` (the name its paper uses)
    roles : the roles it claims (this one, Presentation, …), checked when it registers
    samplers : the chain samplers it offers (engine.samplers; their mixtures come with them)
    options : its settings (``Option``s); ``build`` takes them as keywords
    init_options : initialisations beyond η (the toy's m); ``new_state`` takes them
    needs_data : whether it reads a corpus file (derived: whether it claims CorpusModel)
    state_class : its state's namedtuple class, which implements the kernel interface (derived:
        the one its folder's modules implement it for, ``for_state(state_class)``, imported by
        its model.py)
    kernel_modules : the modules its model.py imports only for the ``for_state``
        implementations their import registers (default none: a model using its kernels
        module anyway needs not name it)
    populations : the population samplers it offers (non-empty exactly when it claims Population)
    particle_options : the settings of ``particles`` (Population)

    Attributes
    ----------
    notes : what reading the corpus left out (blank lines, …), for the user
    n_sites : the number of sites |S|
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple]
    roles: ClassVar[tuple]
    samplers: ClassVar[tuple]
    options: ClassVar[tuple]
    init_options: ClassVar[tuple]
    needs_data: ClassVar[bool]
    state_class: ClassVar[type]
    kernel_modules: ClassVar[tuple]
    populations: ClassVar[tuple]
    particle_options: ClassVar[tuple]
    notes: tuple
    n_sites: int

    @classmethod
    def build(cls, path=None, **options):
        """The model of the corpus file at ``path`` (None: its built-in corpus) with these
        settings. Raises datasets.errors.CorpusError or ValueError with a message for the user."""

    @classmethod
    def tiny(cls):
        """A model small enough to compile and run every kernel in milliseconds (warm-up)."""

    def new_state(self, rng, eta=None, **init):
        """An initial state (Liang et al. §5.2: η, or the model's own ``init_options``)."""

    def state_from_values(self, values):
        """The state of an analysis as ``values`` gives it, counts built from scratch."""

    def rebuilt_state(self, state):
        """The state rebuilt from scratch from what ``state`` records: its values, and for a
        model whose choices carry seats, its seating (the conformance suite compares counts)."""

    def clone_state(self, state):
        """An independent copy of a state (nothing shared but the corpus's read-only arrays)."""

    def values(self, state):
        """The analysis as one number per site, in site order, as the model writes it (the
        site's value, or for the HMM its state 1 … K); ``state_from_values`` reads it back."""

    def loglik(self, state):
        """The exact collapsed log-probability (eq. 3), recomputed from the values alone."""

    def loglik_running(self, state):
        """The same from the state's running counts (equal to ``loglik`` when they are right)."""

    def counts(self, state):
        """The state's running count tables in a canonical form (comparable across states
        built in different orders, e.g. a hash table as a sorted list)."""

    def measures(self, state):
        """The accuracy figures against gold for the trace ({} without gold)."""

    def scalars(self, state):
        """A few numbers that say what the analysis looks like (the number of words, of states
        used), from the running counts, cheap enough for every trace row."""


class Presentation(Protocol):
    """How the pages, the Home table and analysis files show a model. Every model claims it.

    Class attributes
    ----------------
    label : what a page calls it
    summary : one sentence for the Home table
    order : where it stands in lists (the lessons' order)
    display : the kind of data it analyses ("segmentation", "tagging", …): the name of a kind
        in datasets.kinds (its readers) and of a view in ui/kinds (how pages pick and draw it)
    trace_labels : {trace column: what a page calls it} for its measures and scalars, the
        headline measure first
    loglik_label : what a page calls its ``loglik`` ("log p(corpus, segmentation)")
    """

    label: ClassVar[str]
    summary: ClassVar[str]
    order: ClassVar[int]
    display: ClassVar[str]
    trace_labels: ClassVar[dict]
    loglik_label: ClassVar[str]

    def describe_site(self, state, s):
        """A page's names for site s's type and values (a ``SiteView``)."""

    def site_place(self, s):
        """(sentence, position in it) of site s."""

    def write_analysis(self, state):
        """The analysis as text in the model's readable format."""

    def read_analysis(self, path):
        """The state of an analysis file in that format (checked against the corpus)."""

    def formulas(self):
        """The model and the equations its samplers use, with this model's numbers, for a page:
        ((kind, text), …), kind "markdown" or "latex"; () when it shows none."""


class CorpusModel(Protocol):
    """A model of a corpus as datasets/ reads it; the pages build models so."""

    @classmethod
    def from_corpus(cls, corpus, **options):
        """The model of a corpus object (datasets/), with the settings among ``options`` that
        are not about reading (no ``reads``)."""


class Population(Protocol):
    """The model's side of the particle filter (engine.samplers.particle).

    Class attributes ``populations`` (the population samplers it offers) and
    ``particle_options`` (the settings of ``particles``) are ChainModel's, so that every model
    answers them; a model claiming this role lists at least one population. ``particle_cost``
    is a particle's work per utterance relative to the unigram model's (1): a grid of filter
    runs (Table 1) starts its costliest tasks first.
    """

    populations: ClassVar[tuple]
    particle_options: ClassVar[tuple]
    particle_cost: ClassVar[float]

    def particles(self, **options):
        """A ``ParticlePopulation`` on this model's corpus with these ``particle_options``."""


class Parameters(Protocol):
    """A model with explicit parameters θ: EM, variational Bayes and the explicit samplers
    (Gao & Johnson §2). Their kernels reach θ through engine.kernels.interface's parameter
    group (parameter_size, draw_parameters, expected_counts, reestimate, …), which the state
    implements; a model offering any of them claims this role."""

    def with_prior(self, **prior):
        """This model with other prior hyperparameters (keywords as its ``options`` name them),
        its corpus shared: one cell of a grid over the prior (Gao & Johnson's (α, α′))."""


class Lesson(Protocol):
    """A model whose lesson page runs kernels of its own beyond the samplers' (the toy's exact
    posterior, the restaurants of the bigram model)."""

    def warm_lesson(self):
        """Run those kernels once on the tiny model (the warm-up calls it at start-up)."""


class Shards(Protocol):
    """A model whose corpus Peng & Gildea's parallel inexact sampler (engine.samplers.parallel,
    §4.2) splits into contiguous shards of units (a unit: a sentence pair), one per worker.
    Every worker holds the whole analysis and samples only its own shard's units."""

    def shard_weights(self):
        """int64[U]: each unit's work (a pair's forest nodes), to balance the shards."""

    def set_shard(self, state, lo, hi):
        """Let the samplers move only units lo … hi − 1 of ``state`` (TYPE's blocks too)."""

    def shard_values(self, state, lo, hi):
        """Units lo … hi − 1's analysis: a tuple of copied arrays, whole-corpus arrays
        concatenated shard after shard when merged."""

    def install(self, state, values, lo, hi):
        """Give units lo … hi − 1 of ``state`` their analysis from ``values`` (the whole
        corpus's), its counts refiled; return how many units changed."""


class ParticlePopulation(Protocol):
    """What the particle filter drives: N particles over the model's observations, in pooled
    arrays (``parts``) that only the population reads.

    Attributes
    ----------
    model : the registered model whose corpus it reads (its class's tiny instance warms the
        kernels)
    n_observations : the observations (utterances) read in order
    rejuvenation_moves : the MCMC moves its particles take ("token", "type"); when any, it is a
        ``RejuvenatingPopulation``
    """

    model: Any
    n_observations: int
    rejuvenation_moves: ClassVar[tuple]

    def length(self, u):
        """The size of observation u (its symbols)."""

    def draws(self, u):
        """How many uniforms one particle uses on observation u: they come from the filter's
        Generator, so a run is the same whatever the number of threads."""

    def warm(self):
        """Run any kernel a filter on a tiny corpus would not reach."""

    def new(self, n, keep_segmentations=False):
        """n empty particles; ``keep_segmentations``: each keeps its analysis of what it reads."""

    def make_room(self, parts, u):
        """The particles, grown if observation u might not fit."""

    def buffers(self):
        """Work arrays for one thread of ``propagate`` and ``segment``."""

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        """Particles lo … hi − 1 each draw an analysis of observation u from Q (its most
        probable when ``greedy``) and add it: log_inc their eq. 10 factors, log_qo Q's
        normalisers, bounds their analyses. Mutates parts and the three outputs."""

    def copy(self, parts, sources, targets, read):
        """Particle targets[i] becomes a copy of sources[i] (``read`` observations read)."""

    def log_joint(self, parts):
        """log P of each particle's state (its analyses and seating): float64[N]."""

    def segment(self, parts, l, rng, buffers):
        """Particle l frozen, every observation analysed by a draw from Q."""

    def evaluate(self, parts, l, rng, buffers):
        """The measures of particle l's frozen analysis (Börschinger & Johnson §6.1)."""

    def lexicon(self, parts, l, top=10):
        """Particle l's ``top`` words by tokens: [(word, tokens, tables)] (the pages' cards)."""


class RejuvenatingPopulation(ParticlePopulation, Protocol):
    """A population whose particles take MCMC moves on what they have read (Börschinger &
    Johnson 2012); a batch chain (engine.experiments.online_vs_batch) is one such particle."""

    def move_buffers(self):
        """Work arrays of one thread's moves."""

    def rejuvenate(self, parts, read, lo, hi, rng, moves, kind, work, tally):
        """``moves`` moves of ``kind`` in each of particles lo … hi − 1, over the sites of the
        ``read`` observations read; tally counts proposals and acceptances. Mutates parts."""

    def seat(self, parts, l, bound, rng):
        """Particle l (empty, keeping its analysis) reads every observation with the analysis
        ``bound``, its seats drawn from their exact conditional; the particles (grown)."""


MODEL_ROLES = (ChainModel, Presentation, CorpusModel, Population, Parameters, Lesson, Shards)
EVERY_MODEL = (ChainModel, Presentation)  # the roles every registered model claims


class ModelBase:
    """The defaults of the members a model may leave out; a model class subclasses it."""

    aliases = ()
    init_options = ()
    kernel_modules = ()
    populations = ()  # a model claiming Population lists its population samplers
    particle_options = ()
    particle_cost = 1.0
    notes = ()  # what reading the corpus left out, for the user: nothing until build says
    outputs = ()  # the model's own files ``run`` can write (Output), beyond the analysis

    def formulas(self):
        """No equations shown."""
        return ()

    loglik_label = "log p(x, z)"  # Liang et al.'s: the observations x and their analysis z

    def site_place(self, s):
        """Every site a unit of its own (a model of sentences says where in one it is)."""
        return int(s), 0

    def clone_state(self, state):
        """A copy of every array of the state (a model whose state holds the corpus's
        read-only arrays shares them: ``clone(state, shared=…)``)."""
        return clone(state)

    def scalars(self, state):
        """No scalars beyond the log-probability."""
        return {}

    def rebuilt_state(self, state):
        """The state of this state's values, built from scratch (a model whose choices carry
        more than its values, e.g. seats, writes its own)."""
        return self.state_from_values(self.values(state))


# --- checking a class or an object against a role -------------------------------------------------
def members(role):
    """{name: (kind, declared function or None)} of every member ``role`` declares (its base
    roles' too); kind is "class attribute", "attribute", "method" or "class method"."""
    out = {}
    for klass in reversed(role.__mro__[:role.__mro__.index(Protocol)]):
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            out[name] = ("class attribute" if get_origin(annotation) is ClassVar else "attribute",
                         None)
        for name, value in vars(klass).items():
            if isinstance(value, classmethod):
                out[name] = ("class method", value.__func__)
            elif inspect.isfunction(value) and not name.startswith("_"):
                out[name] = ("method", value)
    return out


def kind_of(found):
    """What a member found on a class is: "class method", "static method", "method" or
    "attribute"."""
    if isinstance(found, classmethod):
        return "class method"
    if isinstance(found, staticmethod):
        return "static method"
    if inspect.isfunction(found):
        return "method"
    return "attribute"


def parameter_names(function, bound):
    """(the parameter names ``function`` takes by keyword, whether it takes any keyword);
    ``bound``: its first parameter is self or cls."""
    parameters = list(inspect.signature(function).parameters.values())[1 if bound else 0:]
    named = [p.name for p in parameters
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return named, any(p.kind is p.VAR_KEYWORD for p in parameters)


def not_taken(found, names):
    """The names among ``names`` that the method found on a class (a function, class method or
    static method) does not take as keywords."""
    function = getattr(found, "__func__", found)
    taken, any_keyword = parameter_names(function, not isinstance(found, staticmethod))
    return [] if any_keyword else [name for name in names if name not in taken]


def member_problem(target, name, kind, declared):
    """What is wrong with member ``name`` of ``target`` (a class or an object) for a role that
    declares it of ``kind``: "" when nothing, "lacking" when absent, else a phrase."""
    # an instance attribute is looked for on the object; everything else on its class
    where = target if kind == "attribute" else _class(target)
    found = inspect.getattr_static(where, name, _ABSENT)
    if found is _ABSENT:
        return "lacking"
    found_kind = kind_of(found)
    # a static method answers a call on the class and on an instance alike
    if kind == "class method" and found_kind not in ("class method", "static method"):
        return f"its {name} is {_article(found_kind)}, not a class method"
    if kind == "method" and found_kind == "attribute":
        return f"its {name} is an attribute, not a method"
    if kind in ("class attribute", "attribute") and found_kind != "attribute":
        return f"its {name} is {_article(found_kind)}, not {_article(kind)}"
    if declared is not None:
        absent = not_taken(found, parameter_names(declared, True)[0])
        if absent:
            return f"its {name}() does not take {', '.join(absent)}"
    return ""


def shortfall(target, role):
    """How ``target`` (a model class, or an object) falls short of ``role``: a phrase such as
    "lacks particles, particle_options", or "" when it has every member as the role declares it.
    A class is checked for what a class holds (not the attributes its instances set)."""
    lacking, wrong = [], []
    for name, (kind, declared) in members(role).items():
        if kind == "attribute" and isinstance(target, type):
            continue
        problem = member_problem(target, name, kind, declared)
        if problem == "lacking":
            lacking.append(name)
        elif problem:
            wrong.append(problem)
    return "; ".join(([f"lacks {', '.join(lacking)}"] if lacking else []) + wrong)


_ABSENT = object()


def _class(target):
    return target if isinstance(target, type) else type(target)


def _article(kind):
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
