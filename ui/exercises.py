"""The "predict, then run" exercises under a lesson: each a question, a link that sets the
experiment up (a preset of the page, and settings beyond it), what to do next, and an answer
hidden until asked (ui/exercise.py). The exercises themselves are in ui/lesson_exercises.py,
keyed by the page's settings prefix; ``show(SETTINGS)`` at the end of a page draws that page's.
"""
from urllib.parse import urlencode

import streamlit as st

from ui.lesson_exercises import EXERCISES


def link(page_settings, exercise):
    """The exercise's link: a full address when the browser told Streamlit the page's, else
    the part after it."""
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{urlencode(exercise.query(page_settings))}"


def show(page_settings):
    """The exercises of the page whose settings are ``page_settings``, at the page's end."""
    # a lesson without exercises yet draws none (tests/app/test_exercises.py fails for it)
    exercises = EXERCISES.get(page_settings.prefix, ())
    if not exercises:
        return
    st.subheader("Exercises: predict, then run", anchor="exercises")
    st.caption("Write down your prediction first. Each link opens the experiment in a new tab, "
               "with the settings it needs; the answer describes what that run shows (the runs "
               "are seeded, so you will see the same).")
    for number, exercise in enumerate(exercises, 1):
        with st.container(border=True):
            st.markdown(f"**{number}.** {exercise.question}")
            row = st.container(horizontal=True, vertical_alignment="center", gap="small")
            row.link_button("Set it up", link(page_settings, exercise), icon=":material/science:")
            row.caption(f"{exercise.setup_text(page_settings)}. {exercise.then}")
            with st.expander("Answer", icon=":material/lightbulb:"):
                st.markdown(exercise.answer)
