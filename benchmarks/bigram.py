"""Issue 13's figures: the HDP bigram segmentation model on the Brent corpus (br-phono).

Sweep times beside the reference implementation's (Goldwater's ``segment``: 365 ms per bigram
TOKEN sweep on a 2-core machine where its unigram sweep takes 37 ms), what 1000 TOKEN-anneal
sweeps reach, and the memory of the two seating representations.
"""
import sys

from benchmarks.common import Row
from benchmarks.usm import BR_PHONO, long_run, sweep_time
from datasets.segmented import load_segmented
from engine.models.bigram.model import BigramModel
from engine.models.usm.model import UsmModel

REFERENCE_TOKEN_MS = 365.0  # segment's bigram TOKEN sweep (the figure)
REFERENCE_UNIGRAM_MS = 37.0  # segment's unigram sweep on the same machine


def sweep_rows(model, unigram):
    """TOKEN and SENTENCE sweep times, and the ratios that travel between machines: ours over
    the reference's, and the bigram over the unigram TOKEN sweep (the reference: 9.9×)."""
    token = sweep_time(model, "token", 0.5, 40.0, "bigram, br-phono")
    sentence = sweep_time(model, "sentence", 0.5, 80.0, "bigram, br-phono")
    unigram_token = sweep_time(unigram, "token", 0.5, None, "unigram, br-phono")
    return [token,
            Row("  … ours / the reference's (segment, 365 ms)",
                token.measured / REFERENCE_TOKEN_MS, None, "×",
                f"{token.measured:.3g} ms / {REFERENCE_TOKEN_MS:g} ms; machines differ"),
            Row("  … bigram / unigram TOKEN sweep time", token.measured / unigram_token.measured,
                None, "×", f"{token.measured:.3g} ms / {unigram_token.measured:.3g} ms (the "
                f"reference: {REFERENCE_TOKEN_MS:g} / {REFERENCE_UNIGRAM_MS:g} = "
                f"{REFERENCE_TOKEN_MS / REFERENCE_UNIGRAM_MS:.1f}×)"),
            sentence]


def anneal_rows(model):
    loglik, m = long_run(model, "anneal", 1)
    how = ("1000 TOKEN-anneal sweeps from η = 0.5, T = 10 → 1 over the first 500, seed 1 "
           "(the reference, its own annealing: token F 0.673, boundary F 0.823, lexicon F 0.501)")
    return [Row("bigram TOKEN-anneal token F", m["token_f"], 0.64, "", how, higher=True),
            Row("  … boundary F", m["boundary_f"], 0.80, "", how, higher=True),
            Row("  … lexicon F", m["lexicon_f"], None, "",
                f"{how}; log P(segmentation, seating) {loglik:,.0f}")]


def memory_rows(corpus):
    """Bytes per restaurant customer (word tokens and utterance ends) of the gold segmentation's
    seating, in each representation."""
    measured = {}
    for seating in ("histogram", "explicit"):
        model = BigramModel.from_corpus(corpus, seating=seating)
        state = model.state_from_bound(model.gold_bound)
        customers = model.scalars(state)["words"] + len(model.texts)
        measured[seating] = model.seating_bytes(state) / customers
    ratio = measured["histogram"] / measured["explicit"]
    return [Row("seating bytes per customer, histogram", measured["histogram"], None, "B",
                "gold segmentation of br-phono, default hyperparameters"),
            Row("seating bytes per customer, explicit", measured["explicit"], None, "B",
                "the same state"),
            Row("  … histogram / explicit", ratio, 1.0, "×",
                "the histogram must use less memory (below 1)")]


def rows():
    if not BR_PHONO.exists():
        print(f"skipping the bigram benchmarks: {BR_PHONO} is missing", file=sys.stderr)
        return []
    corpus = load_segmented(BR_PHONO)
    model = BigramModel.from_corpus(corpus)
    return [*sweep_rows(model, UsmModel.from_corpus(corpus)), *anneal_rows(model),
            *memory_rows(corpus)]
