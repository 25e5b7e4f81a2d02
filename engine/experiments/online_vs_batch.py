"""What reading the corpus once costs: the particle filter against batch samplers of the same
model (Börschinger & Johnson 2011 §6.2 compare with Pearl et al.'s batch MCMC).

A batch chain here is one particle of the filter's unigram model holding the whole corpus: every
utterance seated from a segmentation whose boundaries are drawn with probability η (Liang et
al. §5.2), then TOKEN or TYPE moves (engine.models.usm.rejuvenation) on every site — Gibbs
sampling of exactly the model the particles approximate, so the log-probabilities compare.
"""
import time

import numpy as np

from engine.core.rng import make_rng


def batch_chain(population, kind, seconds, seed, eta=0.5, rows=20):
    """A batch TOKEN or TYPE chain for ``seconds`` of engine time (at least one step); its trace
    as dicts (seconds, moves, log_prob and the measures), about ``rows`` of them."""
    model = population.model
    rng = make_rng(seed)
    parts = population.new(1, keep_segmentations=True)
    bound = model.final.copy()
    bound[model.site_pos] = rng.random(model.n_sites) < eta
    started = time.perf_counter()
    parts = population.seat(parts, 0, bound, rng)
    spent = time.perf_counter() - started
    trace = [_row(population, parts, spent, 0)]
    work, tally = population.move_buffers(), np.zeros(4, np.int64)
    moves_per_step = max(1, model.n_sites // 10)
    moves = 0
    while spent < seconds:
        started = time.perf_counter()
        population.rejuvenate(parts, population.n_observations, 0, 1, rng, moves_per_step, kind,
                              work, tally)
        spent += time.perf_counter() - started
        moves += moves_per_step
        if spent >= len(trace) * seconds / rows or spent >= seconds:
            trace.append(_row(population, parts, spent, moves))
    return trace


def _row(population, parts, seconds, moves):
    return {"seconds": seconds, "moves": moves, "log_prob": float(population.log_joint(parts)[0]),
            **population.model.measures_of(parts.bound[0])}
