"""A CSV file written as a long command goes: each finished chain's or run's rows are on disk
as soon as it finishes, so a command stopped after an hour (Ctrl-C, SIGTERM) keeps the hour's
rows, and says on stderr what it kept."""
import os
import sys

import pandas as pd

from engine.grid import run_grid


class GrowingCsv:
    """``path`` (None: no file) as a CSV that grows a frame at a time (``add``), and is written
    whole, in its final order, by ``finish``. Used as a context manager: stopped before ``finish``, it says on
    stderr how many ``what`` (e.g. "chains") it kept.

    Frames may bring new columns (a TYPE chain's mean_block_size after a TOKEN chain's rows):
    the file is then written again with them, through a temporary file, so it is never left
    half-written; otherwise a frame is appended."""

    def __init__(self, path, what, total, float_format=None):
        self.path, self.what, self.total = path, what, total
        self.float_format = float_format
        self.frames, self.columns, self.finished = [], [], False

    def add(self, frame):
        """Put ``frame``'s rows on disk after those before (no file: only count them)."""
        self.frames.append(frame)
        if self.path is None:
            return
        if self.columns and set(frame.columns) <= set(self.columns):
            self._write(frame.reindex(columns=self.columns), mode="a", header=False)
            return
        self.columns += [c for c in frame.columns if c not in self.columns]
        self._replace(pd.concat(self.frames, ignore_index=True)[self.columns])

    def finish(self, frame):
        """Write the whole file as ``frame`` (every row, in the grid's order)."""
        if self.path is not None:
            self._replace(frame)
        self.finished = True

    def _replace(self, frame):
        # the folder (a race's --out) is made with the first rows: a run refused before any
        # task finished (a cluster that cannot run the engine) leaves nothing behind
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        partial = f"{self.path}.partial"
        frame.to_csv(partial, index=False, float_format=self.float_format)
        os.replace(partial, self.path)

    def _write(self, frame, **settings):
        frame.to_csv(self.path, index=False, float_format=self.float_format, **settings)

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        if kind is not None and issubclass(kind, KeyboardInterrupt) and not self.finished:
            kept = ("nothing (give --out FILE.csv to keep their rows)" if self.path is None
                    else f"the rows of the {len(self.frames):,} finished in {self.path}"
                    if self.frames else "nothing")
            print(f"stopped after {len(self.frames):,} of {self.total:,} {self.what}: kept "
                  f"{kept}", file=sys.stderr, flush=True)


def grid_rows(recipe, grid, client, path, what, progress, float_format=None):
    """``run_grid`` with each task's rows added to the CSV ``path`` (None: none) as the task
    finishes, then the whole file written in the grid's order; ``progress(frame, done,
    total)`` after each. The grid's frame."""
    with GrowingCsv(path, what, len(grid), float_format) as rows:
        def finished(frame, done, total):
            rows.add(frame)
            progress(frame, done, total)

        frame = run_grid(recipe, grid, client, on_result=finished)
        rows.finish(frame)
    return frame
