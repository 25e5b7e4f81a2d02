"""SENTENCE: blocked Metropolis-Hastings, one whole sentence per move, sentences in corpus order
(Gao & Johnson 2008 §3; engine.kernels.sentence). Its figure is the acceptance rate."""
import numpy as np

from engine.kernels import moves, sentence
from engine.samplers.info import MoveInfo, SweepInfo
from engine.samplers.schedule import constant


class SentenceSampler:
    kind = "sentence"

    def __init__(self, schedule=None):
        self.schedule = schedule or constant(1.0)
        self.sweeps_done = 0
        self.position = 0  # next sentence of the current sweep
        self._accepted = 0  # in the current sweep
        self._last_acceptance = float("nan")
        self._bufs = None

    def temperature(self):
        return float(self.schedule(self.sweeps_done))

    def sweep_figures(self):
        """The trace's figures of the last finished sweep: its acceptance rate."""
        return {"acceptance": self._last_acceptance}

    def _buffers(self, state):
        if self._bufs is None:
            n = moves.count_sites(state)
            self._bufs = (np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64),
                          np.zeros(sentence.work_size(state)), np.zeros(2, np.int64))
        return self._bufs

    def _advance(self, state, rng, stop):
        old, new, work, totals = self._buffers(state)
        temperature = self.temperature()
        start = self.position
        sentence.sentence_sweep(rng, state, start, stop, 1.0 / temperature, old, new, work, totals)
        self._accepted += int(totals[0])
        self.position = stop
        n = sentence.count_sentences(state)
        done = self.position >= n
        if done:
            self._last_acceptance = self._accepted / n
            self.position, self._accepted = 0, 0
            self.sweeps_done += 1
        return start, temperature, done

    def step(self, state, rng):
        """One sentence's move; return its MoveInfo (drawn = 1 when accepted)."""
        u, temperature, done = self._advance(state, rng, self.position + 1)
        old, new, _, totals = self._bufs
        start, stop = sentence.sites_of(state, u)
        before = old[:stop - start].copy()
        after = new[:stop - start].copy() if totals[0] else before.copy()
        return MoveInfo("sentence", int(start), np.arange(start, stop), before, after,
                        np.zeros(0), int(totals[0]), 0, 1, temperature, done)

    def sweep(self, state, rng):
        """Every remaining sentence of the current sweep; return its SweepInfo."""
        sweep = self.sweeps_done
        start, temperature, _ = self._advance(state, rng, sentence.count_sentences(state))
        _, _, _, totals = self._bufs
        return SweepInfo(sweep, sentence.count_sentences(state) - start, float("nan"),
                         int(totals[1]), temperature)
