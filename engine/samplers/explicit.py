"""Gao & Johnson's explicit Gibbs samplers (§2.3): at the start of each sweep θ and φ are drawn
from their Dirichlet posteriors given the current tags (eq. 5); the sweep then resamples each
token given θ, φ and its neighbours (pointwise, GSe,p, eq. 6) or each sentence's tags by forward
filtering, backward sampling (blocked, GSe,b). The chain is over (tags, parameters); its tags'
marginal is the collapsed posterior the other samplers sample (engine.kernels.estimators).
"""
import numpy as np

from engine.kernels import estimators, moves, sentence
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo


class ExplicitSampler(Sampler):
    """blocked=False: explicit pointwise (a move = a token); True: explicit blocked (a move = a
    sentence). It runs at temperature 1 only."""

    def __init__(self, blocked):
        self.blocked = blocked
        self.kind = "sentence" if blocked else "token"
        super().__init__()

    def sweep_length(self, state):
        return sentence.count_sentences(state) if self.blocked else moves.count_sites(state)

    def make_buffers(self, state):
        n = moves.count_sites(state)
        return dict(theta=np.zeros(estimators.count_parameters(state)),
                    w=np.ones(moves.count_values(state)), before=np.zeros(n + 1, np.int64),
                    new=np.zeros(n + 1, np.int64), work=np.zeros(sentence.work_size(state)))

    def begin_sweep(self, rng, state, b):
        estimators.draw_theta(rng, state, b["theta"])

    def advance(self, rng, state, b, inv_temp, max_moves):
        start = self.position
        stop = min(self.sweep_length(state), start + max_moves)
        # the last move's sites' values before it (only that move touches them)
        first, last = self._sites(state, start, stop)
        move_first = sentence.sites_of(state, stop - 1)[0] if self.blocked else stop - 1
        estimators.copy_values(state, move_first, last, b["before"])
        if self.blocked:
            changed = estimators.explicit_sentence_sweep(rng, state, b["theta"], start, stop,
                                                         b["new"], b["work"])
        else:
            changed = estimators.explicit_token_sweep(rng, state, b["theta"], start, stop, b["w"])
        self.position = stop
        return Tally(moves=stop - start, sites=last - first, changed=int(changed))

    def _sites(self, state, start, stop):
        """The sites of moves start … stop − 1."""
        if not self.blocked:
            return start, stop
        return sentence.sites_of(state, start)[0], sentence.sites_of(state, stop - 1)[1]

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        u = (self.position or self.sweep_length(state)) - 1
        if self.blocked:
            first, last = sentence.sites_of(state, u)
            block = np.arange(first, last)
            before = b["before"][:last - first].copy()
            after = b["new"][:last - first].copy()
            return MoveInfo(kind=self.kind, pivot=int(first), block=block, before=before,
                            after=after, drawn=1, temperature=temperature,
                            sweep_done=sweep_done)
        w = b["w"]
        after = moves.value_of(state, u)
        return MoveInfo(kind=self.kind, pivot=u, block=np.array([u]),
                        before=b["before"][:1].copy(), after=np.array([after]),
                        log_p=np.log(w) - np.log(w.sum()), drawn=int(after),
                        temperature=temperature, sweep_done=sweep_done)
