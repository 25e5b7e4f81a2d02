"""A grid of chains in a process of its own, for the app: ``python -m engine.live.grid_job DIR``.

The app cannot start Dask's local cluster itself: Dask's worker processes are spawned, and a
spawned process re-runs the parent's main module, which in the app is the Streamlit script.
So the app writes the job (a recipe, the tasks, where to run them) to DIR/job.pickle and starts
this module; it runs the grid like the ``race`` command (engine.grid.run_grid, a LocalCluster of
processes or the cluster at a scheduler's address — the server's, engine.grid.server_scheduler,
chosen by whoever started it), saves each task's frame in DIR/finished/ as it finishes and then
prints ``done total``, and at the end writes DIR/traces.csv and DIR/summary.csv
(engine.report.race_files) — unless the job is one of ``rows`` (engine.experiments.table1's
filter runs), whose frames are rows to show as they arrive, not traces to summarise.

What finished survives a cancel: the frames saved so far are the grid's results up to there.
"""
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd

from engine.grid import ClusterError, client_for, run_grid, summary
from engine.report.race_files import measure_columns, write_race


FINISHED = "finished"  # one pickled frame per finished task, named by its place in the order


def save_finished(folder, frame, done):
    """``frame`` as DIR/finished/<done>.pickle, renamed into place whole: a page reading the
    folder meanwhile (or a cancel killing this process) never meets half a file."""
    path = folder / FINISHED / f"{done:06d}.pickle"
    partial = path.with_suffix(".part")
    frame.to_pickle(partial)
    os.replace(partial, path)


def summarise(traces, tasks):
    """The race command's summary of ``traces`` (engine.grid.summary, the model's measures)."""
    samplers = list(dict.fromkeys(task.sampler for task in tasks))
    return summary(traces, measures=measure_columns(traces, samplers))


def leave_with_the_app(parent):
    """End this job (its Dask workers too) when the app that started it has gone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.killpg(0, signal.SIGTERM)


def main(folder):
    threading.Thread(target=leave_with_the_app, args=(os.getppid(),), daemon=True).start()
    folder = Path(folder)
    job = pickle.loads((folder / "job.pickle").read_bytes())
    (folder / FINISHED).mkdir(exist_ok=True)

    def progress(frame, done, total):
        save_finished(folder, frame, done)
        print(done, total, flush=True)

    with client_for(job["workers"], job.get("scheduler")) as client:
        traces = run_grid(job["recipe"], job["tasks"], client, on_result=progress)
    if not job.get("rows"):
        write_race(folder, traces, summarise(traces, job["tasks"]))


class GridJob:
    """A grid started in its own process; ``done``/``total`` follow its progress, ``state``
    says where it is, ``cancel()`` stops it (the whole process group: Dask's workers too),
    ``rows()`` and ``result()`` read what it has finished — after a cancel too.

    recipe : grid.ModelRecipe or grid.BuiltModel; tasks : grid.ChainTasks (or any tasks with a
    ``run``); workers : the local cluster's processes; scheduler : an existing cluster's address
    instead; rows : the tasks return rows to collect as they finish (``rows()``), not traces
    to summarise."""

    def __init__(self, recipe, tasks, workers=None, scheduler=None, rows=False):
        self.folder = Path(tempfile.mkdtemp(prefix="typeblocks-grid-"))
        self._tasks = list(tasks)
        job = dict(recipe=recipe, tasks=self._tasks, workers=workers or os.cpu_count() or 1,
                   scheduler=scheduler, rows=rows)
        (self.folder / "job.pickle").write_bytes(pickle.dumps(job))
        self.done, self.total = 0, len(job["tasks"])
        self.cancelled = False
        self._summary = None  # (done, summary) of a cancelled job's traces, computed once
        root = Path(__file__).resolve().parents[2]
        path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
        self._process = subprocess.Popen(
            [sys.executable, "-m", "engine.live.grid_job", str(self.folder)], cwd=root,
            env={**os.environ, "PYTHONPATH": path}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, start_new_session=True)
        self._errors = []
        threading.Thread(target=self._follow, daemon=True).start()
        threading.Thread(target=self._collect_errors, daemon=True).start()

    def _follow(self):
        for line in self._process.stdout:
            done, _ = line.split()
            self.done = int(done)

    def _collect_errors(self):
        self._errors.extend(self._process.stderr)

    @property
    def running(self):
        return self._process.poll() is None

    @property
    def state(self):
        """"running", "finished", "cancelled" or "failed"."""
        if self.running:
            return "running"
        if self.cancelled:
            return "cancelled"
        return "finished" if self._process.returncode == 0 else "failed"

    @property
    def error(self):
        """What went wrong (None while running, after success, or when cancelled)."""
        if self.state != "failed":
            return None
        lines = [line.rstrip() for line in self._errors if line.strip()]
        return lines[-1] if lines else f"the grid stopped (exit status {self._process.returncode})"

    def cancel(self):
        if self.running:
            self.cancelled = True
            os.killpg(self._process.pid, signal.SIGTERM)
            self._process.wait()

    def _finished_frames(self):
        """The frames of the tasks finished so far, in the order they finished."""
        return [pd.read_pickle(path) for path in
                sorted((self.folder / FINISHED).glob("*.pickle"))]

    def rows(self):
        """The frames of the tasks finished so far as one frame (a rows job: their rows),
        or None before the first."""
        frames = self._finished_frames()
        return pd.concat(frames, ignore_index=True) if frames else None

    def result(self):
        """(traces, summary) frames: of every chain once the grid has finished, of the chains
        finished before a cancel or a failure (None if none had); None while it runs."""
        if self.running:
            return None
        if self.state == "finished":
            return (pd.read_csv(self.folder / "traces.csv"),
                    pd.read_csv(self.folder / "summary.csv"))
        traces = self.rows()
        if traces is None:
            return None
        if self._summary is None or self._summary[0] != len(traces):
            self._summary = len(traces), summarise(traces, self._tasks)
        return traces, self._summary[1]


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except ClusterError as err:  # the page shows this line (GridJob.error), not a traceback
        sys.exit(str(err))
