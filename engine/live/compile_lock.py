"""One compile of each kernel per machine: a lock file per compile job beside Numba's cache.

Every process of the lab compiles its kernels through the same jobs (engine.live.compiler's
``run_job``): the server's background compiler, ``engine warm``, a command-line run, a race's
workers, ``cluster worker``, the test suite. A job runs holding its lock, so a process that
needs a job another is compiling waits for it, then loads its kernels from the cache the other
filled, instead of compiling them again beside it (on two busy cores both would take twice as
long). The lock is the operating system's (``flock``): a process that dies lets it go.

The lock file holds what its holder is (``HOLDER``, which each entry point sets), so that a
waiting process says whom it waits for.
"""
import contextlib
import fcntl
import os
from pathlib import Path

import engine

LOCKS = "locks"  # the folder of the lock files, in the versioned cache folder
HOLDER = f"process {os.getpid()}"  # what a lock's holder says it is; entry points name theirs


def name_holder(what):
    """Say what this process is to those that wait for its locks ("the lab's server")."""
    global HOLDER
    HOLDER = what


def _path(key):
    folder = Path(engine.cache_folder()) / LOCKS
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (key.replace(":", "+") + ".lock")


@contextlib.contextmanager
def holding(key, on_wait=None):
    """Hold the lock of the job ``key`` for the block, which is given whether it waited:
    when another process holds it, ``on_wait(holder)`` is called (holder: what that process
    said it is), then the lock waited for."""
    with open(_path(key), "a+", encoding="utf-8") as lock:
        waited = False
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            if on_wait is not None:
                on_wait(lock.read().strip() or "another process")
            fcntl.flock(lock, fcntl.LOCK_EX)
            waited = True
        lock.seek(0)
        lock.truncate()
        lock.write(HOLDER)
        lock.flush()
        try:
            yield waited
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
