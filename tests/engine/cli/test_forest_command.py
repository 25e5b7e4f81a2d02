"""``python -m engine forest``: a CSV row per pair, one pair's forest printed, and bad input
refused in one line naming the file and the line."""
import csv

import pytest

from engine.cli import main
from tests.corpora import KFTT_GOLD, KFTT_PAIRS

FIG_1 = "我 今天 和 她 有 约会 ||| I have a date with her today ||| 0-0 1-6 2-4 3-5 4-1 5-3\n"


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_papers_pair_has_its_forest_in_the_csv_and_printed(tmp_path, capsys):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text(FIG_1 + "a b c ||| x y z ||| 0-0 1-1 2-2\n", encoding="utf-8")
    out = tmp_path / "forest.csv"
    assert main(["forest", "--data", str(pairs), "--out", str(out), "--pair", "0"]) == 0
    assert rows(out) == [
        dict(pair="0", nodes="12", hyperedges="13", trees="2", tree_nodes="11"),
        dict(pair="1", nodes="6", hyperedges="7", trees="2", tree_nodes="5")]
    printed = capsys.readouterr().out
    assert "12 nodes, 13 hyperedges, 2 trees of 11 nodes" in printed
    assert "和 她 有 约会 ||| have a date with her" in printed  # node ([2 6], [1 6])


@pytest.mark.parametrize("pairs, links, extra, message", [
    ("a b ||| x\n", "2-0\n", [], "links.txt: line 1: link 2-0 points to source word 2"),
    ("a b ||| x\nc\n", "0-0\n0-0\n", [], "pairs.txt: line 2: a pair must read"),
    ("a b ||| x\n", "0-0\n", ["--pair", "1"], "--pair 1 is past the last pair (0"),
])
def test_bad_input_is_refused_naming_the_file(tmp_path, capsys, pairs, links, extra, message):
    (tmp_path / "pairs.txt").write_text(pairs, encoding="utf-8")
    (tmp_path / "links.txt").write_text(links, encoding="utf-8")
    out = tmp_path / "forest.csv"
    with pytest.raises(SystemExit) as exit_:
        main(["forest", "--data", str(tmp_path / "pairs.txt"), "--alignments",
              str(tmp_path / "links.txt"), "--out", str(out), *extra])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_kftt_gives_a_row_per_pair_with_exact_tree_counts(tmp_path):
    for path in (KFTT_PAIRS, KFTT_GOLD):
        if not path.exists():
            pytest.skip(f"{path} is missing")
    out = tmp_path / "kftt.csv"
    main(["forest", "--data", str(KFTT_PAIRS), "--alignments", str(KFTT_GOLD), "--out",
          str(out)])
    found = rows(out)
    assert len(found) == 582 and sum(int(r["nodes"]) for r in found) == 26_031
    assert max(int(r["trees"]) for r in found) == 1_102_402_645_344_000  # pair 561, exact
