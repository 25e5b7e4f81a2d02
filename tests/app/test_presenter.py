"""Presenter mode and the downloads, as a lecturer uses them: a link with ``presenter=1`` opens
in presenter mode, which a page switch keeps (in the session and in the address, share links
included) and the switch turns off; every chart offers its PNG, SVG and CSV, a race its traces.
"""
import json
from collections import Counter

from engine.samplers import look

OKABE_ITO_TOKEN = look("token").colour


def chart_specs(at):
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def sampler_encodings(spec):
    """Every encoding in a spec that colours by sampler (a scale listing sampler labels)."""
    found = []
    views = [spec]
    while views:
        view = views.pop()
        views += view.get("layer", [])
        colour = view.get("encoding", {}).get("color", {})
        if "TOKEN" in colour.get("scale", {}).get("domain", []):
            found.append(view["encoding"])
    return found


def restyled(at):
    """Whether the page's sampler charts are in presenter mode's style (and there are some)."""
    encodings = [e for spec in chart_specs(at) for e in sampler_encodings(spec)]
    assert encodings, "the page draws a chart by sampler"
    return all(OKABE_ITO_TOKEN in e["color"]["scale"]["range"] and ("strokeDash" in e or
                                                                   "shape" in e)
               for e in encodings)


def test_presenter_mode_from_a_link_applies_and_survives_a_page_switch(open_page):
    at = open_page("pages/word_segmentation.py", presenter=1, seed=5)
    assert not at.warning  # presenter is no setting of the page, and no notice says it is
    assert at.session_state["presenter"] and at.session_state["seg_seed"] == 5
    assert at.query_params["presenter"] == "1" and at.query_params["seed"] == "5"
    assert restyled(at)
    assert "presenter=1" in at.get("code")[0].value  # the share link keeps it
    at.switch_page("pages/toy_posterior.py").run()
    assert at.session_state["presenter"]
    assert at.query_params["presenter"] == "1"
    assert restyled(at)


def test_the_switch_turns_presenter_mode_off(open_page):
    at = open_page("pages/home.py", presenter=1)
    at.toggle(key="presenter_toggle").set_value(False).run()
    at.switch_page("pages/word_segmentation.py").run()
    assert not at.session_state["presenter"] and "presenter" not in at.query_params
    assert not restyled(at)


def test_a_bad_presenter_value_is_said_and_ignored(open_page):
    at = open_page("pages/home.py", presenter="yes")
    assert "presenter mode must be 0 or 1" in at.warning[0].value
    assert not at.session_state["presenter"]


def test_every_chart_has_its_downloads_and_a_race_its_traces(open_page):
    at = open_page("pages/word_segmentation.py")
    keys = {b.proto.id.rsplit("-", 1)[-1] for b in at.get("download_button")}
    assert "seg_traces_csv" in keys
    charts = len(at.get("vega_lite_chart"))
    assert charts
    kinds = Counter(key.rsplit("_", 1)[1] for key in keys - {"seg_traces_csv"})
    assert kinds == {"png": charts, "svg": charts, "csv": charts}
