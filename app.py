"""Typeblocks: the entry point. Page configuration and navigation (the lessons from the course,
ui/course.py), and the background compile of the kernels started on the first visit."""
import streamlit as st

from ui import course, presenter, settings
from ui.theme import page_style
from ui.warmup import start_compiler

st.set_page_config(page_title="Typeblocks", page_icon=":material/view_module:", layout="wide")
page_style()
# in the background, at once: a page that needs kernels asks for its own to come first (Home,
# which needs none, is drawn meanwhile)
start_compiler()
with settings.address_notice():  # what the address gave that the page ignored, said once
    presenter.switch()
    page = st.navigation([
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
        *(st.Page(lesson.page, title=lesson.title, icon=lesson.icon) for lesson in course.LESSONS),
        st.Page("pages/side_by_side.py", title="Side by side", icon=":material/splitscreen:"),
    ])
    settings.check_page(page)
    page.run()
