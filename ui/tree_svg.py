"""A binarised tree drawn as an inline SVG, cut into its fragments (the PTSG's view).

Pure functions, no Streamlit: ``tree_svg(tree, cut, marks)`` is the drawing of one tree of
``datasets.trees`` (nested tuples, a preterminal ``(tag, word)``) whose nodes, in preorder, are
cut where ``cut`` says (1: the node roots a fragment, as ``PtsgState.cut``).

The layout is tidy and layered: a node's row is its depth; the preterminals are spread left to
right, each as wide as its tag or word; every parent is centred over its children; where two
labels of one row would overlap, the leaves between them are moved apart. Each fragment gets a
colour of Paul Tol's colour-blind-safe qualitative palette (plotly's ``qualitative.Safe``): a
soft fill behind its nodes and words, its internal edges drawn thick in that colour; an edge
that crosses a cut is thin and grey, and each fragment's root carries a dot of its colour.
"""
import html
from dataclasses import dataclass

from plotly.colors import qualitative

from ui.theme import SITE_MARK

# Paul Tol's "muted" scheme as plotly names it, without its grey (the colour of a cut edge)
FRAGMENT_COLOURS = tuple(
    "#{:02x}{:02x}{:02x}".format(*map(int, c[4:-1].split(",")))
    for c in qualitative.Safe if c != "rgb(136, 136, 136)")
CUT_EDGE = "#a0a0a0"
LABEL_FONT, MINOR_FONT, WORD_FONT = 12.5, 10.5, 13.0  # px
CHAR_WIDTH = 0.61  # of a monospace font's size: Menlo, Consolas, DejaVu Sans Mono are 0.55–0.61
FONT = "ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
ROW_HEIGHT = 42  # px from one depth to the next
WORD_DROP = 24  # px from a preterminal's centre down to its word's centre
LEAF_GAP = 10  # px between neighbouring leaves' text
LABEL_GAP = 6  # px at least between two labels of one row
BOX_HEIGHT = 18
PAD = 8
HALO = 5  # px the fragment's soft fill reaches around its text
MARK_TEXT = {"pivot": "#ffffff", "block": "#1f1f1f", "conflict": "#8a8a8a"}


@dataclass(frozen=True)
class Layout:
    """Where every node of a tree goes.

    labels : tuple of str, the nodes' labels in preorder
    shown : tuple of str, what each node's box says (``shown_label``)
    words : tuple of (str or None), each preterminal's word (None for other nodes)
    parent : tuple of int, each node's parent (-1 for the root)
    x, y : tuple of float, each node's centre in px
    width, height : float, the drawing's size in px
    """

    labels: tuple
    shown: tuple
    words: tuple
    parent: tuple
    x: tuple
    y: tuple
    width: float
    height: float


def text_width(text, size):
    """The width in px of ``text`` in the monospace font at ``size`` px."""
    return len(text) * size * CHAR_WIDTH


def is_minor(label):
    """Whether a label is an intermediate node of the binarisation (``@NP|<DT>``)."""
    return label.startswith("@")


def shown_label(label, binarised=False):
    """What a node's box says: the treebank's own label, an intermediate node of the
    binarisation that of the node it is part of (``@NP|<DT>`` → NP, drawn lighter); with
    ``binarised``, the label the grammar uses."""
    if binarised or not is_minor(label):
        return label
    return label[1:].split("|", 1)[0]


def label_width(text, minor=False):
    """The width in px of a node's label box saying ``text``; ``minor``: an intermediate
    node's (a smaller font)."""
    return text_width(text, MINOR_FONT if minor else LABEL_FONT) + 8


def node_width(labels, shown, i):
    """The width in px of node i's label box (labels: the nodes' labels, shown: what their
    boxes say)."""
    return label_width(shown[i], is_minor(labels[i]))


def _preorder(tree):
    """(labels, words, parent, children, depth) of a tree's nodes in preorder, without
    recursion (a binarised tree is as deep as its words are many)."""
    labels, words, parent, children, depth = [], [], [], [], []
    stack = [(tree, -1, 0)]
    while stack:
        node, up, d = stack.pop()
        me = len(labels)
        labels.append(node[0])
        parent.append(up)
        children.append([])
        depth.append(d)
        if up >= 0:
            children[up].append(me)
        leaf = len(node) == 1 or isinstance(node[1], str)  # a fragment's frontier, a preterminal
        words.append((node[1] if len(node) == 2 else "") if leaf else None)
        if not leaf:
            stack.extend((child, me, d + 1) for child in reversed(node[1:]))
    return labels, words, parent, children, depth


def _last_leaves(children, leaf_number):
    """Each node's last leaf (leaves numbered left to right)."""
    last = list(leaf_number)
    for i in range(len(children) - 1, -1, -1):  # children come after their parent in preorder
        if children[i]:
            last[i] = last[children[i][-1]]
    return last


def _centres(children, leaves, leaf_x):
    """Every node's x: a leaf's own, a parent's the middle of its first and last child's."""
    x = [0.0] * len(children)
    for node, at in zip(leaves, leaf_x):
        x[node] = at
    for i in range(len(children) - 1, -1, -1):
        if children[i]:
            x[i] = (x[children[i][0]] + x[children[i][-1]]) / 2
    return x


def layout(tree, binarised=False):
    """The tidy layered layout of a binarised tree (see the module's docstring).

    Parameters
    ----------
    tree : tuple
        ``(label, child, …)``, a preterminal ``(tag, word)``.
    binarised : bool
        Whether the boxes say the binarisation's labels (else the treebank's, ``shown_label``).

    Returns
    -------
    Layout
    """
    labels, words, parent, children, depth = _preorder(tree)
    shown = [shown_label(label, binarised) for label in labels]
    leaves = [i for i, word in enumerate(words) if word is not None]
    number = {node: k for k, node in enumerate(leaves)}
    last = _last_leaves(children, [number.get(i, -1) for i in range(len(labels))])
    half = [max(node_width(labels, shown, i), text_width(words[i], WORD_FONT)) / 2
            for i in leaves]
    extra = [0.0] * len(leaves)  # room added before each leaf to keep a row's labels apart

    def leaf_positions():
        xs, at = [], PAD
        for k, h in enumerate(half):
            at += extra[k] + h
            xs.append(at)
            at += h + LEAF_GAP
        return xs

    x = _centres(children, leaves, leaf_positions())
    rows = {}
    for i, d in enumerate(depth):  # preorder meets a row's nodes left to right
        rows.setdefault(d, []).append(i)
    for row in rows.values():
        for a, b in zip(row, row[1:]):
            need = (node_width(labels, shown, a) + node_width(labels, shown, b)) / 2 + LABEL_GAP
            if x[b] - x[a] < need:  # moving every leaf right of a's moves b, never a
                extra[last[a] + 1] += need - (x[b] - x[a])
                x = _centres(children, leaves, leaf_positions())
    y = [PAD + BOX_HEIGHT / 2 + 4 + d * ROW_HEIGHT for d in depth]
    width = max(x[i] + h for i, h in zip(leaves, half)) + PAD
    height = max(y) + WORD_DROP + WORD_FONT / 2 + PAD
    return Layout(tuple(labels), tuple(shown), tuple(words), tuple(parent), tuple(x), tuple(y),
                  width, height)


def fragment_roots(parent, cut):
    """The root of each node's fragment: itself when cut, else its parent's fragment's root.

    Parameters
    ----------
    parent : sequence of int
        Each node's parent in preorder (-1 for the root).
    cut : sequence of int
        1 where a node roots a fragment; the root's value is taken as 1.
    """
    roots = []
    for i, up in enumerate(parent):
        roots.append(i if up < 0 or cut[i] else roots[up])
    return roots


def fragment_colours(parent, roots):
    """{fragment root: colour}, fragments in preorder taking the palette in turn, skipping the
    colour of the fragment above and of the fragments already hanging from it (so that
    neighbours differ even past the palette's length)."""
    colours, below = {}, {}
    turn = 0
    for i, up in enumerate(parent):
        if roots[i] != i:
            continue
        above = roots[up] if up >= 0 else None
        taken = {colours[above], *below.get(above, ())} if above is not None else set()
        for step in range(len(FRAGMENT_COLOURS)):
            colour = FRAGMENT_COLOURS[(turn + step) % len(FRAGMENT_COLOURS)]
            if colour not in taken:
                break
        turn = FRAGMENT_COLOURS.index(colour) + 1
        colours[i] = colour
        below.setdefault(above, set()).add(colour)
    return colours


def _box(x, y, width, height, **style):
    """A rounded rectangle centred on (x, y); ``style``'s names with - for _."""
    attrs = "".join(f" {k.replace('_', '-')}='{v}'" for k, v in style.items())
    return (f"<rect x='{x - width / 2:.1f}' y='{y - height / 2:.1f}' width='{width:.1f}' "
            f"height='{height:.1f}' rx='{min(height / 2, 6):.1f}'{attrs}/>")


def _line(x1, y1, x2, y2):
    return f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}"


def _stroke(path, colour, width):
    return f"<path d='{path}' stroke='{colour}' stroke-width='{width}'/>"


def _shading(shape, roots, colours):
    """Each fragment's soft fill: its edges as wide round strokes and a rounded box around
    every label and word, in one group per fragment whose opacity applies once (overlaps do
    not darken)."""
    paths, boxes = {}, {}
    for i, up in enumerate(shape.parent):
        root, x, y = roots[i], shape.x[i], shape.y[i]
        boxes.setdefault(root, []).append(
            _box(x, y, node_width(shape.labels, shape.shown, i) + 2 * HALO,
                 BOX_HEIGHT + 2 * HALO))
        if up >= 0 and root == roots[up]:
            paths.setdefault(root, []).append(_line(shape.x[up], shape.y[up], x, y))
        if shape.words[i]:
            paths.setdefault(root, []).append(_line(x, y, x, y + WORD_DROP))
            boxes[root].append(_box(x, y + WORD_DROP,
                                    text_width(shape.words[i], WORD_FONT) + 2 * HALO,
                                    WORD_FONT + 2 * HALO))
    out = []
    for root, colour in colours.items():
        path = "".join(paths.get(root, ()))
        stroke = (f"<path d='{path}' fill='none' stroke='{colour}' stroke-width='22' "
                  "stroke-linecap='round' stroke-linejoin='round'/>") if path else ""
        out.append(f"<g opacity='0.2' fill='{colour}'>{stroke}{''.join(boxes[root])}</g>")
    return "".join(out)


def _edges(shape, roots, colours):
    """Edges inside a fragment thick in its colour (a preterminal's to its word too); an edge
    across a cut thin and grey, ending at the lower fragment's root dot."""
    out = []
    half = BOX_HEIGHT / 2
    for i, up in enumerate(shape.parent):
        x, y = shape.x[i], shape.y[i]
        if up >= 0:
            inside = roots[i] == roots[up]
            path = _line(shape.x[up], shape.y[up] + half, x, y - half - (0 if inside else 6))
            out.append(_stroke(path, colours[roots[i]], 3) if inside
                       else _stroke(path, CUT_EDGE, 1.2))
        if shape.words[i]:
            path = _line(x, y + half, x, y + WORD_DROP - WORD_FONT / 2)
            out.append(_stroke(path, colours[roots[i]], 2))
    return f"<g stroke-linecap='round'>{''.join(out)}</g>"


def _mark_box(x, y, width, mark):
    """The highlight of a marked site in ui.theme.SITE_MARK's colours: the pivot dark, a block
    site light, a conflicted one greyed inside a dashed outline; a site the move changed has a
    thick border."""
    background, border = SITE_MARK[mark[0]]
    dashes = {"stroke_dasharray": "4 3"} if mark[0] == "conflict" else {}
    return _box(x, y, width + 4, BOX_HEIGHT + 2, fill=background, stroke=border,
                stroke_width=3 if "changed" in mark else 1.2, **dashes)


def _label(x, y, label, text, mark):
    """A node's label saying ``text``: an intermediate node's smaller and lighter; a marked
    one in its mark's text colour."""
    minor = is_minor(label)
    fill = MARK_TEXT[mark[0]] if mark else "#8a8a8a" if minor else "#1f1f1f"
    return (f"<text x='{x:.1f}' y='{y + 4.5:.1f}' font-size='{MINOR_FONT if minor else LABEL_FONT}'"
            f" font-weight='{400 if minor else 600}' fill='{fill}'>{html.escape(text)}</text>")


def _title(label, i, cut, mark, root_text):
    """A node's tooltip: its label (a binarisation's node: the treebank's, then the
    grammar's), whether it roots a fragment, its mark."""
    if i == 0:
        what = root_text
    else:
        what = "roots a fragment (b = 1)" if cut else "inside the fragment above (b = 0)"
    if mark:
        what += f"; {mark[0]}" + (", changed by the move" if "changed" in mark else "")
    if is_minor(label):
        label = f"{shown_label(label)}, a node binarisation added ({label})"
    return f"<title>{html.escape(label)}: {what}</title>"


def _node(shape, i, cut, mark, colour, root_text):
    """A node's group: its tooltip, its mark, its fragment-root dot (``colour``; None for a
    node inside a fragment), its label and its word."""
    x, y = shape.x[i], shape.y[i]
    parts = ["<g>", _title(shape.labels[i], i, cut, mark, root_text)]
    if mark:
        parts.append(_mark_box(x, y, node_width(shape.labels, shape.shown, i), mark))
    if colour:
        parts.append(f"<circle cx='{x:.1f}' cy='{y - BOX_HEIGHT / 2 - 3:.1f}' r='4.5' "
                     f"fill='{colour}' stroke='#fff' stroke-width='1.5'/>")
    parts.append(_label(x, y, shape.labels[i], shape.shown[i], mark))
    if shape.words[i]:  # a frontier node has none
        parts.append(f"<text x='{x:.1f}' y='{y + WORD_DROP + 4.5:.1f}' font-size='{WORD_FONT}' "
                     f"font-style='italic' fill='#1f1f1f'>{html.escape(shape.words[i])}</text>")
    return "".join(parts) + "</g>"


TREE_ROOT = "the tree's root, always a fragment's root (no site)"


def tree_svg(tree, cut, marks=None, caption="", root_text=TREE_ROOT, binarised=False):
    """A binarised tree as an inline SVG, every fragment shaded in its own colour.

    Parameters
    ----------
    tree : tuple
        A binarised tree (``datasets.trees.binarise``): ``(label, left, right)`` or a
        preterminal ``(tag, word)``; or a fragment of one, whose frontier nodes are
        ``(label,)``, drawn as leaves without a word.
    cut : sequence of int, one per node in preorder
        1 where the node roots a fragment (``PtsgState.cut`` of the tree's nodes); the root
        is drawn as a fragment's root whatever its value.
    marks : dict, optional
        {node's preorder index: (kind, "changed"?)} with kind "pivot", "block" or "conflict"
        (the Type blocks page's highlighted sites).
    caption : str
        The drawing's accessible name (its ``aria-label``).
    root_text : str
        What the root's tooltip says it is (a fragment drawn alone: "the fragment's root").
    binarised : bool
        Whether the boxes say the binarisation's labels (``@NP|<DT>``); by default the
        treebank's (NP). A node's tooltip always gives the label the grammar uses.

    Returns
    -------
    str
        ``<svg …>…</svg>`` on one line, as wide as the tree needs (a page scrolls it
        sideways).

    Raises
    ------
    ValueError
        When ``cut`` does not have one value per node.
    """
    marks = marks or {}
    shape = layout(tree, binarised)
    if len(cut) != len(shape.labels):
        raise ValueError(f"the tree has {len(shape.labels)} nodes but {len(cut)} cut values "
                         "were given: give one per node, in preorder")
    roots = fragment_roots(shape.parent, cut)
    colours = fragment_colours(shape.parent, roots)
    nodes = "".join(_node(shape, i, cut[i], marks.get(i), colours.get(i), root_text)
                    for i in range(len(shape.labels)))
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{shape.width:.0f}' "
            f"height='{shape.height:.0f}' viewBox='0 0 {shape.width:.0f} {shape.height:.0f}' "
            f"role='img' aria-label='{html.escape(caption, quote=True)}' "
            f"style='max-width:none;display:block' font-family=\"{FONT}\" "
            f"text-anchor='middle'>{_shading(shape, roots, colours)}"
            f"{_edges(shape, roots, colours)}{nodes}</svg>")
