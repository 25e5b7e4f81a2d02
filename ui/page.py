"""What every page does first: run inside app.py's navigation (ui.entry) and say what it is.
Its kernels come next, once its settings say which it runs (ui.warmup.warm_samplers)."""
import streamlit as st

from ui.entry import through_app


def prologue(title, caption=None):
    """The page's title and caption, after ``through_app``."""
    through_app()
    st.title(title)
    if caption:
        st.caption(caption)
