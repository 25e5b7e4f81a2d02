"""The samplers, registered by the names the pages and the command line use.

Each entry holds everything the rest of the lab needs to know about a sampler — its label in
the papers' words, its colour on every chart, a line of help, and how to build one — so a new
sampler is one ``register`` call and cannot crash a page that lists samplers.

Samplers are of two kinds. A *chain* (TOKEN, TYPE, …) is a Markov chain over one analysis of
the whole corpus that a Run drives sweep by sweep: TOKEN and TOKEN-anneal are one class with
different temperature schedules; TYPE and TYPE-greedy are one class with a flag; SENTENCE is
blocked Metropolis-Hastings. All are written once against the model interface
(engine.kernels.interface), so a new model brings no sampler code of its own. A *population*
(the particle filter) reads the observations once, in order, with N weighted particles
(engine.samplers.particle); a model offers it by claiming the Population role
(engine.models.protocol): listing it in ``populations`` and giving ``particles(**settings)``,
its side of the filter.
"""
from dataclasses import dataclass
from typing import Callable

from engine.kernels.interface import (EXPLICIT_SENTENCE_FUNCTIONS, EXPLICIT_TOKEN_FUNCTIONS,
                                      POINT_FUNCTIONS, SENTENCE_FUNCTIONS, TOKEN_FUNCTIONS,
                                      TYPE_FUNCTIONS)
from engine.kernels.moves import ONE_STAGE, ONE_STAGE_MH
from engine.samplers import schedule
from engine.samplers.explicit import ExplicitSampler
from engine.samplers.mixture import MixtureSampler
from engine.samplers.particle import ParticleFilter
from engine.samplers.point_estimate import PointEstimator
from engine.samplers.sentence import SentenceSampler
from engine.samplers.token import TokenSampler
from engine.samplers.type_based import TypeSampler

FALLBACK_COLOUR = "#7f7f7f"

# Okabe & Ito's palette ("Color Universal Design", 2008): eight colours that viewers with any
# common colour-vision deficiency still tell apart (its yellow is left out: faint on a
# projector's white)
VERMILLION, BLUE, ORANGE, GREEN = "#D55E00", "#0072B2", "#E69F00", "#009E73"
PURPLE, SKY_BLUE, BLACK = "#CC79A7", "#56B4E9", "#000000"
SOLID = (1, 0)  # Vega-Lite's strokeDash of a solid line
# Vega-Lite's named point shapes run out before the samplers do: these are SVG paths in its
# [-1, 1] square
STAR = ("M0,-1L0.29,-0.4L0.95,-0.31L0.47,0.15L0.59,0.81L0,0.5L-0.59,0.81L-0.47,0.15"
        "L-0.95,-0.31L-0.29,-0.4Z")
HEXAGON = "M0,-1L0.87,-0.5L0.87,0.5L0,1L-0.87,0.5L-0.87,-0.5Z"


@dataclass(frozen=True)
class Look:
    """How a sampler is told apart in presenter mode, where no two samplers may differ by hue
    alone: an Okabe–Ito colour, a line dash (Vega-Lite strokeDash: dash, gap, …) and a point
    shape. Every chain sampler has its own dash and shape; those a lesson shows together have
    their own colours too (the seven of word segmentation, Gao & Johnson's six), and only a
    race of all eleven HMM samplers has two share one."""

    colour: str = FALLBACK_COLOUR
    dash: tuple = SOLID
    shape: str = "circle"


@dataclass(frozen=True)
class SamplerEntry:
    """A registered sampler.

    A chain's build(total_sweeps, skip, anneal_start) -> Sampler makes a fresh one for one
    chain, and ``needs`` names the model-interface functions its kernels call
    (engine.kernels.interface). A population's build(particles, n_particles, seed, **settings)
    -> ParticleFilter, ``particles`` being the model's side of it (``model.particles()``).
    """

    name: str
    label: str
    colour: str
    help: str
    build: Callable
    needs: tuple
    needs_length: bool = False  # whether build needs the run's planned number of sweeps
    parts: tuple = ()  # a mixture's samplers, a sweep each in turn (engine/samplers/mixture.py)
    kind: str = "chain"  # or "population"
    look: Look = Look()  # presenter mode's colour, dash and point shape


SAMPLERS = {}


def register(entry):
    """Add a sampler to the registry (its name must be new)."""
    if entry.name in SAMPLERS:
        raise ValueError(f"a sampler named {entry.name!r} is registered already")
    SAMPLERS[entry.name] = entry
    return entry


register(SamplerEntry(
    "token", "TOKEN", "#d1495b",
    "resamples one site from its conditional given all others (eq. 4)",
    lambda total_sweeps, skip, anneal_start: TokenSampler(), TOKEN_FUNCTIONS,
    look=Look(VERMILLION, SOLID, "circle")))
register(SamplerEntry(
    "type", "TYPE", "#00798c",
    "takes every site of the pivot's type, draws how many get each value (eq. 7), then which "
    "ones uniformly at random (Fig. 4)",
    lambda total_sweeps, skip, anneal_start: TypeSampler(skip=skip), TYPE_FUNCTIONS,
    look=Look(BLUE, (10, 4), "square")))
register(SamplerEntry(
    "anneal", "TOKEN-anneal", "#edae49",
    "TOKEN at a temperature that falls from 10 to 1 over the first half of the run",
    lambda total_sweeps, skip, anneal_start: TokenSampler(
        schedule.anneal(total_sweeps, anneal_start)),
    TOKEN_FUNCTIONS, needs_length=True, look=Look(ORANGE, (2, 3), "triangle-up")))
register(SamplerEntry(
    "greedy", "TYPE-greedy", "#5b8e3e",
    "sets a whole type block to all-0 or all-1 (for K > 2: one of the slice's two values), "
    "whichever is more probable",
    lambda total_sweeps, skip, anneal_start: TypeSampler(skip=skip, greedy=True),
    TYPE_FUNCTIONS, look=Look(GREEN, (10, 3, 2, 3), "diamond")))
register(SamplerEntry(
    "type-anneal", "TYPE-anneal", "#f4a259",
    "TYPE with Peng & Gildea's annealing: the posterior raised to β, β from 0.1 up to 1.3 by "
    "0.1 every 3 sweeps, then back to 1 (from sweep 45 on)",
    lambda total_sweeps, skip, anneal_start: TypeSampler(skip=skip,
                                                         schedule=schedule.peng_gildea()),
    TYPE_FUNCTIONS, look=Look(SKY_BLUE, (8, 3, 2, 3), "stroke")))
register(SamplerEntry(
    "one-stage", "one-stage", "#9c6644",
    "Peng & Gildea's one-stage draw of a type block: its sites one after another, each from "
    "its conditional given those before it (eq. 12) — approximate: each step is normalised "
    "as if the later sites did not exist",
    lambda total_sweeps, skip, anneal_start: TypeSampler(skip=skip, stages=ONE_STAGE),
    TYPE_FUNCTIONS, look=Look(VERMILLION, (12, 6), STAR)))
register(SamplerEntry(
    "one-stage-mh", "one-stage + MH", "#3d5a80",
    "the one-stage draw as a proposal, accepted or rejected by Metropolis-Hastings against "
    "the block's exact weights (eq. 10): exact",
    lambda total_sweeps, skip, anneal_start: TypeSampler(skip=skip, stages=ONE_STAGE_MH),
    TYPE_FUNCTIONS, look=Look(BLUE, (3, 6), HEXAGON)))
register(SamplerEntry(
    "sentence", "SENTENCE", "#6a4c93",
    "proposes a whole sentence's analysis by dynamic programming with the other sentences' "
    "counts frozen, then accepts or rejects it (Metropolis-Hastings)",
    lambda total_sweeps, skip, anneal_start: SentenceSampler(), SENTENCE_FUNCTIONS,
    look=Look(PURPLE, (4, 4), "cross")))

# Gao & Johnson's other four estimators (TOKEN and SENTENCE are their collapsed pointwise and
# collapsed blocked samplers). Their colours are not shades of their twins' (a lighter red beside
# TOKEN's, EM's slate beside SENTENCE's purple were confused): the six drawn together differ
# for colour-blind viewers too (in simulated deuteranopia, protanopia and tritanopia)
register(SamplerEntry(
    "explicit-token", "explicit TOKEN", "#3a86ff",
    "draws the transition and emission probabilities from their posterior given the tags "
    "(eq. 5), then each tag given them and its neighbours (eq. 6): Gao & Johnson's GSe,p",
    lambda total_sweeps, skip, anneal_start: ExplicitSampler(blocked=False),
    EXPLICIT_TOKEN_FUNCTIONS, look=Look(ORANGE, (10, 3, 2, 3, 2, 3), "triangle-down")))
register(SamplerEntry(
    "explicit-sentence", "explicit SENTENCE", "#bcbd22",
    "draws the probabilities from their posterior (eq. 5), then each sentence's tags exactly "
    "given them by forward filtering, backward sampling: Gao & Johnson's GSe,b",
    lambda total_sweeps, skip, anneal_start: ExplicitSampler(blocked=True),
    EXPLICIT_SENTENCE_FUNCTIONS, look=Look(SKY_BLUE, (18, 5), "triangle-right")))
register(SamplerEntry(
    "em", "EM", "#000000",
    "Expectation-Maximisation (Baum-Welch): expected counts by forward-backward, then the "
    "probabilities that maximise the likelihood (eq. 2); an iteration per sweep",
    lambda total_sweeps, skip, anneal_start: PointEstimator(variational=False),
    POINT_FUNCTIONS, look=Look(BLACK, (1, 5), "triangle-left")))
register(SamplerEntry(
    "vb", "VB", "#17becf",
    "variational Bayes (mean field): forward-backward with exp ψ of the expected counts plus "
    "the prior (eq. 4); an iteration per sweep, its bound never falls",
    lambda total_sweeps, skip, anneal_start: PointEstimator(variational=True),
    POINT_FUNCTIONS, look=Look(GREEN, (4, 10), "wedge")))


register(SamplerEntry(
    "particle", "Particle filter", "#e07a5f",
    "reads the utterances once, in order: N weighted particles each draw an analysis from the "
    "model frozen at their state, and are resampled when the effective sample size falls "
    "(Börschinger & Johnson 2011)",
    ParticleFilter, (), kind="population", look=Look(ORANGE, SOLID, "circle")))


def register_mixture(parts, colour_, help_text, look=Look()):
    """Register the mixture of ``parts`` (registered samplers), named "a-b" (a name that
    travels in a link as it is) and labelled "A + B"; it needs what its parts need, and a model
    offers it when it offers every part. ``look``: presenter mode's (Look)."""
    entries = [entry(part) for part in parts]
    return register(SamplerEntry(
        "-".join(parts), " + ".join(e.label for e in entries), colour_, help_text,
        lambda total_sweeps, skip, anneal_start: MixtureSampler(
            [e.build(total_sweeps, skip, anneal_start) for e in entries]),
        tuple(dict.fromkeys(f for e in entries for f in e.needs)),
        needs_length=any(e.needs_length for e in entries), parts=tuple(parts), look=look))


def offered(basic):
    """The samplers a model with the moves ``basic`` offers: those, and every registered
    mixture of them."""
    return tuple(basic) + tuple(name for name, e in SAMPLERS.items()
                                if e.parts and set(e.parts) <= set(basic))


def names(kind="chain"):
    """Every registered sampler's name of this kind, in registration order."""
    return tuple(name for name, e in SAMPLERS.items() if e.kind == kind)


def make_filter(model, n_particles, seed, name="particle", particles=None, **settings):
    """A population sampler ``name`` on a model that offers it; ``particles``: keyword
    arguments of the model's ``particles`` (e.g. {"phi": 0.02}); settings: the filter's
    (threshold, resampling, greedy, …; engine.samplers.particle.ParticleFilter)."""
    chosen = entry(name)
    if chosen.kind != "population" or name not in model.populations:
        raise ValueError(f"the {model.name} model has no {chosen.label}")
    return chosen.build(model.particles(**(particles or {})), n_particles, seed, **settings)


def entry(name):
    """The registry entry of ``name``; an unknown name is refused with the choices listed."""
    try:
        return SAMPLERS[name]
    except KeyError:
        raise ValueError(f"unknown sampler {name!r}: choose one of {', '.join(SAMPLERS)}") from None


def label(name):
    """The papers' name of a sampler (TOKEN, TYPE, …); an unregistered name as it is."""
    return SAMPLERS[name].label if name in SAMPLERS else name


def colour(name):
    """A sampler's colour on every chart (grey for a name not registered)."""
    return SAMPLERS[name].colour if name in SAMPLERS else FALLBACK_COLOUR


def look(name):
    """A sampler's Look in presenter mode (grey, solid, circles for a name not registered)."""
    return SAMPLERS[name].look if name in SAMPLERS else Look()


def make_sampler(name, total_sweeps=None, skip=True, anneal_start=10.0):
    """A fresh sampler for one chain.

    total_sweeps is the run's planned length, or for a run whose length is engine time a
    function giving the share of it done (schedule.anneal); TOKEN-anneal needs it for its
    schedule (temperature ``anneal_start`` → 1 over the first half, then 1).
    """
    chosen = entry(name)
    if chosen.needs_length and not total_sweeps:
        raise ValueError(f"{chosen.label} needs the run's length (total sweeps) for its schedule")
    return chosen.build(total_sweeps, skip, anneal_start)


register_mixture(("type", "token"), "#8c564b",
                 "a TYPE sweep, then a TOKEN sweep, in turn: whole types move, then single sites",
                 Look(SKY_BLUE, (18, 4, 4, 4), "arrow"))
register_mixture(("type", "sentence"), "#d4609c",
                 "a TYPE sweep, then a SENTENCE sweep, in turn: whole types, then whole sentences",
                 Look(BLACK, (6, 2), "triangle"))
