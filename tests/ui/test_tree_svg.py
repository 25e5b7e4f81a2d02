"""The drawing of a binarised tree (ui.tree_svg): a tidy layout, fragments found from the cuts
and coloured apart, marks and labels drawn as the Type blocks page needs them."""
import re
import xml.etree.ElementTree as ElementTree

import pytest

from datasets.trees import binarise, builtin
from ui.theme import SITE_MARK
from ui.tree_svg import (CUT_EDGE, FRAGMENT_COLOURS, fragment_colours, fragment_roots,
                         layout, node_width, tree_svg)

# preorder: 0 ROOT+S, 1 NP, 2 DT the, 3 @NP|<DT>, 4 JJ big, 5 NN dog, 6 VP+VBZ barks
TREE = binarise(("ROOT", ("S", ("NP", ("DT", "the"), ("JJ", "big"), ("NN", "dog")),
                          ("VP", ("VBZ", "barks")))))
SVG = "{http://www.w3.org/2000/svg}"


def test_the_example_tree_is_binarised_as_the_comments_say():
    shape = layout(TREE)
    assert shape.labels == ("ROOT+S", "NP", "DT", "@NP|<DT>", "JJ", "NN", "VP+VBZ")
    assert shape.parent == (-1, 0, 1, 1, 3, 3, 0)
    assert shape.words == (None, None, "the", None, "big", "dog", "barks")


def test_leaves_run_left_to_right_and_parents_are_centred_over_their_children():
    shape = layout(TREE)
    leaves = [i for i, word in enumerate(shape.words) if word is not None]
    xs = [shape.x[i] for i in leaves]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    for i in range(len(shape.labels)):
        children = [c for c, up in enumerate(shape.parent) if up == i]
        if children:
            assert shape.x[i] == pytest.approx((shape.x[children[0]] + shape.x[children[-1]]) / 2)
            assert all(shape.y[c] > shape.y[i] for c in children)
    assert 0 < min(shape.x) and max(shape.x) < shape.width


def test_no_two_labels_of_a_row_overlap_in_a_long_tree():
    tree = max(builtin().trees, key=lambda t: len(str(t)))
    shape = layout(binarise(tree))
    rows = {}
    for i, y in enumerate(shape.y):
        rows.setdefault(y, []).append(i)
    for row in rows.values():
        for a, b in zip(row, row[1:]):
            gap = shape.x[b] - shape.x[a]
            assert gap >= (node_width(shape.labels, shape.shown, a)
                           + node_width(shape.labels, shape.shown, b)) / 2


def test_each_node_belongs_to_the_fragment_of_its_nearest_cut_ancestor():
    parent = layout(TREE).parent
    cut = [1, 0, 1, 1, 0, 0, 1]
    assert fragment_roots(parent, cut) == [0, 0, 2, 3, 3, 3, 6]
    assert fragment_roots(parent, [0] * 7) == [0] * 7  # the root starts a fragment whatever


def test_a_fragment_differs_in_colour_from_the_one_above_and_its_siblings_past_the_palette():
    n = len(FRAGMENT_COLOURS) + 3  # a root with more fragments below it than colours
    parent = [-1] + [0] * n
    roots = fragment_roots(parent, [1] * (n + 1))
    colours = fragment_colours(parent, roots)
    assert len(colours) == n + 1
    below = [colours[i] for i in range(1, n + 1)]
    assert colours[0] not in below
    assert len(set(below[:len(FRAGMENT_COLOURS) - 1])) == len(FRAGMENT_COLOURS) - 1


def drawing(cut, marks=None):
    return ElementTree.fromstring(tree_svg(TREE, cut, marks, caption="the big dog"))


def test_the_svg_draws_every_label_word_and_fragment_root():
    svg = drawing([1, 0, 1, 0, 0, 0, 1])
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert texts == ["ROOT+S", "NP", "DT", "the", "NP", "JJ", "big", "NN", "dog",
                     "VP+VBZ", "barks"]  # @NP|<DT> drawn as the NP it is part of
    assert len(list(svg.iter(f"{SVG}circle"))) == 3  # roots: ROOT+S, DT, VP+VBZ
    assert svg.get("aria-label") == "the big dog"
    major, minor = [t for t in svg.iter(f"{SVG}text") if t.text == "NP"]  # NP, @NP|<DT>
    assert float(minor.get("font-size")) < float(major.get("font-size"))


def edge_strokes(svg):
    return [(p.get("stroke"), float(p.get("stroke-width")))
            for p in svg.iter(f"{SVG}path") if p.get("stroke-width") in ("1.2", "3")]


def test_edges_inside_a_fragment_are_thick_and_coloured_those_across_a_cut_thin_and_grey():
    # 6 tree edges; cuts at DT and VP+VBZ: 2 cross a cut, 4 are inside fragments
    strokes = edge_strokes(drawing([1, 0, 1, 0, 0, 0, 1]))
    assert sorted(strokes).count((CUT_EDGE, 1.2)) == 2
    inside = [s for s in strokes if s[1] == 3]
    assert len(inside) == 4 and all(colour in FRAGMENT_COLOURS for colour, _ in inside)
    every_cut = edge_strokes(drawing([1] * 7))
    assert every_cut == [(CUT_EDGE, 1.2)] * 6


def test_each_fragment_has_one_shading_group_in_its_colour():
    svg = drawing([1, 1, 0, 1, 0, 0, 0])  # fragments: ROOT+S with VP+VBZ, NP with DT, @NP…
    groups = [g for g in svg.iter(f"{SVG}g") if g.get("opacity")]
    assert len(groups) == 3
    assert len({g.get("fill") for g in groups}) == 3


def test_marks_use_the_pages_colours_a_dashed_conflict_and_a_thick_changed_border():
    svg = drawing([1, 0, 1, 0, 0, 0, 1], {1: ("pivot", "changed"), 4: ("block",),
                                          6: ("conflict",)})
    boxes = {r.get("fill"): r for r in svg.iter(f"{SVG}rect") if r.get("stroke")}
    pivot, block, conflict = (boxes[SITE_MARK[k][0]] for k in ("pivot", "block", "conflict"))
    assert pivot.get("stroke-width") == "3" and block.get("stroke-width") == "1.2"
    assert conflict.get("stroke-dasharray") and not pivot.get("stroke-dasharray")
    fills = [t.get("fill") for t in svg.iter(f"{SVG}text")]
    assert fills[1] == "#ffffff" and fills[-2] == "#8a8a8a"  # NP (the pivot), VP+VBZ


def test_labels_and_words_are_escaped():
    tree = ("ROOT", ("S", ("NP", ("NN", "<b>&")), ("VP", ("VBZ", "'runs'"))))
    svg = tree_svg(binarise(tree), [1, 1, 1])  # ROOT+S, NP+NN, VP+VBZ
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
    assert ElementTree.fromstring(svg) is not None


def test_a_cut_of_the_wrong_length_is_refused_in_words():
    with pytest.raises(ValueError, match="the tree has 7 nodes but 3 cut values"):
        tree_svg(TREE, [1, 0, 1])


def test_the_svg_is_one_line_so_markdown_keeps_it_one_html_block():
    svg = tree_svg(TREE, [1] * 7)
    assert "\n" not in svg and re.match(r"<svg [^>]*width='\d+' height='\d+'", svg)


def test_a_fragment_is_drawn_with_its_frontier_nodes_as_leaves_without_words():
    """The Type blocks page draws a site's type: fragments whose frontier nodes are (label,)."""
    fragment = ("ROOT+S", ("NP", ("DT", "the"), ("@NP|<DT>",)), ("VP+VBZ",))
    svg = ElementTree.fromstring(tree_svg(fragment, [1, 0, 0, 1, 1], {3: ("pivot",)},
                                          caption="upper U", root_text="the fragment's root"))
    assert [t.text for t in svg.iter(f"{SVG}text")] == ["ROOT+S", "NP", "DT", "the", "NP",
                                                       "VP+VBZ"]
    titles = [t.text for t in svg.iter(f"{SVG}title")]
    assert titles[0] == "ROOT+S: the fragment's root"
    assert titles[3] == "NP, a node binarisation added (@NP|<DT>): roots a fragment (b = 1); pivot"
    shape = layout(fragment)
    assert shape.words == (None, None, "the", "", "")  # frontier nodes: leaves, no word


def drawn_labels(svg):
    """The text of every node's label box (bold or light), in preorder."""
    root = ElementTree.fromstring(svg)
    return [t.text for t in root.iter(f"{SVG}text") if t.get("font-style") != "italic"]


def test_the_boxes_say_the_treebanks_labels_and_the_binarised_ones_on_request():
    cut = [1, 0, 0, 1, 0, 0, 1]
    assert drawn_labels(tree_svg(TREE, cut)) == ["ROOT+S", "NP", "DT", "NP", "JJ", "NN",
                                                 "VP+VBZ"]
    assert drawn_labels(tree_svg(TREE, cut, binarised=True)) == list(layout(TREE).labels)
    tooltips = [t.text for t in ElementTree.fromstring(tree_svg(TREE, cut)).iter(f"{SVG}title")]
    assert tooltips[3].startswith("NP, a node binarisation added (@NP|<DT>): ")  # a pointer away
