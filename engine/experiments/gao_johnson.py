"""Gao & Johnson (2008)'s comparison (their §3, Figures 2–5): the six estimators × their eight
(α, α′) combinations × several starts, on the Dask grid (engine.grid) like every grid of the
lab; for each estimator and figure, the best combination's mean over starts, beside their
published numbers for the 24K-word × 17-state column.

Their convergence rule (Fig. 5) is the first iteration after which the objective (−log
posterior probability, or likelihood, or VB's bound) changes by less than 0.5% over at least
2,000 iterations. Runs here are shorter, so the window is a quarter of the run (250 iterations
of 1,000) unless given: ``converged_at`` says which.
"""
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.grid import BuiltModel, ChainTask, run_chain

ESTIMATORS = ("em", "vb", "explicit-token", "explicit-sentence", "token", "sentence")
PAPER_NAMES = {"em": "EM", "vb": "VB", "explicit-token": "GSe,p", "explicit-sentence": "GSe,b",
               "token": "GSc,p", "sentence": "GSc,b"}
# their (α, α′) combinations, which include Johnson (2007)'s best
COMBINATIONS = ((1.0, 1.0), (1.0, 0.5), (0.5, 1.0), (0.5, 0.5), (0.1, 0.1), (0.1, 0.0001),
                (0.0001, 0.1), (0.0001, 0.0001))
TOLERANCE = 0.005  # their 0.5%

# (trace column, title, whether larger is better) of Figures 2–5
FIGURES = {
    2: ("acc_one_to_one", "greedy 1-to-1 accuracy", True),
    3: ("acc_cross_validation", "cross-validation accuracy", True),
    4: ("vi", "variation of information", False),
    5: ("converged_at", "iterations to converge", False),
}
# their 24K × 17 column (Figures 2–5), WSJ with Smith & Eisner's 17 coarse tags
PAPER = {
    "acc_one_to_one": {"em": 0.28165, "vb": 0.36599, "explicit-token": 0.36811,
                       "explicit-sentence": 0.37032, "token": 0.39164, "sentence": 0.36793},
    "acc_cross_validation": {"em": 0.46669, "vb": 0.36926, "explicit-token": 0.37165,
                             "explicit-sentence": 0.37311, "token": 0.62254,
                             "sentence": 0.58728},
    "vi": {"em": 5.42815, "vb": 3.14557, "explicit-token": 3.17076, "explicit-sentence": 3.10609,
           "token": 3.18273, "sentence": 3.17780},
    "converged_at": {"em": 125, "vb": 20, "explicit-token": 177, "explicit-sentence": 139,
                     "token": 43208, "sentence": 7985},
}


def converged_at(objective, window, tolerance=TOLERANCE):
    """The first iteration i ≥ 1 from which the objective stays within ``tolerance`` (relative)
    of its value at i for the next ``window`` iterations; NaN when no i has a whole window
    after it that does.

    objective : float64[T + 1]   the trace's objective, row 0 the start's
    """
    values = np.asarray(objective, float)
    for i in range(1, len(values) - window):
        ahead = values[i:i + window + 1]
        if np.all(np.abs(ahead - values[i]) <= tolerance * abs(values[i])):
            return i
    return math.nan


@dataclass(frozen=True)
class EstimatorTask:
    """One run of the grid: an estimator with (α, α′) from start ``start`` (seed), for
    ``iterations`` iterations (a task engine.grid.run_grid runs)."""

    sampler: str
    alpha: float
    alpha_emit: float
    start: int
    seed: int
    iterations: int
    window: int
    eta: float = 0.0  # each token's state uniformly at random: EM/VB's jittered uniform start
    measure_share: float = 0.05

    def run(self, recipe):
        """One summary row: the keys, the final measures, the iteration it converged at and
        the engine seconds per iteration."""
        model = recipe.build().with_prior(alpha=self.alpha, alpha_emit=self.alpha_emit)
        chain = ChainTask(self.sampler, self.start, self.seed, self.eta, self.iterations,
                          measure_share=self.measure_share)
        trace = run_chain(BuiltModel(model), chain)
        last = trace.iloc[-1]
        row = {"sampler": self.sampler, "alpha": self.alpha, "alpha_emit": self.alpha_emit,
               "start": self.start, "iterations": self.iterations,
               "objective_kind": last["objective_kind"], "objective": last["objective"],
               "loglik": last["loglik"],
               **{column: last[column] for column, _, _ in FIGURES.values()
                  if column in trace},
               "converged_at": converged_at(trace["objective"], self.window),
               "seconds_per_iteration": last["seconds"] / self.iterations}
        return pd.DataFrame([row])


def grid(iterations, starts=3, samplers=ESTIMATORS, combinations=COMBINATIONS, seed=0,
         window=None):
    """Every task: each estimator × combination × start, start r from seed ``seed + r`` (the
    same initial tagging for every estimator and combination)."""
    window = window or max(1, iterations // 4)
    if window >= iterations:
        raise ValueError(f"the convergence window ({window}) must be shorter than the run "
                         f"({iterations} iterations)")
    return [EstimatorTask(sampler, alpha, alpha_emit, r, seed + r, iterations, window)
            for sampler in samplers for alpha, alpha_emit in combinations
            for r in range(starts)]


def means(rows):
    """Mean over starts per (estimator, α, α′) of every figure; a run that never converged
    counts as its length (and ``unconverged`` says how many)."""
    frame = rows.copy()
    frame["unconverged"] = frame["converged_at"].isna()
    frame["converged_at"] = frame["converged_at"].fillna(frame["iterations"])
    figures = [c for c, _, _ in FIGURES.values() if c in frame] + [
        "objective", "loglik", "seconds_per_iteration", "unconverged"]
    grouped = frame.groupby(["sampler", "alpha", "alpha_emit"], sort=False)
    return grouped[figures].mean().join(grouped.size().rename("starts")).reset_index()


def best(table, column, larger_is_better):
    """Per estimator, the row of the combination with the best mean ``column``."""
    ordered = table.sort_values(column, ascending=not larger_is_better, kind="stable")
    return ordered.groupby("sampler", sort=False).head(1).set_index("sampler")


def figures(table):
    """{figure number: frame per estimator (in ESTIMATORS order) of ours, its (α, α′), theirs}."""
    out = {}
    for number, (column, _, larger) in FIGURES.items():
        if column not in table:
            continue
        chosen = best(table, column, larger)
        present = [s for s in ESTIMATORS if s in chosen.index]
        out[number] = pd.DataFrame({
            "estimator": [PAPER_NAMES[s] for s in present],
            "sampler": present,
            "ours": [chosen.loc[s, column] for s in present],
            "alpha": [chosen.loc[s, "alpha"] for s in present],
            "alpha_emit": [chosen.loc[s, "alpha_emit"] for s in present],
            "theirs": [PAPER[column][s] for s in present],
            "unconverged": [chosen.loc[s, "unconverged"] for s in present]})
    return out


def layout(table, starts, iterations, window):
    """Figures 2–5 as text: per figure, each estimator's best mean, its (α, α′), theirs."""
    lines = [f"best of {table.groupby('sampler').size().max()} (α, α′) combinations per "
             f"estimator; means over {starts} start(s) of {iterations:,} iterations; theirs: the "
             "24K × 17 column (WSJ, 17 coarse tags)",
             f"convergence: the objective within {100 * TOLERANCE:g}% over the next "
             f"{window:,} iterations (theirs: over 2,000)"]
    for number, frame in figures(table).items():
        _, title, larger = FIGURES[number]
        lines += ["", f"Figure {number}: {title} ({'higher' if larger else 'lower'} is better)",
                  f"{'estimator':<10}{'ours':>10}  {'(α, α′)':<16}{'theirs':>10}"]
        for row in frame.itertuples():
            ours = f"{row.ours:10.4f}"
            if number == 5:
                ours = f"{row.ours:9.0f}" + ("*" if row.unconverged else " ")
            theirs = f"{row.theirs:10.0f}" if number == 5 else f"{row.theirs:10.5f}"
            lines.append(f"{row.estimator:<10}{ours}  {f'({row.alpha:g}, {row.alpha_emit:g})':<16}"
                         f"{theirs}")
        if number == 5 and frame["unconverged"].any():
            lines.append("* some starts had not converged by the run's end: counted as its length")
    return "\n".join(lines)


def claims(table):
    """Their three findings on this column, ours beside theirs: {claim: (ours, theirs)}."""
    found = figures(table)
    out = {}

    def best_of(number, larger):
        frame = found.get(number)
        if frame is None:
            return None, None
        pick = frame["ours"].idxmax() if larger else frame["ours"].idxmin()
        theirs = frame["theirs"].idxmax() if larger else frame["theirs"].idxmin()
        return frame.loc[pick, "sampler"], frame.loc[theirs, "sampler"]

    ours, theirs = best_of(5, larger=False)
    if ours:
        out["VB converges in the fewest iterations"] = (ours == "vb", theirs == "vb")
    frame = found.get(3)
    if frame is not None:
        top_two = set(frame.nlargest(2, "ours")["sampler"])
        theirs_top = set(frame.nlargest(2, "theirs")["sampler"])
        out["the collapsed samplers have the best cross-validation accuracy"] = (
            top_two == {"token", "sentence"}, theirs_top == {"token", "sentence"})
    ours, theirs = best_of(4, larger=True)
    if ours:
        out["EM has the worst VI"] = (ours == "em", theirs == "em")
    return out
