"""The plain segmented format: one utterance per line, its gold words separated by spaces.

Symbols are single characters (a phonemic transcription such as the Brent corpus's uses one
character per phoneme). Blank lines are skipped and counted; anything else that cannot be read
is refused with a message naming the line.
"""
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.errors import CorpusError

MAX_UTTERANCE = 2000  # symbols; longer lines are almost surely not one utterance


@dataclass(frozen=True)
class SegmentedCorpus:
    """Utterances as tuples of gold words, with what the loader skipped."""

    utterances: tuple
    blank_lines: int
    name: str

    @property
    def texts(self):
        """The utterances without their word boundaries."""
        return tuple("".join(words) for words in self.utterances)

    @property
    def n_symbols(self):
        return sum(len(text) for text in self.texts)

    @property
    def n_words(self):
        return sum(len(words) for words in self.utterances)


def parse_segmented(text, name="corpus"):
    """Read the plain format from a string. Raises CorpusError naming the first bad line."""
    utterances, blank = [], 0
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()  # a final newline ends the last line; it starts no blank one
    for number, line in enumerate(lines, start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            blank += 1
            continue
        check_line(line, number)
        utterances.append(tuple(line.split()))
    if not utterances:
        detail = f"only {blank:,} blank lines" if blank else "nothing in it"
        raise CorpusError(f"the file has no utterances ({detail}): give one utterance per "
                          "line, words separated by spaces")
    return SegmentedCorpus(tuple(utterances), blank, name)


def check_line(line, number):
    """Refuse characters that cannot be symbols, and overlong utterances."""
    for column, char in enumerate(line, start=1):
        if char == "\ufffd":
            raise CorpusError(f"column {column} is not valid UTF-8 text: save the file as UTF-8",
                              number)
        if char != " " and (char.isspace() or unicodedata.category(char).startswith("C")):
            kind = {"\t": "tab"}.get(char, unicodedata.name(char, "control character"))
            raise CorpusError(f"the character {char!r} ({kind.lower()}) at column {column} "
                              "cannot be a symbol: separate words by single spaces", number)
    symbols = len(line.replace(" ", ""))
    if symbols > MAX_UTTERANCE:
        raise CorpusError(f"an utterance of {symbols:,} symbols (at most {MAX_UTTERANCE:,}): "
                          "put one utterance per line", number)


def read_segmented(data, name="corpus"):
    """Read the plain format from bytes (an upload) or a string."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            raise CorpusError("the file is not UTF-8 text (byte "
                              f"{data[err.start]:#04x}): save it as UTF-8", line) from None
    return parse_segmented(data, name)


def load_segmented(path):
    """Read a file in the plain format; its name is the file's."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CorpusError(f"cannot read {path}: {err.strerror or err}") from None
    return read_segmented(data, path.name)


def format_segmented(utterances):
    """The plain format of utterances given as word sequences (one line each)."""
    return "".join(" ".join(words) + "\n" for words in utterances)


def gold_boundaries(utterances):
    """uint8[T] over the concatenated symbols: 1 where a gold word ends (every utterance's last
    symbol included)."""
    lengths = [len(word) for words in utterances for word in words]
    bound = np.zeros(sum(lengths), dtype=np.uint8)
    bound[np.cumsum(lengths) - 1] = 1
    return bound
