"""Issue 15's figures: Gao & Johnson's estimators on UD English-EWT dev (UPOS), K = 17 (25k
tokens: their "24K × 17" column).

Per iteration: EM and VB ≤ 10 ms (forward-backward over the corpus), explicit pointwise ≤ 3 ms,
explicit blocked ≤ 8 ms; beside them the collapsed twins (TOKEN, SENTENCE) and what bounds the
explicit pointwise sampler from below: drawing the K × V emission probabilities, one Gamma
variate each. Their qualitative findings need the grid of runs:
``python -m engine gj-grid --data en_ewt-ud-dev.conllu --iters 1000 --starts 3``
(docs/benchmarks.md has its output).
"""
import sys

import numpy as np

from benchmarks.common import Row, median_seconds
from benchmarks.hmm import EWT
from datasets.tagged import load_tagged
from engine.core.rng import make_rng
from engine.kernels import estimators
from engine.models.hmm.kernels.layout import ALPHA, ALPHA_EMIT
from engine.models.hmm.model import HmmModel
from engine.samplers import label, make_sampler

TARGETS = {"em": 10.0, "vb": 10.0, "explicit-token": 3.0, "explicit-sentence": 8.0}
TWINS = {"em": "token", "vb": "em", "explicit-token": "token", "explicit-sentence": "sentence"}


def iteration_ms(model, name):
    """Median ms of iterations 11–40 from η = 0 (the grid's start)."""
    rng = make_rng(1)
    state = model.new_state(rng, eta=0.0)
    sampler = make_sampler(name)
    return 1e3 * median_seconds(lambda: sampler.sweep(rng, state), repeats=30, warmup=10)


def parameter_draw_ms(model):
    """Median ms of one draw of θ and φ from their posterior (eq. 5): the explicit samplers'
    fixed cost per iteration."""
    rng = make_rng(1)
    state = model.new_state(rng, eta=0.0)
    theta = np.zeros(estimators.count_parameters(state))
    return 1e3 * median_seconds(lambda: estimators.draw_theta(rng, state, theta), repeats=30,
                                warmup=5)


def numpy_draw_ms(model):
    """Median ms of the same draw by numpy (``Generator.dirichlet`` for each transition row
    and each state's emissions, from the same counts): the yardstick a user of numpy would
    draw eq. 5 with."""
    rng = make_rng(1)
    state = model.new_state(rng, eta=0.0)
    trans = state.trans + state.params[ALPHA]
    emit = state.emit[1:] + state.params[ALPHA_EMIT]

    def draw():
        for row in trans:
            rng.dirichlet(row)
        for row in emit:
            rng.dirichlet(row)
    return 1e3 * median_seconds(draw, repeats=30, warmup=5)


def rows():
    if not EWT.exists():
        print(f"skipping the estimator benchmarks: {EWT} is missing", file=sys.stderr)
        return []
    model = HmmModel.from_corpus(load_tagged(EWT, format="conllu"), 17)
    where = f"EWT dev, K = 17, {model.n_sites:,} tokens, V = {len(model.vocabulary):,}"
    ms = {name: iteration_ms(model, name) for name in (*TARGETS, "token", "sentence")}
    draw = parameter_draw_ms(model)
    out = []
    for name, target in TARGETS.items():
        out.append(Row(f"{label(name)} iteration", ms[name], target, "ms",
                       f"median of iterations 11–40 from η = 0; {where}"))
        twin = TWINS[name]
        out.append(Row(f"  … / {label(twin)} iteration", ms[name] / ms[twin], None, "×",
                       f"{ms[name]:.3g} ms / {ms[twin]:.3g} ms"))
    cells = (model.n_states + 1) * (model.n_states + 1) + model.n_states * len(model.vocabulary)
    out.append(Row("explicit TOKEN's parameter draw (eq. 5)", draw, None, "ms",
                   f"{cells:,} Gamma variates as their logs (a count of 0: the ziggurat of "
                   "engine.core.small_gamma; else Marsaglia & Tsang, engine.core.dirichlet), "
                   "exponentiated in one vectorised pass and normalised"))
    out.append(Row("  … explicit TOKEN iteration / its parameter draw", ms["explicit-token"] / draw,
                   None, "×", "the draw alone is the floor of an explicit iteration"))
    return out
