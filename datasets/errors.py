"""The one error a loader raises for input it cannot read."""


class CorpusError(ValueError):
    """Input that cannot be read as a corpus. The message names the line (1-based) when there
    is one, says what was wrong and what to do."""

    def __init__(self, message, line=None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
