"""The "predict, then run" exercises under a lesson: each a question, a link that sets the
experiment up (a preset of the page, and settings beyond it), what to do next, and an answer
hidden until asked. The exercises themselves are in ui/lesson_exercises.py, keyed by the page's
settings prefix; ``show(SETTINGS)`` at the end of a page draws that page's.
"""
from dataclasses import dataclass, field
from urllib.parse import urlencode

import streamlit as st

from ui.settings import PRESET, slug


@dataclass(frozen=True)
class Exercise:
    """question and answer: markdown (glossary links from ui.course.term); preset: the label
    of one of the page's presets, or None; settings: {setting name: value} on top of it (or of
    the defaults); then: what to press once the link has opened the page."""

    question: str
    answer: str
    preset: str = None
    settings: dict = field(default_factory=dict)
    then: str = "Press Play and let the run reach its last pass."

    def query(self, page_settings):
        """The link's address parameters: the preset's name, then each setting as the
        address writes it."""
        query = {PRESET: slug(self.preset)} if self.preset else {}
        query.update({name: page_settings.settings[name].text(value)
                      for name, value in self.settings.items()})
        return query

    def setup_text(self, page_settings):
        """What the link sets, in words."""
        parts = [f"the preset “{self.preset}”"] if self.preset else []
        for name, value in self.settings.items():
            parts.append(f"{page_settings.settings[name].what} "
                         f"{spoken(page_settings.settings[name], value)}")
        if not parts:
            return "The link sets the page's defaults"
        listed = "; ".join(parts[:-1]) + "; and " + parts[-1] if len(parts) > 2 \
            else " and ".join(parts)
        return "The link sets " + listed


def spoken(setting, value):
    """A setting's value as the sentence “The link sets …” says it."""
    if isinstance(value, bool):
        return "off" if not value else "on"
    if isinstance(value, (tuple, str)):
        return "to " + setting.say(value)
    return f"= {value:,}" if isinstance(value, int) else f"= {value:g}"


def link(page_settings, exercise):
    """The exercise's link: a full address when the browser told Streamlit the page's, else
    the part after it."""
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{urlencode(exercise.query(page_settings))}"


def show(page_settings):
    """The exercises of the page whose settings are ``page_settings``, at the page's end."""
    from ui.lesson_exercises import EXERCISES  # the content imports this module's Exercise
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
