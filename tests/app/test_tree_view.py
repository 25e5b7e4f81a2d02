"""The trees view on the pages (AppTest): the Type blocks page offers the PTSG by itself, makes
its moves and draws its trees with the pivot and block marked; the Sampler race races it."""
import re

import pytest

from ui.kinds.registry import views
from ui.kinds.trees import SMALL_CORPORA, small_corpus

TYPE_BLOCKS = "pages/type_blocks.py"


def svgs(at):
    """The drawn trees: one SVG per row of the corpus view."""
    rows = next(md.value for md in at.markdown
                if md.value.count("<svg") > 1 and "<figure" not in md.value)
    return re.findall(r"<svg .*?</svg>", rows)


def type_drawing(at):
    """The pivot's type drawn: (the figures' captions, their SVGs)."""
    drawn = next(md.value for md in at.markdown if "<figure" in md.value)
    return (re.findall(r"<figcaption[^>]*>(.*?)</figcaption>", drawn),
            re.findall(r"<svg .*?</svg>", drawn))


def test_type_blocks_offers_the_ptsg_and_draws_its_move(open_page):
    at = open_page(TYPE_BLOCKS, model="ptsg")
    assert at.radio(key="tb_model").value == "ptsg"
    assert "Tree fragments (PTSG)" in at.radio(key="tb_model").options
    lab = at.session_state.tb_race
    assert lab["model"].name == "ptsg"
    assert at.radio(key="tb_source").value == SMALL_CORPORA[0]
    assert len(lab["model"].trees) == at.slider(key="tb_size").value
    at.button(key="tb_step").click().run()
    assert not at.exception
    lab = at.session_state.tb_race
    info = lab["move"]["info"]
    shown = {m.label: m.value for m in at.metric}
    # a fragment's brackets are longer than a metric shows: the type is written out whole
    assert f"**The pivot's type**  \n`{lab['move']['type']}`" in [md.value for md in at.markdown]
    assert " · " in lab["move"]["type"] and " + " in lab["move"]["type"]  # M · U + L
    # and drawn: M, then U + L, the pivot marked once in each, a dot at each fragment's root
    # and frontier node (where the next fragment is substituted)
    captions, fragments = type_drawing(at)
    assert captions == ["merged M (b = 0)", "upper U", "+ lower L (b = 1)"]
    shapes = lab["model"].site_type(lab["state"], int(info.pivot))
    for svg, (shape, _) in zip(fragments, shapes, strict=True):
        assert svg.count("; pivot") == 1
        assert svg.count("<circle") == 1 + str(shape).count(",)")  # frontier nodes: (label,)
    assert shown["In the block |S|"] == f"{len(info.block):,}"
    drawn = svgs(at)
    pivot_tree, _ = lab["model"].site_place(int(info.block[0]))
    # the trees with a marked site come first: the pivot's among them, drawn with its mark
    marked_trees = {lab["model"].site_place(int(s))[0]
                    for s in [*info.block.tolist(), *info.conflicted.tolist()]}
    assert pivot_tree in sorted(marked_trees)[:len(drawn)]
    joined = "".join(drawn)
    assert joined.count("; pivot") == 1
    assert joined.count("; block") == len(info.block) - 1 or len(drawn) < len(marked_trees)
    status = next(md.value for md in at.markdown if "fragments in use" in md.value)
    scalars = lab["model"].scalars(lab["state"])
    assert f"{scalars['fragments']:,} fragments in use, mean size" in status

    at.button(key="tb_ten").click().run()
    assert not at.exception and at.session_state.tb_race["moves"] == 11
    lab = at.session_state.tb_race
    assert lab["model"].loglik_running(lab["state"]) == pytest.approx(
        lab["model"].loglik(lab["state"]), abs=1e-8)
    # every drawn tree has one fragment-root dot per cut node, as the state stands
    model, state = lab["model"], lab["state"]
    first = svgs(at)[0]
    u = int(re.search(r"aria-label='Tree (\d+):", first).group(1)) - 1
    start, end = model.packed.tree_start[u], model.packed.tree_start[u + 1]
    assert first.count("<circle") == int(state.cut[start:end].sum())


def test_the_seeded_small_treebank_differs_by_seed_and_keeps_its_order():
    one, two = (small_corpus(SMALL_CORPORA[1], 20, seed) for seed in (1, 2))
    assert len(one.trees) == 20 and one.trees != two.trees
    assert list(one.lines) == sorted(one.lines)
    assert small_corpus(SMALL_CORPORA[0], 7, 0).trees == views()["trees"].picker.data \
        .builtin().trees[:7]


def test_the_sampler_race_races_token_and_type_on_the_ptsg(open_page):
    at = open_page("pages/sampler_race.py", model="ptsg", samplers="token,type", passes=6,
                   chains=2)
    race = at.session_state.race_race
    assert race.ready and not race.error
    assert {task.sampler for task in race.tasks} == {"token", "type"}
    for _ in range(3):
        at.button(key="race_step").click().run()
    assert not at.exception and not at.error
    assert set(race.sweeps()) == {3}


def test_type_blocks_takes_scfg_moves_and_marks_their_rules(open_page):
    at = open_page(TYPE_BLOCKS, model="scfg")
    assert at.radio(key="tb_model").value == "scfg"
    for _ in range(3):
        at.button(key="tb_step").click().run()
        assert not at.exception, [e.value for e in at.exception]
    lab = at.session_state.tb_race
    info, model = lab["move"]["info"], lab["model"]
    assert " · " in lab["move"]["type"] and " ||| " in lab["move"]["type"]  # r₁ · r₂ + r₃
    rows = next(md.value for md in at.markdown if "[X,1]" in md.value and "‖" in md.value)
    # every pair shown lists its rules; the pivot's rule is marked
    assert rows.count("‖") >= 1 and "background:" in rows
    pivot_pair, _ = model.site_place(int(info.pivot))
    assert f">{pivot_pair + 1}</span>" in rows
