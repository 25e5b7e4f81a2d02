"""Penn trees on the pages: sentences with their constituency trees, whose sites are the nodes
of the binarised trees (b = 1: the node roots a fragment). Its corpus picker (the built-in
treebank or an upload of Penn brackets), each tree drawn with its fragments shaded
(ui.tree_svg), and the Type blocks view."""
import html

import numpy as np
import streamlit as st

from datasets.text import decode
from datasets.trees import AUTO, TREES, TreeCorpus, detect_format, leaves
from ui.corpus_choice import builtin, upload
from ui.corpus_picker import CorpusPicker
from ui.kinds.registry import View, register
from ui.settings import Setting
from ui.theme import ROW_FONT, row_number
from ui.tree_svg import CUT_EDGE, FRAGMENT_COLOURS, MINOR_FONT, tree_svg

# --- the corpus picker ------------------------------------------------------------------------
SOURCES = {"builtin": "Built-in: small treebank", "upload": "Upload a file"}
SETTINGS = (
    Setting("source", "builtin", str, "the corpus", choices=tuple(SOURCES)),
    Setting("format", AUTO, str, "the file format", choices=tuple(TREES.formats)),
)


def choose(key):
    """Sidebar widgets for a treebank; the TreeCorpus, or None after showing why not."""
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key=f"{key}_source")
    if source == "builtin":
        return builtin(TREES.name)
    file_format = st.selectbox("Format", list(TREES.formats), format_func=TREES.formats.get,
                               key=f"{key}_format")
    corpus = upload(TREES, key, "Trees in Penn brackets, e.g. (ROOT (S (NP (DT the) (NN dog)) "
                                "(VP (VBZ barks))))", format=file_format)
    if corpus is not None and file_format == AUTO:  # say what was told, so it can be overridden
        told = detect_format(decode(st.session_state[f"{key}_upload"].getvalue()))
        st.caption(f"Read as {TREES.formats[told]} (told from the text; choose another format "
                   "above if that is wrong).")
    return corpus


# --- the drawings' labels ---------------------------------------------------------------------
BINARISED = "trees_binarised"  # st.session_state: the drawings say the binarisation's labels


def labels_toggle(where=st):
    """The switch between the treebank's labels in every tree drawing (by default: NP) and
    the labels the binarised grammar uses (@NP|<DT>, which students need only when they
    read the grammar's rules)."""
    where.toggle("Binarised labels", key=BINARISED,
                 help="show the labels of the binarised grammar (@NP|<DT>: the part of an NP "
                      "after its DT) instead of the treebank's")


def binarised():
    """Whether the drawings say the binarisation's labels (``labels_toggle``)."""
    return bool(st.session_state.get(BINARISED, False))


# --- the Type blocks view ---------------------------------------------------------------------
SMALL_CORPORA = ("Small treebank (first sentences)", "Small treebank (sentences drawn by seed)")


def small_corpus(source, size, seed):
    """The first ``size`` trees of the built-in treebank, or ``size`` of them drawn without
    replacement by ``seed`` (kept in the treebank's order)."""
    full = builtin(TREES.name)
    if source == SMALL_CORPORA[0]:
        return full.head(size)
    size = min(size, len(full.trees))
    chosen = np.sort(np.random.default_rng(seed).choice(len(full.trees), size, replace=False))
    return TreeCorpus(tuple(full.trees[i] for i in chosen),
                      f"small treebank, {size} sentences drawn by seed {seed}",
                      tuple(full.lines[i] for i in chosen))


def tree_row(model, state, u, marks):
    """Tree u of the model (binarised, rare words as their classes) as the current cuts split
    it: its number and words, then its drawing, scrolled sideways when wider than the page."""
    start, end = model.packed.tree_start[u], model.packed.tree_start[u + 1]
    cut = state.cut[start:end]
    words = " ".join(leaves(model.trees[u]))
    drawing = tree_svg(model.trees[u], cut, marks,
                       caption=f"Tree {u + 1}: {int(cut.sum())} fragments",
                       binarised=binarised())
    return (f"<div style='margin:2px 0 10px'><div style='{ROW_FONT} font-size:0.9rem'>"
            f"{row_number(u + 1)}{html.escape(words)}</div>"
            f"<div style='overflow-x:auto;padding-bottom:2px'>{drawing}</div></div>")


def _swatch(svg_body, width=34):
    return (f"<svg width='{width}' height='16' style='vertical-align:middle'>{svg_body}</svg>")


def legend():
    """What the drawing's shading, edges, dots and labels mean."""
    colour = FRAGMENT_COLOURS[3]
    items = (
        (_swatch(f"<rect x='1' y='2' width='32' height='12' rx='6' fill='{colour}' "
                 f"opacity='0.2'/><path d='M6 8H28' stroke='{colour}' stroke-width='3'/>"),
         "one fragment: its shading and its edges in one colour"),
        (_swatch(f"<circle cx='8' cy='8' r='4.5' fill='{colour}'/>", 16),
         "a fragment's root (b = 1)"),
        (_swatch(f"<path d='M2 8H32' stroke='{CUT_EDGE}' stroke-width='1.2'/>"),
         "a cut: the edge between two fragments"),
        (f"<span style='font-family:monospace;font-size:{MINOR_FONT}px;color:#8a8a8a'>"
         + ("@NP|&lt;DT&gt;" if binarised() else "NP") + "</span>",
         "a node binarisation added (the part of an NP after its DT)"),
        ("<span style='font-family:monospace;font-weight:600'>NP+NNP</span>",
         "a collapsed unary chain"),
    )
    return ("<div style='font-size:0.9rem;color:#555;line-height:1.9'>"
            + " &nbsp;·&nbsp; ".join(f"{mark} {text}" for mark, text in items) + "</div>")


def frontier_cuts(fragment):
    """A ``fragment_tree`` shape's cut per node in preorder: its root and frontier nodes."""
    cuts, stack = [], [(fragment, True)]
    while stack:
        node, top = stack.pop()
        cuts.append(1 if top or len(node) == 1 else 0)
        if len(node) == 3:
            stack.extend(((node[2], False), (node[1], False)))
    return cuts


TYPE_TITLES = ("merged M (b = 0)", "upper U", "+ lower L (b = 1)")


def type_trees(model, state, s):
    """Site s's type drawn: the merged fragment M (b = 0), and the upper U and lower L it
    splits into (b = 1), the site marked in each; a frontier node is a fragment's root (the
    next fragment is substituted there)."""
    node = int(model.packed.site_node[s])
    parts = []
    for (shape, nodes), title in zip(model.site_type(state, s), TYPE_TITLES):
        drawing = tree_svg(shape, frontier_cuts(shape), {nodes.index(node): ("pivot",)},
                           caption=f"{title}: the fragment", root_text="the fragment's root",
                           binarised=binarised())
        parts.append(f"<figure style='margin:0 18px 0 0;display:inline-block;vertical-align:top'>"
                     f"<figcaption style='{ROW_FONT} font-size:0.85rem;color:#555'>"
                     f"{html.escape(title)}</figcaption>{drawing}</figure>")
    return ("<div style='overflow-x:auto;white-space:nowrap;padding-bottom:4px'>"
            + "".join(parts) + "</div>")


def status(model, state):
    scalars = model.scalars(state)
    return (f"{scalars['fragments']:,} fragments in use, mean size "
            f"{scalars['mean_size']:.2f} rules")


VIEW = register(View(
    name=TREES.name, picker=CorpusPicker("tree", TREES, SETTINGS, choose),
    unit="Sentences", corpora=SMALL_CORPORA, small_corpus=small_corpus,
    analysis="fragmentation",
    edge_help=("the fragment the pivot node would join (b = 0: merged) against the two it "
               "would split into (b = 1: upper + lower), in brackets; a bare label is a "
               "frontier node where another fragment is substituted"),
    conflict_text="same type, left out (it touches a fragment an earlier block site changes)",
    caption=("Trees with a node of this type come first ({n:,}); each is cut into fragments "
             "as the move left it, one colour per fragment."),
    n_units=lambda model: len(model.trees),
    row=tree_row,
    legend=legend,
    status=status,
    lessons=("Tree fragments", "Type blocks (with the PTSG)", "Sampler race (with the PTSG)"),
    type_drawing=type_trees, drawing_controls=labels_toggle))
