"""The command line on tree-substitution grammars: ``run`` (trace, samples, analysis, fragment
lexicon), ``score`` reading the analysis back, ``parse`` (a grammar → parses and EVALB F1) and
``bench``, as a user drives them on Penn tree files."""
import json

import pandas as pd
import pytest

from datasets.trees import builtin, format_trees, read_file
from engine.models.ptsg.model import PtsgModel
from tests.command import engine


@pytest.fixture(scope="module")
def treebank(tmp_path_factory):
    """The built-in treebank's first 30 trees as a user's file, and the next 10 as a test file."""
    folder = tmp_path_factory.mktemp("trees")
    trees = builtin().trees
    (folder / "train.mrg").write_text(format_trees(trees[:30]), encoding="utf-8")
    (folder / "test.mrg").write_text(format_trees(trees[30:40]), encoding="utf-8")
    return folder


def test_run_writes_a_trace_the_samples_an_analysis_score_reads_and_the_fragments(tmp_path,
                                                                               treebank):
    data = treebank / "train.mrg"
    trace, samples, output, fragments = (tmp_path / name for name in
                                         ("t.csv", "s.txt", "cuts.txt", "fragments.tsv"))
    done = engine("run", "--model", "ptsg", "--data", data, "--sampler", "type", "--no-skip",
                  "--iters", 5, "--seed", 3, "--eta", 1, "--held-out", 0.2, "--trace", trace,
                  "--samples", samples, "--output", output, "--fragments", fragments)
    assert done.returncode == 0, done.stderr
    frame = pd.read_csv(trace)
    assert list(frame.sweep) == list(range(6)) and frame.f1.between(0, 1).all()
    model = PtsgModel.build(data, held_out=0.2)
    lines = samples.read_text().splitlines()
    assert len(lines) == 5 and all(len(line.split(" ")) == model.n_sites for line in lines)
    state = model.read_analysis(output)
    assert list(model.values(state)) == [int(v) for v in lines[-1].split(" ")]
    scored = json.loads(engine("score", "--model", "ptsg", "--data", data, "--analysis", output,
                               "--held-out", 0.2).stdout)
    assert scored["loglik"] == pytest.approx(frame.loglik.iloc[-1], rel=1e-9)
    assert scored["f1"] == pytest.approx(frame.f1.iloc[-1])
    table = pd.read_csv(fragments, sep="\t", comment="#", header=None,
                        names=["root", "count", "probability", "fragment"])
    # every fragment in use once, with its count; the counts of a root add up to its fragments
    assert table["count"].sum() == int(state.n_root.sum()) == frame.fragments.iloc[-1]
    assert table.probability.between(0, 1).all()
    for root, rows in table.groupby("root", sort=False):
        assert list(rows["count"]) == sorted(rows["count"], reverse=True)
        assert all(fragment.startswith(f"({root} ") for fragment in rows.fragment)


def test_parse_scores_each_grammar_and_writes_a_tree_per_test_sentence(tmp_path, treebank):
    results = {}
    for grammar in ("pcfg", "pcfg-parent", "ptsg"):
        parses = tmp_path / f"{grammar}.mrg"
        done = engine("parse", "--train", treebank / "train.mrg", "--test",
                      treebank / "test.mrg", "--grammar", grammar, "--iters", 5,
                      "--max-length", 9, "--output", parses)
        assert done.returncode == 0, done.stderr
        results[grammar] = json.loads(done.stdout)
        test = read_file(treebank / "test.mrg").trees
        short = [tree for tree in test if len(tree_words(tree)) <= 9]
        written = read_file(parses).trees
        assert len(written) == results[grammar]["sentences"] == len(short) < len(test)
        assert [tree_words(tree) for tree in written] == [tree_words(tree) for tree in short]
        assert 0 < results[grammar]["f1"] <= 1


def test_parse_averages_the_grammar_over_samples_and_refuses_none(tmp_path, treebank):
    scores = {}
    for average in ("1", "3", "0"):
        done = engine("parse", "--train", treebank / "train.mrg", "--test",
                      treebank / "test.mrg", "--grammar", "ptsg", "--iters", 6, "--average",
                      average, "--output", tmp_path / f"{average}.mrg")
        scores[average] = done.stdout and json.loads(done.stdout)
    assert 0 < scores["1"]["f1"] <= 1 and 0 < scores["3"]["f1"] <= 1
    # three samples' fragments: more distinct ones, each with its mean count
    assert scores["3"]["symbols"] >= scores["1"]["symbols"]
    assert done.returncode == 2 and "argument --average: must be between 1" in done.stderr
    assert "Traceback" not in done.stderr


def tree_words(tree):
    from datasets.trees import leaves
    return leaves(tree)


@pytest.mark.parametrize("args, says", [
    (("--held-out", "0.9"), "argument --held-out: must be between 0 and 0.5, got 0.9"),
    (("--alpha", "0"), "argument --alpha: must be between 1e-06 and 1,000,000,000, got 0"),
    (("--data", "missing.mrg"), "missing.mrg"),
])
def test_bad_ptsg_options_give_one_line(tmp_path, args, says):
    done = engine("run", "--model", "ptsg", "--sampler", "token", "--iters", 1,
                  "--trace", tmp_path / "t.csv", *args)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


def test_bench_times_the_ptsg_samplers():
    done = engine("bench", "--model", "ptsg", "--sampler", "type", "--sweeps", 3)
    assert done.returncode == 0, done.stderr
    timing = json.loads(done.stdout)
    assert (timing["model"], timing["sampler"], timing["sweeps"]) == ("ptsg", "type", 3)
    assert timing["sites"] == PtsgModel.build(None).n_sites
    assert 0 < timing["min_ms"] <= timing["median_ms"] <= timing["max_ms"]


def test_corpora_gum_lists_gums_own_partition(tmp_path):
    from tests.corpora import GUM_CONST
    empty = engine("corpora", "gum", "dev", tmp_path)
    assert empty.returncode == 2 and "holds no GUM_*.ptb file" in empty.stderr
    if not (GUM_CONST / "SPLITS.tsv").exists():
        pytest.skip(f"the GUM trees are not in {GUM_CONST} (README, Standard corpora)")
    # the data folder's own note of the split agrees with the partition the project carries
    rows = [line.split("\t") for line in (GUM_CONST / "SPLITS.tsv").read_text().splitlines()]
    for part in ("train", "dev", "test"):
        listed = engine("corpora", "gum", part, GUM_CONST).stdout.split()
        expected = sorted(str(GUM_CONST / f"{name}.ptb") for where, name in rows
                          if where == part and (GUM_CONST / f"{name}.ptb").exists())
        assert listed == expected and len(listed) == {"train": 83, "dev": 12, "test": 12}[part]
