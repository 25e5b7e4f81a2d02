"""Corpora drawn for the lessons: utterances with their word boundaries coloured against the gold
segmentation, and tagged sentences with each token's state."""
import html

BOUNDARY_STYLE = {
    "correct": ("│", "#2e7d32", "a boundary gold has too"),
    "spurious": ("│", "#d1495b", "a boundary gold does not have"),
    "missed": ("┆", "#e08e0b", "a gold boundary not found"),
    "found": ("│", "#3d3d3d", "a boundary"),
}
# sites highlighted on the Type blocks page: (background, border) colours
SITE_MARK = {
    "pivot": ("#00798c", "#00505c"),
    "block": ("#9fd8df", "#00798c"),
    "conflict": ("#f6d8a8", "#e08e0b"),
}
FONT = "font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.05rem;"


def legend(kinds=("correct", "spurious", "missed")):
    parts = [f"<span style='color:{BOUNDARY_STYLE[k][1]};font-weight:700'>"
             f"{BOUNDARY_STYLE[k][0]}</span> {BOUNDARY_STYLE[k][2]}" for k in kinds]
    return "<div style='font-size:0.9rem;color:#555'>" + " &nbsp;·&nbsp; ".join(parts) + "</div>"


def utterance_html(text, labels, marks=None, number=None):
    """One utterance: its symbols, and after symbol i the boundary labels[i] ('' = none).

    marks: {symbol index: "pivot" | "block" | "conflict"} — the site after that symbol is
    highlighted (Type blocks page); a changed site is marked "changed" with a bold outline.
    """
    marks = marks or {}
    out = []
    for i, symbol in enumerate(text):
        out.append(html.escape(symbol))
        if i == len(text) - 1:
            break
        kind = labels[i]
        glyph, colour, _ = BOUNDARY_STYLE.get(kind, ("", "", ""))
        mark = marks.get(i)
        style = f"color:{colour};font-weight:700;" if kind else ""
        content = glyph if kind else "&thinsp;"
        if mark:
            background, border = SITE_MARK[mark[0]]
            width = "3px" if "changed" in mark else "1px"
            style += (f"background:{background};border:{width} solid {border};"
                      "border-radius:3px;padding:0 1px;")
            if mark[0] == "pivot":
                style += "color:#fff;"  # the boundary glyph stays readable on the dark mark
            content = glyph if kind else "·"
        out.append(f"<span style='{style}'>{content}</span>")
    prefix = (f"<span style='color:#999;display:inline-block;width:2.6em'>{number}</span>"
              if number is not None else "")
    return f"<div style='{FONT} line-height:1.9'>{prefix}{''.join(out)}</div>"


STATE_COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                 "#ff9da7", "#9c755f", "#bab0ac"]


def tagged_sentence_html(words, states, marks=None, number=None):
    """One sentence: each word with its state as a coloured subscript; marks as in
    ``utterance_html`` but keyed by token index (the Type blocks page's HMM view)."""
    marks = marks or {}
    out = []
    for i, (word, k) in enumerate(zip(words, states)):
        colour = STATE_COLOURS[(k - 1) % len(STATE_COLOURS)]
        style = "padding:1px 3px;border-radius:3px;"
        mark = marks.get(i)
        if mark:
            background, border = SITE_MARK[mark[0]]
            width = "3px" if "changed" in mark else "1px"
            style += f"background:{background};border:{width} solid {border};"
            if mark[0] == "pivot":
                style += "color:#fff;"
        out.append(f"<span style='{style}'>{html.escape(word)}<sub style='color:{colour};"
                   f"font-weight:700'>{k}</sub></span>")
    prefix = (f"<span style='color:#999;display:inline-block;width:2.6em'>{number}</span>"
              if number is not None else "")
    return f"<div style='{FONT} line-height:2.1'>{prefix}{' '.join(out)}</div>"
