"""python -m engine as a user runs it: the files it writes, and one-line errors with status 2."""
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from datasets.segmented import load_segmented
from datasets.tagged import load_tagged
from engine.models.bigram.model import BigramModel
from engine.models.toy.model import ToyModel
from engine.models.usm.model import UsmModel
from tests.command import engine, engine_process
from tests.root import ROOT

NURSERY = str(ROOT / "datasets" / "builtin" / "nursery.txt")
TAGGED = str(ROOT / "datasets" / "builtin" / "tagged.txt")


def test_toy_posterior_writes_m_and_log_p(tmp_path):
    out = tmp_path / "posterior.csv"
    done = engine("toy-posterior", "--n", 25, "--out", out)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(out)
    assert list(frame.columns) == ["m", "log_p"] and list(frame.m) == list(range(26))
    np.testing.assert_allclose(frame.log_p, ToyModel(25).log_posterior(), rtol=1e-9)


@pytest.mark.parametrize("sampler", ["token", "type", "anneal", "greedy"])
def test_run_writes_a_trace_row_per_sweep_and_the_samples(tmp_path, sampler):
    trace, samples = tmp_path / "trace.csv", tmp_path / "samples.txt"
    done = engine("run", "--model", "toy", "--n", 40, "--init-m", 40, "--sampler", sampler,
                  "--iters", 6, "--seed", 1, "--trace", trace, "--samples", samples)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    assert {"sweep", "seconds", "loglik", "m"} <= set(frame.columns)
    assert list(frame.sweep) == list(range(7)) and frame.m[0] == 40
    lines = samples.read_text().splitlines()
    assert len(lines) == 6
    values = np.array([[int(v) for v in line.split(" ")] for line in lines])
    assert values.shape == (6, 40) and set(values.ravel()) <= {0, 1}
    assert list(values.sum(axis=1)) == list(frame.m[1:])


def test_the_same_seed_gives_the_same_run(tmp_path):
    for name in ("a", "b"):
        engine("run", "--model", "toy", "--n", 300, "--sampler", "token", "--iters", 5,
               "--seed", 9, "--trace", tmp_path / f"{name}.csv")
    a, b = (pd.read_csv(tmp_path / f"{name}.csv").drop(columns="seconds") for name in "ab")
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("args, says", [
    (["toy-posterior", "--n", "0", "--out", "{tmp}/p.csv"], "must be between 1 and 100,000, got 0"),
    (["toy-posterior", "--n", "abc", "--out", "{tmp}/p.csv"], "expected a whole number, got 'abc'"),
    (["toy-posterior", "--n", "5"], "the following arguments are required: --out"),
    (["run", "--model", "toy", "--n", "10", "--init-m", "11", "--sampler", "token", "--iters", "1",
      "--seed", "0", "--trace", "{tmp}/t.csv"], "the initial m must be between 0 and n = 10 (got 11)"),
    (["run", "--model", "toy", "--sampler", "gibbs", "--iters", "1", "--seed", "0",
      "--trace", "{tmp}/t.csv"], "invalid choice: 'gibbs'"),
    (["run", "--model", "toy", "--sampler", "type", "--iters", "-2", "--seed", "0",
      "--trace", "{tmp}/t.csv"], "must be between 0 and 1,000,000, got -2"),
    (["run", "--model", "toy", "--data", NURSERY, "--sampler", "type", "--iters", "1",
      "--seed", "0", "--trace", "{tmp}/t.csv"], "the toy model reads no corpus"),
    (["run", "--model", "toy", "--sampler", "type", "--iters", "1", "--seed", "0",
      "--trace", "{tmp}"], "it is a folder"),
    (["run", "--model", "crf", "--sampler", "type", "--iters", "1", "--seed", "0",
      "--trace", "{tmp}/t.csv"], "invalid choice: 'crf'"),
    (["run", "--model", "hmm", "--data", TAGGED, "--format", "wordtag", "--states", "1",
      "--sampler", "token", "--iters", "1", "--seed", "0", "--trace", "{tmp}/t.csv"],
     "must be between 2 and 1,000, got 1"),
    (["run", "--model", "hmm", "--data", TAGGED, "--format", "conllu", "--sampler", "token",
      "--iters", "1", "--seed", "0", "--trace", "{tmp}/t.csv"], "line 1:"),
    (["run", "--model", "toy", "--sampler", "type", "--iters", "1", "--seed", "0",
      "--trace", "{tmp}/no/such/folder/t.csv"], "its folder does not exist"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["run", "--model", "usm", "--data", "{tmp}/none.txt", "--sampler", "token", "--iters", "1",
      "--seed", "0", "--trace", "{tmp}/t.csv"], "cannot read"),
    (["run", "--model", "usm", "--data", NURSERY, "--sampler", "token", "--iters", "1",
      "--seed", "0", "--eta", "1.5", "--trace", "{tmp}/t.csv"], "must be between 0 and 1, got 1.5"),
    (["run", "--model", "usm", "--data", NURSERY, "--sampler", "token", "--iters", "1",
      "--seed", "0", "--alpha", "x", "--trace", "{tmp}/t.csv"], "expected a number, got 'x'"),
    (["run", "--model", "toy", "--sampler", "sentence", "--iters", "1", "--seed", "0",
      "--trace", "{tmp}/t.csv"], "the toy model has no sentence sampler"),
    (["score", "--model", "usm", "--data", NURSERY, "--analysis", "{tmp}/none.txt"],
     "cannot read"),
])
def test_bad_arguments_give_one_line_and_status_2(tmp_path, args, says):
    done = engine(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())  # nothing half-written


@pytest.mark.parametrize("sampler, extra", [("token", None), ("type", "mean_block_size"),
                                            ("anneal", None), ("greedy", "mean_block_size"),
                                            ("sentence", "acceptance")])
def test_usm_run_writes_trace_samples_and_segmentation(tmp_path, sampler, extra):
    trace, samples, output = tmp_path / "t.csv", tmp_path / "s.txt", tmp_path / "seg.txt"
    done = engine("run", "--model", "usm", "--data", NURSERY, "--sampler", sampler, "--iters", 4,
                  "--seed", 2, "--eta", 0.5, "--alpha", 10, "--trace", trace, "--samples",
                  samples, "--output", output)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    columns = {"sweep", "seconds", "loglik", "token_f", "boundary_f", "lexicon_f"}
    assert columns <= set(frame.columns) and list(frame.sweep) == list(range(5))
    assert frame[["token_f", "boundary_f", "lexicon_f"]].stack().between(0, 1).all()
    if extra:
        assert frame[extra].iloc[1:].notna().all()
    corpus = load_segmented(NURSERY)
    segmented = load_segmented(output)
    assert segmented.texts == corpus.texts
    lines = samples.read_text().splitlines()
    n_sites = sum(len(t) - 1 for t in corpus.texts)
    assert len(lines) == 4 and all(len(line.split(" ")) == n_sites for line in lines)
    last = np.array(lines[-1].split(" "), dtype=int)  # the final sweep's sites are the output's
    model = UsmModel.from_corpus(corpus)
    assert list(last) == list(model.values(model.state_from_bound(
        UsmModel.from_corpus(segmented).gold_bound)))
    scored = json.loads(engine("score", "--model", "usm", "--data", NURSERY, "--analysis", output,
                               "--alpha", 10).stdout)
    assert scored["loglik"] == pytest.approx(frame.loglik.iloc[-1], rel=1e-9)
    assert scored["token_f"] == pytest.approx(frame.token_f.iloc[-1], rel=1e-9)


def test_score_gives_loglik_and_the_nine_figures(tmp_path):
    gold, analysis = tmp_path / "gold.txt", tmp_path / "found.txt"
    gold.write_text("the old woman\nthe old man\n")
    analysis.write_text("theold wo man\ntheold man\n")
    done = engine("score", "--model", "usm", "--data", gold, "--analysis", analysis)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    names = {f"{m}_{k}" for m in ("token", "boundary", "lexicon") for k in "prf"}
    assert set(result) == names | {"loglik"}
    assert result["token_p"] == pytest.approx(1 / 5) and result["lexicon_r"] == pytest.approx(1 / 4)
    model = UsmModel.from_corpus(load_segmented(gold))
    found = model.state_from_bound(UsmModel.from_corpus(load_segmented(analysis)).gold_bound)
    assert result["loglik"] == pytest.approx(model.loglik(found))


@pytest.mark.parametrize("sampler, extra", [("token", None), ("type", "mean_block_size"),
                                            ("sentence", "acceptance")])
def test_hmm_run_writes_trace_samples_and_tagging(tmp_path, sampler, extra):
    trace, samples, output = tmp_path / "t.csv", tmp_path / "s.txt", tmp_path / "tags.txt"
    done = engine("run", "--model", "hmm", "--data", TAGGED, "--format", "wordtag",
                  "--states", 6, "--sampler", sampler, "--iters", 3, "--seed", 4, "--eta", 0.5,
                  "--trace", trace, "--samples", samples, "--output", output)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    columns = {"sweep", "seconds", "loglik", "acc_many_to_one", "acc_one_to_one",
               "acc_cross_validation", "vi"}
    assert columns <= set(frame.columns) and list(frame.sweep) == list(range(4))
    if extra:
        assert frame[extra].iloc[1:].notna().all()
    corpus = load_tagged(TAGGED, format="wordtag")
    tagging = load_tagged(output, format="wordtag")
    assert tagging.sentences == corpus.sentences
    lines = samples.read_text().splitlines()
    assert len(lines) == 3
    last = [int(k) for k in lines[-1].split(" ")]
    assert last == [int(k) for tags in tagging.tags for k in tags]
    assert set(last) <= set(range(1, 7))
    scored = json.loads(engine("score", "--model", "hmm", "--data", TAGGED, "--format", "wordtag",
                               "--states", 6, "--analysis", output).stdout)
    assert set(scored) == {"loglik", "acc_many_to_one", "acc_one_to_one",
                           "acc_cross_validation", "vi"}
    assert scored["loglik"] == pytest.approx(frame.loglik.iloc[-1], rel=1e-9)
    assert scored["acc_many_to_one"] == pytest.approx(frame.acc_many_to_one.iloc[-1])


def test_the_toy_writes_its_final_analysis_and_scores_it(tmp_path):
    trace, output = tmp_path / "t.csv", tmp_path / "toy.txt"
    done = engine("run", "--model", "toy", "--n", 30, "--sampler", "type", "--sweeps", 3,
                  "--seed", 1, "--trace", trace, "--output", output)
    assert done.returncode == 0, done.stderr
    lines = output.read_text().splitlines()
    frame = pd.read_csv(trace)
    assert len(lines) == 30 and set(lines) <= {"ab", "a b"}
    assert lines.count("a b") == frame.m.iloc[-1]
    scored = json.loads(engine("score", "--model", "toy", "--n", 30, "--analysis", output).stdout)
    assert scored["loglik"] == pytest.approx(frame.loglik.iloc[-1], rel=1e-12)


def test_exact_quantities_are_written_at_full_precision(tmp_path):
    out = tmp_path / "posterior.csv"
    assert engine("toy-posterior", "--n", 100_000, "--out", out).returncode == 0
    written = pd.read_csv(out).log_p.to_numpy()
    np.testing.assert_array_equal(written, ToyModel(100_000).log_posterior())


def test_no_arguments_print_the_commands_and_every_model():
    done = engine_process()  # the entry point itself, as a user starts it
    assert done.returncode == 2
    for word in ("run", "score", "bench", "toy-posterior"):
        assert word in done.stderr
    listed = engine("run", "--help").stdout
    assert all(name in listed for name in ("toy", "usm", "hmm"))
    usm_help = engine("run", "--model", "usm", "--help").stdout
    assert "--p-boundary" in usm_help and "--seed" in usm_help and "--states" not in usm_help
    assert "the chain's random seed" in usm_help


# the entry point run as `python -m engine ARGS` would, then the heavy modules it imported
IMPORTS_OF_THE_OVERVIEW = """
import runpy, sys
try:
    runpy.run_module("engine", run_name="__main__")
except SystemExit:
    pass
print(*(name for name in ("numba", "engine.models.registry") if name in sys.modules),
      file=sys.stderr)
"""


@pytest.mark.parametrize("args", [("--help",), ()])
def test_the_overview_imports_no_model_and_no_numba(args):
    """``python -m engine --help`` took 2.1 s, most of it importing Numba and every model to
    list the commands; now a command's module is imported only when it runs (issue 47: the
    overview within 1 s)."""
    done = subprocess.run([sys.executable, "-c", IMPORTS_OF_THE_OVERVIEW, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert "usage: python -m engine" in done.stdout + done.stderr
    assert "run one chain and write its trace" in done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == "", done.stderr


def test_bench_prints_sweep_times_and_the_cpu(tmp_path):
    done = engine("bench", "--model", "usm", "--data", NURSERY, "--sampler", "type",
                  "--sweeps", 5, "--warmup", 2)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["sweeps"] == 5 and result["sampler"] == "type" and result["cpu"]
    assert 0 < result["min_ms"] <= result["median_ms"] <= result["max_ms"]


def test_a_wordtag_file_needs_no_format_and_a_lowercase_run_scores(tmp_path):
    trace, output = tmp_path / "t.csv", tmp_path / "tags.txt"
    done = engine("run", "--model", "hmm", "--data", TAGGED, "--lowercase", "--states", 4,
                  "--sampler", "token", "--sweeps", 2, "--trace", trace, "--output", output)
    assert done.returncode == 0, done.stderr
    unlowered = engine("score", "--model", "hmm", "--data", TAGGED, "--states", 4,
                       "--analysis", output)
    assert unlowered.returncode == 2 and "score it with --lowercase too" in unlowered.stderr
    scored = engine("score", "--model", "hmm", "--data", TAGGED, "--states", 4, "--lowercase",
                    "--analysis", output)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["loglik"] == pytest.approx(pd.read_csv(trace).loglik.iloc[-1],
                                                                 rel=1e-12)


def test_a_corpus_in_no_known_format_says_what_was_tried(tmp_path):
    odd = tmp_path / "odd.txt"
    odd.write_text("one two three\nfour five six\n")
    done = engine("run", "--model", "hmm", "--data", odd, "--sampler", "token", "--sweeps", 1,
                  "--trace", tmp_path / "t.csv")
    assert done.returncode == 2 and "not CoNLL-U" in done.stderr and "word/TAG" in done.stderr


def test_race_writes_long_traces_and_a_summary_per_sampler_and_eta(tmp_path):
    out = tmp_path / "race"  # made by the command
    done = engine("race", "--model", "hmm", "--data", TAGGED, "--samplers", "token,type-token",
                  "--chains", 2, "--sweeps", 6, "--eta-sweep", "0.5:1:0.5", "--seed", 3,
                  "--out", out, "--workers", 1)
    assert done.returncode == 0, done.stderr
    traces = pd.read_csv(out / "traces.csv")
    assert list(traces.columns[:6]) == ["sampler", "chain", "eta", "iteration", "seconds",
                                        "loglik"]
    assert "acc_many_to_one" in traces and len(traces) == 2 * 2 * 2 * 7
    first = traces[traces.iteration == 0].groupby(["eta", "chain"]).loglik.nunique()
    assert (first == 1).all()  # chain c of both samplers from the same start
    summary = pd.read_csv(out / "summary.csv")
    assert [(s, e) for s, e in zip(summary.sampler, summary.eta)] == [
        ("token", 0.5), ("type-token", 0.5), ("token", 1.0), ("type-token", 1.0)]
    for column in ("rhat", "ess_bulk", "ess_tail", "ess_per_second", "final_loglik",
                   "final_acc_many_to_one", "verdict"):
        assert column in summary
    assert "mean_block_size" not in set(c.removeprefix("final_") for c in summary.columns)
    assert "rhat" in done.stdout
    for picture in ("eta_loglik.png", "eta_acc_many_to_one.png"):  # an η sweep: its bands
        assert (out / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_race_at_one_eta_draws_its_chains_against_time_and_sweeps(tmp_path):
    from PIL import Image
    out = tmp_path / "race"
    done = engine("race", "--model", "usm", "--samplers", "token,type", "--chains", 2,
                  "--sweeps", 5, "--out", out, "--workers", 1)
    assert done.returncode == 0, done.stderr
    summary = pd.read_csv(out / "summary.csv")  # 5 sweeps: too few for R̂, and it says so
    assert summary.rhat.isna().all() and summary.verdict.str.contains("R̂ needs").all()
    for column in ("loglik", "token_f"):
        for axis in ("time", "sweeps"):
            with Image.open(out / f"{column}_{axis}.png") as picture:
                assert picture.size[0] >= 720 and picture.size[1] >= 300
                assert len(np.unique(np.asarray(picture.convert("L")))) > 10  # drawn, not blank


@pytest.mark.parametrize("args, message", [
    (["--samplers", "token,nope"], "unknown 'nope'"),
    (["--samplers", "token,token"], "a name is repeated"),
    (["--samplers", "token", "--eta-sweep", "0:2:0.5"], "0 ≤ START ≤ STOP ≤ 1"),
    (["--samplers", "token", "--chains", 1], "between 2"),
    (["--samplers", "sentence"], "the toy model has no sentence sampler"),
])
def test_race_refuses_bad_arguments_in_one_line(tmp_path, args, message):
    done = engine("race", "--model", "toy", "--sweeps", 4, "--out", tmp_path / "x", *args)
    assert done.returncode == 2 and message in done.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("sampler, seating", [("token", "histogram"), ("anneal", "explicit"),
                                              ("sentence", "histogram")])
def test_bigram_run_writes_tables_and_scores_its_output(tmp_path, sampler, seating):
    trace, samples, output = tmp_path / "t.csv", tmp_path / "s.txt", tmp_path / "seg.txt"
    options = ("--alpha0", 50, "--alpha1", 5, "--p-boundary", 0.3, "--p-utterance", 0.4,
               "--seating", seating)
    done = engine("run", "--model", "bigram", "--data", NURSERY, "--sampler", sampler,
                  "--sweeps", 3, "--seed", 4, "--eta", 0.5, *options, "--trace", trace,
                  "--samples", samples, "--output", output)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    assert list(frame.sweep) == [0, 1, 2, 3] and (frame.tables > 0).all()
    assert (frame.tables <= frame.words + len(load_segmented(NURSERY).texts)).all()
    lines = samples.read_text().splitlines()
    n_sites = sum(len(t) - 1 for t in load_segmented(NURSERY).texts)
    assert len(lines) == 3 and all(len(line.split(" ")) == n_sites for line in lines)
    # score seats the analysis's customers afresh (sequential seating): the measures are the
    # run's last, the joint log-probability that of the same segmentation with that seating
    scored = json.loads(engine("score", "--model", "bigram", "--data", NURSERY, "--analysis",
                               output, *options).stdout)
    assert scored["token_f"] == pytest.approx(frame.token_f.iloc[-1], rel=1e-12)
    model = BigramModel.from_corpus(load_segmented(NURSERY), alpha0=50, alpha1=5,
                                    p_boundary=0.3, p_utterance=0.4, seating=seating)
    state = model.state_from_values(np.array(lines[-1].split(" "), dtype=int))
    assert scored["loglik"] == pytest.approx(model.loglik(state), rel=1e-12)


@pytest.mark.parametrize("args, says", [
    (["--sampler", "type"], "the bigram model has no type sampler"),
    (["--sampler", "token", "--alpha1", 0], "--alpha1: must be between"),
    (["--sampler", "token", "--p-utterance", 1], "--p-utterance: must be above 0 and below 1"),
    (["--sampler", "token", "--seating", "tree"], "--seating must be one of explicit, histogram"),
])
def test_bigram_refuses_bad_options_in_one_line(tmp_path, args, says):
    done = engine("run", "--model", "bigram", "--data", NURSERY, "--sweeps", 1,
                  "--trace", tmp_path / "t.csv", *args)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("args, says", [
    (["race", "--model", "usm", "--samplers", "token", "--sweeps", "3", "--out", "{file}"],
     "it is a file; give a folder"),
    (["race", "--model", "usm", "--samplers", "token", "--sweeps", "3", "--out", "{file}/race"],
     "is a file, so the folder cannot be made"),
    (["toy-posterior", "--n", "5", "--out", "{tmp}"], "it is a folder"),
    (["run", "--model", "usm", "--sampler", "token", "--sweeps", "1", "--trace", "{tmp}/t.csv",
      "--samples", "{tmp}/no/s.txt"], "its folder does not exist"),
    (["run", "--model", "usm", "--sampler", "token", "--sweeps", "1", "--trace", "{tmp}/t.csv",
      "--output", "{file}/seg.txt"], "its folder does not exist"),
    (["filter", "--model", "unigram", "--particles", "2", "--runs", "2", "--trace",
      "{tmp}/t.csv", "--runs-out", "{tmp}"], "it is a folder"),
    (["table1", "--sizes", "1", "--runs", "1", "--workers", "1", "--out", "{tmp}/no/rows.csv"],
     "its folder does not exist"),
    (["gj-grid", "--iters", "4", "--workers", "1", "--out", "{tmp}/no/rows.csv"],
     "its folder does not exist"),
])
def test_every_output_is_checked_before_any_work(tmp_path, args, says):
    existing = tmp_path / "existing.txt"
    existing.write_text("kept\n")
    done = engine(*[a.replace("{file}", str(existing)).replace("{tmp}", str(tmp_path))
                    for a in args])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()  # not even the note on the built-in corpus
    assert len(lines) == 1 and "cannot write" in lines[0] and says in lines[0], done.stderr
    assert existing.read_text() == "kept\n"
    assert [p.name for p in tmp_path.iterdir()] == ["existing.txt"]
