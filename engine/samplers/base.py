"""What every sampler shares: the temperature schedule, where it is in the current sweep, its
buffers, and the per-sweep tally behind the trace's figures (emcee's ``Move``, BlackJAX's
kernel-with-state shape). A sampler writes only its moves and its figures.

A *sweep* is ``sweep_length(state)`` positions (sites, pivots or sentences). ``step`` makes one
move and describes it; ``sweep`` finishes the current sweep. Both take the Generator first.
"""
from abc import ABC, abstractmethod
from dataclasses import dataclass

from engine.samplers.info import SweepInfo
from engine.samplers.schedule import constant

EVERY_MOVE = 2**62  # "no limit" for advance's max_moves


@dataclass
class Tally:
    """Counts over some moves: moves made, sites they sampled, sites they changed, and
    proposals accepted (SENTENCE)."""

    moves: int = 0
    sites: int = 0
    changed: int = 0
    accepted: int = 0

    def add(self, other):
        self.moves += other.moves
        self.sites += other.sites
        self.changed += other.changed
        self.accepted += other.accepted


class Sampler(ABC):
    """Base of every sampler. Subclasses set ``kind`` and write:

    - ``sweep_length(state)``: positions in one sweep;
    - ``make_buffers(state)``: the kernels' work arrays (built once per chain);
    - ``begin_sweep(rng, state, buffers)``: anything a sweep needs first (TYPE: a pivot order);
    - ``advance(rng, state, buffers, inv_temp, max_moves) -> Tally``: moves from
      ``self.position`` on, at most ``max_moves``, updating ``self.position``;
    - ``describe_move(state, buffers, **common) -> MoveInfo``: the move just made;
    - ``figures(tally)``: the trace's figures of a finished sweep.
    """

    kind = None  # what its moves are: "token", "type", "sentence"
    objective_kind = "log-probability"  # what ``objective`` is (EM: "likelihood", VB: "bound")

    def __init__(self, schedule=None):
        self.schedule = schedule or constant(1.0)
        self.sweeps_done = 0
        self.position = 0  # next position of the current sweep
        self._buffers = None
        self._moves = self  # what makes the moves (moves_for), once it has met its state
        self._tally = Tally()  # over the current sweep
        self._figures = {key: float("nan") for key in self.figures(Tally())}

    # --- what a sampler writes ------------------------------------------------------------------
    @abstractmethod
    def sweep_length(self, state):
        """Positions in one sweep."""

    def make_buffers(self, state):
        return None

    def begin_sweep(self, rng, state, buffers):
        pass

    @abstractmethod
    def advance(self, rng, state, buffers, inv_temp, max_moves):
        """Moves from ``self.position`` on (at most max_moves); return their Tally."""

    @abstractmethod
    def describe_move(self, state, buffers, *, moved, temperature, sweep_done):
        """The MoveInfo of the move just made (moved = False: the sweep had none left)."""

    def figures(self, tally):
        """The trace's figures of one finished sweep (none by default)."""
        return {}

    def objective(self, state, loglik):
        """The quantity this estimator improves, for the trace: the samplers' is log p(analysis,
        data), ``loglik`` (of ``state``); EM and VB say otherwise
        (engine.samplers.point_estimate)."""
        return loglik

    # --- the shared bookkeeping -----------------------------------------------------------------
    def temperature(self):
        return float(self.schedule(self.sweeps_done))

    def sweep_figures(self):
        """The figures of the last finished sweep (NaN before the first)."""
        return dict(self._figures)

    def buffers(self, state):
        if self._buffers is None:
            self._moves = self.moves_for(state)
            self._buffers = self._moves.make_buffers(state)
        return self._buffers

    def moves_for(self, state):
        """What makes this sampler's moves on ``state`` — its ``sweep_length``,
        ``make_buffers``, ``begin_sweep``, ``advance`` and ``describe_move``: the sampler
        itself, or another form of them where the state asks for one (TOKEN and TYPE on a model
        of forests walk each sentence's tree: engine.samplers.forest). Chosen when the sampler
        first meets its state: one built by name cannot know its model's before."""
        return self

    def _advance(self, rng, state, max_moves):
        buffers = self.buffers(state)
        moves = self._moves
        if self.position == 0:
            moves.begin_sweep(rng, state, buffers)
        temperature = self.temperature()
        tally = moves.advance(rng, state, buffers, 1.0 / temperature, max_moves)
        self._tally.add(tally)
        done = self.position >= moves.sweep_length(state)
        if done:
            self._figures = self.figures(self._tally)
            self._tally = Tally()
            self.position = 0
            self.sweeps_done += 1
        return buffers, tally, temperature, done

    def step(self, rng, state):
        """One move; return its MoveInfo."""
        buffers, tally, temperature, done = self._advance(rng, state, 1)
        return self._moves.describe_move(state, buffers, moved=tally.moves > 0,
                                         temperature=temperature, sweep_done=done)

    def sweep(self, rng, state):
        """Every remaining move of the current sweep (a whole sweep when none is under way)."""
        sweep = self.sweeps_done
        _, tally, temperature, _ = self._advance(rng, state, EVERY_MOVE)
        mean = tally.sites / tally.moves if tally.moves else 0.0
        return SweepInfo(sweep=sweep, moves=tally.moves, mean_block_size=mean,
                         changed=tally.changed, temperature=temperature)
