"""Stopping a long command (Ctrl-C, SIGTERM) keeps what it did and leaves no process behind:
the grids (race, table1, gj-grid) and parallel keep the rows of every task that finished and
say so on stderr; every process a command started ends with it.

In-process, the stop arrives through a hook (``stop_after``: SIGTERM's exception raised once
some tasks have finished); in a process of its own, as a real signal."""
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import psutil
import pytest

from engine import grid
from engine.cli.stopping import Stopped
from engine.samplers.parallel import ParallelChain
from tests.command import ROOT, engine


def stop_after(monkeypatch, owner, name, calls):
    """Make ``owner.name`` raise SIGTERM's Stopped on its call number ``calls + 1``: the signal
    arriving while the task after ``calls`` finished ones runs."""
    original, count = getattr(owner, name), [0]

    def counted(*args, **kwargs):
        count[0] += 1
        if count[0] > calls:
            raise Stopped(signal.SIGTERM)
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)


def stopped_keeping(done, finished, total):
    """The command said it stopped on SIGTERM after ``finished`` of ``total`` tasks."""
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert f"stopped after {finished} of {total}" in done.stderr, done.stderr
    assert "stopped by SIGTERM" in done.stderr and "Traceback" not in done.stderr


def test_a_stopped_race_keeps_its_finished_chains(tmp_path, monkeypatch):
    stop_after(monkeypatch, grid.ChainTask, "run", 3)
    done = engine("race", "--model", "toy", "--samplers", "token,type", "--chains", 2,
                  "--sweeps", 5, "--workers", 1, "--out", tmp_path)
    stopped_keeping(done, 3, 4)
    traces = pd.read_csv(tmp_path / "traces.csv")
    assert sorted(set(zip(traces.sampler, traces.chain))) == [
        ("token", 0), ("token", 1), ("type", 0)]
    assert len(traces) == 3 * 6 and not (tmp_path / "summary.csv").exists()


def test_a_stopped_table1_keeps_its_finished_runs(tmp_path, monkeypatch):
    from engine.experiments import table1
    task = type(table1.grid({"unigram": None}, [1], 1, 0)[0])
    stop_after(monkeypatch, task, "run", 2)
    out = tmp_path / "rows.csv"
    done = engine("table1", "--models", "unigram", "--sizes", "1,2", "--runs", 2,
                  "--workers", 1, "--out", out)
    total = int(done.stderr.split(" of ")[1].split()[0])
    stopped_keeping(done, 2, total)
    assert len(pd.read_csv(out)) == 2


def test_a_stopped_gj_grid_keeps_its_finished_runs(tmp_path, monkeypatch):
    from engine.experiments import gao_johnson
    task = type(gao_johnson.grid(4, 1, ["em"])[0])
    stop_after(monkeypatch, task, "run", 2)
    out = tmp_path / "rows.csv"
    done = engine("gj-grid", "--iters", 4, "--starts", 1, "--estimators", "em", "--states", 3,
                  "--workers", 1, "--out", out)
    stopped_keeping(done, 2, 8)
    assert len(pd.read_csv(out)) == 2


def test_a_stopped_parallel_keeps_its_finished_chains(tmp_path, monkeypatch):
    stop_after(monkeypatch, ParallelChain, "__init__", 1)  # as k = 2's chain starts
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # every shard in this process: no cluster
    pairs = tmp_path / "pairs.txt"  # two pairs, so two workers have one each
    pairs.write_text("a b ||| x y ||| 0-0 1-1\nc d e ||| z w ||| 0-0 2-1\n")
    out = tmp_path / "fig5.csv"
    done = engine("parallel", "--model", "scfg", "--data", pairs, "--sampler", "type",
                  "--workers", "1,2", "--iterations", 3, "--out", out)
    stopped_keeping(done, 1, 2)
    rows = pd.read_csv(out)
    assert set(rows.workers) == {1} and len(rows) == 4  # iteration 0 and three


def descendants(pid):
    """Every living process under ``pid`` (walking /proc through psutil)."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def started(*args):
    """``python -m engine ARGS`` started in a process of its own, its output piped."""
    return subprocess.Popen([sys.executable, "-m", "engine", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(process, text, seconds):
    """The stderr lines up to the first holding ``text`` (a failure after ``seconds``)."""
    lines, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        lines.append(line)
        if text in line or not line:
            return lines
    pytest.fail(f"no {text!r} in {seconds} s: {lines}")


def assert_stopped_cleanly(process, children):
    """After SIGTERM: the command exits 143, and no process it started is left."""
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err, err
    _, alive = psutil.wait_procs(children, timeout=2)
    assert not alive, [p.cmdline() for p in alive]
    return err


def test_sigterm_stops_a_race_on_two_workers_keeping_its_chains(tmp_path):
    process = started("race", "--model", "toy", "--samplers", "token,type", "--chains", 2,
                      "--seconds", 3, "--workers", 2, "--out", tmp_path)
    said = wait_for(process, "chains done", 240)
    children = descendants(process.pid)
    assert children, "a local cluster of two workers has processes"
    err = assert_stopped_cleanly(process, children)
    kept = pd.read_csv(tmp_path / "traces.csv")
    finished = int(said[-1].split("/")[0])
    assert kept.groupby(["sampler", "chain"]).ngroups >= finished >= 1
    assert "kept the rows" in err
    # Dask's log lines about the cancelled tasks came with every stop (6 of 6), and at times
    # a worker's traceback; the user reads the command's own words only
    assert "distributed." not in err, err


def test_sigterm_stops_a_compiling_cluster_worker_and_its_compilers(tmp_path):
    """The worker compiles into a fresh cache (NUMBA_CACHE_DIR), so it is compiling when told
    to stop; it says so at once, and no compile process outlives it."""
    scheduler = subprocess.Popen([sys.executable, "-m", "engine", "cluster", "scheduler",
                                  "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
    try:
        address = scheduler.stdout.readline().split()[2].rstrip(";")
        worker = subprocess.Popen(
            [sys.executable, "-m", "engine", "cluster", "worker", address, "--nworkers", "1"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
        first = time.monotonic()
        assert "cluster worker: reaching" in worker.stderr.readline()
        assert time.monotonic() - first < 60  # at once: the import of the engine, no more
        wait_for(worker, "compiling…", 120)
        children = descendants(worker.pid)
        assert children, "the compiler's workers are running"
        assert_stopped_cleanly(worker, children)
    finally:
        scheduler.send_signal(signal.SIGTERM)
        scheduler.communicate(timeout=60)
    assert scheduler.returncode == 0
