"""How the engine compiles its loops.

Every kernel is ``njit(cache=True)`` without Numba's reference counting (the private but
long-standing ``_nrt=False`` option). A model's state is a tuple of many arrays, and Numba
counts references per array: each call of a function that holds the state and branches
incremented and decremented all of them — about 10 ns per array, ~200 ns per call for the
word-segmentation state, which was most of a TYPE sweep. Kernels never allocate (callers pass
buffers in), so they need no reference counts; a kernel that tried to allocate would fail to
compile rather than leak. Callees inherit the setting.

Kernels release the GIL (``nogil``): the app serves a class from one process, and each
session's sweeps then run on any free core instead of queueing behind one another.

Numba's inliner is made to copy each inlined function's scope once instead of once per block
(``inline_copies``): the same machine code, compiled in about 0.7 of the time.
"""
from numba import njit

from engine.core import compile_log, inline_copies

compile_log.start()
inline_copies.install()
kernel = njit(cache=True, _nrt=False, nogil=True)

inline = njit(inline="always", _nrt=False)
"""A helper Numba inlines into its callers (at the level of its IR). A call that is not inlined
passes every array of a model's state, ~7 words each: ~25 ns a call, several times that at
some call sites, and LLVM stops inlining small kernels once their caller has grown. A model's
per-site helpers are therefore ``inline``; what they rarely need is a ``kernel`` call. Each
returns once, at its end, which is what Numba's inliner handles best."""
