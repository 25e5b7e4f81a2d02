"""Word-aligned sentence pairs, as alignment tools write them: the pairs one per line,
``source words ||| target words``, and the alignment of each in Pharaoh format, one line per
pair, ``i-j`` links (source position i to target position j, 0-based, in any order; awesome-align
writes them unsorted). A pair may carry its alignment as a third field instead
(``source ||| target ||| 0-0 1-2``), so that one file holds a small corpus.

Words are split on white space as Python's ``str.split()`` does, as awesome-align's reader does:
an ideographic space (U+3000) in Japanese text separates words too (KFTT has five such lines).
"""
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from datasets import kinds
from datasets.errors import CorpusError
from datasets.text import decode, read_bytes

SEPARATOR = " ||| "
MAX_WORDS = 200     # words on one side of a pair
MAX_PAIRS = 100_000
_LINK = re.compile(r"(\d+)-(\d+)$")
BUILTIN = Path(__file__).parent / "builtin" / "aligned.txt"
# one four-word monotone pair: 5 trees of 7 nodes, 320 analyses, whose root's three edges have
# exact posterior 0.4, 0.2, 0.4 (the lesson's check of the edge step, with and without deg(v))
MONOTONE = "a b c d ||| w x y z ||| 0-0 1-1 2-2 3-3\n"
# one three-word pair twice and a two-word pair inside it: their rules recur, so TYPE's blocks
# (and one-stage's sequential draws) span pairs; 4,096 analyses
RECURRING = ("a b c ||| x y z ||| 0-0 1-1 2-2\n" * 2) + "b c ||| y z ||| 0-0 1-1\n"
# one rule recurring five times: where the Pitman-Yor prior's T = N^d is furthest from the tables
COPIES = "a b ||| x y ||| 0-0 1-1\n" * 5
EXAMPLE = "我 今天 和 她 有 约会 ||| I have a date with her today ||| 0-0 1-6 2-4 3-5 4-1 5-3"


@dataclass(frozen=True)
class AlignedCorpus:
    """Sentence pairs with their word alignments.

    Attributes
    ----------
    source, target : tuple of tuple of str
        Each pair's words on either side.
    links : tuple of tuple of (int, int)
        Each pair's alignment, sorted, without repeats: (source position, target position).
    name : str
        A label for the user.
    """

    source: tuple
    target: tuple
    links: tuple
    name: str = "aligned pairs"

    def __len__(self):
        return len(self.source)

    def head(self, n):
        """The first n pairs."""
        return AlignedCorpus(self.source[:n], self.target[:n], self.links[:n], self.name)

    def pair(self, u):
        """Pair u (0-based) as a corpus of its own."""
        return AlignedCorpus(self.source[u:u + 1], self.target[u:u + 1], self.links[u:u + 1],
                             f"pair {u + 1} of {self.name}")


def read(pairs, alignments=None, name="aligned pairs"):
    """Pairs and their alignments from text (or a file's bytes).

    Parameters
    ----------
    pairs : str or bytes
        ``source ||| target`` per line, or ``source ||| target ||| links`` when ``alignments``
        is None.
    alignments : str or bytes, optional
        One line of Pharaoh links per pair (an empty line: a pair with no links).
    name : str

    Raises
    ------
    CorpusError
        Naming the line (and the file, when the two disagree) of the first problem.
    """
    pair_lines = _lines(pairs)
    if len(pair_lines) > MAX_PAIRS:
        raise CorpusError(f"{len(pair_lines):,} pairs: the lab reads at most {MAX_PAIRS:,}; "
                          "take a part of the file")
    fields = [_pair_fields(line, number, alignments is None)
              for number, line in enumerate(pair_lines, 1)]
    if alignments is not None:
        link_lines = _lines(alignments)
        if len(link_lines) != len(pair_lines):
            raise LinkError(f"the alignments have {len(link_lines):,} lines and the pairs "
                              f"{len(pair_lines):,}: each pair needs one line of links "
                              "(an empty line for a pair with none)")
        fields = [(f, e, links) for (f, e, _), links in zip(fields, link_lines)]
    if not fields:
        raise CorpusError("no sentence pairs: write one pair a line, "
                          f"'source words{SEPARATOR}target words'")
    source, target, links = [], [], []
    for number, (f, e, text) in enumerate(fields, 1):
        source.append(tuple(f))
        target.append(tuple(e))
        links.append(parse_links(text, len(f), len(e), number))
    return AlignedCorpus(tuple(source), tuple(target), tuple(links), name)


def read_files(pairs, alignments=None):
    """Pairs and alignments from files (``read``); an error names the file it is in.

    Parameters
    ----------
    pairs : str or Path
    alignments : str or Path, optional
    """
    pairs, data = Path(pairs), read_bytes(Path(pairs))
    links = None if alignments is None else read_bytes(Path(alignments))
    try:
        return read(data, links, name=pairs.name)
    except LinkError as err:
        where = alignments or pairs
        raise CorpusError(f"{where}: {err}", path=where) from None
    except CorpusError as err:
        raise CorpusError(f"{pairs}: {err}", path=pairs) from None


class LinkError(CorpusError):
    """A link that cannot be read or points past its sentence."""


def _lines(data):
    text = decode(data) if isinstance(data, bytes) else data
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def _pair_fields(line, number, with_links):
    """(source words, target words, links text or None) of one line."""
    parts = line.split("|||")
    if len(parts) == 3 and not with_links:
        raise CorpusError("these pairs carry their links (a third field): leave out the "
                          "alignments file, or the links from the pairs", line=number)
    if len(parts) not in ((2, 3) if with_links else (2,)):
        expected = (f"'source{SEPARATOR}target' or 'source{SEPARATOR}target{SEPARATOR}links'"
                    if with_links else f"'source{SEPARATOR}target'")
        raise CorpusError(f"a pair must read {expected}; this line has {len(parts) - 1} "
                          "'|||'", line=number)
    f, e = parts[0].split(), parts[1].split()
    for side, words in (("source", f), ("target", e)):
        if not words:
            raise CorpusError(f"the {side} sentence is empty", line=number)
        if len(words) > MAX_WORDS:
            raise CorpusError(f"the {side} sentence has {len(words)} words: the lab reads "
                              f"at most {MAX_WORDS} a side", line=number)
    return f, e, (parts[2] if len(parts) == 3 else "")


def parse_links(text, f_len, e_len, number):
    """The sorted, distinct links of one line of Pharaoh text (``0-0 1-2 …``).

    Raises
    ------
    LinkError
        For a link that is not ``i-j`` or points past either sentence (naming which).
    """
    links = set()
    for token in text.split():
        match = _LINK.match(token)
        if not match:
            raise LinkError(f"{token!r} is not a link: write 'i-j', the source word's "
                              "position, a hyphen and the target word's (0-based)", line=number)
        i, j = int(match.group(1)), int(match.group(2))
        for side, k, length in (("source", i, f_len), ("target", j, e_len)):
            if k >= length:
                raise LinkError(f"link {token} points to {side} word {k}, but the {side} "
                                  f"sentence has {length} words (positions 0 … {length - 1}; "
                                  "are the links 1-based?)", line=number)
        links.add((i, j))
    return tuple(sorted(links))


def read_upload(data, name="aligned pairs", alignments=None, alignments_name="alignments"):
    """An upload: pairs with their links as each line's third field, or (``alignments``: the
    bytes of a second file, called ``alignments_name``) a line of links a pair there; an error
    in the links names that file."""
    try:
        return read(data, alignments, name)
    except LinkError as err:
        if alignments is None:
            raise
        raise CorpusError(f"in {alignments_name}: {err}") from None


def monotone() -> AlignedCorpus:
    """The tiny corpus of one monotone four-word pair (``MONOTONE``)."""
    return read(MONOTONE, name="Tiny: one four-word pair")


def recurring() -> AlignedCorpus:
    """The tiny corpus of three pairs whose rules recur (``RECURRING``)."""
    return read(RECURRING, name="Tiny: three pairs whose rules recur")


def copies() -> AlignedCorpus:
    """The tiny corpus of one two-word pair five times (``COPIES``)."""
    return read(COPIES, name="Tiny: one two-word pair, five times")


def builtin() -> AlignedCorpus:
    """The built-in pairs, "Built-in: small Japanese–English pairs".

    Romanised Japanese (subject-object-verb, the particles wa, o and de) beside English
    (subject-verb-object, articles), written for this project from a handful of sentence
    patterns, each pattern recurring so that rules recur: the particles and articles are
    unaligned, the verb and the place phrase are reordered.
    """
    return replace(read_files(BUILTIN), name="Built-in: small Japanese–English pairs")


def looks_aligned(text):
    """Whether ``text`` is plainly sentence pairs: every line that is not blank has '|||'."""
    lines = kinds.sample_lines(text)
    return bool(lines) and all("|||" in line for line in lines)


# sentence pairs with their word alignments
ALIGNED = kinds.register(kinds.Kind(
    name="aligned", label="word-aligned sentence pairs", unit="pairs", builtin=builtin,
    read=read_upload,
    formats={"pairs": f"one pair a line with its links: source{SEPARATOR}target{SEPARATOR}"
                      "0-0 1-2 …",
             "two files": f"one pair a line, source{SEPARATOR}target, and the alignments in "
                          "Pharaoh format (i-j, 0-based) a line a pair in a second file"},
    suffixes=("txt", "aligned"),
    unit_sizes=lambda corpus: np.array([len(f) + len(e) for f, e in
                                        zip(corpus.source, corpus.target)], dtype=np.int64),
    looks=f"sentence pairs, source{SEPARATOR}target", recognise=looks_aligned))
