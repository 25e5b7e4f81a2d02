"""Corpora: the plain segmented format (reading, writing, errors that name the line), the
synthetic Zipf generator and the built-in corpus."""
import re
from collections import Counter

import numpy as np
import pytest

from datasets.builtin import nursery_talk
from datasets.errors import CorpusError
from datasets.segmented import (format_segmented, gold_boundaries, load_segmented,
                                parse_segmented, read_segmented)
from datasets.synthetic import zipf_corpus


def test_plain_format_reads_utterances_and_counts_blank_lines():
    corpus = parse_segmented("yu want tu\r\n\n   \nlUk  D*z 6 b7\n\n", name="x")
    assert corpus.utterances == (("yu", "want", "tu"), ("lUk", "D*z", "6", "b7"))
    assert corpus.texts == ("yuwanttu", "lUkD*z6b7")
    assert corpus.blank_lines == 3
    assert corpus.n_words == 7 and corpus.n_symbols == 17


def test_writing_and_reading_give_back_the_same_utterances():
    utterances = (("the", "dog"), ("a",), ("b", "cd", "e"))
    assert parse_segmented(format_segmented(utterances)).utterances == utterances


def test_gold_boundaries_mark_each_word_end():
    assert list(gold_boundaries([("ab", "c"), ("d", "ef")])) == [0, 1, 1, 1, 0, 1]


@pytest.mark.parametrize("data, line, words", [
    ("ab c\nd\te\n", 2, ["tab", "column 2"]),
    ("ok\nok\nok\x07no\n", 3, ["'\\x07' (control character)", "column 3"]),
    (b"ok\nfine\n\xff\xfe bad\n", 3, ["not UTF-8", "save it as UTF-8"]),
    ("a\n" + "b" * 2001 + "\n", 2, ["2,001 symbols", "one utterance per line"]),
])
def test_unreadable_lines_are_named_in_the_error(data, line, words):
    with pytest.raises(CorpusError) as err:
        read_segmented(data)
    assert err.value.line == line and str(err.value).startswith(f"line {line}:")
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize("data, detail", [("", "nothing in it"), ("\n \n\n", "only 3 blank")])
def test_a_file_without_utterances_is_refused(data, detail):
    with pytest.raises(CorpusError, match=f"no utterances \\({detail}"):
        read_segmented(data)


def test_a_missing_file_is_a_corpus_error(tmp_path):
    with pytest.raises(CorpusError, match="cannot read .*missing.txt"):
        load_segmented(tmp_path / "missing.txt")


def test_a_bom_is_ignored(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffab c\n".encode("utf-8"))
    assert load_segmented(path).utterances == (("ab", "c"),)


def test_the_synthetic_corpus_is_reproducible_and_zipfian():
    corpus = zipf_corpus(n_utterances=500, lexicon_size=40, n_symbols=5, seed=3)
    assert corpus == zipf_corpus(n_utterances=500, lexicon_size=40, n_symbols=5, seed=3)
    assert corpus.utterances != zipf_corpus(n_utterances=500, lexicon_size=40, n_symbols=5,
                                            seed=4).utterances
    assert len(corpus.utterances) == 500
    counts = Counter(w for words in corpus.utterances for w in words)
    assert len(counts) <= 40
    assert set("".join(counts)) <= set("abcde")
    frequencies = sorted(counts.values(), reverse=True)
    assert frequencies[0] > 4 * np.median(frequencies)


@pytest.mark.parametrize("argument, value", [
    ("n_utterances", 0), ("lexicon_size", 0), ("n_symbols", 1), ("n_symbols", 27),
    ("mean_words", 0.5), ("zipf_exponent", 0.0), ("lexicon_size", 10_000),
])
def test_synthetic_arguments_out_of_range_are_named(argument, value):
    with pytest.raises(ValueError, match=f"^{argument} must"):
        zipf_corpus(**{"n_symbols": 3, argument: value})


def test_the_built_in_corpus_is_small_varied_child_directed_speech():
    corpus = nursery_talk()
    assert 300 <= len(corpus.utterances) <= 450 and corpus.blank_lines == 0
    assert all(re.fullmatch(r"[a-z']+", w) for words in corpus.utterances for w in words)
    counts = Counter(w for words in corpus.utterances for w in words)
    assert len(counts) >= 150 and counts.most_common(1)[0][1] > 50
    assert all(1 <= len(words) <= 8 for words in corpus.utterances)
