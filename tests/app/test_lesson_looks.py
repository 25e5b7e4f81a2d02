"""How the lessons' charts and text look (issue 25): the charts drawn as the browser draws them
(the page's Vega-Lite spec and data rendered to SVG by vl-convert), tiles that say what they
measure, titles that fit a phone, no raw notation."""
import json
import re

import pyarrow as pa
import pytest

from engine.report.plots import EXACT_COLOUR, TITLE_CHARS, render
from tests.charts import title_text

RACE_PAGES = {"pages/toy_posterior.py": "toy", "pages/word_segmentation.py": "seg",
              "pages/tag_trajectories.py": "hmm", "pages/hmm_estimators.py": "gj",
              "pages/tree_fragments.py": "tf", "pages/forests.py": "fo"}
LESSONS = (*RACE_PAGES, "pages/restaurants.py", "pages/type_blocks.py")
# the Sampler race with the toy, whose measure's label is Markdown ("m, … as `a b`")
CHART_PAGES = {**{page: {} for page in LESSONS},
               "pages/sampler_race.py": {"model": "toy", "passes": 20, "chains": 2}}


def charts(at):
    """{title: (spec, datasets)} of every Vega-Lite chart on the page (title lines joined)."""
    found = {}
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        data = {d.name: pa.ipc.open_stream(d.data.data).read_pandas()
                for d in chart.proto.datasets}
        found[title_text(spec)] = (spec, data)
    return found


def svg(spec, datasets):
    return render(spec, datasets, kind="svg", width=400)


def texts(picture):
    return [re.sub(r"&#x27;|&apos;", "'", t) for t in re.findall(r"<text[^>]*>([^<]*)</text>",
                                                                   picture)]


def sampler_points(picture):
    """The samplers' drawn points (a legend's symbols and the invisible reach point name no
    sampler)."""
    return len(re.findall(r'<path aria-label="[^"]*sampler: [^"]*" role="graphics-symbol" '
                          r'aria-roledescription="point"', picture))


@pytest.mark.parametrize("page", RACE_PAGES)
def test_every_race_chart_shows_pass_zero_before_play(open_page, page):
    at = open_page(page)
    race = at.session_state[f"{RACE_PAGES[page]}_race"]
    lines = [(title, spec, data) for title, (spec, data) in charts(at).items() if "traces" in data]
    assert lines
    for title, spec, data in lines:
        rows = data["traces"]
        assert len(rows) == len(race.runs), title  # pass 0: a row per sampler
        # a line of one point draws nothing: each sampler's newest point is a dot
        assert sampler_points(svg(spec, data)) == rows.iloc[:, 1].notna().sum() > 0, title


def test_estimator_tiles_say_what_they_measure_as_the_table_does(open_page):
    at = open_page("pages/hmm_estimators.py")
    table = at.dataframe[0].value
    shown = table["greedy 1-to-1 accuracy (%)"]
    assert [m.delta for m in at.metric] == ["1-to-1 accuracy"] * 6
    assert [m.value for m in at.metric] == [f"{v:.1f}%" for v in shown]
    assert table["many-to-one accuracy (%)"].between(0, 100).all()  # the same units


def test_figure_two_labels_decades_and_explains_every_line_and_point(open_page):
    at = open_page("pages/restaurants.py")
    assert not at.get("plotly_chart")
    spec, data = charts(at)["Tables against frequency (log–log)"]
    words = texts(svg(spec, data))
    for legend in ("exact (digamma)", "Antoniak", "GGJ06", "fixed base", "bigram model",
                   "100", "100,000"):
        assert legend in words
    assert {"1", "10", "100"} <= set(words)
    assert not {"2", "5", "20", "50"} & set(words)  # no leading digits between the decades


def test_toy_figures_are_altair_with_exact_curves_dark_grey(open_page):
    at = open_page("pages/toy_posterior.py")
    assert not at.get("plotly_chart")
    found = charts(at)
    exact = found["Exact posterior, n = 1,000 (Fig. 2a)"][0]
    assert exact["layer" if "layer" in exact else "mark"] and EXACT_COLOUR in json.dumps(exact)
    draws = found["Every TYPE move draws m exactly from p(m | x)"]
    assert EXACT_COLOUR in json.dumps(draws[0])
    assert "Passes TOKEN needs until m < n/2, started at m = n" in found


def test_type_blocks_draws_both_distributions_as_altair(open_page):
    at = open_page("pages/type_blocks.py")
    at.button(key="tb_step").click().run()
    assert not at.get("plotly_chart")
    found = charts(at)
    m_title = next(t for t in found if t.startswith("TYPE: p(m | rest), eq. 7"))
    assert "TOKEN at the same pivot, same state (eq. 4)" in found
    for spec, data in (found[m_title], found["TOKEN at the same pivot, same state (eq. 4)"]):
        assert EXACT_COLOUR in json.dumps(spec)  # the exact bars dark grey, the drawn coloured
        assert sum(next(iter(data.values()))["drawn"]) == 1


def test_heatmap_labels_are_words_and_the_confusion_rows_numbers(open_page):
    at = open_page("pages/tag_trajectories.py")
    found = charts(at)
    spec, data = found["TYPE: each token's state, pass by pass"]
    words = texts(svg(spec, data))
    tokens = data["tokens"]["token"]
    assert [w for w in words if w in {c.split(":", 1)[1] for c in tokens}]
    assert not [w for w in words if re.match(r"\d+:", w)]  # "24:the" was cut to "24:.."
    title = next(t for t in found if t.endswith("states against gold tags"))
    labels = texts(svg(*found[title]))
    assert {str(k) for k in range(1, 16)} <= set(labels)  # the states, as bare numbers
    assert not [w for w in labels if w.startswith("state ")]


def titles(node):
    """Every title's text in a spec: the chart's, its axes', legends' and tooltips'."""
    if isinstance(node, list):
        for item in node:
            yield from titles(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in ("title", "text", "subtitle") and isinstance(value, (str, list)):
                yield from [value] if isinstance(value, str) else value
            elif key not in ("data", "datasets"):
                yield from titles(value)


def value_axes(view):
    """(channel, encoding) of every quantitative x and y axis drawn in a view and its parts."""
    for channel, enc in view.get("encoding", {}).items():
        if channel in ("x", "y") and enc.get("type") == "quantitative" and (
                enc.get("axis", {}) is not None):
            yield channel, enc
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for inner in view.get(key, []):
            yield from value_axes(inner)


@pytest.mark.parametrize("page", CHART_PAGES)
def test_chart_titles_fit_a_phone_and_show_no_raw_notation(open_page, page):
    at = open_page(page, **CHART_PAGES[page])
    if page.endswith("type_blocks.py"):
        at.button(key="tb_step").click().run()
    if page.endswith("sampler_race.py"):  # the autocorrelation needs a few passes
        at.session_state.race_race.sweep(10)
        at.run()
    found = charts(at)
    assert found
    assert "" not in found  # every chart has a title: its picture and file are named by it
    for spec, _ in found.values():
        text = spec.get("title", {}).get("text", "")
        for line in text if isinstance(text, list) else [text]:
            assert len(line) <= TITLE_CHARS, line
            assert not re.search(r"[`^{}]", line), line
        for words in titles(spec):  # Markdown's marks drawn as they are
            assert not re.search(r"[`*]", words), words
        for channel, enc in value_axes(spec):  # a format, or Vega's six digits
            assert enc.get("axis", {}).get("format"), (title_text(spec), channel, enc)
    for box in at.selectbox:  # a choice is plain text too: no Markdown code there (the
        # treebank's own tags `` and '' are no code)
        assert not [o for o in box.options if re.search(r"`[^`\s][^`]*`", o)], box.options
    prose = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
    assert not re.search(r"\^\{|\^\(|\w\^\w", prose)  # n^{−s}, a^(k), δ^v
