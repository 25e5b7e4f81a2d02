"""Presenter mode as the back row of a lecture hall sees it (1920 × 1080, 10 m away): every
text of a lesson page, the page's own, its charts' (Vega draws them as SVG) and its drawings'
(trees, forests), is at least 24 px on screen, and the HMM's legend shows every state."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_classroom import LABELS
from ui.course import LESSONS
from ui.presenter import LEGIBLE

expect.set_options(timeout=240_000)  # a fresh server's first page loads its kernels

# (text, px on screen) of every visible text under 24 px in the page's main part; an SVG
# text's size is its font size times the drawing's scale on screen (CSS zoom included). A
# formula counts by its own size: KaTeX draws its scripts smaller (0.5–0.7 em) by design
SMALL_TEXT = """(least) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
      && getComputedStyle(el).visibility !== 'hidden' && el.closest('[opacity="0"]') === null; };
  const small = [];
  for (const el of main.querySelectorAll('*')) {
    if (el.closest('svg') || el.closest('[data-testid="stIconMaterial"]')) continue;
    if (el.closest('.katex') && !el.classList.contains('katex')) continue;
    const own = el.classList.contains('katex') || [...el.childNodes].some(
        n => n.nodeType === 3 && n.textContent.replace(/\u200b/g, '').trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && shown(el) && size < least) small.push([el.textContent.trim().slice(0, 40), size]);
  }
  for (const t of main.querySelectorAll('svg text')) {
    if (!t.textContent.trim() || !shown(t)) continue;
    const svg = t.ownerSVGElement;  // its scale on screen: its drawn width over its own
    const scale = svg.getBoundingClientRect().width / (svg.width.baseVal.value || 1);
    const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale;
    if (size < least - 0.5) small.push([t.textContent.trim().slice(0, 40), size]);
  }
  return small;
}"""
PAGES = [Path(lesson.page).stem for lesson in LESSONS]  # every lesson
FIRST_CLICK = {"type_blocks": "TYPE move"}  # its charts come with its first move


@pytest.mark.parametrize("path", PAGES)
def test_every_text_of_a_lesson_in_presenter_mode_is_legible_from_the_back_row(browser, app_url,
                                                                              path):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{path}?presenter=1")
        if path in FIRST_CLICK:
            page.get_by_role("button", name=FIRST_CLICK[path]).click()
        expect(page.locator('[data-testid="stMain"] .vega-embed svg').first).to_be_visible()
        page.wait_for_timeout(1500)  # the charts' first draw
        page.screenshot(path=str(ARTIFACTS / f"presenter-{path}.png"), full_page=True)
        small = page.evaluate(SMALL_TEXT, LEGIBLE)
        assert not small, path + "\n" + "\n".join(f"{size:.1f} px: {text}"
                                                    for text, size in small)
    finally:
        context.close()


def test_the_hmm_legend_shows_every_state_in_presenter_mode(browser, app_url):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/tag_trajectories?presenter=1")
        shares = page.locator('[data-testid="stMain"] .vega-embed svg').filter(
            has_text="share of its tokens").first
        expect(shares).to_be_visible()
        legend = shares.locator(".role-legend-label text")
        expect(legend.first).to_be_visible()
        shown = [t for t in legend.all_text_contents()]
        box = shares.bounding_box()
        for label in legend.all():  # every entry inside the chart's picture
            inner = label.bounding_box()
            assert inner and inner["y"] + inner["height"] <= box["y"] + box["height"] + 1
        assert shown == [str(k) for k in range(1, len(shown) + 1)] and len(shown) >= 2
    finally:
        context.close()


CUT_VALUES = """() => [...document.querySelectorAll('[data-testid="stMetricValue"]')].map(value => {
  const text = value.querySelector('div') || value;
  return [value.textContent, text.scrollWidth - text.clientWidth]; })"""


@pytest.mark.parametrize("width, height, address", [(1440, 900, ""), (1920, 1080, "?presenter=1")])
def test_the_toys_metric_values_fit_their_tiles(browser, app_url, width, height, address):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/toy_posterior{address}")
        expect(page.locator(LABELS).first).to_contain_text("· pass 0")
        values = page.evaluate(CUT_VALUES)
        assert values and all(text.startswith("m = ") for text, _ in values)
        assert [text for text, overflow in values if overflow > 0] == []  # none cut ("1,0…")
    finally:
        context.close()
