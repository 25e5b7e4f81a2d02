"""Grids on a real Dask cluster, started as a user starts one (docs/command-line.md, "Grids on a
cluster"): a scheduler and workers, each `python -m engine cluster …` in a process of its own,
run from a folder outside the checkout with only PYTHONPATH pointing at it. A race on it gives
the serial run's traces; workers without the engine or with another engine are refused in one
line before any task is sent."""
import contextlib
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd

from engine.grid import SCHEDULER_VARIABLE, server_scheduler
from tests.root import ROOT

NURSERY = ROOT / "datasets" / "builtin" / "nursery.txt"
START_SECONDS = 180  # a worker fills its kernel cache first: seconds when it is warm
RUN_SECONDS = 120
ADDRESS = re.compile(r"scheduler at (tcp://[\d.]+:\d+)")


def user_environment(pythonpath=ROOT, **extra):
    """The environment of a user's shell that put the checkout on PYTHONPATH (or, with
    pythonpath None, did not)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return {**env, **extra}


class Process:
    """A started command whose output lines (stdout and stderr) can be awaited; terminated
    (then killed), with every process it started, by ``stop``."""

    def __init__(self, command, folder, env):
        self.popen = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.lines, self.seen = queue.Queue(), []
        for stream in (self.popen.stdout, self.popen.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self.lines.put(line)

    def line_matching(self, pattern, seconds):
        """The match of ``pattern`` in the first line that has one, within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.popen.poll() is None, "".join(self.seen[-20:])
                continue
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no line matching {pattern!r} in {seconds} s:\n"
                             + "".join(self.seen[-20:]))

    def stop(self):
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)  # its worker processes too
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait()


def engine_command(*args):
    return [sys.executable, "-m", "engine", *map(str, args)]


@contextlib.contextmanager
def scheduler_process(folder):
    """A scheduler started with `python -m engine cluster scheduler`; its address."""
    scheduler = Process(engine_command("cluster", "scheduler", "--port", 0), folder,
                        user_environment())
    try:
        yield scheduler.line_matching(ADDRESS, START_SECONDS).group(1)
    finally:
        scheduler.stop()


@contextlib.contextmanager
def worker_processes(commands, folder, ready=r"joined"):
    """Workers started by ``commands`` ([(command, env)]), once each has said it joined."""
    started = []
    try:
        for command, env in commands:
            started.append(Process(command, folder, env))
        for worker in started:
            worker.line_matching(ready, START_SECONDS)
        yield started
    finally:
        for worker in started:
            worker.stop()


@contextlib.contextmanager
def external_cluster(folder, workers=2):
    """A scheduler and ``workers`` one-process workers, each started by `python -m engine
    cluster` in a process of its own from ``folder``; the scheduler's address."""
    with scheduler_process(folder) as address:
        command = engine_command("cluster", "worker", address, "--nworkers", 1)
        with worker_processes([(command, user_environment())] * workers, folder):
            yield address


def race(folder, *args):
    return subprocess.run(engine_command("race", "--model", "usm", "--data", "corpus.txt",
                                         "--samplers", "token,type", "--chains", 2,
                                         "--sweeps", 3, "--seed", 5, *args),
                          cwd=folder, env=user_environment(), capture_output=True, text=True,
                          timeout=RUN_SECONDS)


def test_a_race_on_an_external_cluster_gives_the_serial_traces(tmp_path):
    client, cluster = tmp_path / "client", tmp_path / "cluster"
    client.mkdir(), cluster.mkdir()
    # a path relative to the client's folder: a worker that read the file itself would not
    # find it from the cluster's folder
    shutil.copy(NURSERY, client / "corpus.txt")
    with external_cluster(cluster) as address:
        spread = race(client, "--scheduler", address, "--out", "spread")
    assert spread.returncode == 0, spread.stderr
    assert "4/4 chains done" in spread.stderr
    serial = race(client, "--workers", 1, "--out", "serial")
    assert serial.returncode == 0, serial.stderr
    traces = [pd.read_csv(client / name / "traces.csv").drop(columns="seconds")
              for name in ("spread", "serial")]
    assert len(traces[0]) == 2 * 2 * 4
    pd.testing.assert_frame_equal(*traces)


def another_engine(folder):
    """A copy of the checkout's engine with one comment added: another engine version."""
    for package in ("engine", "datasets"):
        shutil.copytree(ROOT / package, folder / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / "engine" / "grid.py", "a", encoding="utf-8") as source:
        source.write("# an edit the checkout does not have\n")
    return folder


def test_workers_without_the_engine_or_with_another_are_refused_in_one_line(tmp_path):
    client, cluster, other = (tmp_path / name for name in ("client", "cluster", "other"))
    for folder in (client, cluster):
        folder.mkdir()
    shutil.copy(NURSERY, client / "corpus.txt")
    dask_worker = [str(Path(sys.executable).parent / "dask"), "worker", "--nworkers", "1",
                   "--nthreads", "1", "--no-dashboard"]
    # the other engine keeps its Numba cache folder out of this one's cache root
    elsewhere = user_environment(another_engine(other), TYPEBLOCKS_CACHE_ROOT=str(tmp_path))
    with scheduler_process(cluster) as address, worker_processes(
            [(dask_worker + [address], user_environment(None)),
             (dask_worker + [address], elsewhere)], cluster, ready="Registered to:"):
        refused = race(client, "--scheduler", address, "--out", "spread")
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in refused.stderr, refused.stderr
    assert "cannot run the engine" in lines[0] and "No module named 'engine'" in lines[0]
    assert "run engine version" in lines[0] and ", this checkout is " in lines[0]
    assert f"`python -m engine cluster worker {address}`" in lines[0]
    assert not (client / "spread").exists()


def test_an_address_with_no_scheduler_is_one_line(tmp_path):
    shutil.copy(NURSERY, tmp_path / "corpus.txt")
    refused = race(tmp_path, "--scheduler", "tcp://127.0.0.1:9", "--out", "spread")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in refused.stderr


def test_the_servers_cluster_is_its_environments(monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    assert server_scheduler() is None
    monkeypatch.setenv(SCHEDULER_VARIABLE, "")
    assert server_scheduler() is None
    monkeypatch.setenv(SCHEDULER_VARIABLE, "tcp://10.0.0.5:8786")
    assert server_scheduler() == "tcp://10.0.0.5:8786"
