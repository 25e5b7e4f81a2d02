"""Issues 3 and 10's figures: the unigram segmentation model on the Brent corpus (br-phono).

Sweep times, where 1000 TOKEN sweeps from η = 0.5 end up (TOKEN is stuck there), what
TOKEN-anneal reaches, and TYPE against TOKEN at equal engine time from η = 1 (Fig. 5).
"""
import sys

from benchmarks.common import Row, equal_time_race, median_seconds, ratio_row
from datasets.segmented import load_segmented
from engine.core.rng import make_rng
from engine.models.usm.model import UsmModel
from engine.samplers import make_sampler
from tests.corpora import BR_PHONO

RACE_SECONDS = 10.0
CHECKPOINTS = (0.5, 1.0, 2.0, 5.0, 10.0)


def sweep_time(model, name, eta, target, label="br-phono"):
    """Median sweep time after 20 sweeps of burn-in (the first sweeps from η = 1 or 0.5 do
    more work than a chain's typical sweep)."""
    rng = make_rng(1)
    state = model.new_state(rng, eta=eta)
    sampler = make_sampler(name)
    seconds = median_seconds(lambda: sampler.sweep(rng, state), repeats=30, warmup=20)
    return Row(f"{name.upper()} sweep, {label}", seconds * 1e3, target, "ms",
               f"median of sweeps 21–50 from η = {eta}; {model.n_sites:,} sites, "
               f"{len(model.texts):,} utterances")


def long_run(model, name, seed):
    rng = make_rng(seed)
    state = model.new_state(rng, eta=0.5)
    sampler = make_sampler(name, total_sweeps=1000)
    for _ in range(1000):
        sampler.sweep(rng, state)
    return model.loglik(state), model.measures(state)


def token_stuck(model):
    rows = []
    for seed in (1, 2):
        loglik, m = long_run(model, "token", seed)
        how = f"1000 TOKEN sweeps from η = 0.5, seed {seed}"
        rows += [Row(f"TOKEN log-prob after 1000 sweeps (seed {seed})", loglik, 0, "",
                     f"{how}; within 1% of −2.295e5 (the reference: −229,309 and −229,599)",
                     band=(-2.295e5 * 1.01, -2.295e5 * 0.99)),
                 Row(f"  … token F (seed {seed})", m["token_f"], 0, "", how, band=(0.52, 0.57)),
                 Row(f"  … boundary F (seed {seed})", m["boundary_f"], 0, "", how,
                     band=(0.71, 0.74))]
    return rows


def anneal(model):
    loglik, m = long_run(model, "anneal", 1)
    return Row("TOKEN-anneal log-prob after 1000 sweeps", loglik, -2.10e5, "",
               f"from η = 0.5, T = 10 → 1 over the first 500 sweeps; token F "
               f"{m['token_f']:.3f}, boundary F {m['boundary_f']:.3f}", higher=True)


def race(model):
    """TYPE and TOKEN from the same η = 1 state, each given RACE_SECONDS of engine time."""
    reached = equal_time_race(model, CHECKPOINTS)
    lines = [f"  {'engine s':>8} | {'TOKEN log-prob (sweeps)':>26} | {'TYPE log-prob (sweeps)':>26}"]
    for c in CHECKPOINTS:
        (lt, _, st), (ly, _, sy) = reached["token"][c], reached["type"][c]
        lines.append(f"  {c:>8.1f} | {lt:>16,.0f} ({st:>6,}) | {ly:>16,.0f} ({sy:>6,})")
    print("TYPE vs TOKEN from η = 1 at equal engine time (Liang et al. Fig. 5):", file=sys.stderr)
    print("\n".join(lines), file=sys.stderr)
    gaps = [reached["type"][c][0] - reached["token"][c][0] for c in CHECKPOINTS]
    table = "; ".join(f"{c:g} s: TYPE {reached['type'][c][0]:,.0f} vs TOKEN "
                      f"{reached['token'][c][0]:,.0f}" for c in CHECKPOINTS)
    return Row("TYPE − TOKEN log-prob at equal engine time (smallest gap)", min(gaps), 0.0, "",
               f"from η = 1, same state; {table}", higher=True)


def rows():
    if not BR_PHONO.exists():
        print(f"skipping the USM benchmarks: {BR_PHONO} is missing", file=sys.stderr)
        return []
    model = UsmModel.from_corpus(load_segmented(BR_PHONO))
    token, type_ = sweep_time(model, "token", 0.5, 4.0), sweep_time(model, "type", 1.0, 16.0)
    return [token, type_, ratio_row(type_, token, 4.0, "br-phono"),
            sweep_time(model, "sentence", 0.5, 20.0), *token_stuck(model), anneal(model),
            race(model)]
