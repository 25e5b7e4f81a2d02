"""What every page does first: run inside app.py's navigation (ui.entry) and say what it is.
Its kernels come next, once its settings say which it runs (ui.warmup.warm_samplers)."""
import streamlit as st

from ui.entry import through_app
from ui.settings import page_notice


def prologue(title, caption=None):
    """The page's title and caption, after ``through_app`` and this run's address notice
    (``page_notice``)."""
    through_app()
    page_notice()
    st.title(title)
    if caption:
        st.caption(caption)
