"""Every lesson runs inside app.py's navigation, even when it is the first page a server serves.

Streamlit keeps an old mode for apps with a ``pages/`` folder: until some session has run
``st.navigation``, an address like ``/toy_posterior`` runs ``pages/toy_posterior.py`` on its own,
without app.py, and the sidebar lists raw file names (seen with Streamlit 1.67; see
streamlit/streamlit#10276). ``through_app`` detects that mode, leaves it, and reruns, so app.py
builds the navigation and opens the same page. It only does so on a session's first run, which
no widget event can be part of: Streamlit's AppTest re-enters the old mode on every run, and a
rerun there would swallow the click being tested.
"""
import streamlit as st

try:  # Streamlit's internal flag for the old mode; absent in versions without it
    from streamlit.runtime.pages_manager import PagesManager
except ImportError:
    PagesManager = None


_SEEN = "entry_seen"


def through_app():
    """Call first thing in a page: rerun through app.py when Streamlit ran the page on its own."""
    first_run = not st.session_state.get(_SEEN)
    st.session_state[_SEEN] = True
    if first_run and PagesManager is not None and getattr(PagesManager, "uses_pages_directory",
                                                          False):
        PagesManager.uses_pages_directory = False
        st.rerun()
