"""Which lessons are ready to play, on Home: each lesson's kernels (those of the models it runs,
ui.course) as the server's background compiler reports them — ready, compiling (how many of
its compile jobs are done, and which run now), queued, or failed — followed live until every
lesson is ready, so that a lecturer knows before class that every page will answer at once."""
import streamlit as st

import engine
from engine.live.compiler import ProgressFile, jobs_of, status
from ui import course
from ui.warmup import start_compiler

REFRESH = 2.0  # seconds between two looks at the compiler's progress while lessons wait


def lesson_state(lesson, record):
    """(word, detail) of ``lesson``'s kernels under the progress ``record``."""
    now = status(jobs_of(lesson.models), record)
    if now.failed:
        return "failed", f"{len(now.failed)} of {now.total} compile jobs failed"
    if now.done == now.total:
        return "ready", ""
    detail = f"{now.done} of {now.total} compile jobs done"
    if now.running:
        return "compiling", f"{detail}; now: {'; '.join(now.running)}"
    return "queued", detail


MARKS = {"ready": ":material/check_circle:", "compiling": ":material/progress_activity:",
         "queued": ":material/schedule:", "failed": ":material/error:"}


def states():
    """{lesson title: (word, detail)} of every lesson, from the compiler's progress file."""
    record = ProgressFile(engine.cache_folder()).read()
    return {lesson.title: lesson_state(lesson, record) for lesson in course.LESSONS}


def show():
    """The lessons' states: one line when all are ready, else a line per lesson, refreshed
    every REFRESH seconds until they are (then the whole page once, which stops it)."""
    now = states()
    if all(word == "ready" for word, _ in now.values()):
        st.success("Every lesson is ready: its kernels are compiled on this machine, so each "
                   "page plays at once.", icon=":material/check_circle:")
    else:
        st.fragment(_waiting, run_every=REFRESH)()


def _waiting():
    now = states()
    ready = sum(word == "ready" for word, _ in now.values())
    if ready == len(now):
        st.rerun()  # drawn again without the refresh
    start_compiler()  # a compiler that ended (or was never started) starts again
    st.info(f"{ready} of {len(now)} lessons ready. The server compiles every lesson's kernels "
            "in the background, once per machine and engine version (the page opened first "
            "goes first); a lesson still compiling shows its own progress where its charts "
            "will be.", icon=":material/hourglass_top:")
    for title, (word, detail) in now.items():
        st.markdown(f"{MARKS[word]} **{title}**: {word}" + (f" ({detail})" if detail else ""))
