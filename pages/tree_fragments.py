"""Tree fragments (Liang, Jordan & Klein 2010, §3–5 and Fig. 5c): the probabilistic
tree-substitution grammar learned from a treebank by TOKEN, TYPE, TOKEN-anneal, TYPE-greedy and
SENTENCE racing from the same cuts, with log p(fragments) and held-out bracket F1 over engine
time, the trees cut into their fragments, the fragment lexicon, and the held-out parses of the
sampled grammar beside the PCFG baselines. The lesson's declaration (ui/lesson.py runs it; its
views: ui/fragment_views.py); its equations and what to look for are Markdown beside it.
"""
from dataclasses import replace
from pathlib import Path

from engine.models import registry
from engine.models.ptsg.model import MAX_LENGTH
from ui import fragment_views as views, playback, race_page
from ui.kinds.trees import VIEW
from ui.lesson import Lesson, equations, live, redrawn, still, text
from ui.models import ModelOptions
from ui.settings import PageSettings, Setting
from ui.theme import label
from ui.warmup import warm_samplers

HERE = Path(__file__)
MAX_PASSES = 20_000
HELD_OUT = 0.2      # this page's default share of held-out trees: F1 is charted from the start
MODEL = registry.get("ptsg")
OPTIONS = ModelOptions((MODEL,))
PICKER = VIEW.picker
BUILTIN = dict(source="builtin", eta=1.0, seed=0, clock="passes")
PRESETS = {  # each one's claim: tests/app/test_preset_claims.py
    "From η = 1, TYPE climbs ahead of TOKEN": dict(
        BUILTIN, samplers=("token", "type"), passes=20, shown="type"),
    "TOKEN-anneal: far below while hot, level once cool": dict(
        BUILTIN, samplers=("token", "anneal", "type"), passes=100, shown="anneal"),
    "From η = 0, TYPE-greedy sticks far below TYPE": dict(
        BUILTIN, samplers=("token", "type", "greedy"), eta=0.0, passes=100, shown="greedy"),
}
SETTINGS = PageSettings("tf", (
    *PICKER.settings,
    *race_page.race_settings((MODEL,), MAX_PASSES),
    *(replace(setting, default=HELD_OUT) if setting.name == "held_out" else setting
      for setting in OPTIONS.settings()),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the sampler shown", choices=MODEL.samplers, words=label),
    Setting("first", 1, int, "the first tree shown", 1, 10**7),
    Setting("root", views.ALL, str, "the nonterminal of the fragment lexicon"),
    Setting("parse", 1, int, "the first held-out sentence shown", 1, 10**7),
    *playback.SETTINGS,
), PRESETS)


def sidebar(lesson):
    corpus, options = race_page.RaceSidebar(
        PICKER, OPTIONS, MAX_PASSES, "η — initial cut probability",
        "each node starts as a fragment's root with probability η: 1 = every rule its own "
        "fragment (the treebank's PCFG, the paper's start), 0 = every tree one fragment",
        model_class=MODEL, cap=False,
        length_help="TOKEN-anneal cools from 10 to 1 over the first half of the run").draw(lesson)
    return corpus, race_page.race_config(lesson.prefix, corpus, model=MODEL.name,
                                         hyperparameters=options,
                                         skip=bool(lesson.value("skip")))


def baselines(model):
    held_out = dict(LESSON.value("config")["hyperparameters"])["held_out"]
    return views.baselines(LESSON.value("corpus"), held_out, model.markov)


def shown(race):
    """The sampler the views show and its chain (fitted to the race: view_controls)."""
    return LESSON.value("shown"), race.runs[LESSON.value("shown")]


LESSON = Lesson(
    SETTINGS, "Tree fragments",
    "A probabilistic tree-substitution grammar learned from a treebank (Liang, Jordan & Klein "
    "2010, §3–5 and Fig. 5c): every sampler starts from the same cuts. A pass visits every node "
    "below a tree's root once.", sidebar,
    warm=lambda config: warm_samplers(MODEL, config["samplers"]),
    describe=lambda corpus, race: (
        f"**{corpus.name}**: {len(corpus.trees):,} trees, "
        f"{len(race_page.first_model(race).trees):,} learned from "
        f"({race_page.first_model(race).n_sites:,} sites) and "
        f"{len(race_page.first_model(race).held_out):,} held out for F1."),
    views=(live(lambda race: views.metrics_and_charts(
               race, LESSON.key, lambda: baselines(race_page.first_model(race)))),
           still(lambda race: views.view_controls(SETTINGS, race)),
           redrawn(lambda race: views.fragments_panel(
               *shown(race), LESSON.value("first"), LESSON.value("root"),
               LESSON.key(f"lexicon_{LESSON.value('shown')}"))),
           redrawn(lambda race: views.parses_panel(
               *shown(race), lambda: baselines(race_page.first_model(race)), LESSON.value("parse"),
               LESSON.key("f1_metrics"))),
           equations(HERE.with_suffix(".equations.md"),
                     lambda race: views.equation_numbers(
                         *shown(race), min(LESSON.value("first"), len(shown(race)[1].model.trees))
                         - 1), title="The model and its equations, with this run's numbers"),
           text(HERE.with_suffix(".md"), max_length=MAX_LENGTH)))
LESSON.run()
