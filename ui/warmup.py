"""A page's kernels: compiled in the background by the server's compiler process
(engine.live.compiler), the models of the page opened first, first; the page shows how far its
own models are, then loads their kernels from Numba's cache once per server process, so a
user's first click does not wait for Numba."""
import time

import streamlit as st

from engine.live.compiler import BackgroundCompiler, warm_model
from engine.models import registry

POLL = 0.25  # seconds between two looks at the compiler's progress


@st.cache_resource(show_spinner=False)
def _compiler():
    """The server's background compiler (its process starts when kernels are missing)."""
    return BackgroundCompiler()


def start_compiler():
    """Compile every model's kernels in the background, without waiting, and without moving the
    models a page asked for from the front (app.py calls it on every visit)."""
    _compiler().start()


@st.cache_resource(show_spinner="Loading the sampler engine…")
def _load_model(model_class):
    """Load every kernel of ``model_class`` into this process, from Numba's cache (the
    background compiler put it there; what it could not compile compiles here)."""
    warm_model(model_class)
    return True


def warm_engine(models=None):
    """Make the kernels of ``models`` (model classes; None: every registered model) ready in
    this process: compiled first in the background, a progress bar meanwhile, then loaded."""
    classes = list(registry.models().values()) if models is None else list(models)
    if not classes:
        return
    compiler = _compiler()
    names = [model_class.name for model_class in classes]
    compiler.request(names)
    _show_progress(compiler, names, " and ".join(model_class.label for model_class in classes))
    for model_class in classes:
        _load_model(model_class)


def _show_progress(compiler, names, labels):
    """A progress bar of the models ``names``'s jobs until they are finished (none when they
    are); a warning if some failed (they are then compiled in this process, where their error
    shows)."""
    status = compiler.status(names)
    if not status.finished:
        bar = st.empty()
        while not status.finished:
            now = f" (now: {'; '.join(status.running)})" if status.running else ""
            bar.progress(status.done / status.total,
                         text=f"Compiling the kernels of {labels}: {status.done} of "
                              f"{status.total} ready{now}… (once per machine and engine version)")
            time.sleep(POLL)
            status = compiler.status(names)
        bar.empty()
    if status.failed or status.stopped:
        problems = "; ".join([*status.failed.values(), *filter(None, [status.stopped])])
        st.warning(f"Some kernels did not compile in the background ({problems}): loading "
                   "them here instead, which takes longer.")
