"""Rejuvenation moves against exact enumeration (tests/conformance/cases/usm.py):

- the moves alone leave the posterior invariant: one particle that has read a tiny corpus,
  moved thousands of times, visits the segmentations as often as the exact posterior says
  (chi-square; thinned so that autocorrelation neither fakes nor hides a failure);
- with moves after every utterance, Ẑ stays unbiased and the weighted particles still approach
  the posterior as N grows.

(An earlier version of the TYPE move's acceptance ratio counted the binomial C(m, k) twice; the
chi-square here failed it with p ≈ 10⁻¹⁰.)
"""
import numpy as np
import pytest

from engine.models.usm.model import UsmModel
from engine.samplers.particle import ParticleFilter, Rejuvenation
from tests.conformance.cases.usm import learned_usm_exact
from tests.statistical.exact import chi_square_p, z_index

HYPER = dict(alpha=1.0, rho=2.0, phi=0.5)
CORPORA = [("ab", "ba", "ab", "a"), ("abab", "ab", "ba")]
DRAWS, THIN = 5000, 40


def population(texts, phi=HYPER["phi"]):
    return UsmModel(texts, alpha0=HYPER["alpha"], rho=HYPER["rho"]).particles(phi=phi)


def visits(texts, kind, seed=5):
    """How often one particle's segmentation is each one, every THIN moves."""
    pop = population(texts)
    f = ParticleFilter(pop, 1, seed=seed, rejuvenation=Rejuvenation(THIN, kind))
    f.run()
    counts = np.zeros(2 ** pop.model.n_sites)
    for _ in range(DRAWS):
        f._rejuvenate()
        counts[z_index(f.parts.bound[0, pop.model.site_pos])] += 1
    return counts


@pytest.mark.parametrize("texts", CORPORA)
@pytest.mark.parametrize("kind", ["token", "type"])
def test_moves_leave_the_posterior_invariant(texts, kind):
    _, posterior = learned_usm_exact(texts, **HYPER)
    assert chi_square_p(visits(texts, kind), posterior) > 1e-3


@pytest.mark.parametrize("kind", ["token", "type"])
def test_the_check_can_fail(kind):
    """The same draws against the posterior of a slightly different model (α = 1.5 instead of
    1: a total variation of 0.057 from the right one) fail: the test sees an error that small
    (the binomial counted twice was 0.015 in total variation and failed with p ≈ 10⁻¹⁰)."""
    _, other = learned_usm_exact(CORPORA[0], alpha=1.5, rho=2.0, phi=0.5)
    assert chi_square_p(visits(CORPORA[0], kind), other) < 1e-6


@pytest.mark.parametrize("kind", ["token", "type"])
def test_z_hat_stays_unbiased(kind):
    log_z, _ = learned_usm_exact(CORPORA[0], **HYPER)
    pop = population(CORPORA[0])
    for n_particles in (1, 2):
        ratio = np.exp([ParticleFilter(pop, n_particles, seed=seed,
                                       rejuvenation=Rejuvenation(3, kind)).run().log_z - log_z
                        for seed in range(3000)])
        assert abs(ratio.mean() - 1) < 4 * ratio.std(ddof=1) / np.sqrt(len(ratio))


@pytest.mark.parametrize("kind", ["token", "type"])
def test_particles_with_moves_approach_the_posterior(kind):
    _, posterior = learned_usm_exact(CORPORA[0], **HYPER)
    pop = population(CORPORA[0])
    tv = []
    for n_particles in (1, 100, 3000):
        p = np.zeros(len(posterior))
        f = ParticleFilter(pop, n_particles, seed=11, rejuvenation=Rejuvenation(3, kind))
        f.run()
        np.add.at(p, [z_index(v) for v in f.parts.bound[:, pop.model.site_pos]], f.weights)
        tv.append(0.5 * np.abs(p - posterior).sum())
    assert tv[0] > tv[1] > tv[2] and tv[2] < 0.05, tv
