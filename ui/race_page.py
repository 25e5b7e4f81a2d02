"""What the race lessons (Word segmentation, HMM tag trajectories) share: starting a Race from the
sidebar's settings without losing the current one to a bad setting, and charts over time."""
import streamlit as st

from engine.run import Race
from engine.samplers import offered
from ui.charts import show, traces
from ui.settings import Setting

MAX_SEED = 2**32 - 1


def race_settings(model_classes, max_passes, samplers=None):
    """The settings every race lesson has: the samplers (any the models offer, their mixtures
    too; by default ``samplers``, else every sampler of the first model), η, the passes per run
    and the seed."""
    choices = tuple(dict.fromkeys(name for cls in model_classes
                                  for name in offered(cls.samplers)))
    return (Setting("samplers", samplers or model_classes[0].samplers, tuple, "the samplers",
                    choices=choices),
            Setting("eta", 1.0, float, "η", 0.0, 1.0),
            Setting("passes", 200, int, "the number of passes", 1, max_passes),
            Setting("seed", 0, int, "the seed", 0, MAX_SEED))


def race_config(key, corpus, **more):
    """The settings a race lesson reads back from its widgets — its samplers, η, passes and
    seed (``{key}_samplers`` …) — with the page's own ``more``: what ``start`` takes."""
    s = st.session_state
    return dict(corpus=corpus, samplers=tuple(s[f"{key}_samplers"]), eta=float(s[f"{key}_eta"]),
                passes=int(s[f"{key}_passes"]), seed=int(s[f"{key}_seed"]), **more)


def start(key, corpus, config, make_model, record_values=False):
    """Fresh chains for ``config`` (samplers, seed, eta, passes, skip); on a refused setting,
    say why and keep the old race."""
    try:
        model = make_model(corpus, config)
        race = Race(model, config["samplers"], config["seed"], init={"eta": config["eta"]},
                    total_sweeps=config["passes"], skip=config["skip"],
                    record_values=record_values)
    except ValueError as err:
        st.error(f"Cannot start these chains: {err}")
        return
    st.session_state[f"{key}_race"] = race
    st.session_state[f"{key}_config"] = config
    st.session_state[f"{key}_corpus"] = corpus
    st.session_state[f"{key}_playing"] = False


def follow_settings(key, corpus, config, make_model, record_values=False):
    """Start new chains when the settings changed and are usable; otherwise say what is wrong."""
    if not config["samplers"]:
        st.error("Choose at least one sampler.")
    elif corpus is None:
        st.info("The chains below keep the last usable corpus.")
    elif config != st.session_state.get(f"{key}_config"):
        start(key, corpus, config, make_model, record_values)


def restart(key, make_model, record_values=False):
    """The Reset button: the same settings, the same seed, from the start."""
    start(key, st.session_state[f"{key}_corpus"], st.session_state[f"{key}_config"], make_model,
          record_values)


def metric_row(items):
    """One metric per chain, (label, value, help) each, in a row that wraps: on a phone
    they stay a compact block above the charts instead of a column of five."""
    with st.container(horizontal=True, gap="small"):
        for text, value, help_text in items:
            st.metric(text, value, help=help_text, width="content")


def over_time(col, race, column, y_title, title, chart_key, fraction=False):
    """One measure of every chain against engine time (Liang et al. Fig. 5), in ``col``."""
    show(col, traces(race, column, y_title, title, x="seconds", x_title="engine time (s)",
                     x_reach=0.01, y_domain=[0, 1] if fraction else None), chart_key)
