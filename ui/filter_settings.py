"""A particle filter's settings on the Particle filter lesson: N, the resampling threshold and
scheme, and the rejuvenation moves (Börschinger & Johnson 2012) — their Settings, their
sidebar widgets, and the part of the filter's config they give."""
import streamlit as st

from engine.core.resampling import SCHEMES
from ui.settings import Setting

MAX_PARTICLES = 1000
THRESHOLDS = {"N": "N (resample after every utterance)", "N/2": "N/2",
              "fraction": "a fraction of N"}
REJUVENATION = {"off": "off", "token": "TOKEN moves", "type": "TYPE moves"}
SETTINGS = (
    Setting("particles", 50, int, "the number of particles", 1, MAX_PARTICLES),
    Setting("threshold", "N/2", str, "the threshold", choices=tuple(THRESHOLDS),
            words=THRESHOLDS.get),
    Setting("fraction", 0.3, float, "the threshold's fraction of N", 0.01, 1.0),
    Setting("resampling", "multinomial", str, "the resampling", choices=SCHEMES),
    Setting("rejuvenation", "off", str, "the rejuvenation", choices=tuple(REJUVENATION)),
    Setting("moves", 2, int, "the moves per utterance", 1, 100),
)


def widgets(key, value, moves):
    """The settings' widgets (``key(name)``, ``value(name)``: the page's session), the
    rejuvenation offered only with the ``moves`` the model's particles take; return the
    filter's config from them."""
    st.number_input("N — particles", 1, MAX_PARTICLES, step=10, key=key("particles"))
    st.radio("Resample when ESS ≤", list(THRESHOLDS), format_func=THRESHOLDS.get,
             key=key("threshold"), horizontal=True)
    if value("threshold") == "fraction":
        st.slider("Fraction of N", 0.01, 1.0, step=0.01, key=key("fraction"))
    st.radio("Resampling", SCHEMES, key=key("resampling"), horizontal=True,
             help="multinomial: N draws with replacement (their §5); systematic: one "
                  "uniform, ⌊N w⌋ or ⌈N w⌉ copies of each particle (less noise)")
    st.radio("Rejuvenation (2012)", list(REJUVENATION), format_func=REJUVENATION.get,
             key=key("rejuvenation"), horizontal=True, disabled=not moves,
             help="after every utterance, MCMC moves inside each particle on what it has "
                  "read; only for a model whose particles take them")
    rejuvenation = value("rejuvenation")
    if rejuvenation in moves:
        st.number_input("Moves per particle and utterance", 1, 100, key=key("moves"))
    threshold = value("threshold")
    return dict(particles=int(value("particles")), resampling=value("resampling"),
                threshold=str(value("fraction")) if threshold == "fraction" else threshold,
                moves=(int(value("moves")), rejuvenation) if rejuvenation in moves else None)
