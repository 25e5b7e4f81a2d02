"""What reading the corpus once costs, and what rejuvenation buys: the particle filter against
batch samplers of the same model (Börschinger & Johnson 2011 §6.2 compare with Pearl et al.'s
batch MCMC; rejuvenation: Börschinger & Johnson 2012).

A batch chain here is one particle of the filter's model holding the whole corpus: every
utterance seated from a segmentation whose boundaries are drawn with probability η (Liang et
al. §5.2), then TOKEN or TYPE moves (the population's ``rejuvenate``) on every site — Gibbs
sampling of exactly the model the particles approximate, so the log-probabilities compare.
``compare`` runs the whole experiment; ``python -m engine online-vs-batch`` runs it from the
command line (engine.cli.online_vs_batch), the Particle filter page from its tab.
"""
import time
from typing import NamedTuple

import numpy as np
import pandas as pd

from engine.core.rng import make_rng
from engine.samplers.particle import ParticleFilter, Rejuvenation

# rejuvenation moves per particle and utterance of each kind of move: a TYPE move costs about
# five TOKEN moves, so the two rejuvenated filters take comparable time
MOVES = {"token": 10, "type": 2}
PARTICLES = 100  # each learner's particles by default: five learners run one after another
BUDGET = 2  # each batch chain runs for this many times the slowest filter's engine seconds


class Comparison(NamedTuple):
    """The experiment's result.

    points : one row per online learner (the filter, then the filter with each kind of
        rejuvenation move): learner, particles, seconds (engine time of its one pass),
        log_prob and token_f (§6.1's scores of its final particles)
    lines : {"batch TOKEN": trace, …}, each batch chain's trace (``batch_chain``) as a frame
    """

    points: pd.DataFrame
    lines: dict


def learners(population):
    """(name, Rejuvenation or None) of the online learners: the plain filter, then one with each
    kind of move the population's particles take."""
    return [("filter", None)] + [(f"filter + {kind.upper()} ×{MOVES[kind]}",
                                  Rejuvenation(MOVES[kind], kind))
                                 for kind in population.rejuvenation_moves]


def compare(population, particles, seed, threshold="N/2", resampling="multinomial"):
    """Every online learner with ``particles`` particles (one pass over the corpus, then §6.1's
    scores), and a batch chain of each kind of move for ``BUDGET`` times the slowest learner's
    engine time, all from ``seed``. A population whose particles take no moves is refused."""
    if not population.rejuvenation_moves:
        raise ValueError("this model's particles take no moves: the comparison needs batch "
                         "chains of them")
    points = []
    for name, rejuvenation in learners(population):
        online = ParticleFilter(population, particles, seed, threshold=threshold,
                                resampling=resampling, rejuvenation=rejuvenation)
        online.run()
        scores = online.evaluate()
        points.append({"learner": name, "particles": particles, "seconds": online.seconds,
                       "log_prob": scores["log_prob"], "token_f": scores["token_f"]})
    budget = BUDGET * max(point["seconds"] for point in points)
    lines = {f"batch {kind.upper()}": pd.DataFrame(batch_chain(population, kind, budget, seed))
             for kind in population.rejuvenation_moves}
    return Comparison(pd.DataFrame(points), lines)


def batch_chain(population, kind, seconds, seed, eta=0.5, rows=20):
    """A batch TOKEN or TYPE chain for ``seconds`` of engine time (at least one step); its trace
    as dicts (seconds, moves, log_prob and the measures), about ``rows`` of them."""
    model = population.model
    rng = make_rng(seed)
    parts = population.new(1, keep_segmentations=True)
    bound = model.final.copy()
    bound[model.site_pos] = rng.random(model.n_sites) < eta
    # wall time, as the particle filter's engine time (engine.samplers.particle)
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
