"""Load the kernels a page uses once per server process, so a user's first click does not wait
for Numba."""
import streamlit as st

from engine.models import registry
from engine.run import warm
from engine.samplers import particle


@st.cache_resource(show_spinner="Loading the sampler engine…")
def _warm_model(model_class):
    """Run every sampler of ``model_class`` on its tiny instance (its particle filter too), and
    whatever else its lesson computes (``warm_lesson``); kernels load from Numba's cache, or
    compile on a fresh machine."""
    tiny = model_class.tiny()
    warm(tiny)
    if hasattr(tiny, "warm_lesson"):
        tiny.warm_lesson()
    if getattr(model_class, "populations", ()):
        particle.warm(model_class)
    return True


def warm_engine(models=None):
    """Warm the kernels of ``models`` (model classes; None: every registered model)."""
    for model_class in registry.models().values() if models is None else models:
        _warm_model(model_class)
