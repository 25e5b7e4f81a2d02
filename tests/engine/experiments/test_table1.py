"""Table 1's grid, summary and layout, and `python -m engine table1` as a user runs it."""

import pandas as pd
import pytest

from engine.cli import filter as filters
from engine.experiments import table1
from engine.grid import ModelRecipe
from tests.command import engine



def test_the_grid_has_their_runs_and_n_1_once():
    recipes = {"unigram": ModelRecipe("usm"), "bigram": ModelRecipe("bigram")}
    tasks = table1.grid(recipes)
    count = pd.Series([(t.model, t.learner, t.particles, t.threshold) for t in tasks]) \
        .value_counts()
    assert count[("unigram", "DPM", 1, "N")] == 1
    assert count[("unigram", "PF", 1, "N")] == 10 and ("unigram", "PF", 1, "N/2") not in count
    assert count[("bigram", "PF", 100, "N/2")] == 10 and count[("bigram", "PF", 1000, "N")] == 2
    assert len(tasks) == 2 * (1 + 10 + 2 * (10 + 10 + 2 + 2))
    assert tasks[0].model == "bigram" and tasks[0].particles == 1000  # the slowest first
    seeds = sorted(t.seed for t in tasks if t.model == "unigram" and t.particles == 50
                   and t.threshold == "N")
    assert seeds == list(range(10))


def rows():
    return pd.DataFrame([
        dict(model="unigram", learner="PF", particles=50, threshold="N/2", token_f=0.6,
             boundary_f=0.8, lexicon_f=0.4, log_prob=-240_000.0, seconds=1.0),
        dict(model="unigram", learner="PF", particles=50, threshold="N/2", token_f=0.7,
             boundary_f=0.8, lexicon_f=0.5, log_prob=-238_000.0, seconds=3.0),
        dict(model="unigram", learner="PF", particles=1000, threshold="N/2", token_f=0.66,
             boundary_f=0.8, lexicon_f=0.47, log_prob=-232_000.0, seconds=20.0),
        dict(model="unigram", learner="DPM", particles=1, threshold="N", token_f=0.65,
             boundary_f=0.8, lexicon_f=0.45, log_prob=-234_000.0, seconds=0.2),
    ])


def test_the_table_is_in_their_units_with_means_and_sds():
    summary = table1.table(rows())
    fifty = summary[summary["particles"] == 50].iloc[0]
    assert fifty["runs"] == 2 and fifty["token_f"] == pytest.approx(65.0)
    assert fifty["token_f_sd"] == pytest.approx(7.0710678, rel=1e-6)
    assert fifty["log_prob"] == pytest.approx(-239.0)


def test_the_layout_puts_ours_beside_theirs():
    text = table1.layout(table1.table(rows()))
    line = next(l for l in text.splitlines() if l.startswith("PF 50 N/2"))
    assert "65.00 (7.07) |   59.84 (6.00)" in line and "-239.00 (1.41) | -240.58 (5.18)" in line
    assert next(l for l in text.splitlines() if l.startswith("MH-MCMC")).count("–") == 4
    assert "PF 500 N/2" in text  # their rows we did not run are listed with a dash


def test_the_shape_checks():
    checks = table1.shape_checks(table1.table(rows()))
    assert checks["unigram N/2: log-prob rises with N"] is True
    assert checks["unigram 1000 N/2: log-prob off theirs"] == pytest.approx(232 / 231.93 - 1)
    falling = rows().assign(log_prob=lambda f: -f["particles"] * 1.0)
    assert table1.shape_checks(table1.table(falling))["unigram N/2: log-prob rises with N"] \
        is False



def test_the_command_prints_their_layout(tmp_path):
    out = tmp_path / "rows.csv"
    done = engine("table1", "--models", "unigram", "--sizes", "1,3", "--runs", 2,
                  "--workers", 1, "--out", out)
    assert done.returncode == 0, done.stderr
    assert "unigram: ours (sd) | theirs (sd)" in done.stdout
    assert done.stdout.startswith(filters.corpus_note(None))  # the corpora differ
    assert "unigram N: log-prob rises with N:" in done.stdout
    assert "table1: 7/7" in done.stderr  # DPM, N = 1 twice, N = 3 twice per threshold
    assert len(pd.read_csv(out)) == 7


@pytest.mark.parametrize("args, says", [
    (["--sizes", "0"], "--sizes: must be between 1"),
    (["--models", "trigram"], "--models"),
    (["--runs", "0"], "--runs: must be between 1"),
    (["--data", "/no/such/file.txt"], "no/such/file.txt"),
])
def test_bad_arguments_get_one_line(args, says):
    done = engine("table1", *args)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
