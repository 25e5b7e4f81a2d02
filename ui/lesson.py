"""A race lesson as a declaration: what a page says (its settings and presets, the sidebar that
draws them, the model it builds, its views, its prose) and the skeleton every race page runs,
written once here.

``Lesson.run`` is the page: its prologue, the settings restored from the session or the
address, the sidebar, the page's kernels, new chains when the settings changed, then — once a
race exists — the corpus line, the playback controls and each view in order (its prose among
them: Markdown beside the page, formulas as KaTeX) — and the exercises.

The session keys are the settings' (``lesson.key("model")`` is ``"seg_model"`` on the word
segmentation page): a page names settings, never keys; ``lesson.value(name)`` reads one.
"""
from dataclasses import dataclass, field
from typing import Callable

import streamlit as st

from ui import exercises, playback, prose, race_page
from ui.models import build_model, show_formulas
from ui.page import prologue
from ui.settings import PageSettings


@dataclass(frozen=True)
class View:
    """One part of a lesson under its controls: ``draw(race)``, redrawn on every tick while the
    race plays when ``live`` (``advances``: this part's tick advances the race first — the
    page's first live view — else it only redraws)."""

    draw: Callable
    live: bool = False
    advances: bool = False


def live(draw):
    """The lesson's first live view: each tick advances the race, then draws it."""
    return View(draw, live=True, advances=True)


def redrawn(draw):
    """A later live view: redrawn each tick, after the widgets standing above it."""
    return View(draw, live=True)


def still(draw):
    """A view drawn once a run (widgets, checks, formulas)."""
    return View(draw)


def model_of(corpus, config):
    """The model the settings name (``config["model"]``, with its ``hyperparameters``) of
    ``corpus``: what a lesson's chains sample unless it says otherwise."""
    return build_model(config["model"], corpus, config["hyperparameters"])


def formulas(race):
    """The view of the formulas the race's model samples by (ui.models.show_formulas)."""
    show_formulas(race_page.first_model(race))


def equations(path, numbers, title="The model and its equations", icon=":material/function:",
              caption=None):
    """A view: the equations in the Markdown file ``path`` (formulas as KaTeX, ``$$ … $$``), in
    an expander, with ``numbers(race)``'s values put in (ui.prose.read), and a ``caption``
    under them."""
    def draw(race):
        with st.expander(title, icon=icon):
            prose.show(prose.read(path, **numbers(race)))
            if caption:
                st.caption(caption)
    return still(draw)


def text(path, numbers=None, **values):
    """A view: the Markdown file ``path`` (a lesson's "What to look for", beside its page),
    ``values`` and ``numbers(race)``'s put in (ui.prose.read)."""
    return still(lambda race: prose.show(prose.read(
        path, **values, **(numbers(race) if numbers else {}))))


@dataclass
class Lesson:
    """A lesson page: a race of samplers, or whatever else it plays (a restaurant filling up).

    Parameters
    ----------
    settings : the page's PageSettings (its prefix keys the session: ``{prefix}_{name}``)
    title, caption : the page's heading and the line under it
    sidebar : ``sidebar(lesson) -> (corpus, config)``: the widgets; corpus None when unusable
    make_model : ``make_model(corpus, config)``: the model the chains sample (``model_of``)
    warm : ``warm(config)``: the kernels these settings run, ready before the chains start
    describe : ``describe(corpus, race)``: the line above the controls (the corpus's sizes),
        or a tuple of lines (None: no line)
    views : the parts under the controls, in order (``live``, ``redrawn``, ``still``)
    tail : views drawn after them whether or not anything plays yet (``draw(race)``, race
        None before the first start)
    start : ``start(corpus, config)``, what the settings start when they change, instead of
        chains of ``make_model``'s model (a page that plays something else); with ``reset()``,
        its Reset
    controls : ``controls(race)``, the page's own controls instead of the playback's (Type
        blocks: one TYPE move at a time; its Reset stores a new one)
    record_values : the chains keep every pass's values (the trajectory views read them): a
        bool, or ``record_values(corpus)``
    wording : the controls' words (ui.playback.Wording: "pass", or an estimator's "iteration")
    tabs : ``((label, views), …)``: tabs beside the lesson's own (whose label is ``tab``), each
        drawing its views whether or not anything plays (the Particle filter's Table 1)
    """

    settings: PageSettings
    title: str
    caption: str
    sidebar: Callable
    make_model: Callable = model_of
    warm: Callable = None
    describe: Callable = None
    views: tuple = field(default_factory=tuple)
    tail: tuple = field(default_factory=tuple)
    start: Callable = None
    reset: Callable = None
    controls: Callable = None
    record_values: object = False
    wording: playback.Wording = playback.RACE
    tab: str = None
    tabs: tuple = field(default_factory=tuple)
    chosen: object = field(default=None, init=False)  # the sidebar's corpus of this run
    config: object = field(default=None, init=False)  # and its config

    @property
    def prefix(self):
        return self.settings.prefix

    def key(self, name):
        """The session key of setting (or the page's state) ``name``."""
        return self.settings.key(name)

    def value(self, name, default=None):
        """The session's value of ``name`` (``default`` when the session has none yet)."""
        return st.session_state.get(self.key(name), default)

    @property
    def race(self):
        """The page's chains (None before its settings first made any)."""
        return self.value("race")

    def fit_shown(self, race, name="shown"):
        """Setting ``name`` (a sampler whose view is shown) to a sampler the race runs when it
        names one it does not (a link's, a race started since)."""
        race_page.fit_shown(self.settings, race, name)

    def records(self, corpus):
        """Whether chains on ``corpus`` keep every pass's values."""
        if callable(self.record_values):
            return corpus is not None and self.record_values(corpus)
        return self.record_values

    def restart(self):
        """The Reset button: the same settings and seed, from the start."""
        if self.reset is not None:
            self.reset()
        else:
            race_page.restart(self.prefix, self.make_model,
                              record_values=self.records(self.value("corpus")))

    def run(self):
        """The page, top to bottom (``self.chosen`` and ``self.config``: the corpus the sidebar
        chose this run, None when unusable, and its config, for views that read them rather
        than the running race's)."""
        prologue(self.title, self.caption)
        self.settings.restore()
        corpus, config = self.sidebar(self)
        self.chosen, self.config = corpus, config
        if self.warm is not None:
            self.warm(config)
        if self.start is not None:
            self.start(corpus, config)
        else:
            race_page.follow_settings(self.prefix, corpus, config, self.make_model,
                                      record_values=self.records(corpus))
        if not self.tabs:
            self._play()
        else:
            own, *others = st.tabs([self.tab, *(name for name, _ in self.tabs)])
            with own:
                self._play()
            for container, (_, views) in zip(others, self.tabs):
                with container:
                    for view in views:
                        self._show(view, self.race)
        exercises.show(self.settings)

    def _play(self):
        """The race's part of the page: its line, controls and views, then the tail."""
        race = self.race
        if race is not None:
            lines = () if self.describe is None else self.describe(self.value("corpus"), race)
            for line in (lines,) if isinstance(lines, str) else lines:
                st.caption(line)
            if self.controls is None:
                playback.controls(self.prefix, on_reset=self.restart, wording=self.wording)
            else:
                self.controls(race)
            race = self.race  # Reset made a new one
            for view in self.views:
                self._show(view, race)
        for view in self.tail:
            self._show(view, race)

    def _show(self, view, race):
        if view.live:
            playback.live(self.prefix, view.draw, advances=view.advances)
        else:
            view.draw(race)
