"""TYPE: the type-based sampler of Liang et al. (Fig. 4), TYPE-greedy (§5.1), and Peng &
Gildea's one-stage sampling of the same blocks (eq. 12), as the paper has it and corrected.

Each sweep takes the sites in turn as pivots — in site order, or in a fresh random order,
as the model says (``interface.pivots_in_order``) or the caller asks (``pivots_at_random``:
the Type blocks page, whose moves should land anywhere in the corpus); each pivot's type block
is sampled jointly through eq. 7. ``skip`` is the skip approximation (§4.4); ``greedy`` sets each
block all-v0 or all-v1, whichever is more probable, instead of sampling; ``stages`` draws the
block's sites one after another instead (engine.kernels.moves.one_stage_block).
"""
import numpy as np

from engine.kernels import block_weight, moves
from engine.samplers import forest
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo

MOVES, SITES, CHANGED, V0, V1, CANDIDATES = range(6)  # the kernel's totals


class TypeSampler(Sampler):
    kind = "type"

    def __init__(self, skip=True, greedy=False, schedule=None, stages=moves.TWO_STAGE,
                 pivots_at_random=False):
        self.skip = bool(skip)
        self.greedy = bool(greedy)
        self.stages = stages
        self.pivots_at_random = bool(pivots_at_random)
        super().__init__(schedule)

    def sweep_length(self, state):
        return moves.count_sites(state)

    def moves_for(self, state):
        """On a model of forests, the walk of each sentence's tree (engine.samplers.forest)."""
        return forest.TypeWalk(self) if forest.walks_forests(state) else self

    def make_buffers(self, state):
        n = moves.count_sites(state)
        width = max(n + 1, block_weight.MAX_DELTA_TERMS)
        return dict(order=np.arange(n, dtype=np.int64), visited=np.zeros(n, np.uint8),
                    ints=np.zeros((3, n), np.int64), floats=np.zeros((6, width)),
                    chosen=np.zeros(n, np.uint8), totals=np.zeros(6, np.int64))

    def begin_sweep(self, rng, state, b):
        moves.new_order(rng, state, b["order"], self.pivots_at_random)
        b["visited"][:] = 0

    def advance(self, rng, state, b, inv_temp, max_moves):
        self.position = moves.type_sweep(
            rng, state, b["order"], self.position,
            moves.Pass(int(max_moves), float(inv_temp), self.greedy, self.stages, self.skip),
            moves.BlockBuffers(b["visited"], b["ints"], b["floats"], b["chosen"], b["totals"]))
        totals = b["totals"]
        return Tally(moves=int(totals[MOVES]), sites=int(totals[SITES]),
                     changed=int(totals[CHANGED]))

    def figures(self, tally):
        return {"mean_block_size": tally.sites / tally.moves if tally.moves else 0.0}

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        """The block, its old and new values, eq. 7's distribution and the draw. When the rest
        of the sweep had no pivot left to move, the sweep ends and the block is empty."""
        v0, v1 = int(b["totals"][V0]), int(b["totals"][V1])
        common = dict(kind=self.kind, value_zero=v0, value_one=v1, temperature=temperature,
                      sweep_done=sweep_done)
        if not moved:
            return MoveInfo(pivot=-1, **common)
        size = int(b["totals"][SITES])
        block = b["ints"][1, :size].copy()
        chosen = b["chosen"][:size].astype(bool)
        log_p = b["floats"][1, :size + 1].copy()
        log_p -= np.logaddexp.reduce(log_p)
        type_sites = np.union1d(b["ints"][0, :b["totals"][CANDIDATES]], block[:1])
        return MoveInfo(pivot=int(block[0]), block=block, before=b["ints"][2, :size].copy(),
                        after=np.where(chosen, v1, v0).astype(np.int64), log_p=log_p,
                        drawn=int(chosen.sum()), type_sites=type_sites, **common)
