"""The toy's conformance case: n = 6 copies of `ab`, 2^6 analyses, and its exact posterior from
eq. 1 with scipy's gammaln (Liang et al. §2)."""
from functools import cache

import numpy as np
from scipy.special import gammaln

from engine.models.toy.model import ToyModel
from tests.conformance.case import Case
from tests.statistical.exact import binary_assignments, normalised, z_index

TOY_N = 6


def toy_log_g(n, m):
    """log g(m) = log 1^(m) 1^(m) 1^(n−m) / 3^(n+m), with a^(k) = Γ(a+k)/Γ(a) (eq. 1)."""
    m = np.asarray(m, dtype=float)
    return 2 * gammaln(1 + m) + gammaln(1 + n - m) - (gammaln(3 + n + m) - gammaln(3))


def toy_exact_p(n, power=1.0):
    """p(z | x)^power normalised over all 2^n assignments, indexed like ``z_index``."""
    return normalised(toy_log_g(n, binary_assignments(n).sum(axis=1)), power)


CASE = Case(
    ToyModel,
    tiny=lambda: ToyModel(TOY_N),
    exact_p=cache(lambda power=1.0: toy_exact_p(TOY_N, power)),
    analyses=lambda: binary_assignments(TOY_N),
    row=z_index,
    large=lambda: ToyModel(40),
    thin=2)
