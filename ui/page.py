"""What every page does first: run inside app.py's navigation (ui.entry), say what it is, and
warm the kernels of the models it uses (ui.warmup)."""
import streamlit as st

from ui.entry import through_app
from ui.warmup import warm_engine


def prologue(title, caption=None, models=None):
    """The page's title and caption, after ``through_app``; then ``warm_engine(models)`` (model
    classes; None: every registered model, () none)."""
    through_app()
    st.title(title)
    if caption:
        st.caption(caption)
    warm_engine(models)
