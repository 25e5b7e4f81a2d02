"""A sentence pair's phrase-decomposition forest drawn as inline SVG (Peng & Gildea's Figs. 1 and 2).

Pure functions, no Streamlit. ``PairView`` gathers what both drawings read: the pair's words and
links, its forest's nodes (phrase pairs, by their spans) and hyperedges, and the chain's current
tree in it (each node's chosen edge, which nodes are on the tree and which of them root a rule).

- ``alignment_grid``: source words down the side, target words across the top, a dark cell per
  link, every phrase pair a box over its rows and columns (Fig. 1); the boxes of the current
  tree's rules are coloured, one colour per rule, those of its other nodes drawn thin, the rest
  of the forest's faint.
- ``hypergraph``: the forest's nodes in rows by height (leaves at the bottom), each hyperedge a
  small dot joined to its head above and its tails below (Fig. 2); the current tree's edges
  thick, a rule's root filled with its rule's colour, a node's in-degree deg(v) beside it when it
  has a choice of edges.
"""
import html
from dataclasses import dataclass

from ui.theme import SITE_MARK
from ui.tree_svg import CUT_EDGE, FONT, FRAGMENT_COLOURS, text_width

CELL = 22          # px of one grid cell
WORD_FONT = 12.5   # px
NODE_FONT = 11.5
SMALLEST_FONT = NODE_FONT - 1  # a node's second line and its deg(v): 24 px at presenter zoom
LEVEL_GAP = 78     # px between two rows of the hypergraph
NODE_HEIGHT = 34  # two lines: the source words over the target's
MAX_NODE_TEXT = 18  # characters of a node's source words shown before an ellipsis
FAINT = "#d5d8dc"


@dataclass(frozen=True)
class PairView:
    """One pair's forest and the chain's tree in it, in the pair's own node numbers.

    source, target : tuple of str
    links : tuple of (int, int)
    spans : tuple of (f_lo, f_hi, e_lo, e_hi), each node's tight phrase pair (end excluded)
    edges : tuple of tuple of tuple of int, each node's hyperedges (their tails)
    edge : tuple of int, each node's chosen edge
    on_tree, cut : tuple of bool, whether each node is on the tree, roots a rule
    root : int
    """

    source: tuple
    target: tuple
    links: tuple
    spans: tuple
    edges: tuple
    edge: tuple
    on_tree: tuple
    cut: tuple
    root: int

    def rule_of(self):
        """Each on-tree node's rule: the node rooting it (-1 off the tree)."""
        rule = [-1] * len(self.spans)
        stack = [(self.root, self.root)]
        while stack:
            n, r = stack.pop()
            rule[n] = r
            for t in self.edges[n][self.edge[n]] if self.edges[n] else ():
                stack.append((t, t if self.cut[t] else r))
        return rule

    def colours(self):
        """{rule root: its colour}, the rules numbered from the root down."""
        roots = sorted({r for r in self.rule_of() if r >= 0},
                       key=lambda n: (self.spans[n][0], -self.spans[n][1]))
        return {r: FRAGMENT_COLOURS[i % len(FRAGMENT_COLOURS)] for i, r in enumerate(roots)}


def _text(x, y, text, size, anchor="middle", colour="#222", weight=400, rotate=None):
    turn = f" transform='rotate({rotate} {x:.1f} {y:.1f})'" if rotate is not None else ""
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-family=\"{FONT}\" font-size='{size}' "
            f"text-anchor='{anchor}' fill='{colour}' font-weight='{weight}'{turn}>"
            f"{html.escape(text)}</text>")


def _depth(view):
    """How many boxes hold each node (its nesting), so nested boxes can be inset."""
    spans = view.spans
    return [sum(1 for o in spans if o != s and o[0] <= s[0] and s[1] <= o[1]
                and o[2] <= s[2] and s[3] <= o[3]) for s in spans]


def alignment_grid(view, marked=None):
    """The pair as an alignment grid with its phrase pairs boxed (Fig. 1).

    marked : {node: SITE_MARK kind}, nodes to outline in a move's colours.
    """
    marked = marked or {}
    left = max(text_width(w, WORD_FONT) for w in view.source) + 14
    longest = max(text_width(w, WORD_FONT) for w in view.target)
    top = longest * 0.77 + 16  # the target words run up and to the right at 50°
    width = left + CELL * len(view.target) + longest * 0.64 + 8
    height = top + CELL * len(view.source) + 8
    parts = []
    for i, word in enumerate(view.source):
        parts.append(_text(left - 6, top + CELL * (i + 0.5) + 4, word, WORD_FONT, "end"))
    for j, word in enumerate(view.target):
        x = left + CELL * (j + 0.5)
        parts.append(_text(x + 4, top - 6, word, WORD_FONT, "start", rotate=-50))
    for i in range(len(view.source) + 1):
        parts.append(f"<line x1='{left}' x2='{left + CELL * len(view.target)}' "
                     f"y1='{top + CELL * i}' y2='{top + CELL * i}' stroke='#eee'/>")
    for j in range(len(view.target) + 1):
        parts.append(f"<line x1='{left + CELL * j}' x2='{left + CELL * j}' y1='{top}' "
                     f"y2='{top + CELL * len(view.source)}' stroke='#eee'/>")
    for i, j in view.links:
        parts.append(f"<rect x='{left + CELL * j + 5}' y='{top + CELL * i + 5}' "
                     f"width='{CELL - 10}' height='{CELL - 10}' fill='#333' rx='2'/>")
    colours, rule, depth = view.colours(), view.rule_of(), _depth(view)
    order = sorted(range(len(view.spans)), key=lambda n: (view.on_tree[n], view.cut[n]))
    for n in order:
        f_lo, f_hi, e_lo, e_hi = view.spans[n]
        inset = min(2 * depth[n], CELL // 2 - 2)
        x, y = left + CELL * e_lo + inset - 2, top + CELL * f_lo + inset - 2
        w, h = CELL * (e_hi - e_lo) - 2 * inset + 4, CELL * (f_hi - f_lo) - 2 * inset + 4
        if view.on_tree[n]:
            colour = colours[rule[n]]
            stroke = (f"stroke='{colour}' stroke-width='{2.6 if view.cut[n] else 1.2}'"
                      + ("" if view.cut[n] else " stroke-dasharray='4 3'"))
            fill = f"fill='{colour}' fill-opacity='{0.12 if view.cut[n] else 0}'"
        else:
            stroke, fill = f"stroke='{FAINT}' stroke-width='1'", "fill='none'"
        if n in marked:
            stroke = f"stroke='{SITE_MARK[marked[n]][1]}' stroke-width='3.2'"
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' "
                     f"rx='4' {fill} {stroke}><title>{html.escape(node_text(view, n))}"
                     f"</title></rect>")
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
            f"role='img' aria-label='alignment grid'>{''.join(parts)}</svg>")


def node_text(view, n):
    """A node's phrase pair as text, ``source ‖ target``."""
    f_lo, f_hi, e_lo, e_hi = view.spans[n]
    return f"{' '.join(view.source[f_lo:f_hi])} ‖ {' '.join(view.target[e_lo:e_hi])}"


def _heights(view):
    """Each node's height: 0 at a leaf, else one more than its highest tail under any edge."""
    height = [0] * len(view.spans)
    for n in sorted(range(len(view.spans)), key=lambda n: view.spans[n][1] - view.spans[n][0]):
        height[n] = max((1 + height[t] for e in view.edges[n] for t in e), default=0)
    return height


def side_text(view, n, side):
    """A node's words on one side (0 source, 1 target), shortened for its box."""
    lo, hi = view.spans[n][2 * side], view.spans[n][2 * side + 1]
    text = " ".join((view.source, view.target)[side][lo:hi])
    return text if len(text) <= MAX_NODE_TEXT else text[:MAX_NODE_TEXT - 1] + "…"


def _places(view):
    """(x, y, box width) of every node: rows by height (leaves at the bottom), each node
    over the middle of its source words, pushed right where it would overlap its row's
    neighbour on the left."""
    height = _heights(view)
    top = max(height)
    widths = [max(text_width(side_text(view, n, side), NODE_FONT) for side in (0, 1)) + 12
              for n in range(len(height))]
    leaves = sorted(widths[n] for n in range(len(height)) if height[n] == 0)
    unit = min(110.0, leaves[len(leaves) // 2] + 10)  # a source word's share of the width
    place, right = {}, 0.0
    for level in range(top + 1):
        row = sorted((n for n in range(len(height)) if height[n] == level),
                     key=lambda n: (view.spans[n][0] + view.spans[n][1], view.spans[n][0]))
        edge = 0.0
        for n in row:
            x = max(10 + unit * (view.spans[n][0] + view.spans[n][1]) / 2, edge + widths[n] / 2)
            place[n] = (x, 34 + LEVEL_GAP * (top - level), widths[n])
            edge = x + widths[n] / 2 + 10
        right = max(right, edge)
    return place, right, 34 + LEVEL_GAP * top + NODE_HEIGHT


def hypergraph(view, marked=None):
    """The forest as a hypergraph with the current tree and its cuts (Fig. 2).

    marked : {node: SITE_MARK kind}, nodes to outline in a move's colours.
    """
    marked = marked or {}
    place, width, height = _places(view)
    colours, rule = view.colours(), view.rule_of()
    lines, boxes = [], []
    for n, edges in enumerate(view.edges):
        hx, hy, _ = place[n]
        for k, tails in enumerate(edges):
            if not tails:
                continue
            chosen = view.on_tree[n] and view.edge[n] == k
            colour = "#333" if chosen else FAINT
            dx = hx + (k - (len(edges) - 1) / 2) * 12
            dy = hy + NODE_HEIGHT / 2 + 16
            stroke = f"stroke='{colour}' stroke-width='{2.2 if chosen else 1}'"
            lines.append(f"<line x1='{hx:.1f}' y1='{hy + NODE_HEIGHT / 2:.1f}' x2='{dx:.1f}' "
                         f"y2='{dy:.1f}' {stroke}/>")
            for t in tails:
                tx, ty, _ = place[t]
                cut = chosen and view.cut[t]
                lines.append(f"<line x1='{dx:.1f}' y1='{dy:.1f}' x2='{tx:.1f}' "
                             f"y2='{ty - NODE_HEIGHT / 2:.1f}' {stroke}"
                             + (f" stroke-dasharray='5 3' stroke='{CUT_EDGE}'" if cut else "")
                             + "/>")
            lines.append(f"<circle cx='{dx:.1f}' cy='{dy:.1f}' r='3' fill='{colour}'/>")
    for n, (x, y, w) in place.items():
        on = view.on_tree[n]
        colour = colours[rule[n]] if on else FAINT
        fill = colour if on and view.cut[n] else "#fff"
        stroke = SITE_MARK[marked[n]][1] if n in marked else colour
        boxes.append(f"<rect x='{x - w / 2:.1f}' y='{y - NODE_HEIGHT / 2:.1f}' width='{w:.1f}' "
                     f"height='{NODE_HEIGHT}' rx='5' fill='{fill}' fill-opacity='"
                     f"{0.3 if on and view.cut[n] else 1}' stroke='{stroke}' stroke-width='"
                     f"{3 if n in marked else 1.6 if on else 1}'><title>"
                     f"{html.escape(node_text(view, n))}</title></rect>")
        boxes.append(_text(x, y - 3, side_text(view, n, 0), NODE_FONT,
                           colour="#222" if on else "#9aa0a6"))
        boxes.append(_text(x, y + 11, side_text(view, n, 1), SMALLEST_FONT,
                           colour="#555" if on else "#b0b5ba"))
        if len(view.edges[n]) > 1:
            boxes.append(_text(x + w / 2 + 3, y - NODE_HEIGHT / 2 - 2,
                               f"deg {len(view.edges[n])}", SMALLEST_FONT, "start", "#6b6b6b"))
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width + 30:.0f}' "
            f"height='{height + 10:.0f}' role='img' aria-label='forest'>"
            f"{''.join(lines)}{''.join(boxes)}</svg>")
