"""What a move or a sweep did, for the pages and the trace (BlackJAX-style Info records)."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MoveInfo:
    """One move.

    kind : "token" or "type"
    pivot : the site the move was centred on
    block : int64[|S|]   the sites sampled jointly (TOKEN: just the pivot)
    before, after : int64[|S|]   their values before and after
    log_p : float64[...]   the normalised log-distribution drawn from: over m = 0 … |S| for TYPE
            (eq. 7), over the values for TOKEN (eq. 4)
    drawn : int   TYPE: m, the number of block sites set to ``value_one``; TOKEN: the new value
    value_zero, value_one : the binary slice {v0, v1} (0, 1 for binary models)
    temperature : the temperature the move ran at
    sweep_done : whether this move finished a sweep
    type_sites : int64[...]   TYPE: every site of the pivot's type, the pivot included, sorted
            (the block is those that did not conflict)
    """

    kind: str
    pivot: int
    block: np.ndarray
    before: np.ndarray
    after: np.ndarray
    log_p: np.ndarray
    drawn: int
    value_zero: int
    value_one: int
    temperature: float
    sweep_done: bool
    type_sites: np.ndarray = None

    @property
    def changed(self):
        """The sites whose value the move changed."""
        return self.block[self.before != self.after]

    @property
    def conflicted(self):
        """TYPE: sites of the pivot's type left out of the block (they touched a word of an
        earlier block site, or — with K > 2 values — had a value outside the slice)."""
        if self.type_sites is None:
            return np.zeros(0, np.int64)
        return np.setdiff1d(self.type_sites, self.block)


@dataclass(frozen=True)
class SweepInfo:
    """A (rest of a) sweep: moves made, the mean block size, sites changed, the temperature."""

    sweep: int
    moves: int
    mean_block_size: float
    changed: int
    temperature: float
