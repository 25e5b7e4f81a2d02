"""The particle filter against exact enumeration (tests/statistical/exact.py recomputes the
learned-lexicon unigram model on its own, summing over every segmentation and seating).

- Ẑ is unbiased: the mean of exp(log Ẑ) over many independent filters equals p(texts);
- the weighted particles approach the batch posterior over segmentations as N grows;
- both fail for a filter whose weights leave out Q's normaliser Q(o | s) (a planted bug).
"""
import numpy as np
import pytest

from engine.models.usm import UsmModel
from engine.models.usm_particles import UsmParticles
from engine.samplers.particle import ParticleFilter
from tests.statistical.exact import learned_usm_exact, z_index

TEXTS = ("ab", "ba", "ab", "a")  # 3 sites: 8 segmentations
ALPHA, RHO, PHI = 1.0, 2.0, 0.5  # small α and φ: a peaked posterior that learning moves
RUNS = 4000


class WithoutNormaliser(UsmParticles):
    """A planted bug: eq. 10's factor without Q(o | s)."""

    def propagate(self, parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds):
        super().propagate(parts, u, lo, hi, uniforms, greedy, buffers, log_inc, log_qo, bounds)
        log_inc[lo:hi] -= log_qo[lo:hi]


@pytest.fixture(scope="module")
def exact():
    return learned_usm_exact(TEXTS, ALPHA, RHO, PHI)


def z_hats(population, n_particles, runs=RUNS):
    return np.array([ParticleFilter(population, n_particles, seed=seed).run().log_z
                     for seed in range(runs)])


def z_scores(log_z_hats, log_z):
    """How many standard errors the mean of Ẑ / p(texts) is from 1."""
    ratio = np.exp(log_z_hats - log_z)
    return (ratio.mean() - 1.0) / (ratio.std(ddof=1) / np.sqrt(len(ratio)))


@pytest.mark.parametrize("n_particles", [1, 2, 5])
def test_z_hat_is_unbiased(exact, n_particles):
    log_z, _ = exact
    population = UsmParticles(UsmModel(TEXTS), ALPHA, RHO, PHI)
    assert abs(z_scores(z_hats(population, n_particles), log_z)) < 4.0


def test_z_hat_without_the_normaliser_is_caught(exact):
    log_z, _ = exact
    population = WithoutNormaliser(UsmModel(TEXTS), ALPHA, RHO, PHI)
    assert abs(z_scores(z_hats(population, 2, runs=1000), log_z)) > 10.0


def weighted_posterior(population, n_particles, seed, size):
    """The filter's weighted distribution over the final segmentations (indexed as z_index)."""
    f = ParticleFilter(population, n_particles, seed=seed, record_history=True)
    f.run()
    values = f.segmentations()[:, population.model.site_pos]
    p = np.zeros(size)
    np.add.at(p, [z_index(v) for v in values], f.weights)
    return p


def total_variation(p, q):
    return 0.5 * np.abs(p - q).sum()


def tv_by_n(population, posterior, sizes=(1, 10, 100, 1000), runs=3):
    """Mean total variation to the exact posterior over ``runs`` filters of each size."""
    return [np.mean([total_variation(weighted_posterior(population, n, 100 + r, len(posterior)),
                                     posterior) for r in range(runs)]) for n in sizes]


def test_particles_approach_the_batch_posterior(exact):
    _, posterior = exact
    tv = tv_by_n(UsmParticles(UsmModel(TEXTS), ALPHA, RHO, PHI), posterior)
    assert all(a > b for a, b in zip(tv, tv[1:])), tv
    assert tv[-1] < 0.05, tv


def test_particles_without_the_normaliser_do_not(exact):
    _, posterior = exact
    tv = tv_by_n(WithoutNormaliser(UsmModel(TEXTS), ALPHA, RHO, PHI), posterior, sizes=(1000,))
    assert tv[0] > 0.1, tv
