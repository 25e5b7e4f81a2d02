"""Side by side: two views of a lesson at once, each playing on its own — for a lecturer's "what
changes if …". Each half is the lesson itself opened from a link (its own session on this
server, in an embedded frame), so anything a lesson's link can set can be compared."""
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import streamlit as st

from ui import course
from ui.page import prologue
from ui.settings import APP_SETTINGS, PageSettings, Setting, app_address, echo

KEY = "sbs"
# the lessons a half may show: a link's path, as Streamlit names the course's pages (app.py)
LESSONS = tuple(Path(lesson.page).stem for lesson in course.LESSONS)
HEIGHT = 1500  # pixels of each half: a lesson's controls and its first charts

# a question, and the two links that answer it (the page's presets). A link names only the
# settings that differ from the lesson's defaults; tests/app/test_side_by_side.py checks that
# each opens its lesson with them
COMPARISONS = {
    "Particle filter: what does rejuvenation buy 100 particles?": (
        "particle_filter?particles=100", "particle_filter?particles=100&rejuvenation=type"),
    "Particle filter: resampling at ESS ≤ N/2 or only at ESS ≤ 1?": (
        "particle_filter?particles=100",
        "particle_filter?particles=100&threshold=fraction&fraction=0.01"),
    "Sampler race: the HMM with a sparse emission prior (α′ = 0.0001) or a flat one (0.1)?": (
        "sampler_race?model=hmm&hmm_alpha_emit=0.0001&passes=300",
        "sampler_race?model=hmm&passes=300"),
    "Sampler race: word segmentation's chains from one start or from spread starts?": (
        "sampler_race?passes=300", "sampler_race?starts=spread&passes=300"),
    "Toy posterior: TOKEN's escape at n = 1,000 or n = 100,000?": (
        "toy_posterior", "toy_posterior?n=100000&m=100000"),
}
FIRST = next(iter(COMPARISONS.values()))
PRESETS = {question: dict(left=left, right=right)
           for question, (left, right) in COMPARISONS.items()}

SETTINGS = PageSettings(KEY, (
    Setting("left", FIRST[0], str, "the left link"),
    Setting("right", FIRST[1], str, "the right link"),
), PRESETS)


def lesson_address(link):
    """The path and query of ``link`` (a lesson's full share link, or its path and query) in
    this app, or a ValueError saying what is wrong with it."""
    parts = urlsplit(link.strip())
    path = parts.path.strip("/").rsplit("/", 1)[-1]
    if path not in LESSONS:
        raise ValueError(f"{echo(link)} is not a link to one of the lessons: copy one "
                         "from a lesson's **Share this view** (in its sidebar)")
    # the halves follow this page's app settings (the presenter mode), not the links'
    ignored = {"embed", "embed_options", *APP_SETTINGS}
    return path, [(k, v) for k, v in parse_qsl(parts.query) if k not in ignored]


def framed(path, query):
    """The address of a lesson embedded in this page, in this page's presenter mode:
    Streamlit's embed mode hides the lesson's header and toolbar, so the two halves show only
    the lessons."""
    return f"/{path}?" + urlencode([*query, *app_address().items(), ("embed", "true")])


def settings():
    with st.sidebar:
        st.header("Settings")
        SETTINGS.restore()
        SETTINGS.preset_picker()
        st.text_area("Left: a lesson's link", key=SETTINGS.key("left"), height=90)
        st.text_area("Right: a lesson's link", key=SETTINGS.key("right"), height=90)
        SETTINGS.save()
        SETTINGS.share()


prologue("Side by side", "Two views of a lesson at once, each with its own settings and its "
         "own Play: choose a question as the preset in the sidebar, or paste two links from a lesson's "
         "**Share this view**. On a projector, switch on the presenter mode first.")
settings()
halves = st.columns(2)
for half, side in zip(halves, ("left", "right")):
    try:
        path, query = lesson_address(st.session_state[SETTINGS.key(side)])
    except ValueError as err:
        half.error(f"{side.capitalize()} half: {err}.", icon=":material/link_off:")
        continue
    with half:
        st.caption(f"**{side.capitalize()}**: {path.replace('_', ' ')}"
                   + (f" · {', '.join(echo(f'{k} = {v}') for k, v in query)}" if query else ""))
        st.iframe(framed(path, query), height=HEIGHT)
