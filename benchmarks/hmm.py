"""Issue 4's figures: the Bayesian HMM on UD English-EWT dev (UPOS), K = 17 and K = 45.

Sweep times, and TYPE against TOKEN at equal engine time from η = 1 (Liang et al. Fig. 5a).
"""
import sys
from pathlib import Path

from benchmarks.common import Row, equal_time_race, median_seconds
from datasets.tagged import load_tagged
from engine.core.rng import make_rng
from engine.models.hmm import HmmModel
from engine.samplers import make_sampler

EWT = Path(__file__).resolve().parents[2] / "shared" / "data" / "en_ewt-ud-dev.conllu"
CHECKPOINTS = (0.5, 1.0, 2.0, 5.0)


def sweep_time(model, name, target):
    rng = make_rng(1)
    state = model.new_state(rng, eta=1.0)
    sampler = make_sampler(name)
    seconds = median_seconds(lambda: sampler.sweep(state, rng), repeats=30, warmup=10)
    return Row(f"{name.upper()} sweep, EWT dev, K = {model.n_states}", seconds * 1e3, target,
               "ms", f"median of sweeps 11–40 from η = 1; {model.n_sites:,} tokens")


def race(model):
    """TYPE and TOKEN from the same η = 1 tagging, each given the same engine time."""
    reached = equal_time_race(model, CHECKPOINTS, measure="acc_many_to_one")
    print("HMM: TYPE vs TOKEN from η = 1 at equal engine time (Liang et al. Fig. 5a):",
          file=sys.stderr)
    print(f"  {'engine s':>8} | {'TOKEN log-prob, m-to-1 (sweeps)':>34} | "
          f"{'TYPE log-prob, m-to-1 (sweeps)':>34}", file=sys.stderr)
    for c in CHECKPOINTS:
        (lt, at_, st), (ly, ay, sy) = reached["token"][c], reached["type"][c]
        print(f"  {c:>8.1f} | {lt:>14,.0f} {at_:>8.1%} ({st:>6,}) | "
              f"{ly:>14,.0f} {ay:>8.1%} ({sy:>6,})", file=sys.stderr)
    final = CHECKPOINTS[-1]
    (lt, at_, _), (ly, ay, _) = reached["token"][final], reached["type"][final]
    table = "; ".join(f"{c:g} s: TYPE {reached['type'][c][0]:,.0f} / {reached['type'][c][1]:.1%}"
                      f" vs TOKEN {reached['token'][c][0]:,.0f} / {reached['token'][c][1]:.1%}"
                      for c in CHECKPOINTS)
    return [Row(f"HMM: TYPE − TOKEN log-prob after {final:g} s of engine time", ly - lt, 0.0, "",
                f"K = {model.n_states}, from η = 1, same state; {table}", higher=True),
            Row(f"HMM: TYPE − TOKEN many-to-one accuracy after {final:g} s", (ay - at_) * 100,
                0.0, "points", "same runs", higher=True)]


def rows():
    if not EWT.exists():
        print(f"skipping the HMM benchmarks: {EWT} is missing", file=sys.stderr)
        return []
    corpus = load_tagged(EWT, format="conllu")
    model = HmmModel.from_corpus(corpus, 17)
    wide = HmmModel.from_corpus(corpus, 45)
    return [sweep_time(model, "token", 6.0), sweep_time(model, "type", 30.0),
            sweep_time(model, "sentence", 40.0), sweep_time(wide, "token", 15.0), *race(model)]
