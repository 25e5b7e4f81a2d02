"""engine.core.inline_copies: Numba's inliner, made to copy each function's scope once, copies
the IR it copied before — blocks as independent of the original, variables as many — and the
machine code compiled with it is Numba's own, byte for byte but for symbol ids."""
import copy
import re

import numpy as np
from numba import njit
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

import engine.core.jit  # noqa: F401  (installs the copier, as every kernel's module does)
from engine.core.inline_copies import OneMemoPerFunction, install, uninstall


@njit(inline="always")
def _clipped(x, lo, hi):
    if x < lo:
        y = lo
    elif x > hi:
        y = hi
    else:
        y = x
    return y


@njit(inline="always")
def _clipped_sum(a, lo, hi):
    t = 0.0
    for i in range(a.shape[0]):
        t += _clipped(a[i], lo, hi)
    return t


def _total(a):
    return _clipped_sum(a, 0.0, 1.0) + _clipped(a[0], 0.5, 0.6)


def machine_code(dispatcher):
    [text] = dispatcher.inspect_asm().values()
    return re.sub(r"_ZN[0-9A-Za-z_$]+", "SYMBOL", text)  # mangled names carry unique ids


class Counting(OneMemoPerFunction):
    blocks = 0

    def deepcopy(self, x, memo=None):
        Counting.blocks += memo is None
        return super().deepcopy(x, memo)


def test_the_engine_installs_the_copier():
    assert isinstance(inline_closurecall.copy, OneMemoPerFunction)


def test_the_blocks_of_one_function_share_one_copy_of_its_scope():
    func_ir = run_frontend(_clipped.py_func)
    blocks = list(func_ir.blocks.values())
    assert len(blocks) > 2
    numbas = [copy.deepcopy(block) for block in blocks]  # what the inliner did
    assert len({id(block.scope) for block in numbas}) == len(blocks)
    copier = OneMemoPerFunction()
    first = [copier.deepcopy(block) for block in blocks]
    [scope] = {id(block.scope): block.scope for block in first}.values()
    assert scope is not func_ir.blocks[0].scope
    assert sorted(scope.localvars._con) == sorted(blocks[0].scope.localvars._con)
    first[0].body.clear()
    assert blocks[0].body  # the original is untouched
    again = [copier.deepcopy(block) for block in blocks]  # a second copy is a new one
    assert again[0].scope is not scope and again[0].body
    assert all(a is not b for a, b in zip(again, first))


def test_the_machine_code_is_numbas_own():
    a = np.array([0.2, -1.0, 3.0, 0.7])
    uninstall()
    try:
        numbas = njit(_total)
        expected = numbas(a)
        counting = inline_closurecall.copy = Counting()
        ours = njit(_total)
        assert ours(a) == expected == 0.2 + 0.0 + 1.0 + 0.7 + 0.5
        assert Counting.blocks > 0  # the inliner copied through it
        assert machine_code(ours) == machine_code(numbas)
        assert inline_closurecall.copy is counting
    finally:
        uninstall()
        install()
