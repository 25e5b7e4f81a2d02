"""TOKEN and TYPE on a model whose sites are the nodes of forests (Peng & Gildea 2014): a sweep
walks each sentence's current tree from its root (engine.kernels.forest), resampling every
node's incoming edge and then its cut — alone (TOKEN, Algorithm 1) or with its type block
(TYPE, Algorithm 2). A sweep's positions are the nodes visited, the same number in every sweep.

``TokenSampler`` and ``TypeSampler`` make their moves through these walks (``TokenWalk``,
``TypeWalk``) once they meet a state that implements the interface's FOREST functions
(``Sampler.moves_for``), so that a model of forests offers the samplers by their usual names.
"""
import numpy as np

from engine.core.draw import scaled_to_log
from engine.kernels import block_weight, forest, moves
from engine.kernels.forest import (CANDIDATES, CUTS, LAST_BEFORE, LAST_SITE, LAST_SIZE, MOVES,
                                   N_TOTALS, SITES)
from engine.kernels.interface import FOREST_FUNCTIONS, missing
from engine.samplers.base import Tally
from engine.samplers.info import MoveInfo


def walks_forests(state):
    """Whether the state's model samples trees from forests (implements FOREST_FUNCTIONS)."""
    return walks_forests_of(type(state))


def walks_forests_of(model_or_state_class):
    """``walks_forests`` of a model class (its ``state_class``) or a state class: then its
    TOKEN and TYPE are one kernel, ``forest.forest_walk``."""
    state_class = getattr(model_or_state_class, "state_class", model_or_state_class)
    return not missing(state_class, FOREST_FUNCTIONS)


class ForestWalk:
    """What TOKEN and TYPE on forests share: the walk's buffers, its length, its moves, made
    for ``sampler`` (its position, and TYPE's skip, greedy and stages)."""

    typed = False

    def __init__(self, sampler):
        self.sampler = sampler

    def sweep_length(self, state):
        return int(forest.tree_nodes(state, self.sampler.buffers(state)["work"]))

    def make_buffers(self, state):
        n = moves.count_sites(state)
        # a node has fewer edges than the sites, and a tree fewer nodes than the sites and
        # the roots: room for the largest without asking the model (w: an edge step's two
        # parts per edge)
        return dict(cursor=np.zeros(3, np.int64), visited=np.zeros(n, np.uint8),
                    w=np.zeros(2 * n + 2), queue=np.zeros(n + forest.count_sentences(state),
                                                          np.int64),
                    work=np.zeros(n + forest.count_sentences(state), np.int64),
                    ints=np.zeros((3, n), np.int64),
                    floats=np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS))),
                    chosen=np.zeros(n, np.uint8), totals=np.zeros(N_TOTALS, np.int64))

    def begin_sweep(self, rng, state, b):
        b["cursor"][:] = 0
        b["visited"][:] = 0

    def advance(self, rng, state, b, inv_temp, max_moves):
        skip, greedy = getattr(self.sampler, "skip", False), getattr(self.sampler, "greedy", False)
        stages = getattr(self.sampler, "stages", moves.TWO_STAGE)
        scaled = forest.forest_walk(
            rng, state, b["cursor"],
            moves.Pass(int(max_moves), float(inv_temp), bool(greedy), int(stages), bool(skip)),
            self.typed, b["w"], b["queue"],
            moves.BlockBuffers(b["visited"], b["ints"], b["floats"], b["chosen"], b["totals"]))
        if scaled:
            # the last block's draw (a sweep's totals[SITES] counts every block's sites)
            size = int(b["totals"][LAST_SIZE])
            scaled_to_log(b["floats"][1], b["floats"][0], size + 1)
        totals = b["totals"]
        self.sampler.position += int(totals[MOVES])
        sites = int(totals[SITES]) if self.typed else int(totals[MOVES])
        return Tally(moves=int(totals[MOVES]), sites=sites, changed=int(totals[CUTS]))


class TokenWalk(ForestWalk):
    """TOKEN's moves on forests (Algorithm 1)."""

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        s = int(b["totals"][LAST_SITE])
        if not moved or s < 0:  # a root: its edge moved, it has no cut
            return MoveInfo(kind=self.sampler.kind, pivot=-1, temperature=temperature,
                            sweep_done=sweep_done)
        after = moves.value_of(state, s)
        w = b["w"][:2]
        return MoveInfo(kind=self.sampler.kind, pivot=s, block=np.array([s]),
                        before=b["totals"][LAST_BEFORE:LAST_BEFORE + 1].copy(),
                        after=np.array([after]), log_p=np.log(w) - np.log(w.sum()),
                        drawn=int(after), temperature=temperature, sweep_done=sweep_done)


class TypeWalk(ForestWalk):
    """TYPE's and TYPE-greedy's moves on forests (Algorithm 2)."""

    typed = True

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        if not moved or b["totals"][LAST_SITE] < 0 or b["totals"][SITES] == 0:
            return MoveInfo(kind=self.sampler.kind, pivot=-1, temperature=temperature,
                            sweep_done=sweep_done)
        size = int(b["totals"][LAST_SIZE])
        block = b["ints"][1, :size].copy()
        chosen = b["chosen"][:size].astype(bool)
        log_p = b["floats"][1, :size + 1].copy()
        log_p -= np.logaddexp.reduce(log_p)
        type_sites = np.union1d(b["ints"][0, :b["totals"][CANDIDATES]], block[:1])
        return MoveInfo(kind=self.sampler.kind, pivot=int(block[0]), block=block,
                        before=b["ints"][2, :size].copy(), after=chosen.astype(np.int64),
                        log_p=log_p, drawn=int(chosen.sum()), type_sites=type_sites,
                        temperature=temperature, sweep_done=sweep_done)
