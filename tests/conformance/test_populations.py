"""The conformance suite's population samplers: the particle filter of every model that offers
it, against exact enumeration (its case in tests/conformance/cases/, which recomputes the model
on its own, summing over every segmentation and every seating):

- its population has every member the particle filter calls (protocol.ParticlePopulation);
- Ẑ is unbiased: the mean of exp(log Ẑ) over many independent filters equals p(texts);
- the weighted particles approach the batch posterior over segmentations as N grows;
- both fail for a filter whose weights leave out Q's normaliser Q(o | s) (a planted bug).
"""
import numpy as np
import pytest

from engine.models import registry
from engine.models.protocol import ParticlePopulation, RejuvenatingPopulation, shortfall
from engine.samplers.particle import ParticleFilter
from tests.statistical.exact import z_index

RUNS = 4000


class WithoutNormaliser:
    """A planted bug: a population whose eq. 10 factor leaves out Q(o | s)."""

    def __init__(self, population):
        self.inner = population

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        self.inner.propagate(parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo,
                             bounds)
        log_inc[lo:hi] -= log_qo[lo:hi]


def test_the_population_has_what_the_filter_calls(population_model):
    population = registry.get(population_model).tiny().particles()
    roles = (ParticlePopulation, RejuvenatingPopulation) if population.rejuvenation_moves else (
        ParticlePopulation,)
    for role in roles:
        assert shortfall(population, role) == "", (
            f"the {population_model} model's population is no {role.__name__}: "
            f"it {shortfall(population, role)}")


def z_scores(population, n_particles, log_z, runs=RUNS):
    """How many standard errors the mean of Ẑ / p(texts) is from 1."""
    ratio = np.exp([ParticleFilter(population, n_particles, seed=seed).run().log_z - log_z
                    for seed in range(runs)])
    return (ratio.mean() - 1.0) / (ratio.std(ddof=1) / np.sqrt(len(ratio)))


@pytest.mark.parametrize("n_particles", [1, 2, 5])
def test_z_hat_is_unbiased(population_case, n_particles):
    population, (log_z, _) = population_case
    assert abs(z_scores(population, n_particles, log_z)) < 4.0


def test_z_hat_without_the_normaliser_is_caught(population_case):
    population, (log_z, _) = population_case
    assert abs(z_scores(WithoutNormaliser(population), 2, log_z, runs=1000)) > 10.0


def weighted_posterior(population, n_particles, seed, size):
    """The filter's weighted distribution over the final segmentations (indexed as z_index)."""
    f = ParticleFilter(population, n_particles, seed=seed, record_history=True)
    f.run()
    values = f.segmentations()[:, population.model.site_pos]
    p = np.zeros(size)
    np.add.at(p, [z_index(v) for v in values], f.weights)
    return p


def mean_tv(population, posterior, n_particles, runs=3):
    """Mean total variation to the exact posterior over ``runs`` filters."""
    return np.mean([0.5 * np.abs(weighted_posterior(population, n_particles, 100 + r,
                                                    len(posterior)) - posterior).sum()
                    for r in range(runs)])


def test_particles_approach_the_batch_posterior(population_case):
    population, (_, posterior) = population_case
    tv = [mean_tv(population, posterior, n) for n in (1, 10, 100, 1000)]
    assert all(a > b for a, b in zip(tv, tv[1:])), tv
    assert tv[-1] < 0.05, tv


def test_particles_without_the_normaliser_do_not(population_case):
    population, (_, posterior) = population_case
    right = mean_tv(population, posterior, 1000)
    wrong = mean_tv(WithoutNormaliser(population), posterior, 1000)
    assert wrong > max(0.05, 3 * right), (wrong, right)
