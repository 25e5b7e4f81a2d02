"""Online against batch (engine.experiments.online_vs_batch) and its command: the filter, plain
and with each kind of rejuvenation move, against batch chains of the same model given twice the
slowest filter's engine time; the same seed gives the same scores; a model whose particles take
no moves, or that has no particle filter, is refused in words."""
import pandas as pd
import pytest

from datasets.builtin import builtin_corpus
from datasets.segmented import format_segmented
from engine.cli import online_vs_batch as command
from engine.cli import build_parser, model_named
from engine.experiments import online_vs_batch
from engine.models import registry

LEARNERS = ["filter", "filter + TOKEN ×10", "filter + TYPE ×2"]


@pytest.fixture(scope="module")
def population():
    corpus = builtin_corpus().head(40)
    return registry.get("usm").from_corpus(corpus).particles()


def test_the_comparison_runs_every_learner_and_a_batch_chain_of_each_move(population):
    points, lines = online_vs_batch.compare(population, 4, seed=3)
    assert list(points["learner"]) == LEARNERS and (points["particles"] == 4).all()
    assert set(lines) == {"batch TOKEN", "batch TYPE"}
    budget = online_vs_batch.BUDGET * points["seconds"].max()
    for trace in lines.values():
        assert trace["seconds"].iloc[-1] >= budget and trace["moves"].is_monotonic_increasing
    again = online_vs_batch.compare(population, 4, seed=3)
    assert list(again.points["log_prob"]) == list(points["log_prob"])


def test_particles_without_moves_are_refused():
    bigram = registry.get("bigram").from_corpus(builtin_corpus().head(10)).particles()
    with pytest.raises(ValueError, match="this model's particles take no moves"):
        online_vs_batch.compare(bigram, 2, seed=0)


def parse(argv):
    argv = ["online-vs-batch", *argv]
    return build_parser(model_named(argv), only="online-vs-batch").parse_args(argv)


def test_the_command_prints_the_learners_and_writes_their_rows(tmp_path, capsys):
    data = tmp_path / "first.txt"
    data.write_text(format_segmented(builtin_corpus().head(40).utterances), encoding="utf-8")
    out = tmp_path / "versus.csv"
    command.run(parse(["--model", "unigram", "--data", str(data), "--particles", "4",
                       "--seed", "3", "--phi", "0.1", "--out", str(out)]))
    printed = capsys.readouterr().out
    assert all(name in printed for name in LEARNERS + ["batch TOKEN", "batch TYPE"])
    rows = pd.read_csv(out)
    assert list(dict.fromkeys(rows["learner"])) == LEARNERS + ["batch TOKEN", "batch TYPE"]
    assert rows["log_prob"].notna().all()


def test_the_command_refuses_a_model_without_a_particle_filter(capsys):
    with pytest.raises(SystemExit):
        parse(["--model", "toy"])
    assert "invalid choice: 'toy' (choose from 'usm', 'unigram', 'bigram')" in \
        capsys.readouterr().err
