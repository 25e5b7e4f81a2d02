"""TOKEN: the collapsed Gibbs sampler, one site at a time in site order (Liang et al. eq. 4).

With a temperature schedule it is TOKEN-anneal; at temperature 1 it is plain TOKEN.
"""
import numpy as np

from engine.kernels import moves
from engine.samplers import forest
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo


class TokenSampler(Sampler):
    kind = "token"

    def sweep_length(self, state):
        return moves.count_sites(state)

    def moves_for(self, state):
        """On a model of forests, the walk of each sentence's tree (engine.samplers.forest)."""
        return forest.TokenWalk(self) if forest.walks_forests(state) else self

    def make_buffers(self, state):
        # the last site's weights, and its value before the move
        return dict(w=np.empty(moves.count_values(state)), before=np.zeros(1, np.int64))

    def advance(self, rng, state, b, inv_temp, max_moves):
        start = self.position
        stop = min(self.sweep_length(state), start + max_moves)
        b["before"][0] = moves.value_of(state, stop - 1)
        changed = moves.token_sweep(rng, state, start, stop, inv_temp, b["w"])
        self.position = stop
        return Tally(moves=stop - start, sites=stop - start, changed=int(changed))

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        s = (self.position or self.sweep_length(state)) - 1
        after = moves.value_of(state, s)
        w = b["w"]
        return MoveInfo(kind=self.kind, pivot=s, block=np.array([s]),
                        before=b["before"].copy(), after=np.array([after]),
                        log_p=np.log(w) - np.log(w.sum()), drawn=int(after),
                        temperature=temperature, sweep_done=sweep_done)


def token_conditional(rng, state, s, w=None):
    """TOKEN's move at site s on ``state`` (mutated): (normalised log p(b_s = v | rest) over
    the values v, the value drawn). For showing what TOKEN would do beside another move."""
    w = np.empty(moves.count_values(state)) if w is None else w
    drawn = moves.token_move(rng, state, s, 1.0, w)
    return np.log(w) - np.log(w.sum()), int(drawn)
