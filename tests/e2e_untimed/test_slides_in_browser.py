"""Figures for slides and presenter mode in a real Chromium: a chart's PNG and SVG download from
the page and open, the race's traces download as CSV, a heatmap drawn as a picture downloads
its picture and its cells, and a link with ``presenter=1`` opens with larger text, the sidebar
folded away and the switch at hand to turn it off."""
import csv
import io
import re
import xml.etree.ElementTree as ET

from PIL import Image
from playwright.sync_api import expect

from tests.e2e.test_classroom import LABELS
from ui import presenter
from ui.export import SLIDE_WIDTH
from ui.theme import state_colour

expect.set_options(timeout=60_000)

CHART = "seg_loglik_chart"  # Word segmentation's log-probability chart
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def download(page, button):
    """The bytes a click on ``button`` downloads."""
    with page.expect_download() as started:
        button.click()
    return open(started.value.path(), "rb").read()


def chart_download(page, key, name):
    page.locator(f".st-key-downloads_{key} button").first.click()
    return download(page, page.get_by_role("button", name=name))


def test_a_chart_downloads_as_png_and_svg_and_the_race_as_csv(page, app_url):
    page.goto(f"{app_url}/word_segmentation?samplers=token,type")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    page.get_by_role("button", name="Step").click()
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 1")
    png = chart_download(page, CHART, "Picture for slides (PNG)")
    assert png.startswith(PNG_SIGNATURE)
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width >= 2 * SLIDE_WIDTH and 400 < height < width, (width, height)
    page.keyboard.press("Escape")
    svg = ET.fromstring(chart_download(page, CHART, "Vector picture (SVG)"))
    assert svg.tag.endswith("svg")
    page.keyboard.press("Escape")
    rows = list(csv.DictReader(io.StringIO(
        download(page, page.get_by_role("button", name="Traces (CSV)")).decode())))
    assert [(r["sampler"], r["sweep"]) for r in rows] == [
        ("token", "0"), ("token", "1"), ("type", "0"), ("type", "1")]


def test_presenter_mode_from_a_link_has_large_text_no_sidebar_and_its_switch(page, app_url):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{app_url}/word_segmentation?presenter=1")
    switch = page.locator(".st-key-presenter_switch")
    expect(switch.locator("input")).to_be_checked()
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    root = page.locator("html")
    expect(root).to_have_css("font-size", f"{presenter.LEGIBLE}px")
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    assert switch.bounding_box()["y"] < 40  # in the header bar, above the page
    switch.get_by_text("Presenter").click()
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    expect(root).to_have_css("font-size", "16px")  # once the switch's run has ended
    assert "presenter" not in page.url


def test_on_a_phone_the_open_sidebar_can_be_folded_past_the_switch(browser, app_url):
    """The switch sits in the header's middle, where a phone's open sidebar has its fold
    button: it steps aside while the sidebar is open."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{app_url}/toy_posterior")
    switch = page.locator(".st-key-presenter_switch")
    expect(switch).to_be_visible()
    page.get_by_test_id("stExpandSidebarButton").click()
    expect(switch).to_be_hidden()
    page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
    expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
    expect(switch).to_be_visible()
    context.close()


def test_a_heatmap_drawn_as_a_picture_downloads_its_picture_and_its_cells(page, app_url):
    page.goto(f"{app_url}/tag_trajectories?samplers=token,type")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    for done in (1, 2):
        page.get_by_role("button", name="Step").click()
        expect(page.locator(LABELS).first).to_contain_text(f"TOKEN · pass {done}")
    cells = list(csv.DictReader(io.StringIO(
        chart_download(page, "hmm_heat_token", "Data (CSV)").decode())))
    page.keyboard.press("Escape")
    assert list(cells[0]) == ["token", "pass", "to", "state"]
    assert {(r["pass"], r["to"]) for r in cells} == {("0", "1"), ("1", "2"), ("2", "3")}
    assert len(cells) == 3 * 60  # three passes of the 60 tokens shown
    png = chart_download(page, "hmm_heat_token", "Picture for slides (PNG)")
    page.keyboard.press("Escape")
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    assert picture.width >= 2 * SLIDE_WIDTH
    drawn = {colour for _, colour in picture.getcolors(picture.width * picture.height)}
    for state in {int(r["state"]) for r in cells}:  # every state among the cells is drawn
        assert tuple(int(c, 16) for c in re.findall("..", state_colour(state)[1:])) in drawn
