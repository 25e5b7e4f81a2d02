"""Tree fragments from forests (Peng & Gildea 2014): SCFG rules learned from word-aligned sentence
pairs. Each pair's phrase-decomposition forest holds every way to split it into phrase pairs;
TOKEN, TYPE, TYPE-greedy, TYPE-anneal and the one-stage draw (as the paper has it, and
corrected) race from the same start, each choosing a tree in every forest and where to cut it
into rules. The page draws one pair as the paper's Fig. 1 (its alignment grid, the phrase pairs
boxed) and Fig. 2 (its forest, the current tree and its cuts), the rules in use, and
log p(rules) against engine time and against passes (Fig. 4). The lesson's declaration
(ui/lesson.py runs it; its views: ui/forest_views.py); what to look for is in forests.md.
"""
from pathlib import Path

import streamlit as st

from engine.models import registry
from ui import forest_parallel, forest_views as views, playback, race_page
from ui.kinds.aligned import VIEW
from ui.lesson import Lesson, formulas, live, redrawn, still, text
from ui.models import ModelOptions
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_PASSES = 5_000
MODEL = registry.get("scfg")
OPTIONS = ModelOptions((MODEL,))
PICKER = VIEW.picker
BASE = dict(eta=1.0, seed=0, clock="passes")
PITMAN_YOR = dict(BASE, source="copies", samplers=("token", "type"), passes=1000, shown="token",
                  skip=False, alpha=1.0, pitman_yor=True, discount=0.9)
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "TOKEN stuck at all-cut": dict(BASE, source="builtin", samplers=("token", "type"),
                                   passes=30, shown="token"),
    "TYPE-anneal: hot, then as high as TYPE": dict(
        BASE, source="builtin", samplers=("token", "type", "type-anneal"), passes=60,
        shown="type-anneal"),
    "Without deg(v) the edge sampler is wrong": dict(
        BASE, source="monotone", samplers=("token",), passes=2000, shown="token", pair=1,
        no_deg=True),
    "Too many workers": dict(
        BASE, source="builtin", samplers=("type",), passes=30, shown="type", iterations=30,
        workers=("1", "2", forest_parallel.EVERY_PAIR), parallel_sampler="type"),
    "Pitman-Yor with T = Nᵈ: too many rules": PITMAN_YOR,
    "Pitman-Yor with exact seating: on the mark": dict(PITMAN_YOR, exact_seating=True),
    "One-stage is biased; corrected, it is not": dict(
        BASE, source="recurring", samplers=("one-stage", "one-stage-mh", "type"), passes=1000,
        shown="one-stage", skip=False),
}
SETTINGS = PageSettings("fo", (
    *PICKER.settings,
    *race_page.race_settings((MODEL,), MAX_PASSES, samplers=("token", "type", "type-anneal")),
    *OPTIONS.settings(),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the sampler shown", choices=MODEL.samplers, words=label),
    Setting("pair", 1, int, "the pair shown", 1, 10**6),
    Setting("alone", False, bool, "the race on the shown pair alone"),
    *forest_parallel.SETTINGS,
    *playback.SETTINGS,
), PRESETS)


def sidebar(lesson):
    corpus, options = race_page.RaceSidebar(
        PICKER, OPTIONS, MAX_PASSES, "η — initial cut probability",
        "each node starts cut with probability η, on a tree drawn uniformly: 1 = every phrase "
        "pair its own rule (the paper's start), 0 = every pair one rule",
        model_class=MODEL, cap=False, length_step=10,
        length_help="TYPE-anneal's β climbs from 0.1 to 1.3 by 0.1 every 3 passes, then falls "
                    "back to 1 (pass 45 on)",
        more=lambda: st.checkbox(
            "Race on the shown pair alone", key=lesson.key("alone"),
            help="the samplers see only the pair chosen below the charts: one pair's moves "
                 "step by step, and on a short pair its exact posterior")).draw(lesson)
    if corpus is not None:
        st.session_state[lesson.key("pairs")] = len(corpus)
        if lesson.value("alone"):
            corpus = corpus.pair(min(lesson.value("pair"), len(corpus)) - 1)
    return corpus, race_page.race_config(lesson.prefix, corpus, model=MODEL.name,
                                         hyperparameters=options,
                                         skip=bool(lesson.value("skip")))


def describe(corpus, race):
    model = race_page.first_model(race)
    line = (f"**{corpus.name}**: {len(model.forests):,} pairs, {model.n_nodes:,} forest nodes "
            f"({model.n_sites:,} sites).")
    return (line, views.prior_caption(model)) if model.pitman_yor else line


LESSON = Lesson(
    SETTINGS, "Tree fragments from forests",
    "SCFG rules learned from word-aligned sentence pairs (Peng & Gildea 2014): each pair's "
    "forest holds every way to split it into phrase pairs, and a sampler chooses a tree in it "
    "and where to cut the tree into rules. Every sampler starts from the same trees and cuts; "
    "a pass visits every node of every pair's current tree once.", sidebar,
    warm=lambda config: warm_samplers(MODEL, config["samplers"]),
    describe=describe, record_values=lambda corpus: len(corpus) <= views.EXACT_PAIRS,
    views=(live(lambda race: views.metrics_and_charts(race, LESSON.key)),
           still(lambda race: views.view_controls(SETTINGS, race)),
           redrawn(lambda race: views.draw_pair(
               LESSON.value("shown"), race.runs[LESSON.value("shown")],
               views.shown_pair(SETTINGS), LESSON.value("pair"), LESSON.key)),
           redrawn(lambda race: views.draw_exact(race, LESSON.value("corpus"),
                                                 views.shown_pair(SETTINGS),
                                                 LESSON.value("pair"), LESSON.key)),
           still(lambda race: forest_parallel.section(LESSON.value("corpus"),
                                                      LESSON.value("config"), LESSON.make_model)),
           still(formulas), text(HERE.with_suffix(".md"))))
LESSON.run()
