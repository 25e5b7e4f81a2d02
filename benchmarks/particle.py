"""Issue 14's figures: the particle filter on the Brent corpus (br-phono).

- one pass of 1,000 particles, threshold N/2: unigram ≤ 60 s, bigram ≤ 5 min (2 cores: the
  particles are shared between threads), and §6.1's evaluation beside it;
- rejuvenation: 100 particles with TOKEN or TYPE moves, at most 10 × the plain 100-particle
  filter's time, against the plain 1,000-particle filter's log-probability.

Table 1's shape (the log-probability rising with N; N = 1,000, N/2 within 2% of theirs) needs
their grid of runs: ``python -m engine table1 --data br-phono.txt`` measures and prints it
(docs/benchmarks.md has its output). Runs here are seeded (seed 0) and resample
systematically.
"""
import sys
import time

from benchmarks.common import Row
from benchmarks.usm import BR_PHONO
from datasets.segmented import load_segmented
from engine.experiments import table1
from engine.models.bigram.model import BigramModel
from engine.models.usm.model import UsmModel
from engine.samplers.particle import ParticleFilter, Rejuvenation

LIMITS = {"unigram": 60.0, "bigram": 300.0}  # seconds, one pass of 1,000 particles
REJUVENATION = (("TOKEN", Rejuvenation(10, "token")), ("TYPE", Rejuvenation(1, "type")))


def one_pass(population, n, seed, rejuvenation=None):
    """(pass seconds, evaluation seconds, §6.1's scores) of one filter."""
    started = time.perf_counter()
    f = ParticleFilter(population, n, seed, threshold="N/2", resampling="systematic",
                       rejuvenation=rejuvenation)
    f.run()
    seconds = time.perf_counter() - started
    scores = f.evaluate()
    return seconds, scores["evaluation_seconds"], scores


def pass_rows(name, population):
    """One pass of 1,000 particles at N/2: its time against the limit, and (reported) its
    final states' log-probability beside theirs; returns the rows and that log-probability."""
    seconds, evaluation, scores = one_pass(population, 1000, 0)
    theirs = table1.PAPER[(name, "PF", 1000, "N/2")][0]
    ours = scores["log_prob"] / 1000
    return [Row(f"{name}: 1,000 particles, N/2, one pass", seconds, LIMITS[name], "s",
                f"br-phono, 9,790 utterances; §6.1's evaluation after it: {evaluation:.1f} s"),
            Row("  … ours / the limit", seconds / LIMITS[name], 1.0, "×",
                "the ratio travels between machines"),
            Row("  … log-prob ×10³ of the final states (one run)", ours, None, "",
                f"theirs {theirs[3]:.2f} (mean of 2 runs); token F ours "
                f"{100 * scores['token_f']:.2f}, theirs {theirs[0]:.2f}")], scores["log_prob"]


def rejuvenation_rows(population, plain_thousand):
    plain_seconds, _, plain = one_pass(population, 100, 0)
    rows = [Row("unigram: 100 particles, N/2, no moves", plain_seconds, None, "s",
                f"log-prob {plain['log_prob'] / 1000:.2f} × 10³")]
    for label, rejuvenation in REJUVENATION:
        seconds, _, scores = one_pass(population, 100, 0, rejuvenation)
        moves = f"{rejuvenation.moves} {label} move" + ("s" if rejuvenation.moves > 1 else "")
        how = (f"{moves} per particle and utterance; log-prob "
               f"{scores['log_prob'] / 1000:.2f} × 10³ against 1,000 plain particles' "
               f"{plain_thousand / 1000:.2f}; token F {100 * scores['token_f']:.1f}")
        rows += [Row(f"unigram: 100 particles + {label} rejuvenation, time / plain",
                     seconds / plain_seconds, 10.0, "×", how),
                 Row(f"  … log-prob above 1,000 plain particles' ({label})",
                     scores["log_prob"] - plain_thousand, 0.0, "", how, higher=True)]
    return rows


def rows():
    if not BR_PHONO.exists():
        print(f"skipping the particle-filter benchmarks: {BR_PHONO} is missing",
              file=sys.stderr)
        return []
    corpus = load_segmented(BR_PHONO)
    unigram = UsmModel.from_corpus(corpus).particles()
    bigram = BigramModel.from_corpus(corpus).particles()
    unigram_rows, plain_thousand = pass_rows("unigram", unigram)
    bigram_rows, _ = pass_rows("bigram", bigram)
    return [*unigram_rows, *rejuvenation_rows(unigram, plain_thousand), *bigram_rows]
