"""Issues 4 and 10's figures: the Bayesian HMM on UD English-EWT dev (UPOS), K = 17 and 45.

Sweep times, and TYPE against TOKEN at equal engine time from η = 1 (Liang et al. Fig. 5a).
"""
import sys

from benchmarks.common import Row, equal_time_race, median_seconds, ratio_row
from datasets.tagged import load_tagged
from engine.core.rng import make_rng
from engine.models.hmm.model import HmmModel
from engine.samplers import make_sampler
from tests.corpora import EWT_DEV as EWT

# ms per sweep to reach: TOKEN, SENTENCE by K (TYPE must stay within 4 × TOKEN)
TARGETS = {17: {"token": 2.5, "sentence": 8.0}, 45: {"token": 3.5, "sentence": 16.0}}


def sweep_time(model, name, target):
    rng = make_rng(1)
    state = model.new_state(rng, eta=1.0)
    sampler = make_sampler(name)
    seconds = median_seconds(lambda: sampler.sweep(rng, state), repeats=30, warmup=10)
    return Row(f"{name.upper()} sweep, EWT dev, K = {model.n_states}", seconds * 1e3, target,
               "ms", f"median of sweeps 11–40 from η = 1; {model.n_sites:,} tokens")


# Engine seconds at which both chains are scored. Fig. 5a runs for hours on 1M tokens; on these
# 25k tokens TOKEN converges within seconds, and TYPE needs minutes to pass it (docs/benchmarks.md).
CHECKPOINTS = (1.0, 5.0, 30.0, 60.0, 120.0, 300.0)
_race_table = []  # the race as a Markdown table, for sections()


def race(model):
    """TYPE and TOKEN from the same η = 1 tagging, each given the same engine time."""
    reached = equal_time_race(model, CHECKPOINTS, measure="acc_many_to_one")
    lines = ["| engine s | TOKEN log-prob | TOKEN many-to-one | TOKEN sweeps | TYPE log-prob | "
             "TYPE many-to-one | TYPE sweeps |", "|" + "---|" * 7]
    for c in CHECKPOINTS:
        (lt, at_, st), (ly, ay, sy) = reached["token"][c], reached["type"][c]
        lines.append(f"| {c:g} | {lt:,.0f} | {at_:.1%} | {st:,} | {ly:,.0f} | {ay:.1%} | {sy:,} |")
    _race_table[:] = lines
    print("HMM: TYPE vs TOKEN from η = 1 at equal engine time (Liang et al. Fig. 5a):\n"
          + "\n".join(lines), file=sys.stderr)
    final = CHECKPOINTS[-1]
    (lt, at_, _), (ly, ay, _) = reached["token"][final], reached["type"][final]
    ahead = [c for c in CHECKPOINTS if reached["type"][c][0] > reached["token"][c][0]]
    how = (f"K = {model.n_states}, from η = 1, same state, chains side by side; TYPE's log-prob "
           f"ahead at {', '.join(f'{c:g}' for c in ahead) or 'no checkpoint'} s of "
           f"{', '.join(f'{c:g}' for c in CHECKPOINTS)} (the race table below)")
    return [Row(f"HMM: TYPE − TOKEN log-prob after {final:g} s of engine time", ly - lt, 0.0, "",
                how, higher=True),
            Row(f"HMM: TYPE − TOKEN many-to-one accuracy after {final:g} s", (ay - at_) * 100,
                0.0, "points", f"same runs: TYPE {ay:.1%}, TOKEN {at_:.1%}", higher=True)]


def sections():
    """The HMM race, checkpoint by checkpoint, for docs/benchmarks.md."""
    if not _race_table:
        return []
    return ["## The HMM race (EWT dev, UPOS, K = 17, from η = 1)\n\n"
            "TOKEN and TYPE from the same initial tagging, each swept until the engine time on "
            "the left (sweeps only; scoring is not counted), one process each.\n\n"
            + "\n".join(_race_table)]


def rows():
    if not EWT.exists():
        print(f"skipping the HMM benchmarks: {EWT} is missing", file=sys.stderr)
        return []
    corpus = load_tagged(EWT, format="conllu")
    out = []
    for k, targets in TARGETS.items():
        model = HmmModel.from_corpus(corpus, k)
        token, type_ = sweep_time(model, "token", targets["token"]), sweep_time(model, "type", None)
        out += [token, ratio_row(type_, token, 4.0, f"EWT dev, K = {k}"), type_,
                sweep_time(model, "sentence", targets["sentence"])]
    return out + race(HmmModel.from_corpus(corpus, 17))
