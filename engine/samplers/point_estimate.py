"""EM and variational Bayes (Gao & Johnson §2.1–2.2) as samplers of the lab: a "sweep" is one
iteration (E-step, decoding, M-step), so they run in a Run, a race and the diagnostics like any
sampler. What they keep is the tagging their parameters decode to (the model's ``decode``
setting: max-marginal or Viterbi), so the trace's measures and log p(tags, words) are
comparable with the samplers'; their own objective — log p(words | θ) for EM, the variational
bound for VB — is the trace's ``objective``.

An iteration re-estimates the parameters (M-step) from the last E-step, then runs the E-step
under the new ones, which gives their objective and their decoding: a trace row reports the
parameters the iteration ended with, and row 0 those the initial tagging gives (beside that
tagging itself), so the objective has a value from the start.
"""
import numpy as np

from engine.kernels import estimators, moves
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo


def bound(log_z, kl):
    """The bound F = log Z̃ − KL(q(θ) ‖ p(θ)) of a q(θ) whose E-step gave log Z̃ (EM: KL = 0,
    F = log p(words | θ))."""
    return log_z - kl


class PointEstimator(Sampler):
    """EM (variational=False) or VB (True). Deterministic given its start: it draws nothing (the
    Generator is passed to the model's set_value, which for the HMM draws nothing either);
    temperature is ignored."""

    kind = "iteration"

    def __init__(self, variational):
        self.variational = variational
        self.objective_kind = "bound" if variational else "likelihood"
        self._objective = None  # of the current parameters; None before the start's E-step
        super().__init__()

    def sweep_length(self, state):
        return 1

    def make_buffers(self, state):
        n, size = moves.count_sites(state), estimators.count_parameters(state)
        return dict(theta=np.zeros(size), expected=np.zeros(size), decoded=np.zeros(n, np.int64),
                    before=np.zeros(n, np.int64),
                    work=np.zeros(estimators.estimate_work(state)))

    def _start(self, state):
        """The first parameters, from the current analysis, and their objective."""
        b = self.buffers(state)
        log_z, kl = estimators.point_start(state, b["expected"], b["theta"], b["decoded"],
                                           b["work"], self.variational)
        self._objective = bound(log_z, kl)

    def begin_sweep(self, rng, state, b):
        if self._objective is None:  # no trace row 0 asked for it
            self._start(state)

    def advance(self, rng, state, b, inv_temp, max_moves):
        n = len(b["before"])
        estimators.copy_values(state, 0, n, b["before"])
        log_z, kl, changed = estimators.point_iteration(rng, state, b["theta"], b["expected"],
                                                        b["decoded"], b["work"],
                                                        self.variational)
        self._objective = bound(log_z, kl)
        self.position = 1
        return Tally(moves=1, sites=n, changed=int(changed))

    def objective(self, state, loglik):
        if self._objective is None:
            self._start(state)
        return self._objective

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        before, after = b["before"], b["decoded"]  # the iteration set every site to its decoding
        block = np.flatnonzero(before != after)
        return MoveInfo(kind=self.kind, pivot=int(block[0]) if len(block) else 0, block=block,
                        before=before[block], after=after[block],
                        temperature=temperature, sweep_done=sweep_done)
