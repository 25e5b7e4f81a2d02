"""Tagged corpora: the CoNLL-U, word/TAG and word-TAG-lines readers, their errors that name the
line, the synthetic HMM corpus, the built-in tagged corpus and the UD English EWT dev set."""
import re
from collections import defaultdict

import numpy as np
import pytest

from datasets.builtin import tagged_builtin
from datasets.errors import CorpusError
from datasets.synthetic import hmm_corpus
from datasets.tagged import (FORMATS, TaggedCorpus, format_wordtag, load_tagged, parse_conllu,
                             parse_wordtag, parse_wordtag_lines, read_tagged)

UPOS = {"NOUN", "VERB", "DET", "ADJ", "ADP", "PRON", "ADV", "AUX", "CCONJ", "PART", "NUM",
        "PROPN", "PUNCT", "INTJ", "SCONJ"}
from tests.corpora import EWT_DEV


def conllu_line(*fields):
    return "\t".join(fields) + "\n"


def token(index, form, upos, xpos):
    return conllu_line(str(index), form, form.lower(), upos, xpos, "_", "0", "dep", "_", "_")


# Two sentences: the first with comments, a multiword token (1-2) and an empty node (3.1);
# the second without a final blank line.
CONLLU = ("# sent_id = 1\n"
          "# text = Don't Run.\n"
          + conllu_line("1-2", "Don't", "_", "_", "_", "_", "_", "_", "_", "_")
          + token(1, "Do", "AUX", "VBP")
          + token(2, "n't", "PART", "RB")
          + token(3, "Run", "VERB", "VB")
          + conllu_line("3.1", "run", "run", "VERB", "VB", "_", "_", "_", "0:root", "_")
          + token(4, ".", "PUNCT", ".")
          + "\n"
          + "# sent_id = 2\n"
          + token(1, "Dogs", "NOUN", "NNS")
          + token(2, "bark", "VERB", "VBP"))


def test_conllu_keeps_form_and_upos_and_skips_multiword_tokens_and_empty_nodes():
    corpus = parse_conllu(CONLLU, name="tiny")
    assert corpus.sentences == (("Do", "n't", "Run", "."), ("Dogs", "bark"))
    assert corpus.tags == (("AUX", "PART", "VERB", "PUNCT"), ("NOUN", "VERB"))
    assert (corpus.skipped, corpus.n_tokens, corpus.name) == (2, 6, "tiny")
    assert corpus.tag_set == ("AUX", "NOUN", "PART", "PUNCT", "VERB")


def test_conllu_xpos_column_and_lowercase_words_but_not_tags():
    corpus = parse_conllu(CONLLU, column="xpos", lowercase=True)
    assert corpus.sentences == (("do", "n't", "run", "."), ("dogs", "bark"))
    assert corpus.tags == (("VBP", "RB", "VB", "."), ("NNS", "VBP"))
    assert read_tagged(CONLLU, format="conllu-xpos").tags == corpus.tags


def test_conllu_accepts_crlf_and_several_blank_lines():
    text = token(1, "a", "DET", "DT") + "\n\n\n" + token(1, "b", "NOUN", "NN") + "\n"
    assert parse_conllu(text.replace("\n", "\r\n")).sentences == (("a",), ("b",))


def conllu_error(text, **options):
    with pytest.raises(CorpusError) as caught:
        parse_conllu(text, **options)
    return caught.value


def test_conllu_with_the_wrong_number_of_fields_names_the_line():
    err = conllu_error("# c\n" + token(1, "a", "DET", "DT") + "2 b NOUN NN\n")
    assert err.line == 3 and str(err).startswith("line 3: ")
    assert "1 field" in str(err) and "10 fields separated by tabs" in str(err)
    err = conllu_error(token(1, "a", "DET", "DT").replace("\n", "\textra\n"))
    assert err.line == 1 and "11 fields" in str(err)


def test_conllu_with_a_bad_id_names_the_line():
    err = conllu_error(token(1, "a", "DET", "DT") + token(1, "b", "X", "X").replace("1", "x", 1))
    assert err.line == 2 and "'x'" in str(err)


def test_conllu_with_an_empty_form_or_tag_names_the_line():
    assert conllu_error("\n" + token(1, "", "DET", "DT")).line == 2
    err = conllu_error(token(1, "a", "", "DT"))
    assert err.line == 1 and "UPOS" in str(err) and "empty" in str(err)


def test_conllu_without_the_chosen_column_suggests_the_other():
    text = token(1, "a", "DET", "_")
    err = conllu_error(text, column="xpos")
    assert err.line == 1 and "no XPOS" in str(err) and "try the UPOS column" in str(err)
    err = conllu_error(token(1, "a", "_", "DT"))
    assert "no UPOS" in str(err) and "try the XPOS column" in str(err)


def test_conllu_of_only_comments_has_no_sentences():
    err = conllu_error("# just a comment\n\n")
    assert err.line is None and "no sentences" in str(err)


def test_wordtag_splits_at_the_last_slash_and_skips_blank_lines():
    corpus = parse_wordtag("The/DT 1/2/CD cup/NN\n\n  \nRun/VB !/.\n", lowercase=True)
    assert corpus.sentences == (("the", "1/2", "cup"), ("run", "!"))
    assert corpus.tags == (("DT", "CD", "NN"), ("VB", "."))
    assert corpus.skipped == 0


@pytest.mark.parametrize("bad, detail", [("dog", "has no '/'"), ("/NN", "empty word"),
                                         ("dog/", "empty tag")])
def test_wordtag_errors_name_the_line_and_the_token(bad, detail):
    with pytest.raises(CorpusError) as caught:
        parse_wordtag(f"a/DT b/NN\n\nthe/DT {bad} ran/VB\n")
    err = caught.value
    assert err.line == 3 and repr(bad) in str(err) and "token 2" in str(err)
    assert detail in str(err)


def test_format_wordtag_round_trips():
    sentences, tags = (("the", "1/2", "Cup"), ("go",)), (("DT", "CD", "NN"), ("VB",))
    text = format_wordtag(sentences, tags)
    assert text == "the/DT 1/2/CD Cup/NN\ngo/VB\n"
    corpus = parse_wordtag(text)
    assert (corpus.sentences, corpus.tags) == (sentences, tags)
    with pytest.raises(ValueError):
        format_wordtag(sentences, (("DT",), ("VB",)))


def test_wordtag_lines_reads_one_token_per_line():
    corpus = parse_wordtag_lines("The DT\ndog NN\n\n\nRuns\tVBZ\n", lowercase=True)
    assert corpus.sentences == (("the", "dog"), ("runs",))
    assert corpus.tags == (("DT", "NN"), ("VBZ",))
    assert read_tagged("a DT", format="wordtag-lines").sentences == (("a",),)


@pytest.mark.parametrize("bad, fields", [("dog", "1 field"), ("dog NN extra", "3 fields")])
def test_wordtag_lines_with_wrong_fields_names_the_line(bad, fields):
    with pytest.raises(CorpusError) as caught:
        parse_wordtag_lines(f"a DT\n\n{bad}\n")
    assert caught.value.line == 3 and fields in str(caught.value)


def test_read_tagged_decodes_bytes_and_drops_a_bom():
    corpus = read_tagged("\ufeffcafé/NN est/VB\n".encode(), name="up", format="wordtag")
    assert corpus.sentences == (("café", "est"),) and corpus.name == "up"
    assert read_tagged("\ufeffa/DT\n", format="wordtag").sentences == (("a",),)


def test_read_tagged_names_the_line_of_the_first_bad_byte():
    with pytest.raises(CorpusError) as caught:
        read_tagged(b"\xef\xbb\xbfa/DT\nb/NN \xff/X\n", format="wordtag")
    assert caught.value.line == 2 and "save it as UTF-8" in str(caught.value)


def test_an_unknown_format_lists_the_formats():
    with pytest.raises(ValueError) as caught:
        read_tagged("a/DT", format="brown")
    assert not isinstance(caught.value, CorpusError)
    assert all(name in str(caught.value) for name in FORMATS)


def test_load_tagged_names_the_corpus_after_the_file(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_bytes(b"a DT\r\nb NN\r\n")
    assert load_tagged(path, format="wordtag-lines") == TaggedCorpus(
        (("a", "b"),), (("DT", "NN"),), "mine.txt")
    with pytest.raises(CorpusError, match="cannot read .*missing.txt: there is no such file"):
        load_tagged(tmp_path / "missing.txt")


def test_an_untagged_corpus_has_no_tag_set():
    assert TaggedCorpus((("a", "b"),), None, "raw").tag_set == ()


def test_hmm_corpus_is_reproducible_and_tagged_with_the_states():
    corpus = hmm_corpus(n_sentences=400, n_states=4, vocabulary=30, sparsity=1.0, seed=5)
    assert corpus == hmm_corpus(n_sentences=400, n_states=4, vocabulary=30, sparsity=1.0, seed=5)
    assert corpus.sentences != hmm_corpus(n_sentences=400, n_states=4, vocabulary=30,
                                          sparsity=1.0, seed=6).sentences
    assert len(corpus.sentences) == 400 and corpus.tag_set == ("S1", "S2", "S3", "S4")
    words = {word for sentence in corpus.sentences for word in sentence}
    assert len(words) <= 30 and all(re.fullmatch(r"([a-z][aeiou]){2,3}", w) for w in words)
    assert "400 sentences" in corpus.name and "K = 4" in corpus.name and "seed 5" in corpus.name


@pytest.mark.parametrize("mean_length", [3.0, 8.0, 20.0])
def test_hmm_sentence_lengths_follow_the_mean_and_stay_within_1_to_60(mean_length):
    corpus = hmm_corpus(n_sentences=1000, mean_length=mean_length, seed=2)
    lengths = [len(sentence) for sentence in corpus.sentences]
    assert min(lengths) >= 1 and max(lengths) <= 60
    assert abs(np.mean(lengths) - mean_length) < 0.4 * mean_length


@pytest.mark.parametrize("argument, value", [
    ("n_sentences", 0), ("n_sentences", 2.5), ("n_states", 0), ("n_states", 51),
    ("vocabulary", 0), ("vocabulary", 10**6), ("sparsity", 0.0), ("sparsity", float("nan")),
    ("mean_length", 0.5), ("mean_length", 100.0), ("seed", -1)])
def test_hmm_corpus_refuses_arguments_out_of_range(argument, value):
    with pytest.raises(ValueError, match=f"^{argument} must be"):
        hmm_corpus(**{argument: value})


def test_the_built_in_tagged_corpus_is_small_simple_and_ambiguous():
    corpus = tagged_builtin()
    assert corpus.name == "Built-in: simple sentences"
    assert 250 <= len(corpus.sentences) <= 350
    assert all(3 <= len(sentence) <= 12 for sentence in corpus.sentences)
    assert set(corpus.tag_set) == UPOS  # only these, and every one of them used
    tags_of = defaultdict(set)
    for words, tags in zip(corpus.sentences, corpus.tags):
        for word, tag in zip(words, tags):
            tags_of[word].add(tag)
            # Lowercase except proper nouns (and the pronoun "I", as English spells it).
            assert tag == "PROPN" or word == "I" or word == word.lower()
    assert {"NOUN", "VERB"} <= tags_of["run"] and {"VERB", "ADP"} <= tags_of["like"]
    assert {"DET", "PRON", "SCONJ"} <= tags_of["that"]


def test_the_ud_english_ewt_dev_set_reads():
    if not EWT_DEV.is_file():
        pytest.skip(f"the UD English EWT dev set is not at {EWT_DEV}")
    corpus = load_tagged(EWT_DEV)
    assert 24_000 <= corpus.n_tokens <= 26_000
    assert len(corpus.tag_set) == 17
    assert corpus.skipped > 0  # multiword tokens such as "don't" → do + n't
