"""A page's kernels: compiled in the background by the server's compiler process
(engine.live.compiler), the jobs of the page opened first, first; the page shows how far its
own jobs are, then loads their kernels from Numba's cache once per server process, so a
user's first click does not wait for Numba.

A page asks for what its current settings run — the model it shows and the samplers it races
(``warm_samplers``) — so it becomes interactive as soon as those are ready, not once every
kernel is; choosing another model or sampler asks for theirs."""
import time

import streamlit as st

from engine.live import compile_lock
from engine.live.compiler import BackgroundCompiler, Job, jobs_for, run_job

POLL = 0.25  # seconds between two looks at the compiler's progress


@st.cache_resource(show_spinner=False)
def _compiler():
    """The server's background compiler (its process starts when kernels are missing)."""
    compile_lock.name_holder("the lab's server")  # what a command waiting for its kernels says
    return BackgroundCompiler()


def start_compiler():
    """Compile every model's kernels in the background, without waiting, and without moving the
    jobs a page asked for from the front (app.py calls it on every visit)."""
    _compiler().start()


@st.cache_resource(show_spinner="Loading the sampler engine…")
def _load_job(key):
    """Load the kernels of the job ``key`` into this process, from Numba's cache (the
    background compiler put them there; what it could not compile compiles here)."""
    run_job(Job.from_key(key))
    return True


def warm_samplers(model_class, sampler_names=(), lesson=False):
    """Make ready in this process the kernels that running ``sampler_names`` on
    ``model_class`` needs, and its lesson's own when ``lesson`` (engine.live.compiler.jobs_for):
    compiled first in the background, a progress bar meanwhile, then loaded."""
    jobs = jobs_for(model_class, sampler_names, lesson)
    compiler = _compiler()
    compiler.request(jobs)
    _show_progress(compiler, jobs, model_class.label)
    for job in jobs:
        _load_job(job.key)


def warm_chosen(models):
    """A lesson's ``warm``: the kernels of the model its config names (``models[name]``) and
    of the samplers it chose (``config["samplers"]``)."""
    return lambda config: warm_samplers(models[config["model"]], config["samplers"])


def _show_progress(compiler, jobs, label):
    """A progress bar of ``jobs`` until they are finished (none when they are); a warning if
    some failed (they are then compiled in this process, where their error shows)."""
    status = compiler.status(jobs)
    if not status.finished:
        bar = st.empty()
        while not status.finished:
            now = f" (now: {'; '.join(status.running)})" if status.running else ""
            bar.progress(status.done / status.total,
                         text=f"Compiling the kernels of {label}: {status.done} of "
                              f"{status.total} ready{now}… (once per machine and engine version)")
            time.sleep(POLL)
            status = compiler.status(jobs)
        bar.empty()
    if status.failed or status.stopped:
        problems = "; ".join([*status.failed.values(), *filter(None, [status.stopped])])
        st.warning(f"Some kernels did not compile in the background ({problems}): loading "
                   "them here instead, which takes longer.")
