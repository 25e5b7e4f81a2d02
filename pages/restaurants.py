"""Restaurants (Blunsom, Cohn, Goldwater & Johnson 2009): a Chinese restaurant filling up, its
two seating representations, and why a hierarchical model must count its tables (Figure 2).
The lesson's declaration (ui/lesson.py runs it; its views: ui/restaurant_view.py); its
equations and what to look for are Markdown beside it."""
from pathlib import Path

import numpy as np
import streamlit as st

from engine.core.arrivals import MAX_CUSTOMERS, Arrivals
from engine.models.bigram.model import BigramModel
from ui.corpus_picker import UPLOAD_NOTE
from ui import playback, prose
from ui.lesson import Lesson, equations, live, still
from ui.restaurant_view import ALPHA_NAMES, draw_figure_two, draw_restaurant
from ui.settings import PageSettings, Setting, start_anew
from ui.warmup import warm_samplers
from ui.word_corpus import SETTINGS as WORD_SETTINGS
from ui.word_corpus import choose_word_corpus

HERE = Path(__file__)
FIG = "fig"  # the prefix of Figure 2's corpus widgets
DISH_NAMES = ("the", "dog", "a", "ball", "you", "look", "is", "cat", "what", "that", "see", "it")
PROCESSES = {"dp": "Dirichlet process (d = 0)", "py": "Pitman-Yor process (discount d)"}
SAMPLES = (50, 100, 200, 500, 1000)
STEP = playback.Wording(
    step="customer", step_help="the next customer arrives",
    speed="Speed: customers per second",
    finished="The restaurant has its {total:,} customers: raise **Customers** to go on, or "
             "**Reset** to watch it fill again.", clock=False)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "DP, α = 1: a few big tables (the rich get richer)": dict(
        process="dp", alpha=1.0, dishes=4, customers=200, seed=0),
    "DP, α = 20: many tables, each dish on several": dict(
        process="dp", alpha=20.0, dishes=4, customers=200, seed=0),
    "Pitman-Yor, d = 0.8: tables keep opening (a power law)": dict(
        process="py", alpha=1.0, discount=0.8, dishes=4, customers=400, seed=0),
    "Figure 2: Antoniak's approximation fails when αP(w) < 1": dict(fig_source="tagged",
                                                                    samples=200),
}
SETTINGS = PageSettings("rest", (
    Setting("process", "dp", str, "the process", choices=tuple(PROCESSES)),
    Setting("alpha", 2.0, float, "α", -0.999, 1e6),
    Setting("discount", 0.5, float, "the discount d", 0.0, 0.99),
    Setting("dishes", 4, int, "the number of dishes", 1, len(DISH_NAMES)),
    Setting("customers", 200, int, "the number of customers", 1, MAX_CUSTOMERS),
    Setting("seed", 0, int, "the seed", 0, 2**32 - 1),
    *playback.SETTINGS,
    *(Setting(f"{FIG}_{s.name}", s.default, s.kind, s.what, s.low, s.high, s.choices)
      for s in WORD_SETTINGS),
    Setting("samples", 200, int, "the number of samples", choices=SAMPLES),
    Setting("alphas", ALPHA_NAMES, tuple, "the α values", choices=ALPHA_NAMES),
), PRESETS)


def sidebar(lesson):
    """(Figure 2's corpus or None, the restaurant's config)."""
    key = lesson.key
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        st.subheader("The restaurant")
        st.radio("Process", list(PROCESSES), format_func=PROCESSES.get, key=key("process"))
        st.number_input("α — concentration", -0.999, 1e6, key=key("alpha"), format="%g",
                        help="the DP needs α > 0; Pitman-Yor α > −d")
        if lesson.value("process") == "py":
            st.slider("d — discount", 0.0, 0.99, step=0.01, key=key("discount"))
        st.slider("Dishes (base uniform over them)", 1, len(DISH_NAMES), key=key("dishes"))
        st.number_input("Customers", 1, MAX_CUSTOMERS, step=50, key=key("customers"))
        st.number_input("Seed", 0, 2**32 - 1, key=key("seed"),
                        help="same seed, same settings → the same arrivals")
        st.subheader("Figure 2")
        corpus = choose_word_corpus(key(FIG))
        st.select_slider("Samples per point (Gibbs sweeps of the seating)", SAMPLES,
                         key=key("samples"))
        SETTINGS.share(UPLOAD_NOTE)
    SETTINGS.save()
    discount = float(lesson.value("discount")) if lesson.value("process") == "py" else 0.0
    return corpus, dict(alpha=float(lesson.value("alpha")), discount=discount,
                        dishes=int(lesson.value("dishes")),
                        customers=int(lesson.value("customers")), seed=int(lesson.value("seed")))


def follow(corpus, config):
    """A new restaurant when the settings changed."""
    if start_anew(LESSON.prefix, config):
        start(config)


def start(config):
    """A new restaurant; a refused setting keeps the old one."""
    try:
        arrivals = Arrivals(np.full(config["dishes"], 1.0 / config["dishes"]), config["alpha"],
                            config["discount"], config["seed"], config["customers"])
    except ValueError as err:
        st.error(f"Cannot open this restaurant: {err}. The restaurant below keeps its "
                 "settings.")
        return
    for name, value in (("race", arrivals), ("config", config), ("playing", False)):
        st.session_state[LESSON.key(name)] = value


LESSON = Lesson(
    SETTINGS, "Restaurants",
    "The Chinese restaurant behind the Dirichlet and Pitman-Yor processes, its two seating "
    "representations, and why hierarchical models must count their tables (Blunsom, Cohn, "
    "Goldwater & Johnson 2009).", sidebar,
    warm=lambda config: warm_samplers(BigramModel, lesson=True),  # Figure 2's circles too
    start=follow, reset=lambda: start(LESSON.value("config")), wording=STEP,
    views=(live(lambda arrivals: draw_restaurant(
        arrivals, LESSON.value("config"), DISH_NAMES[:LESSON.value("config")["dishes"]],
        LESSON.key("path_chart"))),),
    tail=(equations(HERE.with_suffix(".seating.md"), lambda race: {},
                    title="The seating rule and the two representations"),
          still(lambda race: draw_figure_two(
              LESSON.chosen, LESSON.value("samples"), LESSON.key("alphas"), LESSON.key("fig2"),
              prose.read(HERE.with_suffix(".md")))),
          equations(HERE.with_suffix(".tables.md"), lambda race: {},
                    title="The expected number of tables")))
LESSON.run()
