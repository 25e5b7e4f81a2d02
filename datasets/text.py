"""Corpus files as text: read from disk or an upload, decoded as UTF-8, with errors that name
the path or the line of the first bad byte."""
from pathlib import Path

from datasets.errors import CorpusError

BOM = b"\xef\xbb\xbf"


def decode(data: bytes) -> str:
    """UTF-8 bytes as text, without a byte-order mark; a bad byte is reported by its line."""
    # Strip the BOM ourselves: the utf-8-sig codec reports error offsets without it.
    data = data.removeprefix(BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise CorpusError(f"the file is not UTF-8 text (byte {data[err.start]:#04x}): "
                          "save it as UTF-8", line) from None


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a missing or unreadable file is a CorpusError saying so."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CorpusError(f"cannot read {path}: there is no such file (check the path)",
                          path=path) from None
    except OSError as err:
        raise CorpusError(f"cannot read {path}: {err.strerror or err}", path=path) from None


def read_text(path) -> str:
    """A file's text (UTF-8, without a byte-order mark): what a model's own file format (an
    analysis) is read from, so that its errors are a corpus's: a missing file named, a bad
    byte by its line."""
    return decode(read_bytes(Path(path)))
