"""Sorting inside kernels, which may not allocate (engine.core.jit): Numba's own sort needs a
work stack from the heap."""
from engine.core.jit import kernel


@kernel
def sift_down(a, root, end):
    """Restore the max-heap property of a[root:end] below root.

    Parameters
    ----------
    a : int64[≥ end]
        The heap, mutated.
    root, end : int
    """
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and a[child] < a[child + 1]:
            child += 1
        if a[root] >= a[child]:
            return
        a[root], a[child] = a[child], a[root]
        root = child


@kernel
def sort_prefix(a, n):
    """Sort a[:n] in place, ascending (heapsort: O(n log n), no extra memory).

    Parameters
    ----------
    a : int64[≥ n]
        Mutated.
    n : int
    """
    if n < 16:  # insertion sort is faster on the short lists most blocks have
        for i in range(1, n):
            x = a[i]
            j = i - 1
            while j >= 0 and a[j] > x:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = x
        return
    for root in range(n // 2 - 1, -1, -1):
        sift_down(a, root, n)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        sift_down(a, 0, end)
