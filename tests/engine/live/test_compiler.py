"""The background compiler (engine.live.compiler): its jobs cover every kernel, a model's shared
kernels come first and alone, a page waits only for the jobs its settings need, the page opened
first is compiled first and a later request moves its jobs forward, progress is recorded, and a
page's ``warm_samplers`` returns only once its kernels load from the cache the background
processes filled."""
import json
import os
import subprocess
import sys
from pathlib import Path

from engine import samplers
from engine.live.compiler import (COMPILE_SECONDS, Job, JobQueue, jobs_for, jobs_of, longest_first,
                                  model_jobs, status)
from engine.models import registry
from engine.models.protocol import Lesson
from engine.samplers.forest import walks_forests_of
from tests.root import ROOT


def cold_environment(cache_root):
    """The environment of a process with an empty compile cache of its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "TYPEBLOCKS_ENGINE_DIGEST")}
    return {**env, "TYPEBLOCKS_CACHE_ROOT": str(cache_root), "PYTHONPATH": str(ROOT)}


def jobs_reported(stderr, count):
    """The first ``count`` jobs a compiler reports on ``stderr``: "what ready" or "what FAILED"
    (other lines, such as warnings, skipped)."""
    said = []
    for line in stderr:
        for outcome in (" ready in ", " FAILED: "):
            if outcome in line:
                said.append(line.strip().split(outcome)[0] + " " + outcome.split()[0].strip(":"))
        if len(said) == count:
            return said
    return said


def progress_record(cache_root):
    [path] = Path(cache_root).glob("*/compile-progress.json")
    return json.loads(path.read_text())


def test_every_sampler_population_and_lesson_has_a_job_after_the_shared_one():
    for name, model_class in registry.models().items():
        jobs = model_jobs(model_class)
        assert jobs[0] == Job(name, "shared")
        grouped = [s for job in jobs if job.kind == "samplers" for s in job.samplers]
        assert sorted(grouped) == sorted(model_class.samplers)
        for job in jobs:  # a group shares its kernels: its samplers call the same functions
            if job.kind == "samplers" and walks_forests_of(model_class):
                assert job.samplers == model_class.samplers  # one walk: one job
            else:
                assert len({samplers.entry(s).needs for s in job.samplers}) <= 1
        assert (Job(name, "population", tuple(model_class.populations)) in jobs) == \
            bool(model_class.populations)
        assert (Job(name, "lesson") in jobs) == (Lesson in model_class.roles)


def test_a_job_is_named_by_its_key():
    for job in jobs_of(registry.models()):
        assert Job.from_key(job.key) == job


def test_a_page_needs_the_shared_job_and_those_of_its_samplers_only():
    usm = registry.get("usm")
    shared, token, type_ = (Job("usm", "shared"), Job("usm", "samplers", ("token", "anneal")),
                            Job("usm", "samplers", ("type", "greedy")))
    assert jobs_for(usm, ("token",)) == [shared, token]
    assert jobs_for(usm, ("type-token",)) == [shared, token, type_]  # a mixture: its parts
    assert jobs_for(usm, ("particle",)) == [shared, Job("usm", "population", ("particle",))]
    assert jobs_for(usm) == [shared]
    toy = registry.get("toy")
    assert jobs_for(toy, lesson=True) == [Job("toy", "shared"), Job("toy", "lesson")]


def test_a_model_s_shared_job_runs_alone_before_its_others():
    queue = JobQueue(jobs_of(["toy", "hmm"]))
    first, second = queue.take(), queue.take()
    assert first == Job("toy", "shared")
    assert second == Job("hmm", "shared")  # toy's samplers wait: the second worker moves on
    assert queue.take() is None  # every other job waits for its model's shared kernels
    queue.finish(first)
    assert queue.take().model == "toy"


def test_while_a_page_waits_for_its_jobs_no_other_job_starts():
    hmm = registry.get("hmm")
    wanted = jobs_for(hmm, ("token", "type"))
    queue = JobQueue(jobs_of(["toy", "hmm"]), wanted=[job.key for job in wanted])
    shared = queue.take()
    assert shared == Job("hmm", "shared")
    assert queue.take() is None  # the toy's shared job could outlast the HMM's
    queue.finish(shared)
    assert [queue.take() for _ in wanted[1:]] == wanted[1:]
    assert queue.take() == Job("toy", "shared")  # none of the page's left: the rest in order


def test_a_request_moves_its_pending_jobs_forward_in_its_order():
    queue = JobQueue(jobs_of(["toy", "usm", "hmm"]))
    running = queue.take()
    asked = [*jobs_for(registry.get("hmm"), ("sentence",)),
             *jobs_for(registry.get("usm"), ("token",))]
    queue.prioritise([job.key for job in asked])
    assert running == Job("toy", "shared")  # a running job is not stopped
    assert queue.pending[:len(asked)] == asked
    queue.finish(running)
    assert queue.take() == Job("hmm", "shared")
    assert queue.take() == Job("usm", "shared")  # the HMM's others wait: the next asked for
    assert queue.take() is None


def test_status_counts_jobs_done_failed_and_running():
    jobs = model_jobs(registry.get("toy"))
    toy = [job.key for job in jobs]
    record = {"done": {toy[0]: 1.0, "usm:shared": 2.0}, "failed": {toy[1]: "TypingError: …"},
              "running": [toy[2]]}
    now = status(jobs, record)
    assert (now.done, now.total, list(now.failed)) == (1, len(toy), [toy[1]])
    assert now.running == [model_jobs(registry.get("toy"))[2].describe()]
    assert not now.finished


def test_the_page_opened_first_compiles_first_and_a_request_comes_next(tmp_path):
    """A cold compiler on one worker, started for no page (as app.py does): the HMM's TOKEN,
    asked for at once by the page opened first, before the toy, first in the registry; the
    toy's TOKEN, asked for after the HMM's shared job, right after the HMM job then running."""
    compiler = subprocess.Popen(
        [sys.executable, "-m", "engine.live.compiler", "--workers", "1"], cwd=ROOT,
        env=cold_environment(tmp_path), stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        compiler.stdin.write(keys("hmm") + "\n")
        compiler.stdin.flush()
        first = jobs_reported(compiler.stderr, 1)
        compiler.stdin.write(keys("toy") + "\n")
        compiler.stdin.flush()
        then = jobs_reported(compiler.stderr, 2)
    finally:
        compiler.stdin.close()  # its input closed: it stops, its workers too
        compiler.wait(timeout=60)
    assert first + then == ["hmm shared kernels ready", "hmm TOKEN, TOKEN-anneal ready",
                            "toy shared kernels ready"]  # not the HMM's TYPE: not asked for
    record = progress_record(tmp_path)
    assert list(record["done"]) == ["hmm:shared", "hmm:samplers:token:anneal", "toy:shared"]
    assert record["running"] == [] and record["failed"] == {}


def keys(model):
    """A page's request for TOKEN on ``model``: its jobs' keys on a line."""
    return " ".join(job.key for job in jobs_for(registry.get(model), ("token",)))


PAGE = """
from ui.warmup import warm_samplers
from engine.models.toy.model import ToyModel
warm_samplers(ToyModel, ("token", "type"), lesson=True)
"""
WATCH_PAGE = f"""
import json
from numba.core import event
from streamlit.testing.v1 import AppTest
from engine.live.compiler import model_jobs, status
from engine.models.toy.model import ToyModel

compiled = []
class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Compiles())
page = AppTest.from_string({PAGE!r}, default_timeout=600).run()
toy = status(model_jobs(ToyModel))
print(json.dumps({{"errors": [e.value for e in page.exception], "compiled_here": compiled,
                  "done": toy.done, "total": toy.total}}))
"""


def test_a_page_returns_once_its_kernels_load_from_the_background_s_cache(tmp_path):
    """On an empty cache, a page that uses the toy waits for the background compiler, then
    loads every toy kernel without compiling one in the server process."""
    out = subprocess.run([sys.executable, "-c", WATCH_PAGE], cwd=ROOT, capture_output=True,
                         text=True, env=cold_environment(tmp_path), timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["errors"] == []
    assert seen["done"] == seen["total"] == len(model_jobs(registry.get("toy")))
    assert seen["compiled_here"] == []


def test_the_longest_chain_of_compile_seconds_starts_first():
    """In the registry's order the forests' one job (the longest, measured) started last, while
    the other worker had nothing left to do; a model's shared job goes first with it."""
    jobs = jobs_of(registry.models())
    ordered = longest_first(jobs)
    assert sorted(ordered, key=jobs.index) == jobs
    measured = json.loads(COMPILE_SECONDS.read_text())["seconds"]
    longest = max((job for job in jobs if job.kind != "shared"), key=lambda j: measured[j.key])
    queue = JobQueue(ordered)
    assert queue.take() == Job(longest.model, "shared")
    queue.finish(Job(longest.model, "shared"))
    assert queue.take() == longest
    assert set(measured) == {job.key for job in jobs}  # every job measured, none stale
