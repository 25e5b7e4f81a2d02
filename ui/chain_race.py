"""The Sampler race's chains: the server's worker processes (one per core, shared by every
session), a race of several chains per sampler started in them from the sidebar's config, and
the corpus cut to what the page takes (every chain holds the whole corpus)."""
import streamlit as st

from engine.live.pool import ChainPool, LiveRace, plan
from engine.samplers import offered
from ui import race_page
from ui.kinds.registry import picker_of
from ui.models import build_model
from ui.settings import Setting, start_anew
from ui.theme import label

MAX_SITES = race_page.MAX_SITES
MAX_CHAINS = 8  # per sampler (and per η in the sweep)
STARTS = {"shared": "the same η for every chain",
          "spread": "spread: chain c at η = c / (C − 1), from 0 to 1",
          "per_sampler": "one η per sampler"}


def start_settings(samplers):
    """The settings of the chains' starts, with an η of each of ``samplers``."""
    return (Setting("starts", "shared", str, "the starts", choices=tuple(STARTS)),
            Setting("eta", 1.0, float, "η", 0.0, 1.0),
            *(Setting(f"eta_{name}", 1.0, float, f"η of {label(name)}", 0.0, 1.0)
              for name in samplers))


def eta_widgets(key, value):
    """The chains' starts (``key(name)``, ``value(name)``: the page's session); return their
    η (a tuple of (sampler, η) when one per sampler)."""
    st.radio("Starts", list(STARTS), format_func=STARTS.get, key=key("starts"),
             help="chain c of every sampler starts from seed + c, so every sampler starts "
                  "from the same states. Spread starts are overdispersed, as R̂ assumes: "
                  "chains that end up agreeing have forgotten very different starts.")
    if value("starts") == "shared":
        st.number_input("η — initial share of sites with value 1", 0.0, 1.0, step=0.1,
                        key=key("eta"), help="a boundary (segmentation), state 1 (tagging), "
                                             "a split copy (toy); the rest at random")
    elif value("starts") == "per_sampler":
        for name in value("samplers"):
            st.number_input(f"η of {label(name)}", 0.0, 1.0, step=0.1, key=key(f"eta_{name}"))
        return tuple((name, float(value(f"eta_{name}"))) for name in value("samplers"))
    return float(value("eta"))


@st.cache_resource(show_spinner=False)
def chain_pool():
    """The server's worker processes (one per core), shared by every session's race."""
    return ChainPool()


def chain_plan(config):
    """The chains of ``config`` (the sidebar's): each sampler's, with their starts."""
    eta = dict(config["eta"]) if isinstance(config["eta"], tuple) else config["eta"]
    return plan(config["samplers"], config["chains"], config["seed"], **config["length"],
                skip=config["skip"], eta=eta, spread=config["starts"] == "spread")


class ChainRace:
    """The chains of a race page whose settings are ``settings`` (a PageSettings: its session
    keys) over ``models`` ({name: model class}); the config is the sidebar's."""

    def __init__(self, settings, models):
        self.settings, self.models = settings, models

    def key(self, name):
        return self.settings.key(name)

    def value(self, name):
        return st.session_state.get(self.key(name))

    def fit_to_model(self, model_class):
        """Samplers and charted columns of another model (a link, a model switch) fall back
        to this one's."""
        s, key, mine = st.session_state, self.key, offered(model_class.samplers)
        kept = [name for name in s[key("samplers")] if name in mine]
        s[key("samplers")] = kept or [n for n in ("token", "type") if n in mine] or list(mine[:2])
        if s[key("measure")] not in model_class.trace_labels:
            s[key("measure")] = next(iter(model_class.trace_labels), "")
        if s[key("scalar")] != "loglik" and s[key("scalar")] not in model_class.trace_labels:
            s[key("scalar")] = "loglik"

    def follow(self, corpus, config):
        """New chains when the settings changed and make a model the page can race."""
        model_class = self.models[config["model"]]
        used = corpus_in_use(model_class, corpus, config["first"])
        if not config["samplers"]:
            st.error("Choose at least one sampler.")
        elif picker_of(model_class) is not None and corpus is None:
            st.info("The chains below keep the last usable corpus.")
        else:
            try:
                model = build_model(config["model"], used, config["options"])
            except ValueError as err:
                st.error(f"Cannot build this model: {err}")
                return
            if not too_large(model_class, used, model, self.key) and \
                    start_anew(self.settings.prefix, config):
                self.start(model, config)

    def start(self, model, config):
        """New chains of ``model`` in the pool (the session's old ones closed), kept as
        ``key("race")``; refused settings keep the old ones, and say why."""
        old = self.value("race")
        if old is not None:
            old.close()
        try:
            race = LiveRace(chain_pool(), model, chain_plan(config))
        except ValueError as err:
            st.error(f"Cannot start these chains: {err}")
            return
        for name, value in (("race", race), ("config", config), ("model_built", model),
                            ("playing", False)):
            st.session_state[self.key(name)] = value
        with st.spinner(f"Starting {len(race.tasks)} chains in {chain_pool().size} worker "
                        "processes…"):
            race.wait_ready()

    def restart(self):
        """Reset: the same chains from their starts."""
        self.start(self.value("model_built"), self.value("config"))

    def describe(self, corpus, race):
        """The line above the controls: the model, its sites and the chains."""
        config = self.value("config")
        return (f"**{self.models[config['model']].label}**, "
                f"{self.value('model_built').n_sites:,} sites; {len(race.tasks)} chains "
                f"({config['chains']} per sampler) in {chain_pool().size} worker processes.")


def corpus_in_use(model_class, corpus, first):
    """The corpus the chains use: the first ``first`` units when set, else all of it."""
    picker = picker_of(model_class)
    if picker is None or corpus is None:
        return corpus
    if 0 < first < picker.data.n_units(corpus):
        return corpus.head(first)
    return corpus


def too_large(model_class, corpus, model, key):
    """Whether the model is too large for the page; if so, say so and offer a subsample (its
    size ``key("first_offer")``, used as ``key("first")``)."""
    if model.n_sites <= MAX_SITES:
        return False
    picker = picker_of(model_class)
    what = f"**{corpus.name}**" if picker else f"This {model_class.label}"
    st.warning(f"{what} has {model.n_sites:,} sites; the race page takes at most "
               f"{MAX_SITES:,} (every chain holds the whole corpus, and the page redraws them "
               "all). " + (f"Race its first {picker.data.unit} instead, or run" if picker else
                           "Choose smaller settings, or run") +
               " the whole of it with `python -m engine race` (docs/command-line.md).",
               icon=":material/warning:")
    if picker:
        kind = picker.data
        st.number_input(f"Use the first … {kind.unit}", 1, kind.n_units(corpus),
                        value=kind.units_within(corpus, model.n_sites, MAX_SITES),
                        key=key("first_offer"))
        st.button("Race a subsample", type="primary", on_click=lambda: st.session_state.update(
            {key("first"): int(st.session_state[key("first_offer")])}))
    return True
