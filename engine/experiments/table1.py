"""Börschinger & Johnson (2011)'s Table 1: the particle filter for N ∈ {1, 50, 100, 500, 1000}
particles × resampling threshold {N, N/2} × the unigram and bigram models, and the DPM learner,
each run several times; token, boundary and lexicon F and the log-probability of the final
states (×10³), means and standard deviations over runs — on the Dask grid (engine.grid) like
every grid of the lab.

``PAPER`` holds their published figures, to print beside ours.
"""
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.models import registry
from engine.samplers.particle import ParticleFilter

SIZES = (1, 50, 100, 500, 1000)
THRESHOLDS = ("N", "N/2")
MODELS = {"unigram": "usm", "bigram": "bigram"}  # the paper's names → the registry's
FIGURES = ("token_f", "boundary_f", "lexicon_f", "log_prob")
# their runs: 10 trials for 1, 50 and 100 particles, 2 for 500 and 1000 (their footnote 12)
PAPER_RUNS = {1: 10, 50: 10, 100: 10, 500: 2, 1000: 2}

# (model, learner, N, threshold) → (TF, BF, LF, log-prob ×10³) and their standard deviations
# (None where they give none); learner "PF" with N = 1 has one row for both thresholds
PAPER = {
    ("unigram", "MH-MCMC", None, None): ((63.11, 80.29, 59.68, -209.57), None),
    ("unigram", "DPM", None, None): ((65.65, 80.05, 44.96, -234.11), None),
    ("unigram", "PF", 1, None): ((56.84, 74.94, 35.34, -244.28), (4.36, 2.92, 3.21, 5.56)),
    ("unigram", "PF", 50, "N"): ((60.33, 77.08, 41.61, -240.38), (5.82, 3.68, 3.40, 6.43)),
    ("unigram", "PF", 50, "N/2"): ((59.84, 76.98, 41.62, -240.58), (6.00, 3.75, 3.15, 5.18)),
    ("unigram", "PF", 100, "N"): ((62.97, 79.05, 43.04, -238.73), (3.21, 2.09, 2.29, 4.64)),
    ("unigram", "PF", 100, "N/2"): ((61.02, 77.87, 43.61, -238.92), (4.94, 3.14, 2.90, 5.69)),
    ("unigram", "PF", 500, "N"): ((60.81, 77.50, 45.25, -236.55), (7.05, 4.36, 3.67, 6.13)),
    ("unigram", "PF", 500, "N/2"): ((68.46, 82.27, 47.52, -231.85), (1.87, 1.11, 0.23, 2.25)),
    ("unigram", "PF", 1000, "N"): ((64.11, 79.70, 45.82, -234.87), (4.84, 2.74, 1.36, 3.10)),
    ("unigram", "PF", 1000, "N/2"): ((66.54, 80.99, 47.08, -231.93), (5.31, 3.24, 2.90, 3.55)),
    ("bigram", "MH-MCMC", None, None): ((63.71, 79.52, 47.45, -240.79), None),
    ("bigram", "DMCMC", None, None): ((70.78, 83.97, 47.85, -244.85), None),
    ("bigram", "DPM", None, None): ((66.92, 81.07, 52.54, -250.52), None),
    ("bigram", "PF", 1, None): ((48.55, 71.22, 35.02, -266.90), (3.04, 1.82, 2.14, 2.40)),
    ("bigram", "PF", 50, "N"): ((55.98, 75.21, 43.34, -258.42), (2.29, 1.42, 1.76, 2.22)),
    ("bigram", "PF", 50, "N/2"): ((57.85, 76.49, 45.21, -256.16), (3.85, 1.93, 1.79, 4.24)),
    ("bigram", "PF", 100, "N"): ((57.77, 76.40, 43.77, -257.93), (2.77, 1.45, 1.46, 2.03)),
    ("bigram", "PF", 100, "N/2"): ((61.55, 78.47, 45.79, -254.66), (2.06, 1.30, 1.50, 1.47)),
    ("bigram", "PF", 500, "N"): ((57.99, 76.33, 44.70, -256.44), (0.59, 0.33, 0.16, 1.01)),
    ("bigram", "PF", 500, "N/2"): ((63.58, 80.05, 47.82, -252.14), (1.73, 0.94, 0.82, 0.46)),
    ("bigram", "PF", 1000, "N"): ((57.88, 76.55, 46.93, -254.17), (0.48, 0.05, 0.41, 0.92)),
    ("bigram", "PF", 1000, "N/2"): ((61.76, 78.30, 49.33, -251.33), (1.11, 1.31, 0.88, 0.03)),
}


@dataclass(frozen=True)
class FilterTask:
    """One filter run of the grid (a task engine.grid.run_grid runs): the learner "PF" (N
    particles, resampling threshold) or "DPM", on the model of ``recipe``, from ``seed``."""

    recipe: object  # engine.grid.ModelRecipe (or BuiltModel): the tasks of both models mix
    model: str  # the paper's name: unigram or bigram
    learner: str
    particles: int
    threshold: str
    seed: int
    resampling: str = "multinomial"

    def run(self, _=None):
        """One summary row: the task's keys, log Ẑ, the final ESS, §6.1's scores and the
        engine seconds (the grid's shared recipe is unused: the task has its own)."""
        particle_filter = ParticleFilter(
            self.recipe.build().particles(), self.particles, self.seed, threshold=self.threshold,
            resampling=self.resampling, greedy=self.learner == "DPM", threads=1)
        particle_filter.run()
        scores = particle_filter.evaluate()
        row = {"model": self.model, "learner": self.learner, "particles": self.particles,
               "threshold": self.threshold, "seed": self.seed, "log_z": particle_filter.log_z,
               "final_ess": particle_filter.trace[-1]["ess"],
               "seconds": particle_filter.seconds, **scores}
        return pd.DataFrame([row])


def grid(recipes, sizes=SIZES, runs=None, seed=0):
    """Every task of the table for ``recipes`` ({paper's model name: recipe}): DPM once per
    model, and for each N and threshold ``runs`` runs (None: the paper's numbers of trials),
    run r from seed ``seed + r``. With one particle the threshold makes no difference: N = 1
    runs once per seed, under "N"."""
    tasks = []
    for model, recipe in recipes.items():
        tasks.append(FilterTask(recipe, model, "DPM", 1, "N", seed))
        for n in sizes:
            for threshold in (("N",) if n == 1 else THRESHOLDS):
                for r in range(PAPER_RUNS.get(n, 2) if runs is None else runs):
                    tasks.append(FilterTask(recipe, model, "PF", n, threshold, seed + r))
    # the largest first: the grid's slowest tasks do not wait at its end
    return sorted(tasks, key=lambda t: -t.particles * registry.get(t.model).particle_cost)


def table(rows):
    """Means and standard deviations over runs per (model, learner, N, threshold), F in
    percent and the log-probability ×10³ as the paper prints them."""
    frame = pd.DataFrame(rows).copy()
    for figure in FIGURES[:3]:
        frame[figure] = 100 * frame[figure]
    frame["log_prob"] = frame["log_prob"] / 1000
    keys = ["model", "learner", "particles", "threshold"]
    grouped = frame.groupby(keys, sort=False)[list(FIGURES) + ["seconds"]]
    spread = grouped.std(ddof=1).add_suffix("_sd")
    return grouped.mean().join(spread).join(grouped.size().rename("runs")).reset_index()


def _cell(mean, sd):
    spread = f" ({sd:4.2f})" if sd is not None and not math.isnan(sd) else " " * 7
    return f"{mean:7.2f}{spread}"


def _ours(summary, model, learner, n, threshold):
    """Our summary row for one of the paper's rows (None: a learner we do not run)."""
    if learner not in ("PF", "DPM"):
        return None
    rows = summary[(summary["model"] == model) & (summary["learner"] == learner)]
    if learner == "PF":
        rows = rows[(rows["particles"] == n) & (rows["threshold"] == (threshold or "N"))]
    return None if rows.empty else rows.iloc[0]


def _rows(summary, model):
    """The rows of a model's table: theirs in their order, then any of ours they lack (another
    N), as (learner, N, threshold) with threshold None for one particle."""
    rows = [key[1:] for key in PAPER if key[0] == model]
    ours = summary[(summary["model"] == model) & (summary["learner"] == "PF")].sort_values(
        ["particles", "threshold"])
    for n, threshold in zip(ours["particles"], ours["threshold"]):
        key = ("PF", n, None if n == 1 else threshold)
        if key not in rows:
            rows.append(key)
    return rows


def layout(summary):
    """Their Table 1 as text: per model, each of their rows with every figure as
    "ours (sd) | theirs (sd)"."""
    lines = []
    head = "  ".join(f"{name:^33}" for name in ("TF", "BF", "LF", "log-prob ×10³"))
    for model in summary["model"].unique():
        lines += ["", f"{model}: ours (sd) | theirs (sd)", f"{'learner':<14}{head}"]
        for learner, n, threshold in _rows(summary, model):
            mine = _ours(summary, model, learner, n, threshold)
            means, sds = PAPER.get((model, learner, n, threshold), (None, None))
            label = learner if learner != "PF" else f"PF {n} {threshold or ''}".rstrip()
            cells = []
            for i, figure in enumerate(FIGURES):
                ours = f"{'–':^15}" if mine is None else _cell(mine[figure],
                                                               mine[figure + "_sd"])
                theirs = f"{'–':^15}" if means is None else _cell(
                    means[i], None if sds is None else sds[i])
                cells.append(f"{ours} | {theirs}")
            lines.append(f"{label:<14}" + "  ".join(cells))
    return "\n".join(lines)
def shape_checks(summary):
    """The issue's figures from a summary: whether the log-probability rises with N (per model
    and threshold), and how far N = 1000, N/2 is from theirs."""
    checks = {}
    for (model, threshold), group in summary[summary["learner"] == "PF"].groupby(
            ["model", "threshold"]):
        ordered = group.sort_values("particles")["log_prob"].to_numpy()
        if len(ordered) > 1:
            checks[f"{model} {threshold}: log-prob rises with N"] = bool(
                np.all(np.diff(ordered) > 0))
    for model in summary["model"].unique():
        row = summary[(summary["model"] == model) & (summary["learner"] == "PF")
                      & (summary["particles"] == 1000) & (summary["threshold"] == "N/2")]
        if not row.empty:
            theirs = PAPER[(model, "PF", 1000, "N/2")][0][3]
            checks[f"{model} 1000 N/2: log-prob off theirs"] = abs(
                row.iloc[0]["log_prob"] / theirs - 1)
    return checks
