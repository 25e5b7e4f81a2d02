"""The HMM estimators lesson in a real Chromium: six estimators from one start, keys step, play,
pause and reset them, their eight (α, α′) are one click, the equations are typeset, and a link
reopens the same view in another browser."""
import re

from playwright.sync_api import expect

from tests.e2e.test_classroom import (LABELS, SIDEBAR, expect_every_chain_at, focus_page_body,
                                      pass_numbers, wait_idle)

NAMES = ["EM", "VB", "explicit TOKEN", "explicit SENTENCE", "TOKEN", "SENTENCE"]


def names(page, count):
    expect(page.locator(LABELS)).to_have_count(count)
    return [text.split(" ·")[0] for text in page.locator(LABELS).all_inner_texts()]


def test_six_estimators_step_play_and_reset_by_keys(page, app_url, screenshot):
    page.goto(f"{app_url}/hmm_estimators")
    expect(page.locator(LABELS).first).to_contain_text("iteration 0")
    assert names(page, 6) == NAMES
    expect(page.locator('[data-testid="stMain"] .vega-embed svg')).to_have_count(6)
    focus_page_body(page)
    page.keyboard.press("ArrowRight")
    expect_every_chain_at(page, 1)
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.wait_for_timeout(2500)
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    wait_idle(page)
    assert min(pass_numbers(page)) > 1
    # the standings table: a row per estimator, EM's and VB's own objectives named
    table = page.locator('[data-testid="stDataFrame"]').first
    expect(table).to_be_visible()
    page.get_by_text("The six estimators' equations").click()
    expect(page.locator(".katex").first).to_be_visible()
    assert page.locator(".katex").count() >= 6
    screenshot("hmm_estimators")
    page.keyboard.press("Escape")
    focus_page_body(page)
    page.keyboard.press("0")
    expect(page.locator(LABELS).first).to_contain_text("iteration 0")


def test_their_combination_and_a_link_reopen_the_view(browser, page, app_url):
    page.goto(f"{app_url}/hmm_estimators?samplers=em,vb,token")
    expect(page.locator(LABELS).first).to_contain_text("iteration 0")
    assert names(page, 3) == ["EM", "VB", "TOKEN"]
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_role("combobox", name="Their eight combinations").click()
    page.get_by_role("option", name="0.0001, 0.1").click()
    page.wait_for_url(re.compile(r"[?&]alpha=0\.0001\b"))
    wait_idle(page)
    expect(sidebar.get_by_role("spinbutton", name="α′, the emission prior")).to_have_value("0.1")
    expect(page.get_by_text(re.compile(r"\(α, α′\) = \(0\.0001, 0\.1\)"))).to_be_visible()
    link = page.url
    other = browser.new_context(viewport={"width": 1400, "height": 3200})
    try:
        fresh = other.new_page()
        fresh.set_default_timeout(60_000)
        fresh.goto(link)
        expect(fresh.locator(LABELS).first).to_contain_text("iteration 0")
        assert names(fresh, 3) == ["EM", "VB", "TOKEN"]
        expect(fresh.get_by_text(re.compile(r"\(α, α′\) = \(0\.0001, 0\.1\)"))).to_be_visible()
        expect(fresh.get_by_text("Ignored in the address")).to_have_count(0)
    finally:
        other.close()
    page.goto(f"{app_url}/hmm_estimators?alpha=-3")
    expect(page.get_by_text("Ignored in the address")).to_be_visible()
    expect(page.locator(LABELS).first).to_contain_text("iteration 0")
