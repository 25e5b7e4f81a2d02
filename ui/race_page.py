"""What the race lessons share: their sidebar (RaceSidebar), starting a Race from its settings
without losing the current one to a bad setting, the metric row, and charts over time."""
from dataclasses import dataclass

import streamlit as st

from engine.run import Race
from engine.samplers import label, offered
from ui.charts import show_traces
from ui.corpus_choice import cap_note, first_units
from ui.settings import Setting, start_anew

MAX_SEED = 2**32 - 1
# sites of a race page's corpus: every chain holds a state of the whole corpus, and a page
# redraws them all (an upload is cut to its first units within it before a model is built)
MAX_SITES = 300_000
MIN_SECONDS, MAX_SECONDS = 0.1, 600.0  # a run's length in engine seconds (equal engine time)
SECONDS_HELP = ("the clock beside Play is **Equal engine time**: every sampler runs until it "
                "has had this much engine time (time inside the sampler, never drawing), so "
                "every line ends at the same engine time. Under **Equal passes** the run's "
                "length is given in passes instead.")


SKIP_HELP = ("skip pivots already sampled in a block this pass (Liang et al. §4.4). Faster, but "
             "an approximation: the chain's law is then only close to the posterior.")


def seed_input(key):
    """The chains' seed in the sidebar (``{key}_seed``)."""
    st.number_input("Seed", 0, MAX_SEED, key=f"{key}_seed",
                    help="same seed, same settings → the same chains")


def skip_checkbox(key, help=SKIP_HELP):
    """TYPE's skip approximation in the sidebar (``{key}_skip``)."""
    st.checkbox("TYPE: skip approximation", key=f"{key}_skip", help=help)


def seconds_setting(default=2.0, what="the engine seconds per run"):
    """The run's length under equal engine time (``{key}_seconds``); ``what`` names it in
    messages (as the page's box does)."""
    return Setting("seconds", default, float, what, MIN_SECONDS, MAX_SECONDS)


def race_settings(model_classes, max_passes, samplers=None):
    """The settings every race lesson has: the samplers (any the models offer, their mixtures
    too; by default ``samplers``, else every sampler of the first model), η, the run's length
    (passes, or engine seconds under equal engine time) and the seed."""
    choices = tuple(dict.fromkeys(name for cls in model_classes
                                  for name in offered(cls.samplers)))
    return (Setting("samplers", samplers or model_classes[0].samplers, tuple, "the samplers",
                    choices=choices, words=label),
            Setting("eta", 1.0, float, "η", 0.0, 1.0),
            Setting("passes", 200, int, "the number of passes", 1, max_passes),
            seconds_setting(),
            Setting("seed", 0, int, "the seed", 0, MAX_SEED))


def timed(key):
    """Whether the race's clock is equal engine time (its length then in engine seconds)."""
    return st.session_state.get(f"{key}_clock") == "time"


def length_input(key, label, low=None, high=None, step=50, help=None,
                 seconds_label="Engine seconds per run"):
    """The run's length in the sidebar: ``label`` (the page's passes, ``{key}_passes``, from
    ``low`` to ``high``) under equal passes, ``seconds_label`` (``{key}_seconds``) under equal
    engine time. Changing either, or the clock, starts the chains again."""
    if timed(key):
        st.number_input(seconds_label, MIN_SECONDS, MAX_SECONDS, step=0.5,
                        format="%g", key=f"{key}_seconds", help=SECONDS_HELP)
    else:
        st.number_input(label, low, high, step=step, key=f"{key}_passes", help=help)


def length(key):
    """The race's length as Race takes it: {"total_seconds": …} under equal engine time, else
    {"total_sweeps": …} (a page's config holds it, so a new clock or length starts new
    chains)."""
    s = st.session_state
    if timed(key):
        return {"total_seconds": float(s[f"{key}_seconds"])}
    return {"total_sweeps": int(s[f"{key}_passes"])}


def race_config(key, corpus, **more):
    """The settings a race lesson reads back from its widgets — its samplers, η, length and
    seed (``{key}_samplers`` …) — with the page's own ``more``: what ``start`` takes."""
    s = st.session_state
    return dict(corpus=corpus, samplers=tuple(s[f"{key}_samplers"]), eta=float(s[f"{key}_eta"]),
                length=length(key), seed=int(s[f"{key}_seed"]), **more)


def start(key, corpus, config, make_model, record_values=False):
    """Fresh chains for ``config`` (samplers, seed, eta, length, skip); on a refused setting,
    say why and keep the old race."""
    try:
        model = make_model(corpus, config)
        race = Race(model, config["samplers"], config["seed"], init={"eta": config["eta"]},
                    skip=config["skip"], record_values=record_values, **config["length"])
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
    elif start_anew(key, config):
        start(key, corpus, config, make_model, record_values)


def restart(key, make_model, record_values=False):
    """The Reset button: the same settings, the same seed, from the start."""
    start(key, st.session_state[f"{key}_corpus"], st.session_state[f"{key}_config"], make_model,
          record_values)


def metric_row(items, key="race_metrics"):
    """One metric per chain, (label, value, help) or (label, value, help, what) each, ``what``
    saying under the value what it measures. The row's tiles have one fixed width (its
    container is keyed ``key``; ui.theme's CSS sizes them), so a tick's longer numbers never
    rewrap the row and move the charts below; on a phone they wrap into a compact block."""
    with st.container(horizontal=True, gap="small", key=key):
        for text, value, help_text, *what in items:
            st.metric(text, value, delta=what[0] if what else None, delta_color="off",
                      delta_arrow="off", help=help_text, width="content")


def over_time(col, race, column, y_title, title, chart_key, fraction=False):
    """One measure of every chain against engine time (Liang et al. Fig. 5), in ``col``."""
    show_traces(col, race, column, y_title, title, chart_key, x="seconds",
                x_title="engine time (s)", x_reach=0.01, y_domain=[0, 1] if fraction else None)


def within_sites(picker, key, corpus):
    """``corpus`` (from ``picker``, a ui.corpus_choice.CorpusPicker) cut to its first units
    within MAX_SITES, before a model is built on it (an upload of 200,000 utterances took
    minutes to show anything); the limit said under the upload box."""
    kind = picker.data
    cap_note(key, f"{MAX_SITES:,} sites (symbols or tokens)")
    if corpus is None:
        return None
    total = int(kind.unit_sizes(corpus).sum())
    return first_units(kind, corpus, kind.units_within(corpus, total, MAX_SITES),
                       "each sampler's chain holds the whole corpus")


def fit_shown(settings, race, name="shown"):
    """Setting ``name`` of a page's ``settings`` (a sampler whose view is shown) to a sampler
    the race runs when it names one it does not (a link's, a race started since)."""
    if st.session_state[settings.key(name)] not in race.runs:
        settings.fit(name, next(iter(race.runs)), "this race does not run that sampler")


def first_model(race):
    """The model the race's chains sample (every chain samples the same)."""
    return next(iter(race.runs.values())).model


def sampler_metrics(race, value, detail):
    """The race's metric row: a tile per chain headed "TYPE · pass 1,200", its value
    ``value(run, last)`` and its help ``detail(run, last)``, ``last`` the chain's last trace
    row."""
    metric_row([(f"{label(name)} · pass {run.sweeps_done:,}", value(run, run.trace[-1]),
                 detail(run, run.trace[-1])) for name, run in race.runs.items()])


@dataclass(frozen=True)
class RaceSidebar:
    """The race lessons' sidebar, top to bottom: the preset, the corpus from ``picker`` (``cap``:
    cut within MAX_SITES), the model (``choose_model()`` draws its widget and returns the class
    chosen; else ``model_class``), the samplers it offers, η (``eta_label``, ``eta_help``), the
    run's length (up to ``max_passes``), the seed, the model's ``options`` in an expander, TYPE's
    skip approximation, the page's ``more()`` widgets, the share panel."""

    picker: object
    options: object
    max_passes: int
    eta_label: str
    eta_help: str
    model_class: type = None
    choose_model: object = None
    length_help: str = None
    length_step: int = 50
    cap: bool = True
    model_settings: str = "Model settings"
    expanded: bool = False
    skip_help: str = SKIP_HELP
    more: object = None

    def draw(self, lesson):
        """The widgets; returns (corpus, the model's hyperparameters)."""
        with st.sidebar:
            st.header("Settings")
            lesson.settings.preset_picker()
            corpus = self.picker.choose(lesson.prefix)
            if self.cap:
                corpus = within_sites(self.picker, lesson.prefix, corpus)
            model_class = self.model_class if self.choose_model is None else self.choose_model()
            st.multiselect("Samplers", offered(model_class.samplers), format_func=label,
                           key=lesson.key("samplers"))
            st.number_input(self.eta_label, 0.0, 1.0, step=0.1, key=lesson.key("eta"),
                            help=self.eta_help)
            length_input(lesson.prefix, "Passes per run", 1, self.max_passes,
                         step=self.length_step, help=self.length_help)
            seed_input(lesson.prefix)
            with st.expander(self.model_settings, expanded=self.expanded):
                hyperparameters = self.options.widgets(lesson.settings, model_class)
            if "type" in model_class.samplers:
                skip_checkbox(lesson.prefix, self.skip_help)
            if self.more is not None:
                self.more()
            lesson.settings.share(self.picker.upload_note)
        lesson.settings.save()
        return corpus, hyperparameters


def model_radio(lesson, models, help=None):
    """The Model radio of a lesson racing several models ({name: class}); on a change the
    chosen samplers the new model offers are kept (its own when none is left). Returns the
    class chosen."""
    def keep_offered():
        model_class = models[lesson.value("model")]
        kept = [name for name in lesson.value("samplers") if name in offered(model_class.samplers)]
        st.session_state[lesson.key("samplers")] = kept or list(model_class.samplers)
    st.radio("Model", list(models), format_func=lambda name: models[name].label,
             key=lesson.key("model"), on_change=keep_offered, help=help)
    return models[lesson.value("model")]


def sampler_figure(last):
    """The figure a chain's sampler adds to its metric's help: SENTENCE's acceptance rate or
    TYPE's mean block size ("" when its last trace row has neither)."""
    if last.get("mean_block_size", float("nan")) == last.get("mean_block_size"):
        return f"; mean block {last['mean_block_size']:.2f} sites"
    if last.get("acceptance", float("nan")) == last.get("acceptance"):
        return f"; acceptance {last['acceptance']:.1%}"
    return ""
