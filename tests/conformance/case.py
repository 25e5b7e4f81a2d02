"""What a model's conformance case gives the suite (one ``CASE`` in its module under
tests/conformance/cases/, beside the model's exact oracle)."""
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Case:
    """Everything the conformance suite needs to test every sampler a model offers.

    model : the registered model class
    tiny : a model small enough to enumerate every analysis (a few dozen to a few hundred)
    exact_p(power) : the exact posterior over those analyses, raised to ``power`` and
        normalised, computed INDEPENDENTLY of the engine (scipy and plain dictionaries from the
        model's definition, in the case's module), so a bug shared by the kernels cannot hide
    analyses() : every analysis of the tiny model as ``model.values`` writes it, row i being
        the analysis whose probability is ``exact_p()[i]``
    row(values) : the row of one analysis (``model.values(state)``) in ``exact_p``
    large : a bigger model (more sites, types and sentences) for the invariant tests, which
        need no enumeration
    value_offset : ``model.values`` minus the interface's site value (get_value): 0 when the
        model writes site values, 1 for the HMM (states 1 … K for site values 0 … K − 1)
    init : keyword arguments of ``model.new_state`` for a random start
    draws, thin : how many states the exact tests count, and how many sweeps apart; ``thin``
        is chosen so that the thinned chain's autocorrelation time is about 1 for the
        posterior's largest cells (measured: the HMM's label-switching pairs need 8 sweeps)
    burn_in : sweeps before the first state counted
    reseats : whether the model's choices carry seats that its moves draw afresh (the
        interface's ``reseats``), so that re-adding an analysis need not restore its probability
    particles : for a model claiming the Population role, (a tiny model's population
        (``model.particles``), its exact (log p(texts), posterior over analyses)) recomputed
        independently of the engine (test_populations.py)
    log_marginal(model, values) : the model's own log-probability of an analysis, which the
        exact posterior must equal up to a constant: ``loglik`` by default; for a model whose
        analyses carry seats, its exact sum over them
    site_values(model, values) : (the sites whose value ``model.values`` writes, those values):
        every site's, in site order, by default; a model of forests writes a site only while
        its node is on the tree (−1 off it), and each node's edge after the sites
    """

    model: type
    tiny: Callable[[], object]
    exact_p: Callable[[float], np.ndarray]
    analyses: Callable[[], np.ndarray]
    row: Callable[[np.ndarray], int]
    large: Callable[[], object]
    value_offset: int = 0
    init: dict = field(default_factory=lambda: {"eta": 0.5})
    draws: int = 8_000
    thin: int = 4
    burn_in: int = 50
    reseats: bool = False
    particles: tuple = None
    log_marginal: Callable = lambda model, values: model.loglik(model.state_from_values(values))
    site_values: Callable = lambda model, values: (np.arange(model.n_sites), values)
