"""What a move or a sweep did, for the pages and the trace (BlackJAX-style Info records).

Both are built by keyword only: a record with a dozen fields read by position is a bug waiting
for a reordering.
"""
from dataclasses import dataclass, field

import numpy as np



def _no_sites():
    return np.zeros(0, np.int64)


@dataclass(frozen=True, kw_only=True)
class MoveInfo:
    """One move.

    kind : the sampler's name ("token", "type", "sentence", …)
    pivot : the site the move was centred on (−1: the sweep had no move left to make)
    block : int64[|S|]   the sites sampled jointly (TOKEN: just the pivot)
    before, after : int64[|S|]   their values before and after
    log_p : float64[...]   the normalised log-distribution drawn from: over m = 0 … |S| for TYPE
            (eq. 7), over the values for TOKEN (eq. 4); empty for SENTENCE
    drawn : int   TYPE: m, the number of block sites set to ``value_one``; TOKEN: the new value;
            SENTENCE: 1 when the proposal was accepted
    value_zero, value_one : the binary slice {v0, v1} (0, 1 for binary models)
    temperature : the temperature the move ran at
    sweep_done : whether this move finished a sweep
    type_sites : int64[...]   TYPE: every site of the pivot's type, the pivot included, sorted
            (the block is those that did not conflict); empty for the others
    """

    kind: str
    pivot: int
    block: np.ndarray = field(default_factory=_no_sites)
    before: np.ndarray = field(default_factory=_no_sites)
    after: np.ndarray = field(default_factory=_no_sites)
    log_p: np.ndarray = field(default_factory=lambda: np.zeros(0))
    drawn: int = 0
    value_zero: int = 0
    value_one: int = 1
    temperature: float = 1.0
    sweep_done: bool = False
    type_sites: np.ndarray = field(default_factory=_no_sites)

    @property
    def changed(self):
        """The sites whose value the move changed."""
        return self.block[self.before != self.after]

    @property
    def conflicted(self):
        """TYPE: sites of the pivot's type left out of the block (they touched a choice of an
        earlier block site, or — with K > 2 values — had a value outside the slice)."""
        return np.setdiff1d(self.type_sites, self.block)


@dataclass(frozen=True, kw_only=True)
class SweepInfo:
    """A (rest of a) sweep: moves made, the mean block size, sites changed, the temperature."""

    sweep: int
    moves: int
    mean_block_size: float
    changed: int
    temperature: float
