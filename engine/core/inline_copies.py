"""Numba's IR inliner copies a callee's scope once per block; this makes it once per function.

To inline a call (``inline="always"``, the engine's per-site helpers and some model-interface
overloads), ``numba.core.inline_closurecall.InlineWorker.inline_ir`` copies the callee's IR
block by block, each with ``copy.deepcopy`` and a memo of its own. Every variable of every block
refers to the function's one ``Scope``, which holds every variable of the function, so each
block's copy copies all of them again: the work grows with blocks × variables, and the engine's
helpers, inlined into one another, have many of both. Measured (cProfile, a cold compile of the
forests' TOKEN walk on a 2-core Xeon): 54.7 s of 108.6 s in ``deepcopy``. This is Numba's issue
#8989 (open in 0.68).

``install()`` gives that module a ``copy`` whose ``deepcopy`` copies the blocks of one function,
taken one after another, with one memo, as a single deepcopy of all of them would: the scope is
copied once, and every block's copy refers to that one copy (as the original blocks refer to
their one scope). The IR the inliner goes on with is the same; so is the machine code
(tests/engine/core/test_inline_copies.py compares it), only the compile is faster. Anything else the
module copies goes to ``copy.deepcopy`` unchanged.
"""
import copy

from numba.core import inline_closurecall, ir


class OneMemoPerFunction:
    """``copy`` for numba.core.inline_closurecall: blocks of one scope, copied one after another
    without a memo, share one; a block copied again (the same IR copied a second time) or a
    block of another scope starts a new copy. (Numba compiles under one global lock, so the
    copies of two functions never interleave.)"""

    def __init__(self):
        self._scope, self._memo, self._copied = None, {}, set()

    def __getattr__(self, name):
        return getattr(copy, name)

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        # the memo keeps every block it copied alive, so an id in _copied is never reused
        if x.scope is not self._scope or id(x) in self._copied:
            self._scope, self._memo, self._copied = x.scope, {}, set()
        self._copied.add(id(x))
        return copy.deepcopy(x, self._memo)


def install():
    """Make Numba's inliner copy each function's scope once (idempotent). Where Numba no longer
    copies through its module's ``copy`` (a later version), nothing is changed."""
    if inline_closurecall.copy is copy:
        inline_closurecall.copy = OneMemoPerFunction()


def uninstall():
    """Numba's own copying again (for the test that compares the machine code of both)."""
    if isinstance(inline_closurecall.copy, OneMemoPerFunction):
        inline_closurecall.copy = copy
