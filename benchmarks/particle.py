"""Issue 14's figures: the particle filter on the Brent corpus (br-phono).

- one pass of 1,000 particles, threshold N/2: unigram ≤ 60 s, bigram ≤ 5 min (2 cores: the
  particles are shared between threads), and §6.1's evaluation beside it;
- Table 1's shape at threshold N/2: the log-probability of the final states rises with N, and
  at N = 1,000 it is within 2% of theirs (unigram −231.93 × 10³, bigram −251.33 × 10³), the
  unigram token F within their standard deviation (66.54 ± 5.31);
- rejuvenation: 100 particles with TOKEN or TYPE moves, at most 10 × the plain 100-particle
  filter's time, against the plain 1,000-particle filter's log-probability.

Runs are seeded; Table 1's means are over RUNS runs (seeds 0, 1, …), theirs over 2 to 10.
"""
import sys
import time

import numpy as np

from benchmarks.common import Row
from benchmarks.usm import BR_PHONO
from datasets.segmented import load_segmented
from engine import table1
from engine.models.bigram_usm import BigramModel
from engine.models.usm import UsmModel
from engine.samplers.particle import ParticleFilter, Rejuvenation

LIMITS = {"unigram": 60.0, "bigram": 300.0}  # seconds, one pass of 1,000 particles
RUNS = {"unigram": 2, "bigram": 1}
REJUVENATION = (("TOKEN", Rejuvenation(14, "token")), ("TYPE", Rejuvenation(2, "type")))


def one_pass(population, n, seed, rejuvenation=None):
    """(pass seconds, evaluation seconds, §6.1's scores) of one filter."""
    started = time.perf_counter()
    f = ParticleFilter(population, n, seed, threshold="N/2", rejuvenation=rejuvenation)
    f.run()
    seconds = time.perf_counter() - started
    scores = f.evaluate()
    f.close()
    return seconds, scores["evaluation_seconds"], scores


def table_rows(name, population):
    """The pass time of 1,000 particles and Table 1's N/2 column, means over RUNS runs."""
    means, rows = {}, []
    for n in table1.SIZES:
        results = [one_pass(population, n, seed) for seed in range(RUNS[name])]
        means[n] = {key: np.mean([r[2][key] for r in results]) for key in ("log_prob", "token_f")}
        if n == 1000:
            seconds, evaluation, _ = results[0]
            rows += [Row(f"{name}: 1,000 particles, N/2, one pass", seconds, LIMITS[name], "s",
                         f"br-phono, 9,790 utterances; §6.1's evaluation after it: "
                         f"{evaluation:.1f} s"),
                     Row("  … ours / the limit", seconds / LIMITS[name], 1.0, "×",
                         "the ratio travels between machines")]
    rising = all(means[a]["log_prob"] < means[b]["log_prob"]
                 for a, b in zip(table1.SIZES, table1.SIZES[1:]))
    theirs_lp, theirs_sd = (table1.PAPER[(name, "PF", 1000, "N/2")][i] for i in (0, 1))
    ours = means[1000]["log_prob"] / 1000
    trend = ", ".join(f"{n}: {means[n]['log_prob'] / 1000:.2f}" for n in table1.SIZES)
    rows += [Row(f"{name}: log-prob ×10³ rises with N (N/2)", float(rising), 1.0, "",
                 f"means over {RUNS[name]} run(s): {trend}", higher=True),
             Row(f"{name}: N = 1,000, N/2 log-prob off theirs", abs(ours / theirs_lp[3] - 1),
                 0.02, "", f"ours {ours:.2f} × 10³, theirs {theirs_lp[3]:.2f} "
                           f"(± {theirs_sd[3]:.2f})")]
    if name == "unigram":
        f = 100 * means[1000]["token_f"]
        rows.append(Row("unigram: N = 1,000, N/2 token F off theirs, in their sd",
                        abs(f - theirs_lp[0]) / theirs_sd[0], 1.0, "",
                        f"ours {f:.2f}, theirs {theirs_lp[0]:.2f} ± {theirs_sd[0]:.2f}"))
    return rows, means[1000]["log_prob"]


def rejuvenation_rows(population, plain_thousand):
    plain_seconds, _, plain = one_pass(population, 100, 0)
    rows = [Row("unigram: 100 particles, N/2, no moves", plain_seconds, None, "s",
                f"log-prob {plain['log_prob'] / 1000:.2f} × 10³")]
    for label, rejuvenation in REJUVENATION:
        seconds, _, scores = one_pass(population, 100, 0, rejuvenation)
        how = (f"{rejuvenation.moves} {label} moves per particle and utterance; log-prob "
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
    unigram_rows, plain_thousand = table_rows("unigram", unigram)
    bigram_rows, _ = table_rows("bigram", bigram)
    return [*unigram_rows, *rejuvenation_rows(unigram, plain_thousand), *bigram_rows]
