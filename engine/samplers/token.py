"""TOKEN: the collapsed Gibbs sampler, one site at a time in site order (Liang et al. eq. 4).

With a temperature schedule it is TOKEN-anneal; at temperature 1 it is plain TOKEN.
"""
import numpy as np

from engine.kernels import moves
from engine.samplers.info import MoveInfo, SweepInfo
from engine.samplers.schedule import constant


class TokenSampler:
    kind = "token"

    def __init__(self, schedule=None):
        self.schedule = schedule or constant(1.0)
        self.sweeps_done = 0
        self.position = 0  # next site of the current sweep
        self._w = None

    def temperature(self):
        return float(self.schedule(self.sweeps_done))

    def sweep_figures(self):
        """TOKEN has no figures of its own for the trace."""
        return {}

    def _weights_buffer(self, state):
        if self._w is None:
            self._w = np.empty(moves.count_values(state))
        return self._w

    def step(self, state, rng):
        """Resample the next site; return its MoveInfo."""
        w = self._weights_buffer(state)
        temperature = self.temperature()
        s = self.position
        before = moves.value_of(state, s)
        after = moves.token_move(rng, state, s, 1.0 / temperature, w)
        log_p = np.log(w) - np.log(w.sum())
        self.position += 1
        done = self._end_sweep_if_done(state)
        return MoveInfo("token", s, np.array([s]), np.array([before]), np.array([after]),
                        log_p, int(after), 0, 1, temperature, done)

    def sweep(self, state, rng):
        """Resample every remaining site of the current sweep; return its SweepInfo."""
        w = self._weights_buffer(state)
        temperature = self.temperature()
        n = moves.count_sites(state)
        start = self.position
        changed = moves.token_sweep(rng, state, start, n, 1.0 / temperature, w)
        self.position = n
        info = SweepInfo(self.sweeps_done, n - start, 1.0, int(changed), temperature)
        self._end_sweep_if_done(state)
        return info

    def _end_sweep_if_done(self, state):
        if self.position < moves.count_sites(state):
            return False
        self.position = 0
        self.sweeps_done += 1
        return True
