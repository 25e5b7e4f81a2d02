"""The command line as the tests run it. ``engine(*args)`` gives what ``python -m engine ARGS``
gives — the exit status, standard output and standard error — but runs ``engine.cli.main`` in
the test's own process: a new process would spend about a second importing Numba and loading
the kernels for each of the hundred-odd commands the tests run. ``engine_process(*args)`` runs
the real ``python -m engine`` in a process of its own, for the tests of the entry point itself
and of what only a process shows."""
import contextlib
import io
import subprocess
import sys
from pathlib import Path

from engine.cli import main

ROOT = Path(__file__).resolve().parents[1]


def engine(*args):
    """``python -m engine ARGS`` run in this process: a CompletedProcess."""
    argv = [str(arg) for arg in args]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:  # argparse's --help (0) and its one-line errors (2)
            status = stop.code if isinstance(stop.code, int) else 1
    return subprocess.CompletedProcess(["python", "-m", "engine", *argv], status,
                                       out.getvalue(), err.getvalue())


def engine_process(*args, timeout=300):
    """``python -m engine ARGS`` in a process of its own, from the project's folder."""
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
