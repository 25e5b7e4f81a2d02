"""Stopping a command: Ctrl-C and SIGTERM end it the same way, at any stage — the files it was
writing keep what they hold (engine.cli.rows says what), and every process it started (a local
Dask cluster's workers, the kernel compiler's, a nanny's) is ended before it exits."""
import contextlib
import signal
import threading

import psutil

END_SECONDS = 5  # a child told to stop (SIGTERM) gets this long before it is killed
SIGNAL_NAMES = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}


class Stopped(KeyboardInterrupt):
    """The command was told to stop (``signum``: SIGINT for Ctrl-C, or SIGTERM). A
    KeyboardInterrupt, so what unwinds on Ctrl-C (a cluster closing, a file flushed) unwinds
    on SIGTERM too."""

    def __init__(self, signum=signal.SIGINT):
        super().__init__(SIGNAL_NAMES.get(signum, f"signal {signum}"))
        self.signum = signum

    @property
    def status(self):
        """The exit status a shell gives a process ended by the signal: 128 + its number."""
        return 128 + self.signum


def _raise_stopped(signum, frame):
    raise Stopped(signum)


@contextlib.contextmanager
def stoppable():
    """Run the body with SIGTERM raising Stopped (as Ctrl-C raises KeyboardInterrupt), and end
    every process started meanwhile that is still running when it leaves, however it leaves.
    Only the main thread can take signals: elsewhere only the processes are ended."""
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _raise_stopped) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        end_children(before)


def end_children(keep=()):
    """Terminate this process's descendants (but those in ``keep``, running before), then kill
    any still there after END_SECONDS; the pids ended."""
    children = [child for child in psutil.Process().children(recursive=True)
                if child.pid not in keep]
    for child in children:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.terminate()
    _, alive = psutil.wait_procs(children, timeout=END_SECONDS)
    for child in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()
    psutil.wait_procs(alive, timeout=END_SECONDS)
    return [child.pid for child in children]
