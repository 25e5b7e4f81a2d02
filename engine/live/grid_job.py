"""A grid of chains in a process of its own, for the app: ``python -m engine.live.grid_job DIR``.

The app cannot start Dask's local cluster itself: Dask's worker processes are spawned, and a
spawned process re-runs the parent's main module, which in the app is the Streamlit script.
So the app writes the job (a recipe, the tasks, where to run them) to DIR/job.pickle and starts
this module; it runs the grid like the ``race`` command (engine.grid.run_grid, a LocalCluster of
processes or the cluster at a scheduler's address — the server's, engine.grid.server_scheduler,
chosen by whoever started it), prints ``done total`` after every task, and
writes DIR/traces.csv and DIR/summary.csv (engine.cli.race_output) at the end — or, for a job of
``rows`` (engine.experiments.table1's filter runs), appends each task's rows to DIR/rows.csv as it
finishes, so a page can show them as they arrive.
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
from engine.cli.race_output import measure_columns, write_race


ROWS = "rows.csv"


def leave_with_the_app(parent):
    """End this job (its Dask workers too) when the app that started it has gone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.killpg(0, signal.SIGTERM)


def main(folder):
    threading.Thread(target=leave_with_the_app, args=(os.getppid(),), daemon=True).start()
    folder = Path(folder)
    job = pickle.loads((folder / "job.pickle").read_bytes())

    rows = folder / ROWS if job.get("rows") else None

    def progress(frame, done, total):
        if rows is not None:
            frame.to_csv(rows, mode="a", header=done == 1, index=False)
        print(done, total, flush=True)

    with client_for(job["workers"], job.get("scheduler")) as client:
        traces = run_grid(job["recipe"], job["tasks"], client, on_result=progress)
    if rows is None:
        samplers = list(dict.fromkeys(task.sampler for task in job["tasks"]))
        write_race(folder, traces, summary(traces, measures=measure_columns(traces, samplers)))


class GridJob:
    """A grid started in its own process; ``done``/``total`` follow its progress, ``cancel()``
    stops it (the whole process group: Dask's workers too), ``result()`` reads its output.

    recipe : grid.ModelRecipe or grid.BuiltModel; tasks : grid.ChainTasks (or any tasks with a
    ``run``); workers : the local cluster's processes; scheduler : an existing cluster's address
    instead; rows : the tasks return rows to collect as they finish (``rows()``), not traces
    to summarise."""

    def __init__(self, recipe, tasks, workers=None, scheduler=None, rows=False):
        self.folder = Path(tempfile.mkdtemp(prefix="typeblocks-grid-"))
        job = dict(recipe=recipe, tasks=list(tasks), workers=workers or os.cpu_count() or 1,
                   scheduler=scheduler, rows=rows)
        (self.folder / "job.pickle").write_bytes(pickle.dumps(job))
        self.done, self.total = 0, len(job["tasks"])
        self.cancelled = False
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
    def error(self):
        """What went wrong (None while running, after success, or when cancelled)."""
        if self.running or self.cancelled or self._process.returncode == 0:
            return None
        lines = [line.rstrip() for line in self._errors if line.strip()]
        return lines[-1] if lines else f"the grid stopped (exit status {self._process.returncode})"

    def cancel(self):
        if self.running:
            self.cancelled = True
            os.killpg(self._process.pid, signal.SIGTERM)
            self._process.wait()

    def rows(self):
        """The rows of the tasks finished so far (a rows job), or None before the first."""
        path = self.folder / ROWS
        if self.done == 0 or not path.exists():
            return None
        return pd.read_csv(path)

    def result(self):
        """(traces, summary) frames once the grid has finished, else None."""
        if self.running or self._process.returncode != 0:
            return None
        return (pd.read_csv(self.folder / "traces.csv"),
                pd.read_csv(self.folder / "summary.csv"))


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except ClusterError as err:  # the page shows this line (GridJob.error), not a traceback
        sys.exit(str(err))
