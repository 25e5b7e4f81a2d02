"""Copying a model state: a namedtuple of arrays, some of them the corpus (read-only, shared
by every copy) and the rest the analysis and its counts (copied)."""


def clone(state, shared=()):
    """An independent copy of ``state``: every field copied except those named in ``shared``,
    which the copy shares (the corpus's arrays, which no kernel writes)."""
    return type(state)(*(value if name in shared else value.copy()
                         for name, value in zip(state._fields, state)))
