"""Tagged corpora for part-of-speech induction: sentences of words, each with its gold tag.

Three formats are read: CoNLL-U (as the Universal Dependencies treebanks are distributed),
``word/TAG`` tokens with one sentence per line, and ``word TAG`` with one token per line.
Anything that cannot be read is refused with a `CorpusError` naming the line.

This module is the tagging kind of data (``TAGGING``, datasets.kinds): its readers (the format
told from the text when asked), its built-in corpus and how its sentences are measured.
"""
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from datasets import kinds
from datasets.errors import CorpusError
from datasets.text import decode, read_bytes

FORMATS = ("conllu", "conllu-xpos", "wordtag", "wordtag-lines")
AUTO = "auto"  # tell the format from the text (``detect_format``)
CONLLU_FIELDS = 10
# A CoNLL-U ID is a word index "3", a multiword-token range "1-2" or an empty node "8.1".
_TOKEN_ID = re.compile(r"[1-9][0-9]*")
_SKIPPED_ID = re.compile(r"[1-9][0-9]*-[1-9][0-9]*|[0-9]+\.[1-9][0-9]*")
SIMPLE_SENTENCES = Path(__file__).resolve().parent / "builtin" / "tagged.txt"


@dataclass(frozen=True)
class TaggedCorpus:
    """Sentences as tuples of words, with their gold tags when the corpus has them.

    Attributes
    ----------
    sentences : tuple of tuple of str
        Each sentence's words, in file order.
    tags : tuple of tuple of str, or None
        Each word's gold tag, shaped like `sentences`; None for an untagged corpus.
    name : str
        A label for the user (a file name, or how the corpus was made).
    skipped : int
        Lines the loader read but left out of the sentences: CoNLL-U multiword-token lines
        (``1-2``) and empty nodes (``8.1``). Comments and blank lines are not counted.
    """

    sentences: tuple[tuple[str, ...], ...]
    tags: tuple[tuple[str, ...], ...] | None
    name: str
    skipped: int = 0

    def head(self, n):
        """The first n sentences (a corpus too large for a page, cut)."""
        return TaggedCorpus(self.sentences[:n], None if self.tags is None else self.tags[:n],
                            f"{self.name}, first {n:,} sentences")

    def __post_init__(self):
        # A ragged pairing would silently misalign every later tag, so refuse it here.
        if self.tags is not None and (
                len(self.tags) != len(self.sentences)
                or any(len(t) != len(s) for s, t in zip(self.sentences, self.tags))):
            raise ValueError("tags must have one tag per word of every sentence")

    @property
    def n_tokens(self) -> int:
        """The number of word tokens over all sentences."""
        return sum(len(words) for words in self.sentences)

    @property
    def tag_set(self) -> tuple[str, ...]:
        """The distinct tags, sorted; empty when the corpus is untagged."""
        if self.tags is None:
            return ()
        return tuple(sorted({tag for tags in self.tags for tag in tags}))


def _lines(text: str) -> list[str]:
    """The lines of `text` without their ``\\n`` or ``\\r\\n``; a final newline adds none."""
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _corpus(sentences: list, tags: list, name: str, skipped: int = 0) -> TaggedCorpus:
    if not sentences:
        raise CorpusError("the file has no sentences: check that it is in the chosen format")
    return TaggedCorpus(tuple(sentences), tuple(tags), name, skipped)


def parse_conllu(text: str, name: str = "corpus", column: str = "upos",
                 lowercase: bool = False) -> TaggedCorpus:
    """Read CoNLL-U from a string, keeping each token's FORM and one tag column.

    Parameters
    ----------
    text : str
        The file's content: sentences separated by blank lines, ``#`` comment lines, and
        token lines of 10 tab-separated fields. A missing final blank line is fine.
    name : str
        The corpus's label.
    column : {"upos", "xpos"}
        Which tag to keep: the universal tag (field 4) or the language-specific one (field 5).
    lowercase : bool
        Lowercase the words (never the tags).

    Returns
    -------
    TaggedCorpus
        Multiword-token lines and empty nodes are left out and counted in ``skipped``: the
        syntactic words of a multiword token carry the tags.

    Raises
    ------
    CorpusError
        At the first line that cannot be read, or when there is no sentence at all.
    ValueError
        For a `column` other than "upos" or "xpos".
    """
    if column not in ("upos", "xpos"):
        raise ValueError(f"column must be 'upos' or 'xpos' (got {column!r})")
    field = 3 if column == "upos" else 4
    other = "xpos" if column == "upos" else "upos"
    sentences, tags, skipped = [], [], 0
    words, labels = [], []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            if words:
                sentences.append(tuple(words))
                tags.append(tuple(labels))
                words, labels = [], []
            continue
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != CONLLU_FIELDS:
            raise CorpusError(f"a token line with {len(fields)} field"
                              f"{'s' * (len(fields) != 1)}: CoNLL-U needs {CONLLU_FIELDS} "
                              "fields separated by tabs", number)
        token_id, form, tag = fields[0], fields[1], fields[field]
        if _SKIPPED_ID.fullmatch(token_id):
            skipped += 1
            continue
        if not _TOKEN_ID.fullmatch(token_id):
            raise CorpusError(f"the ID {token_id!r} is not a word number (3), a range (1-2) "
                              "or an empty node (8.1)", number)
        if not form:
            raise CorpusError("the word (FORM, field 2) is empty", number)
        if tag == "_":
            raise CorpusError(f"the {column.upper()} column (field {field + 1}) is '_': this "
                              f"file has no {column.upper()} tags, try the {other.upper()} "
                              "column", number)
        if not tag:
            raise CorpusError(f"the {column.upper()} tag (field {field + 1}) is empty", number)
        words.append(form.lower() if lowercase else form)
        labels.append(tag)
    if words:  # the file did not end in a blank line
        sentences.append(tuple(words))
        tags.append(tuple(labels))
    return _corpus(sentences, tags, name, skipped)


def parse_wordtag(text: str, name: str = "corpus", lowercase: bool = False) -> TaggedCorpus:
    """Read ``word/TAG`` tokens, one sentence per line, from a string.

    Parameters
    ----------
    text : str
        Tokens separated by spaces; each is split at its last ``/``, so ``1/2/CD`` is the word
        ``1/2`` with the tag ``CD``. Blank lines are skipped.
    name : str
        The corpus's label.
    lowercase : bool
        Lowercase the words (never the tags).

    Returns
    -------
    TaggedCorpus

    Raises
    ------
    CorpusError
        Naming the line and the token for a token without ``/`` or with an empty word or tag,
        or when there is no sentence at all.
    """
    sentences, tags = [], []
    for number, line in enumerate(_lines(text), start=1):
        tokens = line.split()
        if not tokens:
            continue
        words, labels = [], []
        for position, token in enumerate(tokens, start=1):
            word, slash, tag = token.rpartition("/")
            if not slash:
                raise CorpusError(f"token {position} {token!r} has no '/': write each token "
                                  "as word/TAG", number)
            if not word or not tag:
                part = "word" if not word else "tag"
                raise CorpusError(f"token {position} {token!r} has an empty {part}: write "
                                  "each token as word/TAG", number)
            words.append(word.lower() if lowercase else word)
            labels.append(tag)
        sentences.append(tuple(words))
        tags.append(tuple(labels))
    return _corpus(sentences, tags, name)


def parse_wordtag_lines(text: str, name: str = "corpus",
                        lowercase: bool = False) -> TaggedCorpus:
    """Read ``word TAG``, one token per line and blank lines between sentences, from a string.

    Parameters
    ----------
    text : str
        Each token line has exactly two whitespace-separated fields. A missing final blank
        line is fine.
    name : str
        The corpus's label.
    lowercase : bool
        Lowercase the words (never the tags).

    Returns
    -------
    TaggedCorpus

    Raises
    ------
    CorpusError
        At the first line without exactly two fields, or when there is no sentence at all.
    """
    sentences, tags = [], []
    words, labels = [], []
    for number, line in enumerate(_lines(text), start=1):
        fields = line.split()
        if not fields:
            if words:
                sentences.append(tuple(words))
                tags.append(tuple(labels))
                words, labels = [], []
            continue
        if len(fields) != 2:
            raise CorpusError(f"a line with {len(fields)} field{'s' * (len(fields) != 1)}: "
                              "write one token per line as 'word TAG'", number)
        words.append(fields[0].lower() if lowercase else fields[0])
        labels.append(fields[1])
    if words:
        sentences.append(tuple(words))
        tags.append(tuple(labels))
    return _corpus(sentences, tags, name)


def detect_format(text: str) -> str:
    """The format of a tagged corpus, told from its first lines that carry tokens.

    CoNLL-U has 10 tab-separated columns; ``word/TAG`` lines have tokens with a slash; ``word
    TAG`` lines have exactly two fields. Raises CorpusError naming what was tried when none fits.
    """
    lines = [line for line in text.splitlines()[:200] if line.strip() and not line.startswith("#")]
    if lines and all(line.count("\t") == CONLLU_FIELDS - 1 for line in lines):
        return "conllu"
    if lines and all(all("/" in token for token in line.split()) for line in lines):
        return "wordtag"
    if lines and all(len(line.split()) == 2 for line in lines):
        return "wordtag-lines"
    raise CorpusError("cannot tell the corpus's format: it is not CoNLL-U (10 tab-separated "
                      "columns), word/TAG tokens (one sentence per line) or word TAG lines "
                      "(one token per line); name the format yourself (on the command line "
                      f"--format {', '.join(FORMATS[:-1])} or {FORMATS[-1]}; on a page, the "
                      "Format box)")


def looks_tagged(text: str) -> bool:
    """Whether ``text`` is plainly a tagged corpus: CoNLL-U, or ``word/TAG`` tokens throughout
    (``word TAG`` lines are not told apart from segmented text of two-word utterances)."""
    try:
        return detect_format(text) in ("conllu", "wordtag")
    except CorpusError:
        return False


def _parser(format: str) -> Callable[..., TaggedCorpus]:
    parsers = {
        "conllu": lambda text, name, lowercase: parse_conllu(text, name, "upos", lowercase),
        "conllu-xpos": lambda text, name, lowercase: parse_conllu(text, name, "xpos", lowercase),
        "wordtag": parse_wordtag,
        "wordtag-lines": parse_wordtag_lines,
    }
    if format == AUTO:
        return lambda text, name, lowercase: parsers[detect_format(text)](text, name, lowercase)
    if format not in parsers:
        raise ValueError(f"format must be one of {AUTO}, {', '.join(FORMATS)} (got {format!r})")
    return parsers[format]


def read_tagged(data: bytes | str, name: str = "corpus", format: str = "conllu",
                lowercase: bool = False) -> TaggedCorpus:
    """Read a tagged corpus from bytes (an upload) or a string.

    Parameters
    ----------
    data : bytes or str
        Bytes are decoded as UTF-8; a byte-order mark is dropped.
    name : str
        The corpus's label.
    format : {"conllu", "conllu-xpos", "wordtag", "wordtag-lines", "auto"}
        CoNLL-U keeping the UPOS or the XPOS tags, ``word/TAG`` one sentence per line,
        ``word TAG`` one token per line, or told from the text (CoNLL-U keeps UPOS).
    lowercase : bool
        Lowercase the words (never the tags).

    Returns
    -------
    TaggedCorpus

    Raises
    ------
    ValueError
        For an unknown `format`, listing the known ones.
    CorpusError
        For bytes that are not UTF-8 (naming the line of the first bad byte) and as the
        format's parser does.
    """
    parse = _parser(format)  # before decoding: a wrong format is the caller's mistake
    if isinstance(data, bytes):
        data = decode(data)
    return parse(data.removeprefix("\ufeff"), name, lowercase)


def load_tagged(path: str | Path, format: str = "conllu",
                lowercase: bool = False) -> TaggedCorpus:
    """Read a tagged corpus from a file; the corpus is named after the file.

    Parameters
    ----------
    path : str or Path
    format : {"conllu", "conllu-xpos", "wordtag", "wordtag-lines"}
    lowercase : bool
        Lowercase the words (never the tags).

    Returns
    -------
    TaggedCorpus

    Raises
    ------
    CorpusError
        When the file is missing or unreadable, and as `read_tagged` does.
    ValueError
        For an unknown `format`.
    """
    _parser(format)  # refuse a wrong format before touching the disk
    path = Path(path)
    return read_tagged(read_bytes(path), path.name, format, lowercase)


def format_wordtag(sentences: Iterable[Sequence[str]], tags: Iterable[Sequence[str]]) -> str:
    """The ``word/TAG`` format of tagged sentences, the inverse of `parse_wordtag`.

    Parameters
    ----------
    sentences : iterable of sequence of str
    tags : iterable of sequence of str
        One tag per word.

    Returns
    -------
    str
        One line per sentence, ``word/TAG`` tokens joined by single spaces, each line ending
        in ``\\n``.

    Raises
    ------
    ValueError
        When the sentences and tags differ in shape.
    """
    sentences, tags = list(sentences), list(tags)
    if len(sentences) != len(tags) or any(len(w) != len(t) for w, t in zip(sentences, tags)):
        raise ValueError("tags must have one tag per word of every sentence")
    return "".join(" ".join(f"{word}/{tag}" for word, tag in zip(words, labels)) + "\n"
                   for words, labels in zip(sentences, tags))


def tagged_builtin() -> TaggedCorpus:
    """The built-in part-of-speech corpus, "Built-in: simple sentences".

    Short, simple English sentences in the ``word/TAG`` format, tagged with the Universal
    Dependencies part-of-speech tags (UPOS), written for this project. Frequent function words
    recur often, and some words carry more than one tag ("run" as NOUN and VERB; "that" as
    DET, PRON and SCONJ; "like" as VERB and ADP), so a tagger has ambiguity to resolve.

    Returns
    -------
    TaggedCorpus
    """
    return replace(load_tagged(SIMPLE_SENTENCES, format="wordtag"),
                   name="Built-in: simple sentences")


# sentences of words, each with its gold tag
TAGGING = kinds.register(kinds.Kind(
    name="tagging", label="tagged text", unit="sentences", builtin=tagged_builtin,
    read=read_tagged,
    formats={AUTO: "told from the text (CoNLL-U keeps UPOS)", "conllu": "CoNLL-U (UPOS)",
             "conllu-xpos": "CoNLL-U (XPOS)", "wordtag": "word/TAG tokens, a sentence per line",
             "wordtag-lines": "word TAG per line, blank line between sentences"},
    suffixes=("conllu", "txt", "tsv"),
    unit_sizes=lambda corpus: np.array([len(s) for s in corpus.sentences], dtype=np.int64),
    looks="a tagged corpus in CoNLL-U or word/TAG", recognise=looks_tagged))
