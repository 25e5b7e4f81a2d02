"""A log of what Numba compiles, and in which process: ``TYPEBLOCKS_COMPILE_LOG=FILE`` makes
every process of the lab started with it append a line per kernel compiled (a cache miss, not
a load): ``pid<TAB>seconds<TAB>module.kernel<TAB>argument types``. For a slow first minute
("what did this page compile, and did two processes compile the same kernel?") and for the
test that checks each kernel is compiled once per machine (tests/engine/live/test_compile_once.py).
Kernels outside the cache (Numba's ``inline`` helpers, which compile into their callers) are
not logged: they are never shared between processes."""
import os
import time

from numba.core import event

VARIABLE = "TYPEBLOCKS_COMPILE_LOG"


class _Log(event.Listener):
    def __init__(self, path):
        self.path = path
        self.started = {}

    def on_start(self, ev):
        self.started[id(ev.data["dispatcher"])] = time.perf_counter()

    def on_end(self, ev):
        dispatcher = ev.data["dispatcher"]
        seconds = time.perf_counter() - self.started.pop(id(dispatcher), time.perf_counter())
        if type(dispatcher._cache).__name__ == "NullCache":  # not cached: never shared
            return
        kernel = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        with open(self.path, "a", encoding="utf-8") as log:  # one short write: lines stay whole
            log.write(f"{os.getpid()}\t{seconds:.3f}\t{kernel}\t{ev.data['args']}\n")


def start():
    """Log this process's compiles when the environment asks for it (engine.core.jit calls
    it once, on import)."""
    path = os.environ.get(VARIABLE)
    if path:
        event.register("numba:compile", _Log(path))
