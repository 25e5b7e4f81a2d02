"""The Tree fragments page through AppTest: the race of the PTSG's four samplers with held-out
F1 and the PCFG baselines, its controls, the trees, lexicon and parses of the sampler shown,
eq. 4 with the run's numbers, and an upload's errors. One opened page serves several checks:
each open costs seconds."""
import math
import re

import numpy as np
import pytest

from engine.models.ptsg.model import held_out_split
from engine.parsing.grammars import evaluate
from engine.samplers.token import token_conditional

PAGE = "pages/tree_fragments.py"
NAMES = ["TOKEN", "TYPE", "TOKEN-anneal", "TYPE-greedy", "SENTENCE"]
GOOD = b"".join(b"(ROOT (S (NP (DT the) (NN %s)) (VP (VBZ barks))))\n" % word
                for word in (b"dog", b"cat", b"fox", b"dog", b"cat"))
BAD = b"(ROOT (S (NP (DT the) (NN dog)) (VP (VBZ barks))))\n(ROOT (S (NP (DT a) (NN cat))\n"


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", ""))
            for m in at.metric if " · pass" in m.label]


def html(at):
    return "".join(m.value for m in at.markdown if "<svg" in m.value)


def test_the_race_steps_plays_and_shows_trees_lexicon_parses_and_f1(open_page):
    at = open_page(PAGE)
    assert [m.label.split(" ·")[0] for m in at.metric][:5] == NAMES
    assert passes(at) == [0] * 5 and not at.error
    race = at.session_state.tf_race
    model = race.runs["type"].model
    assert (len(model.trees), len(model.held_out)) == (72, 18)  # held_out 0.2 by default
    assert len(at.get("vega_lite_chart")) == 2  # log p and F1, drawn at pass 0
    # F1 of the shown sampler against both baselines, computed on the same split
    shown = {m.label: m.value for m in at.metric}
    train, test = held_out_split(at.session_state.tf_corpus.trees, 0.2)
    assert shown["PCFG"] == f"{evaluate('pcfg', train, test)[1]['f1']:.3f}"
    assert shown["TYPE's grammar"] == f"{race.runs['type'].trace[-1]['f1']:.3f}"
    at.button(key="tf_step").click().run()
    assert passes(at) == [1] * 5
    # eq. 4 written with the run's numbers is TOKEN's own conditional at the site it names
    packed, state = model.packed, race.runs["type"].state
    node = next(n for n in range(1, packed.tree_start[1]) if packed.left[n] >= 0)
    log_p, _ = token_conditional(np.random.default_rng(0), model.clone_state(state),
                                 int(packed.node_site[node]))
    worked = next(x.value for x in at.latex if r"\Rightarrow" in x.value)
    assert f"= {math.exp(log_p[1]):.4f}" in worked
    for run in race.runs.values():
        assert run.trace[-1]["loglik"] == pytest.approx(run.model.loglik_running(run.state))
    # three training trees and three held-out parses, each drawn with its fragments
    assert html(at).count("<svg") >= 6 and "Held-out sentence 1: parsed with" in html(at)
    lexicon = at.dataframe[0].value
    assert list(lexicon.columns) == ["root", "fragment", "count", "probability"]
    assert lexicon["count"].sum() == race.runs["type"].trace[-1]["fragments"]
    assert (np.diff(lexicon["count"].to_numpy()) <= 0).all()  # largest first
    assert not any(o.startswith("@") for o in at.selectbox(key="tf_root").options)
    at.selectbox(key="tf_root").set_value("NP").run()
    roots = set(at.dataframe[0].value.root)  # NP and its binarisation's parts, @NP|<…>
    assert "NP" in roots and all(r == "NP" or r.startswith("@NP|") for r in roots), roots
    at.button(key="tf_play").click().run()
    first = passes(at)
    at.run()
    assert all(b > a for a, b in zip(first, passes(at)))
    at.button(key="tf_pause").click().run()
    assert not at.session_state.tf_playing
    at.button(key="tf_reset").click().run()
    assert passes(at) == [0] * 5
    assert at.query_params["root"] == "NP"  # the view travels in the link


def test_a_preset_an_upload_with_a_bad_tree_and_a_good_one(open_page):
    at = open_page(PAGE, preset="from-0-type-greedy-sticks-far-below-type")
    assert not at.warning and [m.label.split(" ·")[0] for m in at.metric][:3] == \
        ["TOKEN", "TYPE", "TYPE-greedy"]
    assert at.session_state.tf_eta == 0.0
    at.radio(key="tf_source").set_value("upload").run()
    at.file_uploader(key="tf_upload").set_value(("mine.ptb", BAD, "text/plain")).run()
    said = " ".join(e.value for e in at.error)
    assert "mine.ptb" in said and "line 2" in said, said
    assert passes(at)[:3] == [0] * 3  # the last usable corpus's chains stay
    at.file_uploader(key="tf_upload").set_value(("mine.ptb", GOOD, "text/plain")).run()
    assert not at.error and not at.exception
    model = at.session_state.tf_race.runs["type"].model
    assert len(model.trees) + len(model.held_out) == 5 and len(model.held_out) == 1


def test_trees_say_the_treebanks_labels_and_the_binarised_ones_on_request(open_page):
    at = open_page(PAGE)
    drawn = html(at)
    assert "<svg" in drawn and "@" not in re.sub(r"<title>.*?</title>", "", drawn)
    assert "&lt;" in drawn  # the binarised labels kept in the nodes' tooltips
    at.toggle(key="trees_binarised").set_value(True).run()
    labels = re.findall(r"font-weight='400' fill='#8a8a8a'>([^<]*)</text>", html(at))
    assert labels and all(label.startswith("@") for label in labels)


def test_the_root_picker_says_the_labels_the_drawings_say(open_page):
    """With "Binarised labels" off the picker offers the treebank's nonterminals only (it
    offered @S|<NP> and the like); on, the grammar's; a link's binarised root is read as its
    treebank label, with a notice."""
    at = open_page(PAGE)
    treebank = at.selectbox(key="tf_root").options
    at.toggle(key="trees_binarised").set_value(True).run()
    grammar = at.selectbox(key="tf_root").options
    assert {o for o in grammar if not o.startswith("@")} <= set(treebank)
    assert any(o.startswith("@") for o in grammar)
    part = next(o for o in grammar if o.startswith("@NP|"))
    at.selectbox(key="tf_root").set_value(part).run()
    assert set(at.dataframe[0].value.root) == {part}
    at.toggle(key="trees_binarised").set_value(False).run()
    assert at.selectbox(key="tf_root").value == "NP" and not at.exception
    linked = open_page(PAGE, root=part)
    assert linked.selectbox(key="tf_root").value == "NP"
    assert "Ignored in the address" in linked.warning[0].value
