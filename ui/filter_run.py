"""The filters the Particle filter lesson runs: their populations (a model of segmented text as
N particles, its Population role), built once per model, corpus and options and kept by the
server, on the corpus cut to the page's length; a filter started from the sidebar's config."""
import streamlit as st

from engine.samplers.particle import ParticleFilter, Rejuvenation
from ui.models import build_model

MAX_UTTERANCES = 3000  # a longer corpus is cut (the genealogy and traces live in the session)


@st.cache_resource(max_entries=6, show_spinner="Numbering the corpus's substrings…")
def population(model_name, corpus, options, particle_options):
    """The particles of model ``model_name`` on ``corpus`` (its options and particle options
    as tuples of pairs)."""
    return build_model(model_name, corpus, options).particles(**dict(particle_options))


def first_utterances(corpus):
    """The corpus the filter reads: at most MAX_UTTERANCES utterances (None stays None)."""
    if corpus is None or len(corpus.utterances) <= MAX_UTTERANCES:
        return corpus
    return corpus.head(MAX_UTTERANCES)


def population_of(config):
    """The population of a filter's config (the page's sidebar's)."""
    return population(config["model"], config["corpus"], config["options"],
                      config["particle_options"])


def moves_offered(model_name, corpus, options, particle_options):
    """The rejuvenation moves the model's particles take (none while it cannot be built: its
    filter then says why)."""
    try:
        return population(model_name, first_utterances(corpus), options,
                          particle_options).rejuvenation_moves
    except ValueError:
        return ()


def start(config, key):
    """A new filter of ``config`` in the session (``key(name)``: the page's keys); refused
    settings keep the old one, and say why."""
    try:
        filter_ = ParticleFilter(
            population_of(config), config["particles"], config["seed"],
            threshold=config["threshold"], resampling=config["resampling"], record_history=True,
            rejuvenation=Rejuvenation(*config["moves"]) if config["moves"] else None)
    except ValueError as err:
        st.error(f"Cannot start this filter: {err}. The filter below keeps its settings.")
        return
    for name, value in (("race", filter_), ("config", config), ("info", None),
                        ("scores", None), ("playing", False)):
        st.session_state[key(name)] = value
