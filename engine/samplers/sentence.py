"""SENTENCE: blocked Metropolis-Hastings, one whole sentence per move, sentences in corpus order
(Gao & Johnson 2008 §3; engine.kernels.sentence). Its figure is the acceptance rate."""
import numpy as np

from engine.kernels import moves, sentence
from engine.samplers.base import Sampler, Tally
from engine.samplers.info import MoveInfo


class SentenceSampler(Sampler):
    kind = "sentence"

    def sweep_length(self, state):
        return sentence.count_sentences(state)

    def make_buffers(self, state):
        n = moves.count_sites(state)
        return dict(old=np.zeros(n + 1, np.int64), new=np.zeros(n + 1, np.int64),
                    work=np.zeros(sentence.work_size(state)), totals=np.zeros(2, np.int64))

    def advance(self, rng, state, b, inv_temp, max_moves):
        start = self.position
        stop = min(self.sweep_length(state), start + max_moves)
        sentence.sentence_sweep(rng, state, start, stop, inv_temp, b["old"], b["new"],
                                b["work"], b["totals"])
        self.position = stop
        first, _ = sentence.sites_of(state, start) if stop > start else (0, 0)
        _, last = sentence.sites_of(state, stop - 1) if stop > start else (0, 0)
        accepted, changed = (int(v) for v in b["totals"])
        return Tally(moves=stop - start, sites=last - first, changed=changed, accepted=accepted)

    def figures(self, tally):
        return {"acceptance": tally.accepted / tally.moves if tally.moves else float("nan")}

    def describe_move(self, state, b, *, moved, temperature, sweep_done):
        u = (self.position or self.sweep_length(state)) - 1
        start, stop = sentence.sites_of(state, u)
        accepted = int(b["totals"][0])
        before = b["old"][:stop - start].copy()
        after = b["new"][:stop - start].copy() if accepted else before.copy()
        return MoveInfo(kind=self.kind, pivot=int(start), block=np.arange(start, stop),
                        before=before, after=after, drawn=accepted, temperature=temperature,
                        sweep_done=sweep_done)
