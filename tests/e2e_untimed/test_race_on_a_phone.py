"""The Sampler race on a phone (390 × 844) against a wide screen (1440 × 900): the buttons'
keyboard-shortcut badges only where there are keys, and diagnostics tables that fit the
screen's width."""
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_classroom import expect_every_chain_at

expect.set_options(timeout=60_000)

TABLE = '[data-testid="stTable"] table'
BADGE = '.st-key-race_play kbd'


@pytest.mark.parametrize("width, height, badge", [(390, 844, False), (1440, 900, True)])
def test_badges_and_tables_fit_the_screen(browser, app_url, width, height, badge):
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        # three samplers, long labels among them: the widest table the default corpus gives
        page.goto(f"{app_url}/sampler_race?samplers=token,type,greedy&chains=4")
        expect(page.locator(BADGE)).to_be_attached()  # drawn, then shown or hidden
        if badge:
            expect(page.locator(BADGE)).to_be_visible()
        else:
            expect(page.locator(BADGE)).to_be_hidden()
        # R̂ needs 7 passes. One click at a time, each waited for: a click during the rerun
        # the one before caused can be lost, and then R̂ never comes (CI: a table of dashes
        # after three minutes, when the test clicked as soon as Step was enabled)
        for done in range(1, 9):
            page.get_by_role("button", name="Step").click()
            expect_every_chain_at(page, done)
        tables = page.locator(TABLE)
        expect(tables).to_have_count(2)
        expect(tables.first).to_contain_text("4 × ")
        tables.first.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"race_tables_{width}.png"))
        for right in tables.evaluate_all("ts => ts.map(t => t.getBoundingClientRect().right)"):
            assert right <= width, f"a diagnostics table ends at x = {right:.0f} of {width}"
    finally:
        context.close()
