"""The one error a loader raises for input it cannot read."""


class CorpusError(ValueError):
    """Input that cannot be read as a corpus.

    The message says what was wrong and what to do; when the problem is on one line it starts
    with ``line N:`` (1-based) so that a user can find it in an editor.

    Parameters
    ----------
    message : str
        What was wrong and what to do about it.
    line : int, optional
        The 1-based line of the problem, or None when no single line is at fault.
    path : str or Path, optional
        The file the message names already (one that cannot be opened), so that a caller
        naming the file it read does not name it twice; None when the message names none.
    """

    def __init__(self, message: str, line: int | None = None, path=None):
        self.line = line
        self.path = path
        super().__init__(f"line {line}: {message}" if line is not None else message)
