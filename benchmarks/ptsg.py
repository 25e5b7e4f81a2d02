"""Issue 26's figures: the tree-substitution grammar on GUM's trees (train: 3,601 trees).

Sweep times of TOKEN and TYPE; parsing GUM dev (≤ 40 words) with the PCFG baselines and the
grammar of a TYPE sample (Liang et al. fn. 6), EVALB F1; TYPE against TOKEN at equal engine time
from η = 1 (Fig. 5c) and the η sweep (Fig. 5f).
"""
import sys

import numpy as np

from benchmarks.common import Row, equal_time_race, interleaved_medians, ratio_row
from datasets.trees import read_file
from engine.core.rng import make_rng
from engine.kernels import moves
from engine.models.ptsg.model import PtsgModel
from engine.parsing.grammars import evaluate
from engine.samplers import make_sampler
from tests.corpora import GUM_CONST, gum_split

CHECKPOINTS = (10.0, 30.0, 100.0, 300.0)  # engine seconds (Fig. 5c)
ETAS = (0.1, 0.5, 1.0)  # Fig. 5f's initialisations
ETA_SECONDS = 60.0
PTSG_SWEEPS = 100  # the TYPE chain whose samples' grammar parses dev (α = 10: docs/benchmarks.md)
PTSG_SAMPLES = 10  # the samples it averages, 5 sweeps apart in the chain's second half


def treebank(part):
    return [tree for path in gum_split(part) for tree in read_file(path).trees]


def sweep_times(model, names, eta, targets):
    """Median sweep time of sweeps 11–30 of each sampler in ``names`` from η (the first sweeps
    from η = 1 do more work), each on its own chain, the samplers' sweeps taken in turn; the
    name ``token-at-random`` is TOKEN's moves in a fresh random order of the sites each sweep
    (where a TYPE block's sites lie: the yardstick of TYPE's memory traffic)."""
    sweeps = [scattered_token(model, eta) if name == "token-at-random" else chain(model, name, eta)
              for name in names]
    seconds = interleaved_medians(sweeps, repeats=20, warmup=10)
    return [Row(f"{name.upper()} sweep, GUM train", spent * 1e3, target, "ms",
                f"median of sweeps 11–30 from η = {eta}, the samplers' sweeps taken in turn; "
                f"{model.n_sites:,} sites, {len(model.trees):,} trees")
            for name, spent, target in zip(names, seconds, targets)]


def chain(model, name, eta):
    """A sweep of sampler ``name`` on a chain of its own from η."""
    rng = make_rng(1)
    state, sampler = model.new_state(rng, eta=eta), make_sampler(name)
    return lambda: sampler.sweep(rng, state)


def scattered_token(model, eta):
    """A TOKEN sweep in a random order of the sites, on a chain of its own from η."""
    rng = make_rng(1)
    state, w = model.new_state(rng, eta=eta), np.zeros(2)

    def sweep():
        moves.token_scan(rng, state, rng.permutation(model.n_sites), 1.0, w)
    return sweep


def parsing(train, dev):
    """F1 on GUM dev (≤ 40 words) of the PCFG, the parent-annotated PCFG and the PTSG."""
    scores, rows = {}, []
    for kind, settings in (("pcfg", {}), ("pcfg-parent", {}),
                           ("ptsg", dict(sampler="type", iters=PTSG_SWEEPS, seed=0,
                                         average=PTSG_SAMPLES))):
        _, scores[kind] = evaluate(kind, train, dev, 40, **settings)
        print(f"  {kind}: {scores[kind]}", file=sys.stderr)
    plain, parent, ptsg = (scores[k] for k in ("pcfg", "pcfg-parent", "ptsg"))
    how = f"GUM dev, {plain['sentences']} sentences of ≤ 40 words, from words; EVALB COLLINS.prm"
    rows += [Row("Parsing GUM dev with the PTSG's grammar", ptsg["seconds"], 60.0, "s",
                 f"{ptsg['sentences']} sentences, Viterbi CKY (kernel loaded beforehand)"),
             Row("F1, PCFG", plain["f1"] * 100, None, "", how),
             Row("F1, parent-annotated PCFG", parent["f1"] * 100, None, "", how),
             Row("F1, PTSG (TYPE samples)", ptsg["f1"] * 100, 70.0, "",
                 f"the mean grammar of {PTSG_SAMPLES} samples of {PTSG_SWEEPS} TYPE sweeps "
                 f"from η = 1 (fn. 6), seed 0, α = 10; {how}", higher=True),
             Row("F1, PTSG − PCFG", (ptsg["f1"] - plain["f1"]) * 100, 3.0, "points", how,
                 higher=True)]
    return rows


def race(model, eta, checkpoints):
    reached = equal_time_race(model, checkpoints, eta=eta)
    gaps = {c: reached["type"][c][0] - reached["token"][c][0] for c in checkpoints}
    for c in checkpoints:
        (lt, _, st), (ly, _, sy) = reached["token"][c], reached["type"][c]
        print(f"  η = {eta}, {c:>5g} s: TOKEN {lt:,.0f} ({st} sweeps), TYPE {ly:,.0f} "
              f"({sy} sweeps)", file=sys.stderr)
    return reached, gaps


def figure_5c(model):
    reached, gaps = race(model, 1.0, CHECKPOINTS)
    table = "; ".join(f"{c:g} s: TYPE {reached['type'][c][0]:,.0f} ({reached['type'][c][2]} "
                      f"sweeps) vs TOKEN {reached['token'][c][0]:,.0f} "
                      f"({reached['token'][c][2]})" for c in CHECKPOINTS)
    return Row("TYPE − TOKEN log-prob at equal engine time, η = 1 (smallest gap)",
               min(gaps.values()), 0.0, "", f"Fig. 5c, GUM train; {table}", higher=True)


def figure_5f(model):
    gaps = {eta: race(model, eta, (ETA_SECONDS,))[1][ETA_SECONDS] for eta in ETAS}
    table = "; ".join(f"η = {eta:g}: {gap:+,.0f}" for eta, gap in gaps.items())
    growing = all(gaps[a] < gaps[b] for a, b in zip(ETAS, ETAS[1:]))
    return Row("TYPE's lead grows with η (1 = yes)", float(growing), 1.0, "",
               f"Fig. 5f: TYPE − TOKEN log-prob after {ETA_SECONDS:g} engine s from the same "
               f"start; {table}", higher=True)


def rows():
    if not (GUM_CONST / "SPLITS.tsv").exists():
        print(f"skipping the PTSG benchmarks: {GUM_CONST} is missing", file=sys.stderr)
        return []
    train, dev = treebank("train"), treebank("dev")
    model = PtsgModel(train)
    token, type_, scattered, sentence = sweep_times(
        model, ("token", "type", "token-at-random", "sentence"), 1.0, (60.0, None, None, None))
    return [token, type_, ratio_row(type_, token, 4.0, "GUM train"), scattered,
            ratio_row(type_, scattered, None, "GUM train, TOKEN's sites in a random order"),
            sentence,
            *parsing(train, dev),
            figure_5c(model), figure_5f(model)]
