"""TYPE: the type-based sampler of Liang et al. (Fig. 4), and TYPE-greedy (§5.1).

Each sweep visits the sites in a fresh random order as pivots; each pivot's type block is
sampled jointly through eq. 7. ``skip`` is the skip approximation (§4.4); ``greedy`` sets each
block all-0 or all-1, whichever is more probable, instead of sampling.
"""
import numpy as np

from engine.kernels import moves
from engine.samplers.info import MoveInfo, SweepInfo
from engine.samplers.schedule import constant


class TypeSampler:
    kind = "type"

    def __init__(self, skip=True, greedy=False, schedule=None):
        self.skip = bool(skip)
        self.greedy = bool(greedy)
        self.schedule = schedule or constant(1.0)
        self.sweeps_done = 0
        self.position = 0  # index into the pivot order of the current sweep
        self._moves = self._block_sites = 0  # in the current sweep
        self._last_mean_block = float("nan")
        self._bufs = None

    def temperature(self):
        return float(self.schedule(self.sweeps_done))

    def sweep_figures(self):
        """The trace's figures of the last finished sweep: its mean block size."""
        return {"mean_block_size": self._last_mean_block}

    def _buffers(self, state):
        if self._bufs is None:
            n = moves.count_sites(state)
            width = max(n + 1, moves.MAX_DELTA_TERMS)
            self._bufs = dict(order=np.arange(n, dtype=np.int64), visited=np.zeros(n, np.uint8),
                              ints=np.zeros((3, n), np.int64), floats=np.zeros((6, width)),
                              chosen=np.zeros(n, np.uint8), totals=np.zeros(6, np.int64))
        return self._bufs

    def _advance(self, state, rng, max_moves):
        b = self._buffers(state)
        if self.position == 0:
            moves.new_order(rng, b["order"])
            b["visited"][:] = 0
        temperature = self.temperature()
        self.position = moves.type_sweep(
            rng, state, b["order"], self.position, max_moves, b["visited"], self.skip,
            1.0 / temperature, self.greedy, b["ints"], b["floats"], b["chosen"], b["totals"])
        self._moves += int(b["totals"][0])
        self._block_sites += int(b["totals"][1])
        done = self.position >= len(b["order"])
        if done:
            self._last_mean_block = self._block_sites / self._moves if self._moves else 0.0
            self.position, self._moves, self._block_sites = 0, 0, 0
            self.sweeps_done += 1
        return b, temperature, done

    def step(self, state, rng):
        """One type-block move (the next pivot not skipped); return its MoveInfo.

        When the rest of the sweep has no pivot left to move, the sweep ends and the
        returned MoveInfo has an empty block.
        """
        b, temperature, done = self._advance(state, rng, 1)
        moves_made, size = b["totals"][0], b["totals"][1]
        v0, v1 = (int(v) for v in b["totals"][3:5])
        if moves_made == 0:
            empty = np.zeros(0, np.int64)
            return MoveInfo("type", -1, empty, empty, empty, np.zeros(0), 0, v0, v1,
                            temperature, done)
        block = b["ints"][1, :size].copy()
        before = b["ints"][2, :size].copy()
        chosen = b["chosen"][:size].astype(bool)
        after = np.where(chosen, v1, v0).astype(np.int64)
        log_p = b["floats"][1, :size + 1].copy()
        log_p -= np.logaddexp.reduce(log_p)
        type_sites = np.union1d(b["ints"][0, :b["totals"][5]], block[:1])
        return MoveInfo("type", int(block[0]), block, before, after, log_p, int(chosen.sum()),
                        v0, v1, temperature, done, type_sites)

    def sweep(self, state, rng):
        """Every remaining pivot of the current sweep; return its SweepInfo."""
        sweep = self.sweeps_done
        b, temperature, _ = self._advance(state, rng, np.iinfo(np.int64).max)
        moves_made, total, changed = (int(v) for v in b["totals"][:3])
        mean = total / moves_made if moves_made else 0.0
        return SweepInfo(sweep, moves_made, mean, changed, temperature)
