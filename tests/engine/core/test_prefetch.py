"""engine.core.prefetch: the hint reaches LLVM as its prefetch intrinsic, changes nothing
(any dtype and stride, an index past the end included), and takes only 1-D arrays."""
import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from engine.core.prefetch import prefetch


@njit
def hinted_sum(a, ahead):
    total = 0
    for i in range(a.shape[0]):
        prefetch(a, i + ahead)  # past the end too: a prefetch never faults
        total += a[i]
    return total


def test_a_hint_changes_nothing_and_is_llvm_prefetch():
    for a in (np.arange(1000, dtype=np.int32), np.arange(3000, dtype=np.uint8)[::3]):
        assert hinted_sum(a, 1 << 20) == a.sum()
    llvm = hinted_sum.inspect_llvm(hinted_sum.signatures[0])
    assert "call void @llvm.prefetch" in llvm


def test_only_one_dimensional_arrays():
    @njit
    def hint_rows(a):
        prefetch(a, 0)

    with pytest.raises(TypingError):
        hint_rows(np.zeros((2, 2)))
