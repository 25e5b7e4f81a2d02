"""The background compiler: every model's kernels compiled into Numba's cache by worker
processes, the models a page needs first, so that the app answers at once and its server
process only loads kernels from the cache.

Jobs. A model's kernels compile in jobs: first those every sampler of it shares (its initial
state and a trace row: ``engine.run.warm_shared``), then one job per group of samplers calling
the same model-interface functions (TOKEN with TOKEN-anneal, TYPE with TYPE-greedy), one for
its population samplers and one for its lesson's own kernels. A model's other jobs wait for
its shared job: started beside it, each would compile the shared kernels again.

Order. Jobs run the longest first (``longest_first``), the jobs a page waits for before them: a
page asks for the jobs its settings need (``jobs_for``: the model it shows, the samplers it
runs, its lesson's kernels), ``prioritise`` moves them to the front (jobs running finish where
they are), and while a page's jobs are pending no other job starts.

Progress. After each job starts or ends, the compiler records the jobs done (their seconds),
failed (their error) and running in ``compile-progress.json`` in the versioned cache folder
(engine.cache_folder): every page reads it, and a later server start skips the jobs done.

Two ways to run it: ``compile_kernels`` in the warm command (blocks, a line per job on
stderr), and ``BackgroundCompiler`` in the app server, which starts
``python -m engine.live.compiler [--workers W] [JOB …]`` (the jobs a page waits for, by key): it
reads from its standard input lines naming more such jobs, and stops (its workers too) when
that closes or every job is done.
"""
import argparse
import json
import multiprocessing
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path

import numba

import engine
from engine import samplers
from engine.live import compile_lock
from engine.models import registry
from engine.models.protocol import Lesson
from engine.run import warm, warm_shared
from engine.samplers import forest, particle

PROGRESS_FILE = "compile-progress.json"
NICENESS = 5  # below the server, which draws the pages; above the live races' chain workers
ROOT = Path(__file__).resolve().parents[2]
# each job's compile seconds, measured (see its "how"): the order jobs start in, not a promise
COMPILE_SECONDS = Path(__file__).with_name("compile_seconds.json")


@dataclass(frozen=True)
class Job:
    """Some of a model's kernels: kind "shared", "samplers" or "population" (those of the
    chain or population ``samplers``), or "lesson"."""

    model: str
    kind: str
    samplers: tuple = ()

    @property
    def key(self):
        return ":".join((self.model, self.kind, *self.samplers))

    @classmethod
    def from_key(cls, key):
        """The job whose ``key`` this is."""
        model, kind, *names = key.split(":")
        return cls(model, kind, tuple(names))

    def describe(self):
        named = ", ".join(samplers.label(name) for name in self.samplers)
        return f"{self.model} {named or {'shared': 'shared kernels'}.get(self.kind, self.kind)}"

    def kernels(self):
        """"the toy TOKEN, TOKEN-anneal kernels", "the toy shared kernels"."""
        return f"the {self.describe()}" + ("" if self.kind == "shared" else " kernels")


def model_jobs(model_class):
    """The jobs that compile every kernel of ``model_class``, its shared job first."""
    groups = {}  # samplers calling the same interface functions share their kernels
    walk = forest.walks_forests_of(model_class)
    for name in model_class.samplers:
        # on forests TOKEN and TYPE are one kernel, the walk's: in two jobs side by side it
        # compiled twice (scfg: 92 s each, both cores for a minute and a half)
        groups.setdefault("walk" if walk else samplers.entry(name).needs, []).append(name)
    jobs = [Job(model_class.name, "shared")]
    jobs += [Job(model_class.name, "samplers", tuple(group)) for group in groups.values()]
    if model_class.populations:
        jobs.append(Job(model_class.name, "population", tuple(model_class.populations)))
    if Lesson in model_class.roles:
        jobs.append(Job(model_class.name, "lesson"))
    return jobs


def jobs_of(names):
    """Every job of the models ``names``, model by model in that order."""
    return [job for name in names for job in model_jobs(registry.get(name))]


def jobs_for(model_class, sampler_names=(), lesson=False):
    """The jobs a page needs to run ``sampler_names`` (chain or population samplers; a
    mixture stands for its parts) on ``model_class``, and its lesson's own kernels when
    ``lesson``: the model's shared job first, and only those — a page that shows TOKEN and TYPE
    does not wait for SENTENCE's kernels, nor for those of a model it does not show."""
    wanted = {part for name in sampler_names for part in samplers.entry(name).parts or (name,)}
    return [job for job in model_jobs(model_class)
            if job.kind == "shared" or wanted & set(job.samplers)
            or (lesson and job.kind == "lesson")]


def run_job(job, on_wait=None, on_compile=None):
    """Compile (or load from the cache) one job's kernels in this process, holding its lock
    (engine.live.compile_lock: a job another process is compiling is waited for, then loaded);
    its seconds. ``on_wait(holder)`` is called when it must wait, ``on_compile()`` when it
    need not (it compiles, unless the cache holds the kernels already)."""
    started = time.perf_counter()
    with compile_lock.holding(job.key, on_wait) as waited:
        if not waited and on_compile is not None:
            on_compile()
        _compile(job)
    return time.perf_counter() - started


def _compile(job):
    model_class = registry.get(job.model)
    if job.kind == "shared":
        warm_shared(model_class)
    elif job.kind == "samplers":
        tiny = model_class.tiny()
        for name in job.samplers:
            warm(tiny, name)
    elif job.kind == "population":
        particle.warm(model_class)
    else:
        model_class.tiny().warm_lesson()


def prepare(model_class, sampler_names=(), lesson=False):
    """A command's kernels ready before it starts (engine.cli): the jobs running
    ``sampler_names`` on ``model_class`` needs that are not done yet, run in this process,
    each line on stderr — compiled here, or waited for while another process of the lab
    compiles them (the server, a race, the tests), then loaded. Each job done is recorded, so
    the server's compiler does not run it again."""
    jobs = jobs_for(model_class, sampler_names, lesson)
    progress = ProgressFile(engine.cache_folder())
    todo = [job for job in jobs if job.key not in progress.read()["done"]]
    for job in todo:
        def waiting(holder, job=job):
            print(f"waiting for {job.kernels()} that {holder} is compiling: "
                  f"{status(jobs).done} of {len(jobs)} ready", file=sys.stderr, flush=True)

        def compiling(job=job):
            print(f"compiling {job.kernels()} (once per machine and engine "
                  "version; later runs load them)…", file=sys.stderr, flush=True)
        progress.record_done(job.key, run_job(job, waiting, compiling))


def warm_model(model_class):
    """Load (or compile) every kernel of ``model_class`` in this process: what its jobs compile."""
    for job in model_jobs(model_class):
        run_job(job)


class JobQueue:
    """The jobs not started yet, in the order they will start, those running, and the keys of
    the jobs a page waits for (``wanted``)."""

    def __init__(self, jobs, wanted=()):
        self.pending = list(jobs)
        self.running = set()
        self.wanted = set()
        self.prioritise(wanted)

    def prioritise(self, keys):
        """Put the pending jobs of ``keys`` first, in that order: a page waits for them."""
        first = [job for key in keys for job in self.pending if job.key == key]
        self.pending = first + [job for job in self.pending if job not in first]
        self.wanted.update(keys)

    def take(self):
        """The first pending job that may start (now running), or None. A model's shared job
        runs first, alone; and while a page waits for jobs that wait for their model's shared
        one, a free worker waits too rather than start a job the page does not need, which
        could keep it long after the shared job is done."""
        waiting = {job.model for job in [*self.pending, *self.running] if job.kind == "shared"}
        held = any(job.key in self.wanted for job in self.pending)
        for job in self.pending:
            if held and job.key not in self.wanted:
                return None
            if job.kind == "shared" or job.model not in waiting:
                self.pending.remove(job)
                self.running.add(job)
                return job
        return None

    def finish(self, job):
        self.running.discard(job)

    def __bool__(self):
        return bool(self.pending or self.running)


class ProgressFile:
    """``compile-progress.json``: the jobs done ({key: seconds}), failed ({key: error}) and
    running ([key]) for this engine version (the cache folder's), Numba and Python."""

    def __init__(self, folder):
        self.path = Path(folder) / PROGRESS_FILE
        self.versions = f"Numba {numba.__version__}, Python {platform.python_version()}"

    def read(self):
        try:
            record = json.loads(self.path.read_text())
        except (OSError, ValueError):  # none yet, or half written by another version
            record = {}
        if record.get("versions") != self.versions:  # its kernels do not load in this one
            record = {}
        return {"done": record.get("done", {}), "failed": record.get("failed", {}),
                "running": record.get("running", [])}

    def record_done(self, key, seconds):
        """Add one job done (by a process that is not a compiler), keeping the rest."""
        record = self.read()
        self.write({key: seconds}, record["failed"], record["running"])

    def write(self, done, failed, running):
        """Record these, keeping the jobs another compiler has done meanwhile."""
        record = {"versions": self.versions, "done": {**self.read()["done"], **done},
                  "failed": failed, "running": running}
        partial = self.path.with_name(f"{PROGRESS_FILE}.{os.getpid()}")
        partial.write_text(json.dumps(record, indent=1))
        os.replace(partial, self.path)  # readers see the old record or the new, never half


@dataclass
class Status:
    """How far some jobs are: ``done`` and ``failed`` ({key: error}) of
    ``total``, the descriptions of those running now, and why the compiler stopped before
    them ("" while it runs or once they are all finished)."""

    done: int
    failed: dict
    total: int
    running: list
    stopped: str = ""

    @property
    def finished(self):
        return self.done + len(self.failed) == self.total or bool(self.stopped)


def status(jobs, record=None):
    """The Status of ``jobs`` (record: a ProgressFile's read(); default: read it)."""
    record = record or ProgressFile(engine.cache_folder()).read()
    keys = {job.key for job in jobs}
    return Status(done=sum(job.key in record["done"] for job in jobs),
                  failed={key: error for key, error in record["failed"].items() if key in keys},
                  total=len(jobs),
                  running=[job.describe() for job in jobs if job.key in record["running"]])


class Worker:
    """A forked process that runs the jobs it is sent, one at a time."""

    def __init__(self, context):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()
        self.job = None

    def start(self, job):
        self.job = job
        self.connection.send(job)

    def outcome(self):
        """("done", seconds) or ("failed", error) of the job it ran (it has ended)."""
        try:
            return self.connection.recv()
        except EOFError:  # it died (a crash in LLVM, or killed) before answering
            self.process.join()
            return "failed", f"the compile worker died (exit status {self.process.exitcode})"

    def stop(self):
        self.process.terminate()
        self.process.join()


def _serve(connection):
    """A compile worker's loop. The process that forked it stops it (``Worker.stop``): Ctrl-C,
    which the terminal sends to every process of the group, is left to that one, and SIGTERM
    ends it at once, whatever handler it inherited (engine.cli.stopping's raises)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        job = connection.recv()
        try:
            connection.send(("done", run_job(job)))
        except Exception as err:  # noqa: BLE001 — reported to the pages that wait for it
            connection.send(("failed", f"{type(err).__name__}: {err}"))


class Compiler:
    """Runs jobs on ``workers`` forked processes, in the queue's order, recording progress.

    wanted: the keys of the jobs a page waits for, first; requests: a file descriptor whose
    lines name more such jobs (None: no requests); report(job, outcome, detail): called after each job
    (outcome "started", "done" or "failed")."""

    def __init__(self, jobs, workers, wanted=(), requests=None, report=None):
        self.queue = JobQueue(jobs, wanted)
        self.workers = min(workers, len(jobs))
        self.requests, self.unread = requests, b""
        self.report = report or (lambda job, outcome, detail: None)
        self.progress = ProgressFile(engine.cache_folder())
        self.done, self.failed = {}, {}
        self.context = multiprocessing.get_context("fork")  # workers start with the engine loaded

    def run(self):
        """Run every job (until the requests close); ({key: seconds} done, {key: error} failed)."""
        pool = [Worker(self.context) for _ in range(self.workers)]
        try:
            reading = self._wait(pool, timeout=0)  # requests sent while this process started
            while reading and self.queue:
                self._start_jobs(pool)
                reading = self._wait(pool)
        finally:
            for worker in pool:
                worker.stop()
            self.progress.write(self.done, self.failed, running=[])
        return self.done, self.failed

    def _start_jobs(self, pool):
        for worker in pool:
            job = worker.job is None and self.queue.take()
            if job:
                worker.start(job)
                self.report(job, "started", None)  # a job can take minutes: say so at once
        self.progress.write(self.done, self.failed,
                            running=[w.job.key for w in pool if w.job is not None])

    def _wait(self, pool, timeout=None):
        """Wait for a job to end or a request to come (at most ``timeout`` seconds); False when
        the requests have closed."""
        busy = {w.connection: w for w in pool if w.job is not None}
        busy.update({w.process.sentinel: w for w in busy.values()})
        ready = wait([*busy, *([self.requests] if self.requests is not None else [])], timeout)
        for worker in {busy[r] for r in ready if r in busy}:
            self._finish(worker, pool)
        return self.requests not in ready or self._read_requests()

    def _finish(self, worker, pool):
        job, (outcome, detail) = worker.job, worker.outcome()
        (self.done if outcome == "done" else self.failed)[job.key] = detail
        self.queue.finish(job)
        worker.job = None
        if not worker.process.is_alive():
            pool[pool.index(worker)] = Worker(self.context)
        self.report(job, outcome, detail)

    def _read_requests(self):
        data = os.read(self.requests, 4096)
        if not data:
            return False
        *lines, self.unread = (self.unread + data).split(b"\n")
        for line in lines:
            self.queue.prioritise(line.decode().split())
        return True


def print_report(job, outcome, detail):
    """A job's line on stderr: that it started, how long it took, or why it failed."""
    said = {"started": "compiling…", "done": f"ready in {detail or 0:.1f} s"}.get(
        outcome, f"FAILED: {detail}")
    print(f"  {job.describe()} {said}", file=sys.stderr, flush=True)


def longest_first(jobs):
    """``jobs`` in the order that finishes them soonest on several workers: by the longest
    chain of compile seconds each starts (a model's shared job: itself and its model's longest
    job, which waits for it), measured (COMPILE_SECONDS). In the registry's order the forests'
    one job of 90 s started last, while the other worker had nothing left to do."""
    measured = json.loads(COMPILE_SECONDS.read_text())["seconds"]
    seconds = {job.key: measured.get(job.key, 0.0) for job in jobs}
    longest = {}
    for job in jobs:
        longest[job.model] = max(longest.get(job.model, 0.0), seconds[job.key])
    return sorted(jobs, key=lambda job: -(seconds[job.key] + longest[job.model]
                                          if job.kind == "shared" else seconds[job.key]))


def jobs_to_do(names):
    """The jobs of the models ``names`` not done before for this engine version, the longest
    first, once other versions' cache folders are removed (only a compiler removes them, never
    an import)."""
    engine.remove_old_caches()
    done = ProgressFile(engine.cache_folder()).read()["done"]
    return longest_first([job for job in jobs_of(names) if job.key not in done])


def compile_kernels(names, workers):
    """Compile every kernel of the models ``names`` into Numba's cache on ``workers``
    processes, a line per job on stderr (the warm command; jobs done before are skipped).
    Returns {job key: error} of the failed."""
    jobs = jobs_to_do(names)
    return Compiler(jobs, workers, report=print_report).run()[1] if jobs else {}


class BackgroundCompiler:
    """The app server's compiler process (one per server), started when a page asks for jobs
    not done yet, and restarted if it ended before them."""

    def __init__(self, workers=None):
        self.workers = workers or os.cpu_count() or 1
        self.process = None
        self.lock = threading.Lock()
        self.said_ready = False  # said, or left to the compiler process it started

    def start(self):
        """Compile every model's kernels, no page waiting, unless they are compiled or the
        compiler runs already (keeping its order: the jobs a page asked for first)."""
        with self.lock:
            if self._running():
                return
            if not status(jobs_of(registry.models())).finished:
                self._start(wanted=())
            elif not self.said_ready:
                say_ready("the kernels were in this machine's cache")
                self.said_ready = True

    def request(self, jobs):
        """Compile ``jobs`` first (starting the compiler if need be)."""
        keys = [job.key for job in jobs]
        with self.lock:
            if status(jobs).finished:
                return
            if not self._running():
                self._start(keys)
                return
            try:
                self.process.stdin.write(" ".join(keys).encode() + b"\n")
                self.process.stdin.flush()
            except BrokenPipeError:  # it has just ended: start it again
                self._start(keys)

    def status(self, jobs):
        """The Status of ``jobs``; a compiler that ended before them is started again, one
        that crashed says so in ``stopped`` (the page then compiles them itself, and shows the
        error if there is one)."""
        with self.lock:
            now = status(jobs)
            if now.finished or self._running():
                return now
            if self.process is not None and self.process.returncode != 0:
                now.stopped = (f"the background compiler stopped (exit status "
                               f"{self.process.returncode})")
                return now
            self._start([job.key for job in jobs])
            return now

    def _running(self):
        return self.process is not None and self.process.poll() is None

    def _start(self, wanted):
        self.said_ready = True  # the compiler process says it when it is done
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine.live.compiler", "--workers", str(self.workers),
             *wanted], stdin=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": path})


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m engine.live.compiler",
                                     description="compile the models' kernels in the background")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("wanted", nargs="*",
                        help="keys of the jobs a page waits for (MODEL:KIND[:SAMPLER…]): "
                             "compiled first")
    args = parser.parse_args(argv)
    os.nice(NICENESS)
    compile_lock.name_holder("the lab's server")
    jobs = jobs_to_do(registry.models())
    if jobs:
        started = time.perf_counter()
        done, failed = Compiler(jobs, args.workers, wanted=args.wanted,
                                requests=sys.stdin.fileno(), report=print_report).run()
        if not failed and status(jobs_of(registry.models())).finished:
            say_ready(f"{len(done)} compile jobs in {time.perf_counter() - started:.0f} s")


def say_ready(how):
    """The line ``make run`` prints once every lesson can play at once."""
    print(f"Typeblocks: every lesson is ready ({how}).", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
