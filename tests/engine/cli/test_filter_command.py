"""python -m engine filter as a user runs it: the trace, the §6.1 scores, several runs, the
baselines, and one-line errors with status 2."""
import json

import pandas as pd
import pytest

from datasets.builtin import builtin_corpus
from datasets.segmented import load_segmented
from tests.command import engine
from tests.root import ROOT

NURSERY = str(ROOT / "datasets" / "builtin" / "nursery.txt")
SCORES = {"token_f", "boundary_f", "lexicon_f", "log_prob"}


def test_filter_writes_a_row_per_utterance_and_prints_the_scores(tmp_path):
    trace, output = tmp_path / "trace.csv", tmp_path / "seg.txt"
    done = engine("filter", "--model", "unigram", "--data", NURSERY, "--particles", 20,
                  "--threshold", "N/2", "--resampling", "systematic", "--seed", 3,
                  "--trace", trace, "--output", output)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    assert list(frame.columns) == ["utterance", "seconds", "ess", "resampled", "log_z",
                                   "distinct_particles"]
    assert list(frame.utterance) == list(range(1, 409))
    assert frame.ess.between(1, 20).all() and frame.seconds.is_monotonic_increasing
    assert (frame.distinct_particles[frame.resampled == 0] == 20).all()
    assert frame.log_z.is_monotonic_decreasing  # each utterance has probability below one
    scores = json.loads(done.stdout)
    assert SCORES <= set(scores) and 0 < scores["token_f"] < 1
    assert load_segmented(output).texts == builtin_corpus().texts


def test_runs_write_one_summary_row_each(tmp_path):
    trace, runs = tmp_path / "trace.csv", tmp_path / "runs.csv"
    done = engine("filter", "--model", "usm", "--particles", 5, "--runs", 3, "--seed", 7,
                  "--runs-out", runs, "--trace", trace)
    assert done.returncode == 0, done.stderr
    summary = pd.read_csv(runs)
    assert list(summary.run) == [0, 1, 2] and list(summary.seed) == [7, 8, 9]
    assert {"log_z", "final_ess"} | SCORES <= set(summary.columns)
    assert summary.log_z.nunique() == 3
    assert list(pd.read_csv(trace).groupby("run").size()) == [408] * 3
    printed = json.loads(done.stdout)
    assert printed["runs"] == 3
    assert printed["log_z_mean"] == pytest.approx(summary.log_z.mean())


def test_the_same_seed_gives_the_same_filter(tmp_path):
    frames = []
    for name in ("a", "b"):
        engine("filter", "--model", "usm", "--particles", 10, "--seed", 5,
               "--trace", tmp_path / f"{name}.csv")
        frames.append(pd.read_csv(tmp_path / f"{name}.csv").drop(columns="seconds"))
    pd.testing.assert_frame_equal(*frames)


@pytest.mark.parametrize("baseline", ["dpm", "dps"])
def test_baselines_run_one_particle(tmp_path, baseline):
    done = engine("filter", "--model", "usm", "--baseline", baseline, "--trace",
                  tmp_path / "t.csv")
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(tmp_path / "t.csv")
    assert (frame.ess == 1).all() and (frame.distinct_particles == 1).all()


@pytest.mark.parametrize("sampler", ["token", "type"])
def test_rejuvenation_adds_the_acceptance(tmp_path, sampler):
    done = engine("filter", "--model", "unigram", "--particles", 8, "--rejuvenate", 3,
                  "--rejuvenation-sampler", sampler, "--rejuvenate-every", 2,
                  "--trace", tmp_path / "t.csv")
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(tmp_path / "t.csv")
    assert frame.acceptance.iloc[1::2].between(0, 1).all()  # every second utterance
    assert frame.acceptance.iloc[0::2].isna().all()


@pytest.mark.parametrize("args, says", [
    (["--model", "hmm", "--particles", 3], "invalid choice: 'hmm'"),
    (["--model", "usm"], "give --particles N"),
    (["--model", "usm", "--particles", 0], "--particles: must be between 1"),
    (["--model", "usm", "--particles", 5, "--threshold", "2"], "fraction of N must be in"),
    (["--model", "usm", "--particles", 5, "--threshold", "most"], "threshold is N, N/2"),
    (["--model", "usm", "--baseline", "dpm", "--particles", 5], "runs one particle"),
    (["--model", "usm", "--particles", 5, "--runs", 2], "give --runs-out"),
    (["--model", "bigram", "--particles", 5, "--rejuvenate", 2],
     "the bigram model's particles take no rejuvenation moves: leave out --rejuvenate"),
    (["--model", "usm", "--baseline", "dps", "--rejuvenate", 2], "leave out --rejuvenate"),
    (["--model", "usm", "--particles", 5, "--rejuvenate", 0], "--rejuvenate: must be"),
    (["--model", "usm", "--particles", 5, "--phi", "-1"], "--phi: must be between"),
    (["--model", "usm", "--particles", 5, "--resampling", "stratified"], "invalid choice"),
])
def test_bad_arguments_get_one_line(tmp_path, args, says):
    done = engine("filter", *args, "--trace", tmp_path / "t.csv")
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
