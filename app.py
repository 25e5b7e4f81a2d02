"""Typeblocks: the entry point. Page configuration and navigation, and the background compile
of the kernels started on the first visit."""
import streamlit as st

from ui import presenter
from ui.theme import page_style
from ui.warmup import start_compiler

st.set_page_config(page_title="Typeblocks", page_icon=":material/view_module:", layout="wide")
page_style()
presenter.switch()
# in the background, at once: a page that needs kernels asks for its own to come first (Home,
# which needs none, is drawn meanwhile)
start_compiler()
st.navigation([
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/toy_posterior.py", title="Toy posterior", icon=":material/stacked_line_chart:"),
    st.Page("pages/type_blocks.py", title="Type blocks", icon=":material/view_module:"),
    st.Page("pages/word_segmentation.py", title="Word segmentation", icon=":material/segment:"),
    st.Page("pages/tag_trajectories.py", title="HMM tag trajectories", icon=":material/label:"),
    st.Page("pages/hmm_estimators.py", title="HMM estimators", icon=":material/compare_arrows:"),
    st.Page("pages/restaurants.py", title="Restaurants", icon=":material/restaurant:"),
    st.Page("pages/tree_fragments.py", title="Tree fragments", icon=":material/account_tree:"),
    st.Page("pages/forests.py", title="Tree fragments from forests", icon=":material/lan:"),
    st.Page("pages/particle_filter.py", title="Particle filter", icon=":material/scatter_plot:"),
    st.Page("pages/sampler_race.py", title="Sampler race", icon=":material/monitoring:"),
    st.Page("pages/side_by_side.py", title="Side by side", icon=":material/splitscreen:"),
]).run()
