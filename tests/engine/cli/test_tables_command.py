"""python -m engine tables as a user runs it: the CSV of expected table counts, and one-line
errors with status 2 for bad input."""
import csv
import io
import math

import pytest

from engine.core.table_expectations import (expected_tables_antoniak, expected_tables_digamma,
                                            expected_tables_exact, expected_tables_flawed)
from tests.command import engine

HEADER = ["word", "count", "exact", "digamma", "antoniak", "flawed"]



def test_a_row_per_word_in_file_order_with_the_functions_numbers(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("the 1000\n\ncats\t3\n  meow 1  \n\"a,b\" 12\n", encoding="utf-8")
    done = engine("tables", "--alpha", 2.5, "--counts", counts)
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert rows[0] == HEADER
    assert [(word, int(n)) for word, n, *_ in rows[1:]] == [
        ("the", 1000), ("cats", 3), ("meow", 1), ('"a,b"', 12)]
    a = 2.5 / 4  # a uniform base over the file's 4 words
    for word, n, *values in rows[1:]:
        expected = (expected_tables_exact(a, int(n)), expected_tables_digamma(a, int(n)),
                    expected_tables_antoniak(a, int(n)), expected_tables_flawed(2.5, int(n)))
        assert [float(v) for v in values] == list(expected)  # full precision: equal
    meow = rows[3]
    assert float(meow[2]) == 1.0 and float(meow[4]) == pytest.approx(a * math.log(1 + 1 / a))
    assert float(meow[5]) == pytest.approx(2.5 * math.log(1 + 1 / 2.5))


def test_the_notes_extreme_case_a_equal_1_and_one_customer(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("w 1\n", encoding="utf-8")
    done = engine("tables", "--alpha", 1, "--counts", counts)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == f"w,1,1.0,1.0,{math.log(2)!r},{math.log(2)!r}"


@pytest.mark.parametrize("text, alpha, says", [
    (None, "1", "cannot read {tmp}/counts.txt: there is no such file (check the path)"),
    ("", "1", "no `word count` lines: give one word and its count per line"),
    ("\n  \n", "1", "no `word count` lines"),
    ("the 3\ncats\n", "1", "line 2: expected a word and its count, got 1 field(s) 'cats'"),
    ("the 3 4\n", "1", "line 1: expected a word and its count, got 3 field(s)"),
    ("the x\n", "1", "line 1: the count of 'the' is 'x': give a whole number from 1 to"),
    ("the 0\n", "1", "the count of 'the' is '0'"),
    ("the -2\n", "1", "the count of 'the' is '-2'"),
    ("the 2.5\n", "1", "the count of 'the' is '2.5'"),
    ("the 2\ncats 1\nthe 5\n", "1", "line 3: 'the' is also on line 1: give each word once"),
    ("the 2\n", "0", "argument --alpha: must be a finite number above 0 and at most 1,000,000,000, got 0"),
    ("the 2\n", "-1", "argument --alpha: must be a finite number above 0 and at most 1,000,000,000, got -1"),
    ("the 2\n", "abc", "argument --alpha: expected a number, got 'abc'"),
])
def test_bad_input_gives_one_line_and_status_2(tmp_path, text, alpha, says):
    counts = tmp_path / "counts.txt"
    if text is not None:
        counts.write_text(text, encoding="utf-8")
    done = engine("tables", "--alpha", alpha, "--counts", counts)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says.replace("{tmp}", str(tmp_path)) in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_command_is_listed_and_needs_its_arguments():
    done = engine()
    assert done.returncode == 2 and "tables" in done.stderr
    done = engine("tables", "--alpha", 1)
    assert done.returncode == 2
    assert "the following arguments are required: --counts" in done.stderr
