"""Gao & Johnson's grid (engine.experiments.gao_johnson) and its command (python -m engine gj-grid): the
convergence rule, the best combination per estimator and figure, their findings, the layout,
and the command end to end on the built-in sentences."""
import math

import numpy as np
import pandas as pd
import pytest

from engine.experiments import gao_johnson
from engine.grid import ModelRecipe, run_grid
from tests.command import engine


def test_converged_at_is_the_first_iteration_that_stays_within_half_a_percent():
    objective = np.r_[np.nan, -2000.0, -1500.0, -1010.0, -1004.0, -1001.0, -1000.0, -1000.0]
    # from iteration 4 (−1004) the next ones stay within 0.5% (5.02); from 3 (−1010), −1004
    # is 6 away
    assert gao_johnson.converged_at(objective, window=2) == 4
    assert gao_johnson.converged_at(objective, window=3) == 4
    assert math.isnan(gao_johnson.converged_at(objective, window=4))  # no whole window after 4
    assert math.isnan(gao_johnson.converged_at(np.r_[np.nan, -10.0, -20.0, -40.0, -80.0], 2))


def rows_of(values):
    """Rows as EstimatorTask.run returns them, from {(sampler, α, α′): [1-to-1 per start]}."""
    rows = []
    for (sampler, alpha, alpha_emit), scores in values.items():
        for start, score in enumerate(scores):
            rows.append({"sampler": sampler, "alpha": alpha, "alpha_emit": alpha_emit,
                         "start": start, "iterations": 100, "objective_kind": "bound",
                         "objective": -1.0, "loglik": -2.0, "acc_many_to_one": score,
                         "acc_one_to_one": score, "acc_cross_validation": score,
                         "vi": 5 - score, "converged_at": 10.0 if sampler == "vb" else np.nan,
                         "seconds_per_iteration": 0.001})
    return pd.DataFrame(rows)


def test_the_best_combination_is_chosen_per_estimator_and_figure():
    table = gao_johnson.means(rows_of({("em", 1.0, 1.0): [0.2, 0.4], ("em", 0.1, 0.1): [0.5, 0.5],
                                   ("vb", 1.0, 1.0): [0.3, 0.3],
                                   ("token", 0.1, 0.0001): [0.6, 0.8]}))
    figures = gao_johnson.figures(table)
    two = figures[2].set_index("sampler")
    assert list(two.index) == ["em", "vb", "token"]  # their order
    assert two.loc["em", "ours"] == 0.5 and (two.loc["em", "alpha"], two.loc["em", "alpha_emit"]) \
        == (0.1, 0.1)
    assert two.loc["token", "ours"] == pytest.approx(0.7)
    assert two.loc["em", "theirs"] == 0.28165
    four = figures[4].set_index("sampler")  # lower is better
    assert four.loc["em", "ours"] == pytest.approx(4.5)
    five = figures[5].set_index("sampler")  # never converged: the run's length, flagged
    assert five.loc["em", "ours"] == 100 and five.loc["em", "unconverged"] == 1.0
    assert five.loc["vb", "ours"] == 10 and five.loc["vb", "unconverged"] == 0.0
    claims = gao_johnson.claims(table)
    assert claims["VB converges in the fewest iterations"] == (True, True)
    # VI = 5 − score: VB's best (4.7) is worse than EM's (4.5) here, in theirs EM's is worst
    assert claims["EM has the worst VI"] == (False, True)
    text = gao_johnson.layout(table, starts=2, iterations=100, window=25)
    assert "Figure 3: cross-validation accuracy (higher is better)" in text
    assert "      100*" in text and "counted as its length" in text


def test_a_short_grid_runs_end_to_end_here():
    recipe = ModelRecipe("hmm", None, (("n_states", 4),))
    tasks = gao_johnson.grid(8, starts=2, samplers=("em", "explicit-sentence"),
                         combinations=((0.5, 0.5), (0.1, 0.0001)), window=2)
    rows = run_grid(recipe, tasks)
    assert len(rows) == 2 * 2 * 2
    assert set(rows["objective_kind"]) == {"likelihood", "log-probability"}
    assert ((rows["acc_one_to_one"] > 0) & (rows["acc_one_to_one"] <= 1)).all()
    # the same start for every estimator and combination: start r from seed r
    assert sorted({t.seed for t in tasks}) == [0, 1]
    again = run_grid(recipe, tasks)
    pd.testing.assert_frame_equal(rows.drop(columns="seconds_per_iteration"),
                                  again.drop(columns="seconds_per_iteration"))


def test_the_window_must_be_shorter_than_the_run():
    with pytest.raises(ValueError, match="shorter than the run"):
        gao_johnson.grid(10, window=10)



def test_the_command_prints_figures_two_to_five(tmp_path):
    out = tmp_path / "rows.csv"
    done = engine("gj-grid", "--iters", "6", "--starts", "1", "--estimators", "em,token",
                  "--workers", "1", "--states", "5", "--out", str(out))
    assert done.returncode == 0, done.stderr
    for number in (2, 3, 4, 5):
        assert f"Figure {number}:" in done.stdout
    assert "EM has the worst VI: ours" in done.stdout
    assert "gj-grid: 16/16" in done.stderr
    rows = pd.read_csv(out)
    assert len(rows) == 16 and set(rows["sampler"]) == {"em", "token"}


@pytest.mark.parametrize("args, message", [
    (("--iters", "1"), "--iters"),
    (("--iters", "10", "--estimators", "em,nope"), "nope"),
    (("--iters", "10", "--data", "/nonexistent/corpus.conllu"), "/nonexistent/corpus.conllu"),
])
def test_bad_arguments_get_one_line(args, message):
    done = engine("gj-grid", "--workers", "1", *args)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr
