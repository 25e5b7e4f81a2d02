"""The Sampler race on a phone (390 × 844) against a wide screen (1440 × 900): the buttons'
keyboard-shortcut badges only where there are keys, and diagnostics tables that fit the
screen's width."""
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS

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
        for _ in range(8):  # R̂ needs 7 passes
            page.get_by_role("button", name="Step").click()
            expect(page.get_by_role("button", name="Step")).to_be_enabled()
        tables = page.locator(TABLE)
        # it times nothing: on a machine loaded by make test's other workers the eight
        # passes' R̂ table took over 60 s to come (measured), so it may take three minutes
        expect(tables).to_have_count(2, timeout=180_000)
        expect(tables.first).to_contain_text("4 × ", timeout=180_000)
        tables.first.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"race_tables_{width}.png"))
        for right in tables.evaluate_all("ts => ts.map(t => t.getBoundingClientRect().right)"):
            assert right <= width, f"a diagnostics table ends at x = {right:.0f} of {width}"
    finally:
        context.close()
