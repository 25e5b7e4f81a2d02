"""EM and variational Bayes (Gao & Johnson §2.1–2.2) as samplers of the lab: a "sweep" is one
iteration (E-step, decoding, M-step), so they run in a Run, a race and the diagnostics like any
sampler. What they keep is the tagging their parameters decode to (the model's ``decode``
setting: max-marginal or Viterbi), so the trace's measures and log p(tags, words) are
comparable with the samplers'; their own objective — log p(words | θ) for EM, the variational
bound for VB — is the trace's ``objective``.

Each iteration reports the objective of the parameters its E-step used (the E-step computes it),
and the tagging those same parameters decode to.
"""
import math

import numpy as np

from engine.kernels import estimators, moves
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo


class PointEstimator(Sampler):
    """EM (variational=False) or VB (True). Deterministic given its start: it draws nothing (the
    Generator is passed to the model's set_value, which for the HMM draws nothing either);
    temperature is ignored."""

    kind = "iteration"

    def __init__(self, variational):
        self.variational = variational
        self.objective_kind = "bound" if variational else "likelihood"
        self._kl = None  # KL(q(θ) ‖ p(θ)) of the parameters the next E-step uses (VB)
        self._objective = math.nan
        super().__init__()

    def sweep_length(self, state):
        return 1

    def make_buffers(self, state):
        n, size = moves.count_sites(state), estimators.count_parameters(state)
        return dict(theta=np.zeros(size), expected=np.zeros(size), decoded=np.zeros(n, np.int64),
                    before=np.zeros(n, np.int64),
                    work=np.zeros(estimators.estimate_work(state)))

    def begin_sweep(self, rng, state, b):
        if self._kl is None:  # the first iteration starts from the initial tagging
            self._kl = estimators.point_start(state, b["expected"], b["theta"], self.variational,
                                              b["work"])

    def advance(self, rng, state, b, inv_temp, max_moves):
        n = len(b["before"])
        estimators.copy_values(state, 0, n, b["before"])
        log_z, kl, changed = estimators.point_iteration(rng, state, b["theta"], b["expected"],
                                                        b["decoded"], b["work"],
                                                        self.variational)
        # the bound F = log Z̃ − KL(q(θ) ‖ p(θ)) of the q(θ) this E-step used (0 for EM)
        self._objective = log_z - self._kl
        self._kl = kl
        self.position = 1
        return Tally(moves=1, sites=n, changed=int(changed))

    def objective(self, loglik):
        return self._objective

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        before, after = b["before"], b["decoded"]  # the iteration set every site to its decoding
        block = np.flatnonzero(before != after)
        return MoveInfo(kind=self.kind, pivot=int(block[0]) if len(block) else 0, block=block,
                        before=before[block], after=after[block],
                        temperature=temperature, sweep_done=sweep_done)
