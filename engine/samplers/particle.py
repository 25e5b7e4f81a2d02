"""The particle filter: an online, weighted population (Börschinger & Johnson 2011, Fig. 2).

N particles start as N empty model states with weights 1/N. Each *move* reads the next
observation (an utterance): every particle draws an analysis of it from the model's proposal Q
and adds it (the model's ``population`` does both and returns eq. 10's factor), the weights are
multiplied by those factors and normalised (eq. 11), the effective sample size is 1/Σw² (eq. 12),
and when it falls to the threshold or below the population is resampled and the weights reset
to 1/N. The product over observations of the mean unnormalised weight is Ẑ, an unbiased
estimate of the probability of the observations read so far (kept in log space).

DPS is this filter with one particle; DPM (``greedy``) takes each observation's most probable
analysis under Q instead of drawing it.

The model side is the population its ``particles()`` gives (the Population role): an object with
the members of engine.models.protocol.ParticlePopulation, and of RejuvenatingPopulation when its
particles take rejuvenation moves (engine.models.segmentation.populations has two).
"""
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from engine.core.resampling import SCHEMES, ancestry, effective_sample_size, offspring
from engine.core.rng import make_rng

THRESHOLDS = {"N": 1.0, "N/2": 0.5}
EVALUATION, REJUVENATION = 6, 7  # mixed into the seeds of §6.1's draws and of the moves'
MOVE_BLOCKS = 16  # the particles' split for the moves' Generators (fixed: runs do not depend on
# the number of threads)
MIN_CHUNK = 32  # particles per thread below which threads cost more than they give
_THREADS = []  # the process's one pool of threads, shared by every filter (shared_threads)


def shared_threads():
    """The thread pool every filter of this process runs its particles on (one thread per core;
    the kernels release the GIL). Shared, so filters come and go without leaving threads."""
    if not _THREADS:
        _THREADS.append(ThreadPoolExecutor(os.cpu_count() or 1))
    return _THREADS[0]


@cache
def warm(model_class):
    """Load (or compile) a model's particle-filter kernels once per process, on its tiny
    instance, so that a filter's first utterance does not count the loading as engine time."""
    population = model_class.tiny().particles()
    population.warm()
    moves = [Rejuvenation(2, kind) for kind in population.rejuvenation_moves]
    for greedy, rejuvenation in [(False, None), (True, None), *((False, r) for r in moves)]:
        particle_filter = ParticleFilter(population, 2, 0, threshold="N", greedy=greedy,
                                         rejuvenation=rejuvenation, threads=1,
                                         warm_kernels=False)
        particle_filter.run()
        particle_filter.evaluate()


def threshold_fraction(text):
    """The resampling threshold as a fraction of N: "N", "N/2", or a number in (0, 1]."""
    if text in THRESHOLDS:
        return THRESHOLDS[text]
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"the threshold is N, N/2 or a fraction of N in (0, 1], not {text!r}") \
            from None
    if not 0.0 < value <= 1.0:
        raise ValueError(f"the threshold as a fraction of N must be in (0, 1], not {value:g}")
    return value


@dataclass(frozen=True)
class Rejuvenation:
    """Börschinger & Johnson (2012): after every ``every``-th observation, ``moves`` MCMC moves
    in each particle on what it has read — "token" (one site) or "type" (a type block)."""

    moves: int
    kind: str = "token"
    every: int = 1

    def __post_init__(self):
        if self.moves < 1 or self.every < 1:
            raise ValueError(f"rejuvenation needs at least one move every observation or more "
                             f"(got {self.moves} every {self.every})")


@dataclass(frozen=True)
class FilterInfo:
    """What one move (one observation read) did.

    utterance : observations read so far (1 after the first)
    ess : the effective sample size before resampling (eq. 12)
    resampled : whether the population was resampled
    log_z : log Ẑ of the observations read so far
    distinct_particles : how many particles have descendants after this move (N when it did
        not resample)
    log_weights : float64[N], the normalised log-weights after the move
    ancestors : int64[N], the particle each particle now descends from (itself if no resampling)
    bounds : uint8[N, n], each particle's analysis of the observation (1 where a word ends),
        indexed as before resampling
    acceptance : the rejuvenation moves' acceptance rate after this observation (NaN: none)
    """

    utterance: int
    ess: float
    resampled: bool
    log_z: float
    distinct_particles: int
    log_weights: np.ndarray
    ancestors: np.ndarray
    bounds: np.ndarray
    acceptance: float = float("nan")


def check_rejuvenation(population, rejuvenation):
    """A ValueError saying what to change when the population's particles cannot take the
    rejuvenation's moves: none at all (leave rejuvenation out), or not of its kind."""
    moves = population.rejuvenation_moves
    model = type(population.model).name
    if not moves:
        raise ValueError(f"the {model} model's particles take no rejuvenation moves: leave "
                         "out --rejuvenate")
    if rejuvenation.kind not in moves:
        raise ValueError(f"the {model} model's particles take no {rejuvenation.kind} moves: "
                         f"choose --rejuvenation-sampler {' or '.join(moves)}")


class ParticleFilter:
    """One particle filter over a model's observations, advanced one observation at a time.

    population : the model's population (see the module's doc)
    n_particles : N ≥ 1
    seed : the Generator's seed; the same seed and settings give the same run
    threshold : "N", "N/2" or a fraction of N: resample when ESS ≤ that
    resampling : "multinomial" (their §5) or "systematic"
    greedy : DPM (each observation's most probable analysis under Q; use with N = 1)
    record_history : keep every move's analyses and ancestors (``segmentations``, genealogy)
    rejuvenation : a Rejuvenation, or None
    threads : into how many parts the particles split for the shared threads (default: the
        machine's cores)
    warm_kernels : load the kernels first, so the first move's time is the move's
    """

    def __init__(self, population, n_particles, seed, threshold="N/2", resampling="multinomial",
                 greedy=False, record_history=False, rejuvenation=None, threads=None,
                 warm_kernels=True):
        if n_particles < 1:
            raise ValueError(f"a particle filter needs at least one particle, not {n_particles}")
        if resampling not in SCHEMES:
            raise ValueError(f"resampling is {' or '.join(SCHEMES)}, not {resampling!r}")
        if rejuvenation is not None:
            check_rejuvenation(population, rejuvenation)
        if warm_kernels:
            warm(type(population.model))
        self.population = population
        self.n = int(n_particles)
        self.seed = int(seed)
        self.threshold = threshold_fraction(threshold) * self.n
        self.resampling = resampling
        self.greedy = greedy
        self.rejuvenation = rejuvenation
        self.rng = make_rng(self.seed)
        self.parts = population.new(self.n, keep_segmentations=rejuvenation is not None)
        self.log_w = np.full(self.n, -math.log(self.n))
        self.log_w_read = self.log_w.copy()  # the last observation's weights, before resampling
        self.log_z = 0.0
        self.read = 0  # observations read
        # engine time, on the wall clock (a Run's is its thread's processor time: engine.run):
        # the particles propagate in threads, whose processor time one thread's clock misses
        self.seconds = 0.0
        self.trace = []
        self.history = [] if record_history else None
        self._log_inc = np.empty(self.n)
        self._log_qo = np.empty(self.n)
        chunks = max(1, min(threads or os.cpu_count() or 1, self.n // MIN_CHUNK))
        edges = np.linspace(0, self.n, chunks + 1).astype(int)
        self._chunks = list(zip(edges[:-1], edges[1:]))
        self._buffers = [population.buffers() for _ in self._chunks]
        self._pool = shared_threads() if len(self._chunks) > 1 else None
        if rejuvenation is not None:
            edges = np.linspace(0, self.n, min(MOVE_BLOCKS, self.n) + 1).astype(int)
            self._move_blocks = list(zip(edges[:-1], edges[1:]))
            self._move_rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(
                (self.seed, REJUVENATION)).spawn(len(self._move_blocks))]
            self._move_work = [population.move_buffers() for _ in self._move_blocks]

    @property
    def finished(self):
        return self.read >= self.population.n_observations

    @property
    def weights(self):
        return np.exp(self.log_w)

    def step(self):
        """Read the next observation; return its FilterInfo (None when every one is read)."""
        if self.finished:
            return None
        t0 = time.perf_counter()
        u = self.read
        n = self.population.length(u)
        self.parts = self.population.make_room(self.parts, u)
        uniforms = self.rng.random((self.n, self.population.draws(u)))
        bounds = np.empty((self.n, n), np.uint8)
        self._each_chunk(lambda lo, hi, buffers: self.population.propagate(
            self.parts, u, lo, hi, uniforms, self.greedy, buffers, self._log_inc, self._log_qo,
            bounds))
        info = self._reweigh(bounds)
        if self.rejuvenation is not None and self.read % self.rejuvenation.every == 0:
            info = replace(info, acceptance=self._rejuvenate())
        self.seconds += time.perf_counter() - t0
        self.trace.append({"utterance": info.utterance, "seconds": self.seconds,
                           "ess": info.ess, "resampled": int(info.resampled),
                           "log_z": info.log_z, "distinct_particles": info.distinct_particles,
                           **({} if self.rejuvenation is None else
                              {"acceptance": info.acceptance})})
        if self.history is not None:
            self.history.append((bounds, info.ancestors))
        return info

    def run(self, observations=None):
        """Read ``observations`` more observations (all that are left when None); return the
        last FilterInfo."""
        info = None
        left = self.population.n_observations - self.read
        for _ in range(left if observations is None else min(observations, left)):
            info = self.step()
        return info

    # --- the pages' playback protocol (ui/playback.py): a step is an observation ------------
    @property
    def total_sweeps(self):
        return self.population.n_observations

    def sweep(self, steps=1):
        """Read ``steps`` more observations."""
        self.run(steps)

    def tick(self, clock, steps, budget):
        """One play tick: ``steps`` observations, or fewer when ``budget`` seconds of wall time
        run out (clock "time": observations until the budget is spent)."""
        start = time.perf_counter()
        done = 0
        while not self.finished and (clock == "time" or done < steps):
            self.step()
            done += 1
            if time.perf_counter() - start >= budget:
                break

    def _rejuvenate(self):
        """The moves in every particle (a block of particles per task, each block its own
        Generator); return their acceptance rate."""
        tallies = np.zeros((len(self._move_blocks), 4), np.int64)
        moves, kind = self.rejuvenation.moves, self.rejuvenation.kind

        def work(i):
            lo, hi = self._move_blocks[i]
            self.population.rejuvenate(self.parts, self.read, lo, hi, self._move_rngs[i], moves,
                                       kind, self._move_work[i], tallies[i])

        if self._pool is None:
            for i in range(len(self._move_blocks)):
                work(i)
        else:
            list(self._pool.map(work, range(len(self._move_blocks))))
        proposed, accepted = tallies[:, 0].sum(), tallies[:, 1].sum()
        return accepted / proposed if proposed else float("nan")

    def _each_chunk(self, work):
        if self._pool is None:
            work(*self._chunks[0], self._buffers[0])
            return
        futures = [self._pool.submit(work, lo, hi, buffers)
                   for (lo, hi), buffers in zip(self._chunks, self._buffers)]
        for future in futures:
            future.result()

    def _reweigh(self, bounds):
        """Eqs. 10–12 and resampling, after every particle has read the observation."""
        log_w = self.log_w + self._log_inc
        top = log_w.max()
        log_mean = top + math.log(np.exp(log_w - top).sum())  # log Σ W_l w*_l, W normalised
        self.log_z += log_mean
        self.log_w = log_w - log_mean
        self.log_w_read = self.log_w.copy()
        ess = effective_sample_size(np.exp(self.log_w))
        self.read += 1
        ancestors = np.arange(self.n)
        resampled = ess <= self.threshold * (1 + 1e-12)
        distinct = self.n
        if resampled:
            counts = offspring(self.rng, np.exp(self.log_w), self.resampling)
            ancestors, sources, targets = ancestry(counts)
            self.population.copy(self.parts, sources, targets, self.read)
            self.log_w[:] = -math.log(self.n)
            distinct = int(np.count_nonzero(counts))
        return FilterInfo(self.read, ess, bool(resampled), self.log_z, distinct,
                          self.log_w.copy(), ancestors, bounds)

    # --- after the pass ------------------------------------------------------------------------
    def segmentations(self):
        """Each particle's analyses of every observation read (uint8[N, symbols read]), traced
        back through the resamplings; needs ``record_history``."""
        if self.history is None:
            raise ValueError("the filter kept no history: build it with record_history=True")
        lineage = np.arange(self.n)
        pieces = []
        for bounds, ancestors in reversed(self.history):
            lineage = ancestors[lineage]
            pieces.append(bounds[lineage])
        return np.concatenate(pieces[::-1], axis=1) if pieces else np.zeros((self.n, 0), np.uint8)

    def log_joints(self):
        """log P of each particle's state (its analyses and seating), from its counts."""
        return self.population.log_joint(self.parts)

    def _evaluation_rngs(self):
        """One Generator per particle for §6.1's draws: independent of the filter's and of the
        number of threads."""
        return [np.random.default_rng(seed)
                for seed in np.random.SeedSequence((self.seed, EVALUATION)).spawn(self.n)]

    def analysis(self):
        """The heaviest particle's §6.1 analysis (the one ``evaluate`` scored): uint8[T]."""
        l = int(np.argmax(self.log_w))
        return self.population.segment(self.parts, l, self._evaluation_rngs()[l],
                                       self._buffers[0]).copy()

    def evaluate(self):
        """Börschinger & Johnson's §6.1: each particle frozen, every observation analysed by a
        draw from Q, scored against the gold; the scores' weighted mean, and the weighted mean
        log-probability of the final states (Table 1's last column)."""
        t0 = time.perf_counter()
        weights = self.weights
        rngs = self._evaluation_rngs()
        scores = [None] * self.n

        def work(lo, hi, buffers):
            for l in range(lo, hi):
                scores[l] = self.population.evaluate(self.parts, l, rngs[l], buffers)

        self._each_chunk(work)
        result = {key: float(sum(w * s[key] for w, s in zip(weights, scores)))
                  for key in scores[0]}
        result["log_prob"] = float(weights @ self.log_joints())
        result["evaluation_seconds"] = time.perf_counter() - t0
        return result
