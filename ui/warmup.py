"""Load every kernel once per server process, so a user's first click does not wait for Numba."""
import streamlit as st

from engine.models import registry
from engine.run import warm
from engine.samplers import particle


@st.cache_resource(show_spinner="Loading the sampler engine…")
def warm_engine():
    """Run every sampler of every registered model on the model's tiny instance (its particle
    filter too), and whatever else its lesson computes (``warm_lesson``); kernels load from
    Numba's cache, or compile on a fresh machine."""
    for model_class in registry.models().values():
        tiny = model_class.tiny()
        warm(tiny)
        if hasattr(tiny, "warm_lesson"):
            tiny.warm_lesson()
        if getattr(model_class, "populations", ()):
            particle.warm(model_class)
    return True
