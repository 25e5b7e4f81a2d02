"""Load every kernel once per server process, so a user's first click does not wait for Numba."""
import streamlit as st

from engine.models.hmm import HmmModel
from engine.models.toy import ToyModel
from engine.models.usm import UsmModel
from engine.run import Race


@st.cache_resource(show_spinner="Loading the sampler engine…")
def warm_engine():
    """Run each sampler and each toy computation on a tiny problem (kernels load from cache)."""
    model = ToyModel(4)
    Race(model, model.samplers, seed=0, total_sweeps=2).sweep(2)
    model.log_posterior()
    model.token_escape_times(seed=0, chains=2, max_passes=2)
    model.type_draws(seed=0, count=2)
    usm = UsmModel(["abab", "ba"], gold_bound=[0, 1, 0, 1, 0, 1])
    Race(usm, usm.samplers, seed=0, total_sweeps=2).sweep(2)
    hmm = HmmModel([["a", "b", "a"], ["b"]], 3, gold_tags=[["X", "Y", "X"], ["Y"]])
    Race(hmm, hmm.samplers, seed=0, total_sweeps=2).sweep(2)
    return True
