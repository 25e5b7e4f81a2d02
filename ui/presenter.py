"""Presenter mode: a page as a lecture's projector shows it. Larger text, thicker lines and
larger points in every chart, the sidebar folded away, and the samplers in Okabe & Ito's
palette with a line dash and a point shape each (engine.samplers.Look), so that no two samplers
differ by hue alone.

A switch in the page's header (app.py draws it on every page) turns it on and off; it is kept
in the address (``presenter=1``) with the page's settings (ui.settings.APP_SETTINGS), so a
shared link opens in presenter mode and a page switch keeps it.
"""
import copy

import streamlit as st

from engine.samplers import SAMPLERS, look
from engine.samplers import colour as usual_colour
from ui.settings import APP_SETTINGS, Setting, refuse

SETTING = Setting("presenter", False, bool, "presenter mode")
APP_SETTINGS[SETTING.name] = SETTING
KEY = SETTING.name  # the mode in st.session_state, for the whole session
# the switch's own key: Streamlit drops a widget's value in a run that does not draw it (a run
# of a page alone, as AppTest makes), so the mode is kept under KEY and the switch set from it
TOGGLE = "presenter_toggle"

# chart sizes on a projector (the lab's own are 12–15 px, engine.report.plots.style): at
# 1920 × 1080 the back row of a lecture hall, 10 m away, reads 24 px and more
LEGIBLE = 24  # px
AXIS_LABEL, AXIS_TITLE, LEGEND, TITLE = LEGIBLE, 26, LEGIBLE, 30
LINE_FACTOR, LINE_MAX = 1.6, 5.0     # stroke widths: the thin chain lines grow most, in effect
POINT_FACTOR, POINT_SIZE = 2.5, 90   # point areas (Vega-Lite's default is 30)
TEXT_FACTOR, TEXT_SIZE = 2.4, LEGIBLE  # a chart's own text marks and labels (10 px and up)
# the drawings (ui.tree_svg, ui.forest_svg) are in px, their smallest text 10.5 px
DRAWING_ZOOM = 2.3
WIDE_LEGEND_COLUMNS = 6  # a legend at the right goes under the plot in this many columns
LEGEND_COLUMNS = 2
STROKED = ("line", "rule", "trail")  # marks a dash can tell apart
COMPOSITIONS = ("layer", "hconcat", "vconcat", "concat")

# the switch sits in the middle of the header bar, clear of the sidebar's button at its left
# and the running indicator and menu at its right, and stays there while the sidebar is folded
# away (on a phone the open sidebar spans the header's middle: the switch waits until it
# folds); in presenter mode all text grows with the root font size (Streamlit sizes it in rem)
SWITCH_CSS = """<style>
.st-key-presenter_switch { position: fixed; top: 0; left: 50%; transform: translateX(-50%);
  height: 3.75rem; width: auto; justify-content: center; z-index: 999991; }
/* on a phone the open sidebar covers the header's middle, its fold button under the switch */
@media (max-width: 640px) {
  body:has([data-testid="stSidebar"][data-collapsed="false"]) .st-key-presenter_switch {
    display: none; }
}
</style>"""
# a page embedded in Side by side shows the lesson only: its settings come from its link there
EMBEDDED_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapseButton"],
[data-testid="stExpandSidebarButton"] { display: none; }
</style>"""
PRESENTER_CSS = f"""<style>
html {{ font-size: {LEGIBLE}px; }}
/* text Streamlit (or a view's inline style) sets below 1rem, captions, widget and metric
   labels, a view's rows, grows to 1rem: nothing on the page under 24 px */
@media (min-width: 641px) {{
  [data-testid="stMain"] :is(p, span, div, li, td, th, code, kbd, label, small, figcaption,
      a):not(h1 *, h2 *, h3 *, h4 *, h5 *, h6 *, svg *, .katex, .katex *, [data-testid="stMetricValue"],
      [data-testid="stMetricValue"] *) {{ font-size: max(1rem, 1em) !important; }}
  /* formulas keep their own proportions, larger: a subscript (0.7 em) reaches 24 px too */
  [data-testid="stMain"] .katex {{ font-size: 1.45em !important; }}
  [data-testid="stMain"] svg[role="img"] {{ zoom: {DRAWING_ZOOM}; }}
}}
@media (max-width: 640px) {{ html {{ font-size: 17px; }} }}
</style>"""


def on():
    """Whether this session is in presenter mode (read in a page's run or a tick's)."""
    return bool(st.session_state.get(KEY, False))


def switch():
    """The presenter-mode switch, and the mode applied to the page (app.py, every run): on a
    session's first run the address says (a bad value is said and ignored), then the switch."""
    if KEY not in st.session_state:
        st.session_state[KEY] = _from_address()
    st.session_state[TOGGLE] = st.session_state[KEY]
    if st.context.is_embedded:  # a half of Side by side: that page's switch sets the mode
        st.html(EMBEDDED_CSS)
    else:
        st.html(SWITCH_CSS)
        with st.container(key="presenter_switch"):
            st.toggle("Presenter", key=TOGGLE, on_change=_turn,
                      help="for a projector: larger text, thicker lines, no sidebar, and "
                           "colours with dashes that colour-blind viewers tell apart; kept in "
                           "the link")
    st.set_page_config(initial_sidebar_state="collapsed" if on() else "auto")
    if on():
        st.html(PRESENTER_CSS)
        st.query_params[KEY] = SETTING.text(True)
    else:
        st.query_params.pop(KEY, None)


def _turn():
    st.session_state[KEY] = st.session_state[TOGGLE]


def _from_address():
    text = st.query_params.get(KEY)
    if text is None:
        return SETTING.default
    try:
        return SETTING.parse(text)
    except ValueError as err:
        refuse(KEY, text, err)
        return SETTING.default


def colour(name):
    """A sampler's colour as this session's charts draw it."""
    return look(name).colour if on() else usual_colour(name)


def restyle(spec):
    """A copy of a Vega-Lite spec restyled for a projector: larger fonts, thicker lines,
    larger points, and every sampler in its Look (colour, dash, shape). The spec is the same
    for the same spec, so a chart restyled on every tick still only swaps its data."""
    spec = copy.deepcopy(spec)
    _restyle_view(spec)
    config = spec.setdefault("config", {})
    config["axis"] = {**config.get("axis", {}), "labelFontSize": AXIS_LABEL,
                      "titleFontSize": AXIS_TITLE}
    legend = config.get("legend", {})
    config["legend"] = {**legend, "labelFontSize": LEGEND, "titleFontSize": LEGEND,
                        "symbolStrokeWidth": 4, "symbolSize": 400, "symbolType": "stroke"}
    if legend.get("columns", 0) > LEGEND_COLUMNS:  # larger labels: three overflow a phone
        config["legend"]["columns"] = LEGEND_COLUMNS
    if legend.get("orient") == "right":
        # 15 hidden states at 24 px overflowed the plot's height (the legend stopped at 12):
        # under the plot, in columns, every entry shows
        config["legend"].update(orient="bottom", columns=WIDE_LEGEND_COLUMNS,
                                symbolType="square")
    config["title"] = {**config.get("title", {}), "fontSize": TITLE}
    title = spec.get("title")
    if isinstance(title, dict):
        title["fontSize"] = TITLE
    return spec


def _restyle_view(view):
    """Restyle a view and the views inside it (layers, concatenations, a facet's), in place."""
    if "mark" in view:
        view["mark"] = _restyle_mark(view["mark"])
        _restyle_encoding(view.get("encoding", {}), view["mark"])
    for key in COMPOSITIONS:
        for inner in view.get(key, []):
            _restyle_view(inner)
    if "layer" in view:  # the shapes' legend apart (and hidden), else it hides the merged one
        view["resolve"] = {**view.get("resolve", {}), "legend": {
            **view.get("resolve", {}).get("legend", {}), "shape": "independent"}}
    if isinstance(view.get("spec"), dict):
        _restyle_view(view["spec"])


def _restyle_mark(mark):
    mark = {"type": mark} if isinstance(mark, str) else mark
    kind = mark["type"]
    if kind in STROKED:
        mark["strokeWidth"] = min(LINE_MAX, mark.get("strokeWidth", 2) * LINE_FACTOR)
    elif kind in ("point", "circle", "square"):
        mark["size"] = mark.get("size", POINT_SIZE / POINT_FACTOR) * POINT_FACTOR
    elif kind == "text":
        mark["fontSize"] = mark.get("fontSize", TEXT_SIZE / TEXT_FACTOR) * TEXT_FACTOR
    elif kind == "tick":
        mark["thickness"] = mark.get("thickness", 1) * LINE_FACTOR
    if mark.get("point") is True or isinstance(mark.get("point"), dict):
        point = mark["point"] if isinstance(mark["point"], dict) else {}
        mark["point"] = {**point, "size": point.get("size", POINT_SIZE / POINT_FACTOR)
                         * POINT_FACTOR}
    return mark


def _restyle_encoding(encoding, mark):
    """Axis fonts an encoding sets itself, grown; a colour by sampler redrawn in the samplers'
    Looks, with a dash (lines) and a shape (points) by sampler beside it."""
    for channel in encoding.values():
        if isinstance(channel, dict) and isinstance(channel.get("axis"), dict):
            axis = channel["axis"]
            for size in ("labelFontSize", "titleFontSize"):
                if size in axis:
                    axis[size] = axis[size] * TEXT_FACTOR
    names = _sampler_names(encoding.get("color"))
    if names is None:
        return
    colour_enc = encoding["color"]
    colour_enc["scale"] = {**colour_enc["scale"], "range": [look(n).colour for n in names]}
    same = {k: v for k, v in colour_enc.items() if k in ("field", "type", "sort", "title",
                                                          "legend")}
    domain = colour_enc["scale"]["domain"]
    if mark["type"] in STROKED and "strokeDash" not in encoding:
        encoding["strokeDash"] = {**same, "scale": {
            "domain": domain, "range": [list(look(n).dash) for n in names]}}
    if (mark["type"] == "point" or "point" in mark) and "shape" not in encoding:
        # no legend of its own: the colour's shows each sampler's dash as a stroke
        encoding["shape"] = {**same, "legend": None, "scale": {
            "domain": domain, "range": [look(n).shape for n in names]}}


def _sampler_names(colour_enc):
    """The samplers a colour encoding's scale lists by label (engine.samplers), else None."""
    if not isinstance(colour_enc, dict) or "field" not in colour_enc:
        return None
    domain = colour_enc.get("scale", {}).get("domain")
    by_label = {entry.label: name for name, entry in SAMPLERS.items()}
    if not isinstance(domain, list) or not domain or any(d not in by_label for d in domain):
        return None
    return [by_label[d] for d in domain]
