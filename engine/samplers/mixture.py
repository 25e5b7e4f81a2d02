"""A sampler that alternates whole sweeps of others: TYPE + TOKEN, TYPE + SENTENCE.

Sweep k is a sweep of ``parts[k % len(parts)]``. Each part leaves the posterior invariant, so
their fixed cycle does too (a deterministic scan of invariant kernels), and the race can ask
whether combining two samplers mixes better than either alone.
"""
import dataclasses
import math


class MixtureSampler:
    """The Sampler interface (``step``, ``sweep``, ``sweeps_done``, ``position``,
    ``temperature()``, ``sweep_figures()``, ``objective``) over a cycle of samplers, a whole
    sweep each."""

    kind = "mixture"

    def __init__(self, parts):
        if len(parts) < 2:
            raise ValueError("a mixture needs at least two samplers")
        self.parts = tuple(parts)
        self.sweeps_done = 0
        # every part's figures, NaN where the last sweep's part has none: the trace keeps
        # the same columns from sweep to sweep
        self._blank = {key: math.nan for part in self.parts for key in part.sweep_figures()}
        self._figures = dict(self._blank)

    @property
    def current(self):
        """The part that makes the current (or next) sweep."""
        return self.parts[self.sweeps_done % len(self.parts)]

    @property
    def position(self):
        return self.current.position

    def temperature(self):
        return self.current.temperature()

    @property
    def objective_kind(self):
        return self.current.objective_kind

    def objective(self, state, loglik):
        return self.current.objective(state, loglik)

    def sweep_figures(self):
        return dict(self._figures)

    def _finished(self, part):
        self.sweeps_done += 1
        self._figures = {**self._blank, **part.sweep_figures()}

    def step(self, rng, state):
        """One move of the current part; return its MoveInfo."""
        part = self.current
        info = part.step(rng, state)
        if info.sweep_done:
            self._finished(part)
        return info

    def sweep(self, rng, state):
        """The rest of the current part's sweep; its SweepInfo, numbered in the mixture's
        sweeps."""
        part, sweep = self.current, self.sweeps_done
        info = part.sweep(rng, state)
        self._finished(part)
        return dataclasses.replace(info, sweep=sweep)
