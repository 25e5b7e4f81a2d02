"""The plain segmented format: one utterance per line, its gold words separated by spaces.

Symbols are single characters (a phonemic transcription such as the Brent corpus's uses one
character per phoneme). Blank lines are skipped and counted; anything else that cannot be read
is refused with a `CorpusError` naming the line.

This module is the segmentation kind of data (``SEGMENTATION``, datasets.kinds): its reader, its
built-in corpus and how its utterances are measured.
"""
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from datasets import kinds
from datasets.errors import CorpusError
from datasets.text import decode, read_bytes

MAX_UTTERANCE = 2000  # symbols; a longer line is almost surely a paragraph, not one utterance
NURSERY = Path(__file__).resolve().parent / "builtin" / "nursery.txt"


@dataclass(frozen=True)
class SegmentedCorpus:
    """Utterances as tuples of gold words, with what the loader skipped.

    Attributes
    ----------
    utterances : tuple of tuple of str
        Each utterance's gold words, in file order.
    blank_lines : int
        Empty or whitespace-only lines the loader skipped.
    name : str
        A label for the user (a file name, or how the corpus was made).
    """

    utterances: tuple[tuple[str, ...], ...]
    blank_lines: int
    name: str

    def head(self, n):
        """The first n utterances (a corpus too large for a page, cut)."""
        return SegmentedCorpus(self.utterances[:n], 0, f"{self.name}, first {n:,} utterances")

    @property
    def texts(self) -> tuple[str, ...]:
        """The utterances without their word boundaries (what a segmenter sees)."""
        return tuple("".join(words) for words in self.utterances)

    @property
    def n_symbols(self) -> int:
        """The number of symbols over all utterances."""
        return sum(len(word) for words in self.utterances for word in words)

    @property
    def n_words(self) -> int:
        """The number of gold word tokens over all utterances."""
        return sum(len(words) for words in self.utterances)


def parse_segmented(text: str, name: str = "corpus") -> SegmentedCorpus:
    """Read the plain format from a string.

    Parameters
    ----------
    text : str
        The file's content; lines end in ``\\n`` or ``\\r\\n``.
    name : str
        The corpus's label.

    Returns
    -------
    SegmentedCorpus

    Raises
    ------
    CorpusError
        At the first line that cannot be read, or when there is no utterance at all.
    """
    utterances, blank = [], 0
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()  # a final newline ends the last line; it does not start a blank one
    for number, line in enumerate(lines, start=1):
        line = line.removesuffix("\r")
        if not line.strip():  # whitespace of any kind
            blank += 1
            continue
        _check_line(line, number)
        utterances.append(tuple(line.split()))  # runs of spaces count as one
    if not utterances:
        detail = f"only {blank:,} blank line{'s' * (blank != 1)}" if blank else "nothing in it"
        raise CorpusError(f"the file has no utterances ({detail}): give one utterance per "
                          "line, words separated by spaces")
    return SegmentedCorpus(tuple(utterances), blank, name)


def _check_line(line: str, number: int) -> None:
    """Refuse characters that cannot be symbols, and overlong utterances."""
    for column, char in enumerate(line, start=1):
        if char == "\ufffd":
            raise CorpusError(f"the replacement character U+FFFD at column {column} means the "
                              "file was not valid UTF-8 text: save it as UTF-8", number)
        # Other whitespace would be read as a word break or as a symbol the user cannot see.
        if char != " " and (char.isspace() or unicodedata.category(char).startswith("C")):
            kind = "tab" if char == "\t" else unicodedata.name(char, "control character").lower()
            raise CorpusError(f"the character {char!r} ({kind}) at column {column} cannot be a "
                              "symbol: separate words by single spaces", number)
    symbols = len(line.replace(" ", ""))
    if symbols > MAX_UTTERANCE:
        raise CorpusError(f"an utterance of {symbols:,} symbols (at most {MAX_UTTERANCE:,}): "
                          "split it, one utterance per line", number)


def read_segmented(data: bytes | str, name: str = "corpus") -> SegmentedCorpus:
    """Read the plain format from bytes (an upload) or a string.

    Parameters
    ----------
    data : bytes or str
        Bytes are decoded as UTF-8; a byte-order mark is dropped.
    name : str
        The corpus's label.

    Returns
    -------
    SegmentedCorpus

    Raises
    ------
    CorpusError
        For bytes that are not UTF-8 (naming the line of the first bad byte) and as
        `parse_segmented` does.
    """
    if isinstance(data, bytes):
        data = decode(data)
    return parse_segmented(data.removeprefix("\ufeff"), name)


def load_segmented(path: str | Path) -> SegmentedCorpus:
    """Read a file in the plain format; the corpus is named after the file.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    SegmentedCorpus

    Raises
    ------
    CorpusError
        When the file is missing or unreadable, and as `read_segmented` does.
    """
    path = Path(path)
    return read_segmented(read_bytes(path), path.name)


def format_segmented(utterances: Iterable[Sequence[str]]) -> str:
    """The plain format of utterances given as word sequences, the inverse of parsing.

    Parameters
    ----------
    utterances : iterable of sequence of str

    Returns
    -------
    str
        One line per utterance, words joined by single spaces, each line ending in ``\\n``.
    """
    return "".join(" ".join(words) + "\n" for words in utterances)


def gold_boundaries(utterances: Iterable[Sequence[str]]) -> np.ndarray:
    """Where the gold words end, over the concatenated symbols of all utterances.

    Parameters
    ----------
    utterances : iterable of sequence of str

    Returns
    -------
    numpy.ndarray of uint8
        One entry per symbol, 1 at the last symbol of each word (so at each utterance's last
        symbol too), else 0.
    """
    lengths = [len(word) for words in utterances for word in words]
    bound = np.zeros(sum(lengths), dtype=np.uint8)
    bound[np.cumsum(lengths, dtype=np.int64) - 1] = 1
    return bound


def builtin_corpus() -> SegmentedCorpus:
    """The built-in word-segmentation corpus, "Built-in: nursery talk".

    Short utterances a caregiver might say to a toddler, in plain lowercase English spelling
    (one letter = one symbol), written for this project.

    Returns
    -------
    SegmentedCorpus
    """
    return replace(load_segmented(NURSERY), name="Built-in: nursery talk")


def looks_segmented(text: str) -> bool:
    """Whether ``text`` is plainly segmented text: words (with letters: Pharaoh links ``0-1``
    have none), nothing another kind marks its units with (a tab, a slash, a bracket, '|||')
    and some line of three words or more (lines of two may be ``word TAG`` lines of a tagged
    corpus)."""
    lines = kinds.sample_lines(text)
    return (any(char.isalpha() for char in text)
            and not any(mark in text for mark in ("\t", "/", "(", "|||"))
            and any(len(line.split()) >= 3 for line in lines))


# utterances of one-character symbols, the gold words separated by spaces
SEGMENTATION = kinds.register(kinds.Kind(
    name="segmentation", label="segmented text", unit="utterances", builtin=builtin_corpus,
    read=read_segmented,
    formats={"plain": "plain segmented text: one utterance per line, words separated by spaces"},
    suffixes=("txt",),
    unit_sizes=lambda corpus: np.array([len(text) for text in corpus.texts], dtype=np.int64),
    looks="plain segmented text", recognise=looks_segmented))
