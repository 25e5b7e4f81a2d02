"""The lab's chart style. A sampler's colour and label come from the sampler registry
(engine.samplers), the same on every page."""
import streamlit as st
from plotly.colors import qualitative

from engine.report.plots import EXACT_COLOUR
from engine.samplers import colour, label
from ui import presenter

# hidden states are categories, not a scale: one distinct colour each (cycling past 48)
STATE_COLOURS = qualitative.Dark24 + qualitative.Light24

__all__ = ["EXACT_COLOUR", "ROW_FONT", "SITE_MARK", "colour", "colour_key", "label",
           "mark_style", "page_style", "row_number", "state_colour"]

# sites highlighted on the Type blocks page: (background, border) colours
SITE_MARK = {
    "pivot": ("#00798c", "#00505c"),
    "block": ("#9fd8df", "#00798c"),
    "conflict": ("#f6d8a8", "#e08e0b"),
}
ROW_FONT = "font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.05rem;"

# On a phone (390 px) the lessons' play controls and first chart must share the first screen:
# smaller titles and metric values, narrower margins, no keyboard hints (a phone has no keys)
PHONE_CSS = """<style>
/* a race's metric tiles (ui.race_page.metric_row): one fixed width, a label on up to two
   lines, so a tick's longer numbers never rewrap the row and move the charts below it */
.st-key-race_metrics > [data-testid="stElementContainer"] { flex: 0 0 8.9rem; width: 8.9rem; }
.st-key-race_metrics [data-testid="stMetricLabel"] { min-height: 2.6em; align-items: start; }
.st-key-race_metrics [data-testid="stMetricLabel"] p { white-space: normal; }
/* a tile's value at a size its width holds: at Streamlit's 2.25rem the toy's "m = 1,000"
   was cut to "m = 1,0…" (143 px in a 142 px tile); 1.75rem holds ten characters */
.st-key-race_metrics [data-testid="stMetricValue"] { font-size: 1.75rem; }
/* a live chart (ui.charts.show_live) keeps its full opacity while a tick reruns: the tick
   redraws it in place, and on a busy server the run outlasted Streamlit's delay before it
   fades what it has not redrawn yet, so the charts flickered on a projector. The cause, a
   slow run, was cut (specs built once per settings, only data sent); this covers the rest */
[class*="st-key-live_"] [data-stale="true"] { opacity: 1 !important; transition: none !important; }
@media (max-width: 640px) {
  /* three tiles a row: five samplers' tiles in two rows, so the first chart still shows on
     the first screen */
  .st-key-race_metrics > [data-testid="stElementContainer"] {
    flex-basis: calc((100% - 2.1rem) / 3); width: calc((100% - 2.1rem) / 3); }
  /* a race's trace is downloaded for slides and analysis, not on a phone: its row would push
     the first chart off the first screen */
  [class*="st-key-"][class*="_traces_csv"] { display: none; }
  [data-testid="stMain"] h1 { font-size: 1.7rem !important; padding-top: 0.5rem !important; }
  /* the tiles' own 1.75rem (above) included: two rows of it pushed the first chart down */
  [data-testid="stMetricValue"], .st-key-race_metrics [data-testid="stMetricValue"] {
    font-size: 1.2rem; }
  [data-testid="stMetricLabel"] p { font-size: 0.75rem; }
  [data-testid="stMain"] [data-testid="stCaptionContainer"] p { font-size: 0.78rem; }
  [data-testid="stMainBlockContainer"] { padding: 3.5rem 1rem 2rem; }
  [class*="st-key-"][class*="_keys_hint"] { display: none; }
  /* a button's keyboard-shortcut badge ("Space", "→"): a phone has no keys */
  [data-testid="stButton"] kbd[aria-label^="Shortcut"] { display: none; }
}
</style>"""


# a chart's download icon (ui.export) at its top right, over the title's line, not a row of
# its own above it
DOWNLOADS_CSS = """<style>
div:has(> [class*="st-key-downloads_"]) { position: absolute; top: 0; right: 0; z-index: 2;
  width: auto; }
[data-testid="stVerticalBlock"]:has(> div > [class*="st-key-downloads_"]) {
  position: relative; }
</style>"""


def page_style():
    """The lab's page style (app.py applies it to every page)."""
    st.html(PHONE_CSS + DOWNLOADS_CSS)


def state_colour(k):
    """The colour of hidden state k (1 … K), the same in every chart."""
    return STATE_COLOURS[(k - 1) % len(STATE_COLOURS)]


def colour_key(names):
    """HTML for an inline legend: a coloured square and the paper's name of each sampler, in
    the colours this session's charts use (presenter mode's own)."""
    return ", ".join(f"<span style='color:{presenter.colour(n)}'>■</span> {label(n)}"
                     for n in names)


def mark_style(mark):
    """CSS of a highlighted site: ``mark`` is (kind, "changed"?), kind one of SITE_MARK's; a
    site the move changed gets a thick border, the pivot white text on its dark mark."""
    background, border = SITE_MARK[mark[0]]
    width = "3px" if "changed" in mark else "1px"
    return (f"background:{background};border:{width} solid {border};"
            + ("color:#fff;" if mark[0] == "pivot" else ""))


def row_number(number):
    """A unit's number at the start of its row (nothing when None)."""
    if number is None:
        return ""
    return f"<span style='color:#999;display:inline-block;width:2.6em'>{number}</span>"
