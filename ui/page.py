"""What every page does first: run inside app.py's navigation (ui.entry) and say what it is.
Its kernels come next, once its settings say which it runs (ui.warmup.warm_samplers)."""
import streamlit as st

from ui.entry import through_app
from ui.settings import page_notice

LESSON = "lesson_name"  # the page's name in st.session_state: its downloads are named after it


def prologue(title, caption=None):
    """The page's title and caption, after ``through_app`` and this run's address notice
    (``page_notice``); the lesson's name (the title up to a colon: "Toy posterior") kept for
    the names of its downloads."""
    through_app()
    page_notice()
    st.session_state[LESSON] = title.split(":")[0]
    st.title(title)
    if caption:
        st.caption(caption)
