"""Live races: many chains advancing in worker processes while a page only reads their traces
(SPEC §9.6, the Sampler race).

A ChainPool is a few worker processes (engine.live.chain_worker; one per core by default) shared by
every live race of the server process. A LiveRace puts its chains on them — chain i on worker
i mod W, so every worker gets the same mix of samplers — and moves their *target*: the sweeps
(equal passes) or the engine seconds (equal engine time) a chain may reach. Workers sweep
towards it and send the new trace rows back; a thread per worker files them under their race.
A play tick therefore only raises a number and reads rows: its cost does not depend on the
corpus or on how many chains run, and while paused the workers sit idle. Pause holds every
worker, then brings every chain to the furthest one: chains stand at equal passes (or equal
engine time) when a page draws them paused, although each worker's chains ran at its own pace.
"""
import contextlib
import math
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
import weakref
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np
import pandas as pd

from engine.grid import KEYS, ChainTask
from engine.run import thinned

ROOT = Path(__file__).resolve().parents[2]
STEP_WAIT = 30.0  # seconds Step waits for every chain's pass before returning
MAX_TICK = 1.0    # seconds of the workers' time one tick may hand out (after a pause: one)
POLL = 0.01


class ChainPool:
    """Worker processes for live races, started on first use and restarted if one dies."""

    def __init__(self, workers=None):
        self.size = workers or os.cpu_count() or 1
        # (process, connection, send lock, an Event set once its reader has seen it end)
        self._workers = [None] * self.size
        self._races = weakref.WeakValueDictionary()  # race id -> LiveRace
        self._lock = threading.Lock()

    def _worker(self, i):
        """Worker i, started now if it is not running."""
        with self._lock:
            held = self._workers[i]
            # a worker whose reader has seen its socket close is gone even while the system
            # has not yet reaped it (poll() still None): a message sent to it would be lost
            if held is None or held[3].is_set() or held[0].poll() is not None:
                held = self._workers[i] = self._start()
            return held

    def _start(self):
        mine, theirs = socket.socketpair()
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        process = subprocess.Popen(
            [sys.executable, "-m", "engine.live.chain_worker", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], env={**os.environ, "PYTHONPATH": path}, cwd=ROOT)
        theirs.close()
        connection, gone = Connection(mine.detach()), threading.Event()
        threading.Thread(target=self._read, args=(connection, gone), daemon=True).start()
        return process, connection, threading.Lock(), gone

    def _read(self, connection, gone):
        """File every message of one worker under its race, until the worker ends (then set
        ``gone``)."""
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                gone.set()
                for race in list(self._races.values()):
                    race.failed("a worker process stopped; press Reset to start again")
                return
            race = self._races.get(message[1])
            if race is not None:
                race.receive(message)

    def send(self, i, message):
        """Send to worker i (started if need be). A worker that has just died is left to its
        reader thread, which tells every race ("a worker process stopped")."""
        _, connection, lock, _ = self._worker(i)
        with lock, contextlib.suppress(OSError):
            connection.send(message)

    def add(self, race, model, tasks):
        """Start ``race``'s chains: task i on worker i mod size."""
        self._races[race.id] = race
        for w in self.workers_of(len(tasks)):
            mine = [(i, task) for i, task in enumerate(tasks) if i % self.size == w]
            self.send(w, ("add", race.id, model, mine))

    def workers_of(self, n_tasks):
        return range(min(self.size, n_tasks))

    def drop(self, race_id, n_tasks):
        for w in self.workers_of(n_tasks):
            held = self._workers[w]
            if held is not None and held[0].poll() is None:
                with held[2], contextlib.suppress(OSError):  # gone: nothing left to drop
                    held[1].send(("drop", race_id))

    def close(self):
        for held in self._workers:
            if held is not None:
                held[0].terminate()
                held[0].wait()
        self._workers = [None] * self.size


class LiveRace:
    """C chains of each of several samplers on one model, advancing in a ChainPool.

    tasks : grid.ChainTask per chain (its sampler, chain number, seed, η, init; ``sweeps`` or
        ``seconds`` is the run's length, the same for every chain). The traces arrive in
        ``rows`` (a list of trace-row dicts per chain, in the tasks' order) as the workers
        produce them.
    """

    def __init__(self, pool, model, tasks):
        if not tasks:
            raise ValueError("choose at least one sampler")
        self.id = uuid.uuid4().hex
        self.tasks = list(tasks)
        self.total_sweeps, self.total_seconds = self.tasks[0].sweeps, self.tasks[0].seconds
        self._ends = (math.inf if self.total_sweeps is None else self.total_sweeps,
                      math.inf if self.total_seconds is None else self.total_seconds)
        self.rows = [[] for _ in self.tasks]
        self._held = []  # a "held" per worker that answered the last hold
        self._frames = [(None, 0)] * len(self.tasks)  # each chain's rows as a frame, and how many
        self._thinned = (None, None)  # the last trace_frame(limit), and what it was made of
        self.error = None
        self._pool = pool
        self._clock, self._target = "passes", 0
        self._ticked = time.monotonic()
        pool.add(self, model, self.tasks)
        # a race the session forgets (reset, new settings, the session ends) leaves the workers
        self._dropped = weakref.finalize(self, pool.drop, self.id, len(self.tasks))

    def close(self):
        """Stop the chains and free the workers of them."""
        self._dropped()

    # --- what the workers send ------------------------------------------------------------
    def receive(self, message):
        if message[0] == "rows":
            self.rows[message[2]].extend(message[3])
        elif message[0] == "error":
            self.failed(message[2])
        elif message[0] == "held":
            self._held.append(message[1])

    def failed(self, text):
        self.error = text

    # --- where the chains are -------------------------------------------------------------
    @property
    def ready(self):
        """Whether every chain has reported its initial state."""
        return all(self.rows)

    def sweeps(self):
        """Sweeps done by each chain (0 before its first report)."""
        return [rows[-1]["sweep"] if rows else 0 for rows in self.rows]

    def seconds(self):
        return [rows[-1]["seconds"] if rows else 0.0 for rows in self.rows]

    def _chains_finished(self):
        """Whether each chain has reached the race's length."""
        sweeps, seconds = self._ends
        return [bool(rows) and (rows[-1]["sweep"] >= sweeps or rows[-1]["seconds"] >= seconds)
                for rows in self.rows]

    @property
    def finished(self):
        return self.ready and all(self._chains_finished())

    def _reached(self, clock, goal):
        """Whether every chain has reached ``goal`` passes (clock "passes") or engine seconds
        (clock "time"), or its length."""
        where = self.sweeps() if clock == "passes" else self.seconds()
        return all(at >= goal or done for at, done in zip(where, self._chains_finished()))

    def _wait(self, condition, seconds=STEP_WAIT):
        deadline = time.monotonic() + seconds
        while not condition() and self.error is None and time.monotonic() < deadline:
            time.sleep(POLL)
        return condition()

    # --- moving the target ----------------------------------------------------------------
    def _aim(self, clock, target):
        self._clock, self._target = clock, target
        for w in self._pool.workers_of(len(self.tasks)):
            self._pool.send(w, ("target", self.id, clock, target))

    def tick(self, clock, passes, budget=None):
        """One play tick: let every chain go ``passes`` passes further (clock "passes"), or
        further by its share of the workers' time since the last tick (clock "time"; the
        workers run the chains, so a page's ``budget`` for sweeping plays no part). The
        target leads the slowest chain by about a tick, so the chains stay together and Pause
        stops them within a tick."""
        now = time.monotonic()
        elapsed, self._ticked = min(now - self._ticked, MAX_TICK), now
        if clock == "time":
            share = elapsed * len(self._pool.workers_of(len(self.tasks))) / len(self.tasks)
            self._aim("time", min(self.seconds()) + 2 * share)
        else:
            reached = min(self.sweeps()) + passes
            if self._clock == "passes":
                reached = max(reached, self._target)
            self._aim("passes", min(self._ends[0], reached))

    def sweep(self, sweeps=1):
        """Step: every chain to ``sweeps`` passes past the slowest one (never past its length),
        waiting for them."""
        goal = min(self._ends[0], min(self.sweeps()) + sweeps)
        self._aim("passes", goal)
        self._wait(lambda: self._reached("passes", goal))

    def pause(self):
        """Stop the chains where they stand, at equal passes (or equal engine time) when the
        page draws them: hold every worker (each then has sent all its rows), aim at the
        furthest chain, and wait for the others to reach it (or their length)."""
        if not self.ready or self.error is not None:
            return
        workers = self._pool.workers_of(len(self.tasks))
        self._held.clear()
        for w in workers:
            self._pool.send(w, ("hold", self.id))
        if not self._wait(lambda: len(self._held) == len(workers)):
            return  # a worker that does not answer has died: its reader reports it
        clock = self._clock
        goal = max(self.sweeps() if clock == "passes" else self.seconds())
        self._aim(clock, goal)
        self._wait(lambda: self._reached(clock, goal))

    def finish(self, stall=STEP_WAIT):
        """Run every chain to the race's length, waiting for them as long as they advance
        (``stall`` seconds with no pass arriving from any chain ends the wait); whether they
        got there. A fixed deadline (STEP_WAIT per chain) cut off a race of 20 chains x 2,000
        passes that was still running on a machine whose cores other work kept busy."""
        clock, goal = ("passes", self._ends[0]) if self.total_seconds is None else (
            "time", self._ends[1])
        if math.isinf(goal):
            raise ValueError("this race has no length to finish")
        self._aim(clock, goal)
        while self.error is None:
            arrived = self._arrived()
            self._wait(lambda: self.finished or self._arrived() != arrived, stall)
            if self.finished or self._arrived() == arrived:
                break
        return self.finished

    def _arrived(self):
        """Rows received from all chains so far (a pass's rows are one message)."""
        return sum(map(len, self.rows))

    def wait_ready(self, seconds=STEP_WAIT):
        """Wait until every chain has reported its initial state (or an error came)."""
        return self._wait(lambda: self.ready, seconds)

    # --- reading the traces ---------------------------------------------------------------
    def chain_frames(self):
        """(task, trace frame) of every chain that has reported; each frame grows by the new
        rows only (rebuilding 20 chains' frames from their rows took 20 ms a tick)."""
        found = []
        for i, (task, rows) in enumerate(zip(self.tasks, self.rows)):
            frame, seen = self._frames[i]
            arrived = len(rows)  # the reader thread may append meanwhile: take a snapshot
            if arrived > seen:
                new = pd.DataFrame(rows[seen:arrived])
                frame = new if frame is None else pd.concat([frame, new], ignore_index=True)
                self._frames[i] = (frame, arrived)
            if frame is not None:
                found.append((task, frame))
        return found

    def trace_frame(self, limit=None):
        """Every chain's trace in one long frame with the grid's KEYS columns (sampler, chain,
        eta) first; with ``limit``, every chain thinned to the same sweeps, at most that many
        rows each (the last row of each chain always kept)."""
        found = self.chain_frames()
        if not found:
            return pd.DataFrame(columns=[*KEYS, "sweep", "seconds", "loglik"])
        seen = (limit, tuple(len(frame) for _, frame in found))
        if self._thinned[0] == seen:  # a page's two live parts read it in the same tick
            return self._thinned[1]
        length = max(len(frame) for _, frame in found)
        parts = [frame if limit is None else frame.iloc[_on_grid(len(frame), length, limit)]
                 for _, frame in found]
        frame = pd.concat(parts, ignore_index=True)
        sizes = [len(part) for part in parts]
        keys = {"sampler": [task.sampler for task, _ in found],
                "chain": [task.chain for task, _ in found],
                "eta": [math.nan if task.eta is None else task.eta for task, _ in found]}
        for name, values in keys.items():  # one column each at once (assign per chain: 10 ms)
            frame[name] = np.repeat(values, sizes)
        frame = frame[[*KEYS, *[c for c in frame.columns if c not in KEYS]]]
        self._thinned = (seen, frame)
        return frame


def _on_grid(n, length, limit):
    """Which of a chain's ``n`` rows to draw: every k-th, k chosen from the longest chain's
    ``length`` (so chains of different lengths are thinned to the same sweeps), and the last."""
    stride = int(thinned(length, limit)[1]) if length > 1 else 1
    rows = np.arange(0, n, stride)
    return rows if rows[-1] == n - 1 else np.append(rows, n - 1)


def plan(samplers, chains, seed, total_sweeps=None, skip=True, eta=None, spread=False, init=(),
         total_seconds=None):
    """The ChainTasks of a live race: ``chains`` chains of every sampler, chain c from seed
    ``seed + c`` (so chain c of every sampler starts from the same state), each
    ``total_sweeps`` passes or ``total_seconds`` engine seconds long.

    eta : one η for every chain, or {sampler: η}; spread : chain c starts at η = c / (C − 1)
        instead (overdispersed starts from all-0 to all-1, as R̂ assumes)."""
    tasks = []
    for sampler in samplers:
        for c in range(chains):
            if spread:
                start = c / (chains - 1) if chains > 1 else 0.5
            else:
                start = eta.get(sampler) if isinstance(eta, dict) else eta
            tasks.append(ChainTask(sampler, c, seed + c, start, total_sweeps, total_seconds,
                                   skip, tuple(init)))
    return tasks
